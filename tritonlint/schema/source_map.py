"""Where each value of a bound config came from in the source."""

from __future__ import annotations

from collections.abc import ItemsView
from typing import NamedTuple

from tritonlint.span import Span

#: A field path: field names, indexes of repeated elements, and keys of map entries,
#: e.g. ``("input", 0, "dims", 1)`` or ``("parameters", "model_type")``.
Path = tuple[str | int | bool, ...]


class Location(NamedTuple):
    field: Span
    name: Span
    value: Span


class SourceMap:
    """Field path → location of the field that set it (the first one, for repeated fields)."""

    def __init__(self) -> None:
        self._locations: dict[Path, Location] = {}

    def add(self, path: Path, location: Location) -> None:
        self._locations[path] = location

    def add_once(self, path: Path, location: Location) -> None:
        self._locations.setdefault(path, location)

    def update(self, other: SourceMap) -> None:
        """Add the entries of ``other``, replacing those at the same paths."""
        self._locations.update(other._locations)

    def items(self) -> ItemsView[Path, Location]:
        """Every recorded field path with its location."""
        return self._locations.items()

    def get(self, path: Path) -> Location | None:
        return self._locations.get(path)

    def nearest(self, path: Path) -> Location | None:
        """The location of ``path`` or, failing that, of its closest recorded ancestor."""
        for length in range(len(path), 0, -1):
            found = self._locations.get(path[:length])
            if found is not None:
                return found
        return None

    def value_span(self, path: Path) -> Span | None:
        location = self.nearest(path)
        return location.value if location else None

    def name_span(self, path: Path) -> Span | None:
        location = self.nearest(path)
        return location.name if location else None
