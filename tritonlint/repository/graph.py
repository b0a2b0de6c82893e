"""Which model depends on which: ensemble steps and shared rate-limiter resources.

One graph per repository serves everything that follows models into other models: the
ensemble rules, the pass that spreads a composing model's refusal to its ensembles, the smoke
stage's load order, and the engine, which re-checks a changed model's dependents. Edges are
kept by model *name*, so a step that names a model which does not exist (yet) still links
the ensemble to that name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

if TYPE_CHECKING:
    from tritonlint.document import ConfigDocument

ENSEMBLE = "ensemble"


class ModelEdges(NamedTuple):
    """What one model's config says about other models."""

    #: The model names its ensemble steps run, in step order (empty for other models).
    steps: tuple[str, ...] = ()
    #: The rate-limiter resources its instance groups use: (name, whether global).
    resources: frozenset[tuple[str, bool]] = frozenset()


class Configured(Protocol):
    """A model as far as its edges go (a :class:`~tritonlint.repository.model.ModelFolder`)."""

    @property
    def config(self) -> ConfigDocument | None: ...


def edges_of(model: Configured) -> ModelEdges:
    """The edges of a model, from whatever of its config could be bound.

    Steps are read from any config, so that a change to a model reaches every ensemble that
    may run it; resources only from a config that is not an ensemble and was read without
    a doubt (the rate-limiter rule judges only those).
    """
    document = model.config
    config: Any = document.config if document is not None else None
    if document is None or config is None:
        return ModelEdges()
    if config.platform == ENSEMBLE:
        return ModelEdges(tuple(step.model_name for step in config.ensemble_scheduling.step))
    if document.has_syntax_errors or document.doubts:
        return ModelEdges()
    resources = frozenset(
        (resource.name, bool(getattr(resource, "global")))
        for group in config.instance_group
        for resource in group.rate_limiter.resources
    )
    return ModelEdges((), resources)


#: Reads the edges of a model by name (None: no such model).
EdgeReader = Callable[[str], "ModelEdges | None"]


class DependencyGraph:
    """Edges of the models of a repository, and the reverse edges, kept up to date.

    The edges of a model are read from its config when first asked for (``read``), so that
    a check of some models reads only the configs it needs. The reverse edges (``users``,
    ``resource_users``, ``dependents``) know the models whose edges were set or read: the
    engine sets every model's before it asks for them.
    """

    def __init__(self, read: EdgeReader | None = None) -> None:
        self._read = read
        self._edges: dict[str, ModelEdges] = {}
        self._users: dict[str, set[str]] = {}
        self._resource_users: dict[str, set[str]] = {}

    def record(self, name: str, edges: ModelEdges) -> None:
        """Record (or replace) the edges of model ``name``."""
        self.remove(name)
        self._edges[name] = edges
        for step in edges.steps:
            self._users.setdefault(step, set()).add(name)
        for resource, _ in edges.resources:
            self._resource_users.setdefault(resource, set()).add(name)

    def remove(self, name: str) -> None:
        old = self._edges.pop(name, None)
        if old is None:
            return
        for step in old.steps:
            self._users[step].discard(name)
        for resource, _ in old.resources:
            self._resource_users[resource].discard(name)

    def clear(self) -> None:
        self._edges.clear()
        self._users.clear()
        self._resource_users.clear()

    def edges(self, name: str) -> ModelEdges:
        found = self._edges.get(name)
        if found is None:
            read = self._read(name) if self._read is not None else None
            if read is None:
                return ModelEdges()
            self.record(name, read)
            found = read
        return found

    def resources(self) -> list[tuple[str, set[tuple[str, bool]]]]:
        """Every rate-limiter resource, by name, with its users: (model name, whether global)."""
        return [
            (resource, {(n, g) for n in users for r, g in self.edges(n).resources if r == resource})
            for resource, users in sorted(self._resource_users.items())
            if users
        ]

    def steps(self, name: str) -> tuple[str, ...]:
        """The model names the steps of ensemble ``name`` run, in step order."""
        return self.edges(name).steps

    def users(self, name: str) -> set[str]:
        """The ensembles with a step that runs model ``name``."""
        return set(self._users.get(name, ()))

    def resource_users(self, resource: str) -> set[str]:
        """The models whose instance groups use rate-limiter resource ``resource``."""
        return set(self._resource_users.get(resource, ()))

    def dependents(self, names: Iterable[str]) -> set[str]:
        """``names`` and every model whose findings may depend on them.

        That is the ensembles that run them, directly or through other ensembles, and the
        models that share a rate-limiter resource with any of these.
        """
        found: set[str] = set()
        pending = list(names)
        while pending:
            name = pending.pop()
            if name in found:
                continue
            found.add(name)
            pending.extend(self._users.get(name, ()))
            for resource, _ in self.edges(name).resources:
                pending.extend(self._resource_users.get(resource, ()))
        return found

    def path_between(self, start: str, goal: str) -> list[str] | None:
        """A chain of steps ``[start, ..., goal]`` from ensemble ``start`` to model ``goal``.

        Only ensembles on the way are followed; ``goal`` itself is not looked into.
        """
        if start == goal:
            return [goal]
        trail = [start]
        visited = {start}
        # Depth first, without recursion: a chain of ensembles can be deeper than the stack.
        pending = [iter(self.steps(start))]
        while pending:
            step = next(pending[-1], None)
            if step is None:
                pending.pop()
                trail.pop()
                continue
            if step == goal:
                return [*trail, goal]
            if step in visited:
                continue
            visited.add(step)
            trail.append(step)
            pending.append(iter(self.steps(step)))
        return None

    def load_order(self, names: Iterable[str]) -> list[str]:
        """``names`` with every model before the ensembles that run it (then by name).

        Models that are not ensembles come first, by name; each ensemble follows the
        ensembles it runs. Members of a cycle keep their name order among themselves.
        """
        wanted = set(names)
        order = sorted(name for name in wanted if not self.steps(name))
        done = set(order)
        for name in sorted(wanted):
            self._visit(name, wanted, done, order, set())
        return order

    def _visit(
        self, name: str, wanted: set[str], done: set[str], order: list[str], path: set[str]
    ) -> None:
        if name in done or name in path:
            return
        path.add(name)
        for step in self.steps(name):
            if step in wanted:
                self._visit(step, wanted, done, order, path)
        path.discard(name)
        done.add(name)
        order.append(name)
