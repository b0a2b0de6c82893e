"""Which loaded models the smoke stage may unload, so that a repository of thousands of models
does not keep thousands of them loaded.

Each python-backend model (python models and the framework stand-ins) keeps a stub process of
its own while it is loaded, about 40 MiB each: a repository of 1,000 such models would need
40 GiB if every model stayed loaded until the end. A model is needed only until the ensembles
that run it have been judged (the load order puts them after it), so once the loaded models that
nothing still needs reach :data:`RESIDENT_LIMIT`, they are unloaded together, and the next load
starts only when they are all gone (loads and unloads never overlap). Unloading a python model
takes the server about 1.3 s whatever else it unloads at the time, so a batch costs about as
much as one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

#: How many loaded models nothing needs any more are kept before they are unloaded together.
RESIDENT_LIMIT = 32


class Residency:
    """The models loaded on the server now, and which of them a later model still needs."""

    def __init__(self, order: Sequence[str], steps: Mapping[str, Iterable[str]]) -> None:
        #: For each model, the ensembles in ``order`` that run it (directly).
        self._needed_by: dict[str, set[str]] = {name: set() for name in order}
        for ensemble in order:
            for step in steps.get(ensemble, ()):
                self._needed_by.setdefault(step, set()).add(ensemble)
        self._judged: set[str] = set()
        self._loaded: list[str] = []

    def judged(self, name: str, *, loaded: bool) -> None:
        """``name`` has been loaded (or refused) and judged."""
        self._judged.add(name)
        if loaded and name not in self._loaded:
            self._loaded.append(name)

    def forget(self) -> None:
        """The server was started again: nothing is loaded on it."""
        self._loaded.clear()

    def releasable(self) -> list[str]:
        """Loaded models whose ensembles have all been judged, in the reverse of the order
        they were loaded in (an ensemble before the models it runs)."""
        free = [m for m in self._loaded if self._needed_by.get(m, set()) <= self._judged]
        return free[::-1]

    def due(self, limit: int = RESIDENT_LIMIT) -> list[str]:
        """The models to unload now: every releasable one, once there are ``limit`` of them."""
        free = self.releasable()
        return free if len(free) >= limit else []

    def unloaded(self, names: Iterable[str]) -> None:
        gone = set(names)
        self._loaded = [m for m in self._loaded if m not in gone]
