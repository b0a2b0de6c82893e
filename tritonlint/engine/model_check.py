"""Check models one by one, here or spread over worker processes.

What a model's check yields (:class:`ModelCheck`) is plain data: its findings, its edges in
the dependency graph and its suppression comments. The engine keeps it and never needs the
model's parsed config again unless the model, or one it depends on, changes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from tritonlint.diagnostics import Diagnostic
from tritonlint.engine.checks import model_diagnostics
from tritonlint.engine.forked import can_fork, forked_map
from tritonlint.repository.graph import ModelEdges, edges_of
from tritonlint.repository.model import ModelFolder, Repository
from tritonlint.rules.base import Rule
from tritonlint.rules.registry import by_stage
from tritonlint.stage_rules import StageRule
from tritonlint.suppression import FileSuppressions, read_suppressions


class ModelCheck(NamedTuple):
    """What checking one model found."""

    findings: list[Diagnostic]
    edges: ModelEdges
    #: The suppression comments of its config (None: no config).
    suppressions: FileSuppressions | None


class _ModelChecker:
    """Checks one model of a repository at a time; what all of them share is worked out once."""

    def __init__(self, repository: Repository, rules: Sequence[Rule]) -> None:
        self.repository = repository
        self.rules = rules
        #: Repository-wide rules do not run when only some models are checked.
        self.not_run = frozenset(
            () if repository.whole else (r.code for r in rules if r.repository_check)
        )
        self.content_rules = frozenset(r.code for r in rules if r.check is not None)

    def check(self, names: Iterable[str]) -> dict[str, ModelCheck]:
        return {name: self._check(self.repository.by_name[name]) for name in names}

    def _check(self, model: ModelFolder) -> ModelCheck:
        try:
            return self._check_model(model)
        except Exception as error:  # one model's failure leaves the others' findings whole
            return ModelCheck([_check_failed(model, error)], _edges_or_none(model), None)

    def _check_model(self, model: ModelFolder) -> ModelCheck:
        findings = model_diagnostics(self.repository, model, self.rules)
        document = model.config
        suppressions = None
        if document is not None:
            folder = None if self.repository.root is None else model.path
            not_run = self.not_run
            if document.has_syntax_errors or document.doubts:
                # The content checks did not run, or some of their findings were echoes.
                not_run |= self.content_rules
            suppressions = read_suppressions(document, folder, not_run)
        return ModelCheck(findings, edges_of(model), suppressions)


def _check_failed(model: ModelFolder, error: Exception) -> Diagnostic:
    """The finding of a model whose check failed: a bug of tritonlint's, or a file that took
    it past a limit of the interpreter (its recursion limit, the memory there is)."""
    if isinstance(error, RecursionError):
        why = "something in it is too deeply nested to read"
    elif isinstance(error, MemoryError):
        why = "reading it takes more memory than there is"
    else:
        why = (
            f"tritonlint failed ({type(error).__name__}: {error}); this is a bug, please report it"
        )
    return by_stage(StageRule.UNREADABLE_PATH).diagnostic(
        f"this model could not be checked: {why}", model.path
    )


def _edges_or_none(model: ModelFolder) -> ModelEdges:
    try:
        return edges_of(model)
    except Exception:
        return ModelEdges()


#: Below this many models a check stays in one process: starting workers costs more.
PARALLEL_FROM = 200

_forked: _ModelChecker | None = None


def check_models(
    repository: Repository, names: Sequence[str], rules: Sequence[Rule], jobs: int
) -> dict[str, ModelCheck]:
    """Check the models ``names``; with ``jobs`` > 1 and many models, in worker processes.

    Workers are forked (cheap, and they share the repository as read so far); each reads
    the configs of its share of the models, and of the models those run, and returns plain
    results. Where forking is unavailable or unsafe (other threads are running), or
    ``jobs`` is 1, the check stays in this process.
    """
    checker = _ModelChecker(repository, rules)
    if not _parallel(jobs, len(names)):
        return checker.check(names)
    global _forked
    _forked = checker
    try:
        chunks = [list(names[start :: jobs * 4]) for start in range(jobs * 4)]
        results: dict[str, ModelCheck] = {}
        for part in forked_map(_check_share, chunks, jobs):
            results.update(part)
    finally:
        _forked = None
    return results


def _check_share(names: list[str]) -> dict[str, ModelCheck]:
    assert _forked is not None
    return _forked.check(names)


def _parallel(jobs: int, count: int) -> bool:
    return jobs > 1 and count >= PARALLEL_FROM and can_fork()
