"""How the smoke stage's results are shown: a table of the models, a summary, and JSON.

Findings go through the report modules of ``check`` (:mod:`tritonlint.report`); these are the
parts that only the smoke stage has.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from rich.table import Table
from rich.text import Text

from tritonlint.report.json_report import to_json_object
from tritonlint.report.paths import display_path
from tritonlint.smoke.runner import (
    FLAG_CPU_ONLY,
    FLAG_STUB_BACKENDS,
    ModelResult,
    ModelStatus,
    SmokeResult,
    backend_in,
)

_STYLES = {
    ModelStatus.LOADED: "bold green",
    ModelStatus.STUBBED: "green",
    ModelStatus.REFUSED: "bold red",
    ModelStatus.BACKEND_MISSING: "yellow",
    ModelStatus.NEEDS_GPU: "yellow",
    ModelStatus.TIMEOUT: "bold red",
    ModelStatus.CRASHED: "bold red",
    ModelStatus.SKIPPED: "dim",
}
_DETAIL_WIDTH = 140


#: Openings of the server's messages that say nothing the table does not (which model failed).
_OPENINGS = re.compile(
    r"^(?:load failed for model '[^']*': |Poll failed for model directory '[^']*': )?"
    r"(?:version \d+ is at UNAVAILABLE state: )?"
)


_PARSE_ERROR = re.compile(r"\(Error parsing text-format [\w.]+: (.*)\)$")


def _detail(message: str) -> str:
    message = " ".join(message.split())
    parse_error = _PARSE_ERROR.search(message)
    if parse_error:  # the parser's words say it all; the path is the model's config.pbtxt
        message = f"parse error at {parse_error.group(1)}"
    message = _OPENINGS.sub("", message, count=1)
    return message if len(message) <= _DETAIL_WIDTH else message[: _DETAIL_WIDTH - 1] + "…"


def _model_detail(model: ModelResult) -> str:
    """One line on why a model did not load (the finding has the whole message)."""
    status = model.status
    code = model.diagnostic.code if model.diagnostic is not None else ""
    if status is ModelStatus.BACKEND_MISSING:
        backend = backend_in(model.message) or "?"
        return f"{code}: no '{backend}' backend in this server ({FLAG_STUB_BACKENDS} stands in)"
    if status is ModelStatus.NEEDS_GPU:
        return f"{code}: KIND_GPU, and the server has no GPU ({FLAG_CPU_ONLY} loads it on CPU)"
    if status is ModelStatus.REFUSED and model.rule is not None:
        return f"{code} ({model.rule.code} {model.rule.name}): {_detail(model.message)}"
    if code:
        return f"{code}: {_detail(model.message)}"
    return _detail(model.message)


def smoke_table(results: Sequence[SmokeResult]) -> Table:
    """One row per model: status, what was adjusted or why it was not loaded, load time."""
    table = Table(title="Smoke stage", title_justify="left")
    several = len(results) > 1
    if several:
        table.add_column("repository")
    table.add_column("model", no_wrap=True)
    table.add_column("status", no_wrap=True)
    table.add_column("details")
    table.add_column("time", justify="right")
    for result in results:
        for model in result.models:
            details = [_model_detail(model), *model.adjustments]
            details = [line for line in details if line]
            row: list[str | Text] = [
                model.name,
                Text(model.status.text, style=_STYLES[model.status]),
                "\n".join(details),
                f"{model.seconds:.2f} s" if model.attempts else "",
            ]
            if several:
                row.insert(0, display_path(result.repository))
            table.add_row(*row)
    return table


def summary_lines(result: SmokeResult) -> list[Text]:
    """Which server ran, what became of the models, and which options were needed."""
    lines = [
        Text.assemble(
            ("Server: ", "bold"),
            f"{result.server.label} — {result.server.description}",
            f"; {'GPUs given to the server' if result.server.gpus else 'no GPU'}",
        )
    ]
    counts: dict[ModelStatus, int] = {}
    for model in result.models:
        counts[model.status] = counts.get(model.status, 0) + 1
    total = len(result.models)
    loaded = sum(n for status, n in counts.items() if status.loaded)
    parts = [
        f"{counts[status]} {status.text}"
        for status in ModelStatus
        if counts.get(status) and status is not ModelStatus.LOADED
    ]
    style = "bold green" if result.ok else "bold red"
    head = f"All {total} models loaded" if result.ok else f"{loaded} of {total} models loaded"
    if total == 0:
        head = "No model to load"
    detail = f" ({'; '.join(parts)})" if parts else ""
    lines.append(Text.assemble((head, style), f"{detail} in {result.seconds:.1f} s."))
    needed = result.flags_needed()
    if needed:
        listed = "; ".join(f"{flag} ({', '.join(models)})" for flag, models in needed.items())
        lines.append(Text.assemble(("Loaded thanks to: ", "bold"), listed))
    return lines


def smoke_object(result: SmokeResult) -> dict[str, Any]:
    """The JSON form of one smoke run (``tritonlint smoke --format json``)."""
    return {
        "repository": display_path(result.repository),
        "server": {
            "kind": result.server.kind.value,
            "description": result.server.description,
            "version": result.server.version or None,
            "gpus": result.server.gpus,
        },
        "ok": result.ok,
        "seconds": round(result.seconds, 3),
        "models": [
            {
                "name": model.name,
                "status": model.status.value,
                "loaded": model.status.loaded,
                "message": model.message,
                "rule": model.rule.code if model.rule else None,
                "adjustments": list(model.adjustments),
                "flags": list(model.flags),
                "attempts": model.attempts,
                "seconds": round(model.seconds, 3),
            }
            for model in result.models
        ],
        "python_models_ran_model_py": result.python_models,
        "flags_needed": result.flags_needed(),
        "findings": [to_json_object(d) for d in result.diagnostics],
    }


def render_smoke_json(result: SmokeResult) -> str:
    return json.dumps(smoke_object(result), indent=2, ensure_ascii=False)
