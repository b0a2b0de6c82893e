"""Where each value of a bound config came from in the source."""

from __future__ import annotations

from collections.abc import ItemsView
from typing import TYPE_CHECKING, NamedTuple

from tritonlint.span import Span

if TYPE_CHECKING:
    from tritonlint.syntax.shift import Shift

#: A field path: field names, indexes of repeated elements, and keys of map entries,
#: e.g. ``("input", 0, "dims", 1)`` or ``("parameters", "model_type")``.
Path = tuple[str | int | bool, ...]


class Location(NamedTuple):
    field: Span
    name: Span
    value: Span


class SourceMap:
    """Field path → location of the field that set it (the first one, for repeated fields).

    A map of an edited text may be made from the map of the text before the edit
    (:meth:`moved`): its entries are then moved as they are read, not all at once.
    """

    def __init__(self) -> None:
        self._locations: dict[Path, Location] = {}
        #: The map this one was made from, the path below which its entries are replaced by
        #: those of ``_locations``, and how the others moved.
        self._earlier: tuple[SourceMap, Path, Shift] | None = None
        self._flat: SourceMap | None = None

    @classmethod
    def moved(cls, earlier: SourceMap, path: Path, below: SourceMap, shift: Shift) -> SourceMap:
        """``earlier``'s entries moved by ``shift``, with those below ``path`` replaced by
        ``below``'s (which this map takes over)."""
        made = cls()
        made._locations = below._locations
        made._earlier = (earlier.flat(), path, shift)
        return made

    def flat(self) -> SourceMap:
        """A map of the same entries, each recorded (``self``, when they all are)."""
        if self._earlier is None:
            return self
        if self._flat is None:
            earlier, path, shift = self._earlier
            flat = SourceMap()
            size = len(path)
            for key, found in earlier._locations.items():
                if not (len(key) > size and key[:size] == path):
                    flat._locations[key] = _moved(found, shift)
            flat._locations.update(self._locations)
            self._flat = flat
        return self._flat

    def add(self, path: Path, location: Location) -> None:
        self._locations[path] = location

    def add_once(self, path: Path, location: Location) -> None:
        self._locations.setdefault(path, location)

    def items(self) -> ItemsView[Path, Location]:
        """Every recorded field path with its location."""
        return self.flat()._locations.items()

    def get(self, path: Path) -> Location | None:
        found = self._locations.get(path)
        if found is None and self._earlier is not None:
            earlier, below, shift = self._earlier
            if not (len(path) > len(below) and path[: len(below)] == below):
                found = earlier._locations.get(path)
                if found is not None:
                    return _moved(found, shift)
        return found

    def nearest(self, path: Path) -> Location | None:
        """The location of ``path`` or, failing that, of its closest recorded ancestor."""
        for length in range(len(path), 0, -1):
            found = self.get(path[:length])
            if found is not None:
                return found
        return None


def _moved(location: Location, shift: Shift) -> Location:
    """Where ``location`` is after the edit ``shift`` describes (its name and value are
    inside its field: all three are before the edit, after it, or the field is around it)."""
    field = location[0]
    if field[5] <= shift.start:
        return location
    if field[4] >= shift.end:
        moved = shift.moved.span
        return Location(moved(field), moved(location[1]), moved(location[2]))
    return Location(shift.span(field), shift.span(location[1]), shift.span(location[2]))
