"""The models a smoke run did not load, read from its JSON report (``tritonlint smoke
--format json``), as findings about those models."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tritonlint.diagnostics import Severity
from tritonlint.graph.model import GraphFinding
from tritonlint.usage import UsageError

#: Statuses of a model the server refused (the others that did not load: warnings).
_REFUSED = frozenset({"refused", "timeout", "crashed"})
#: Statuses that say nothing about the model: it was not tried (its static errors stand).
_NOT_TRIED = frozenset({"skipped"})


@dataclass
class SmokeRefusals:
    #: The repository the run loaded (None where the report does not say).
    repository: Path | None
    #: Each model that did not load, by name, with why, in the server's words.
    by_model: dict[str, GraphFinding] = field(default_factory=dict)


def read_smoke_report(path: Path) -> SmokeRefusals:
    """The refusals in the smoke report at ``path``; raises UsageError for a file that cannot
    be read or is no such report."""
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise UsageError(f"cannot read the smoke report {path}: {error.strerror}") from None
    except (UnicodeDecodeError, ValueError) as error:
        raise UsageError(f"the smoke report {path} is not JSON: {error}") from None
    models = data.get("models") if isinstance(data, dict) else None
    if not isinstance(models, list) or not all(isinstance(m, dict) for m in models):
        raise UsageError(
            f"{path} is no smoke report: an object with 'models', as "
            "`tritonlint smoke --format json` writes, was expected"
        )
    repository = data.get("repository")
    refusals = SmokeRefusals(Path(os.path.abspath(repository)) if repository else None)
    for model in models:
        name, status = model.get("name"), model.get("status")
        if not isinstance(name, str) or model.get("loaded") or status in _NOT_TRIED:
            continue
        severity = Severity.ERROR if status in _REFUSED else Severity.WARNING
        text = model.get("status_text") or status
        message = f"smoke: {text}: {model.get('message') or ''}".rstrip(": ")
        refusals.by_model[name] = GraphFinding(
            model.get("rule") or "smoke", severity, message, str(path)
        )
    return refusals
