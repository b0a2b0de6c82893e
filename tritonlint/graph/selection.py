"""``--model NAME``: the part of a graph about one model, an ensemble with what it runs (its
nested ensembles too), or a model with the ensembles that run it (and what they run)."""

from __future__ import annotations

import difflib

from tritonlint.graph.model import Graph, NodeKind, RepositoryGraph
from tritonlint.usage import UsageError


def runs(repository: RepositoryGraph, ensemble: str) -> list[str]:
    """The model names the steps of ``ensemble`` run, in step order, once each."""
    nodes = repository.ensembles[ensemble].nodes
    return list(dict.fromkeys(n.name for n in nodes if n.kind is NodeKind.STEP))


def run_by(repository: RepositoryGraph, model: str) -> list[str]:
    """The ensembles with a step that runs ``model``, by name."""
    return [name for name in repository.ensembles if model in runs(repository, name)]


def run_by_any(repository: RepositoryGraph, model: str) -> list[str]:
    """The ensembles that run ``model``, directly or through other ensembles, by name."""
    found: set[str] = set()
    pending = [model]
    while pending:
        for user in run_by(repository, pending.pop()):
            if user not in found:
                found.add(user)
                pending.append(user)
    return sorted(found)


def select_model(graph: Graph, name: str) -> Graph:
    """The graph of model ``name`` in each repository that has it; raises UsageError where
    none has."""
    chosen = Graph()
    for repository in graph.repositories:
        if name in repository.models and not repository.models[name].missing:
            chosen.repositories.append(_around(repository, name))
    if not chosen.repositories:
        known = sorted({m for r in graph.repositories for m in r.models})
        close = difflib.get_close_matches(name, known, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise UsageError(f"no model {name!r} in the repositories found{hint}")
    return chosen


def _around(repository: RepositoryGraph, name: str) -> RepositoryGraph:
    """``repository`` cut down to ensemble ``name`` and all it runs, or to the ensembles that
    run model ``name`` (directly or through other ensembles) and all they run."""
    starts = [name] if name in repository.ensembles else run_by_any(repository, name)
    ensembles: list[str] = []
    pending = list(starts)
    while pending:
        current = pending.pop(0)
        if current in ensembles:
            continue
        ensembles.append(current)
        pending.extend(m for m in runs(repository, current) if m in repository.ensembles)
    models = {name} | {m for e in ensembles for m in runs(repository, e)} | set(ensembles)
    return RepositoryGraph(
        repository.root,
        {key: info for key, info in repository.models.items() if key in models},
        {key: value for key, value in repository.ensembles.items() if key in ensembles},
    )
