"""Run the rules on one model, and on the repository as a whole.

(A composing model's refusal is spread to its ensembles by the rule that reports it, TL720:
``tritonlint/rules/ensemble/across_models.py``.)"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from tritonlint.diagnostics import Diagnostic, RelatedLocation, Severity
from tritonlint.document import ConfigDocument
from tritonlint.repository.model import ModelFolder, Repository, WalkProblem
from tritonlint.rules.base import Rule
from tritonlint.rules.context import ModelContext, RepositoryContext
from tritonlint.rules.registry import by_stage


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
