"""Failures that spread along ensembles: an ensemble cannot load without its models.

A pipeline stage after the rules: it reads the findings of every model of a repository and
reports, at each ensemble step, a composing model that tritonserver refuses.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from tritonlint.diagnostics import Diagnostic, RelatedLocation, Severity
from tritonlint.repository.autofill import ENSEMBLE
from tritonlint.repository.model import ModelFolder, Repository
from tritonlint.rules.context import ModelContext
from tritonlint.rules.registry import by_name

_STEP = ("ensemble_scheduling", "step")


def _first_error(diagnostics: Sequence[Diagnostic]) -> Diagnostic | None:
    return next((d for d in diagnostics if d.severity is Severity.ERROR), None)


def composing_model_failures(
    repository: Repository, findings: Mapping[Path, list[Diagnostic]]
) -> Iterator[Diagnostic]:
    """TL720 for every ensemble step whose model has an error, repeated up nested ensembles.

    ``findings`` holds each model folder's findings (targets and context alike).
    """
    rule = by_name("ensemble-composing-model-refused")
    failing = {path: error for path, found in findings.items() if (error := _first_error(found))}
    ensembles = [(m, _steps(repository, m)) for m in repository.models]
    reported: set[tuple[Path, int]] = set()
    changed = True
    while changed:
        changed = False
        for model, steps in ensembles:
            context = ModelContext(repository, model)
            for index, step in enumerate(steps):
                composing = repository.model(step.model_name) if step.model_name else None
                if composing is None or (model.path, index) in reported:
                    continue
                cause = failing.get(composing.path)
                if cause is None:
                    continue
                reported.add((model.path, index))
                finding = rule.diagnostic(
                    f"ensemble '{context.name}' depends on '{step.model_name}' which has no "
                    f"loaded version: tritonserver refuses '{step.model_name}' "
                    f"({cause.code} {cause.name})",
                    context.config_path,
                    context.span((*_STEP, index, "model_name")),
                    (RelatedLocation(path=cause.path, span=cause.span, message=cause.message),),
                )
                failing.setdefault(model.path, finding)
                changed = True
                if repository.is_target(model):
                    yield finding


def _steps(repository: Repository, model: ModelFolder) -> list[Any]:
    """The steps of an ensemble model (none for any other model)."""
    config = ModelContext(repository, model).config
    if config is None or config.platform != ENSEMBLE:
        return []
    return list(config.ensemble_scheduling.step)
