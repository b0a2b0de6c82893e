"""Check models one by one, here or spread over worker processes.

What a model's check yields (:class:`ModelCheck`) is plain data: its findings, its edges in
the dependency graph and its suppression comments. The engine keeps it and never needs the
model's parsed config again unless the model, or one it depends on, changes.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from typing import NamedTuple

from tritonlint.diagnostics import Diagnostic
from tritonlint.engine.checks import model_diagnostics
from tritonlint.repository.graph import ModelEdges, edges_of
from tritonlint.repository.model import ModelFolder, Repository
from tritonlint.rules.registry import Rule
from tritonlint.suppression import FileSuppressions, read_suppressions


class ModelCheck(NamedTuple):
    """What checking one model found."""

    findings: list[Diagnostic]
    edges: ModelEdges
    #: The suppression comments of its config (None: no config).
    suppressions: FileSuppressions | None


def check_model(repository: Repository, model: ModelFolder, rules: Sequence[Rule]) -> ModelCheck:
    findings = model_diagnostics(repository, model, rules)
    document = model.config
    suppressions = None
    if document is not None:
        folder = None if repository.root is None else model.path
        suppressions = read_suppressions(document, folder, _rules_not_run(repository, rules))
        if document.has_syntax_errors or document.doubts:
            # The content checks did not run, or some of their findings were echoes.
            not_run = suppressions.not_run | {r.code for r in rules if r.check is not None}
            suppressions.not_run = frozenset(not_run)
    return ModelCheck(findings, edges_of(model), suppressions)


def _rules_not_run(repository: Repository, rules: Sequence[Rule]) -> list[str]:
    """Codes of repository-wide rules, when only some models are checked."""
    return [] if repository.whole else [r.code for r in rules if r.repository_check]


#: Below this many models a check stays in one process: starting workers costs more.
PARALLEL_FROM = 200

_forked: tuple[Repository, Sequence[Rule]] | None = None


def check_models(
    repository: Repository, names: Sequence[str], rules: Sequence[Rule], jobs: int
) -> dict[str, ModelCheck]:
    """Check the models ``names``; with ``jobs`` > 1 and many models, in worker processes.

    Workers are forked (cheap, and they share the repository as read so far); each reads
    the configs of its share of the models, and of the models those run, and returns plain
    results. Where forking is unavailable or unsafe (other threads are running), or
    ``jobs`` is 1, the check stays in this process.
    """
    if not _parallel(jobs, len(names)):
        return {name: check_model(repository, repository.by_name[name], rules) for name in names}
    import multiprocessing  # only a parallel check needs these
    from concurrent.futures import ProcessPoolExecutor

    global _forked
    _forked = (repository, rules)
    try:
        context = multiprocessing.get_context("fork")
        chunks = [list(names[start :: jobs * 4]) for start in range(jobs * 4)]
        with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
            results: dict[str, ModelCheck] = {}
            for part in pool.map(_check_share, chunks):
                results.update(part)
    finally:
        _forked = None
    return results


def _check_share(names: list[str]) -> dict[str, ModelCheck]:
    assert _forked is not None
    repository, rules = _forked
    return {name: check_model(repository, repository.by_name[name], rules) for name in names}


def _parallel(jobs: int, count: int) -> bool:
    return jobs > 1 and count >= PARALLEL_FROM and can_fork()


def can_fork() -> bool:
    """Whether worker processes can be forked safely: supported, and no other thread runs."""
    if threading.active_count() != 1:
        return False
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


def default_jobs() -> int:
    """Worker processes to use: ``TRITONLINT_JOBS``, else one per core."""
    return int(os.environ.get("TRITONLINT_JOBS", "0") or 0) or (os.cpu_count() or 1)
