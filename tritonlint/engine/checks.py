"""Run the rules on one model, and spread a composing model's refusal to its ensembles."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from tritonlint.diagnostics import Diagnostic, RelatedLocation, Severity
from tritonlint.document import ConfigDocument
from tritonlint.repository.model import ModelFolder, Repository, WalkProblem
from tritonlint.rules.context import ModelContext, RepositoryContext
from tritonlint.rules.registry import Rule, by_stage
from tritonlint.stage_rules import StageRule

_STEP = ("ensemble_scheduling", "step")


def walk_diagnostics(problems: Iterable[WalkProblem]) -> Iterator[Diagnostic]:
    for problem in problems:
        yield by_stage(problem.rule).diagnostic(problem.message, problem.path)


def document_diagnostics(document: ConfigDocument) -> Iterator[Diagnostic]:
    """What reading, parsing and binding the config file found."""
    for problem in document.problems:
        related = tuple(
            RelatedLocation(path=document.path, span=span, message=message)
            for span, message in problem.related
        )
        yield by_stage(problem.rule).diagnostic(
            problem.message, document.path, problem.span, related, problem.fixes
        )


def model_diagnostics(
    repository: Repository, model: ModelFolder, rules: Iterable[Rule]
) -> list[Diagnostic]:
    """Everything found about one model: its config file's problems and every rule's findings.

    A finding that a check yields after reading a value the binder had to leave out is an
    echo of that binding problem, and is dropped: the reads stay noted for the rest of the
    check, since what a check read once (a data flow, a set of names) shapes every finding it
    yields later (see ``tritonlint/rules/reads.py``).
    """
    found: list[Diagnostic] = []
    if model.config is not None:
        found.extend(document_diagnostics(model.config))
    context = ModelContext(repository, model)
    log = context.log
    for rule in rules:
        if rule.check is None:
            continue
        log.clear()  # a rule's doubtful reads stay noted until its last finding is yielded
        for finding in rule.check(context):
            if not log.echoes(finding.path, finding.field):
                found.append(rule.from_finding(finding))
    return found


def repository_diagnostics(repository: Repository, rules: Iterable[Rule]) -> Iterator[Diagnostic]:
    """Findings about the repository as a whole (only when all of it is checked)."""
    if not repository.whole:
        return
    context = RepositoryContext(repository)
    for rule in rules:
        if rule.repository_check is not None:
            yield from map(rule.from_finding, rule.repository_check(context))


def first_error(diagnostics: Iterable[Diagnostic]) -> Diagnostic | None:
    return next((d for d in diagnostics if d.severity is Severity.ERROR), None)


def composing_model_failures(
    repository: Repository, errors: Mapping[str, Diagnostic], ensembles: Iterable[str]
) -> dict[str, list[Diagnostic]]:
    """TL720 at every step of ``ensembles`` whose model is refused, up nested ensembles.

    ``errors`` holds the first error of each model's own findings (not counting TL720).
    Every ensemble that runs one of ``ensembles`` must be among them too. Returns the TL720
    findings of each of ``ensembles``.
    """
    failing = dict(errors)
    found: dict[str, list[Diagnostic]] = {}
    names = sorted(set(ensembles))
    # A refusal spreads one level of nesting per round, until no ensemble newly fails.
    while True:
        newly_failing = False
        for name in names:
            model = repository.model(name)
            findings = _steps_refused(repository, model, failing) if model else []
            found[name] = findings
            if findings and name not in failing:
                failing[name] = findings[0]
                newly_failing = True
        if not newly_failing:
            return found


def _steps_refused(
    repository: Repository, model: ModelFolder, failing: Mapping[str, Diagnostic]
) -> list[Diagnostic]:
    rule = by_stage(StageRule.ENSEMBLE_COMPOSING_MODEL_REFUSED)
    context = ModelContext(repository, model)
    found = []
    for index, step in enumerate(repository.graph.steps(model.name)):
        cause = failing.get(step)
        if cause is None or repository.model(step) is None:
            continue
        found.append(
            rule.diagnostic(
                f"ensemble '{context.name}' depends on '{step}' which has no "
                f"loaded version: tritonserver refuses '{step}' ({cause.code} {cause.name})",
                context.config_path,
                context.span((*_STEP, index, "model_name")),
                (RelatedLocation(path=cause.path, span=cause.span, message=cause.message),),
            )
        )
    return found


def folder_of(repository: Repository, path: Path) -> str | None:
    """The name of the model folder that holds ``path`` (None: outside every model)."""
    root = repository.root
    if root is None:
        return next(iter(repository.by_name), None)
    try:
        relative = path.relative_to(root)
    except ValueError:
        return None
    name = relative.parts[0] if relative.parts else None
    return name if name in repository.by_name else None
