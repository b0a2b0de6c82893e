"""Which parts of a config a check read, so that a finding built on a binding problem is dropped.

When a config has schema problems (an unknown field, a value of the wrong type ...), the
binder leaves the offending values out and the rules still run on the rest. A rule that then
reads a field the binder could not fill would only echo that problem ("no dims" where `dim`
was written). The rules read such a config through :class:`TrackedMessage`, which notes in
the running check's :class:`ReadLog` every doubtful field it reads; the engine drops a
finding the check yields after such a read when the finding is about the same part of the
config (:meth:`ReadLog.echoes`).

A field is doubtful (:class:`Doubts`) when the binder dropped a value meant for it: the field
named by a wrong value, or the field an unknown name most likely meant. An unknown name with
no likely meaning makes every *unset* field of its message doubtful.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from google.protobuf.descriptor import FieldDescriptor

from tritonlint.document import ConfigDocument
from tritonlint.schema.binder import is_map
from tritonlint.schema.doubts import Doubts, MessagePath


class DoubtfulRead(NamedTuple):
    """A check read field ``name`` of the message at ``message`` in the config at ``config``."""

    config: Path
    message: MessagePath
    name: str


@dataclass(slots=True)
class ReadLog:
    """The doubtful reads of the running check so far."""

    reads: list[DoubtfulRead] = field(default_factory=list)

    def clear(self) -> None:
        self.reads.clear()

    def reader(self, document: ConfigDocument) -> _Reader:
        return _Reader(self, document.path)

    def echoes(self, config: Path, anchor: MessagePath | None) -> bool:
        """Whether a finding about field ``anchor`` of ``config`` rests on a doubtful read.

        It does when it is about the same message as a doubtful field, or one that holds
        it or is held by it, or about a file or folder (no field); a doubtful read in
        another model's config makes any finding doubtful.
        """
        for read in self.reads:
            if read.config != config or anchor is None:
                return True
            shorter = min(len(anchor), len(read.message))
            if anchor[:shorter] == read.message[:shorter]:
                return True
        return False


class _Reader(NamedTuple):
    """Where a tracked config's doubtful reads go, and which config they are of."""

    log: ReadLog
    config: Path

    def note(self, message: MessagePath, name: str) -> None:
        self.log.reads.append(DoubtfulRead(self.config, message, name))


class TrackedMessage:
    """A read-only view of a protobuf message that reports doubtful reads to a log."""

    __slots__ = ("_doubts", "_log", "_message", "_path")

    def __init__(self, message: Any, path: MessagePath, doubts: Doubts, log: _Reader) -> None:
        self._message = message
        self._path = path
        self._doubts = doubts
        self._log = log

    def _read(self, name: str) -> None:
        if self._doubts.covers(self._message, self._path, name):
            self._log.note(self._path, name)

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._message, name)
        descriptor = self._message.DESCRIPTOR.fields_by_name.get(name)
        if descriptor is None:
            return value  # a method or DESCRIPTOR
        self._read(name)
        return _wrap(descriptor, value, (*self._path, name), self._doubts, self._log)

    def HasField(self, name: str) -> bool:
        self._read(name)
        return bool(self._message.HasField(name))

    def WhichOneof(self, oneof: str) -> str | None:
        for member in self._message.DESCRIPTOR.oneofs_by_name[oneof].fields:
            self._read(member.name)
        return self._message.WhichOneof(oneof)  # type: ignore[no-any-return]

    def __eq__(self, other: object) -> bool:
        inner = other._message if isinstance(other, TrackedMessage) else other
        return bool(self._message == inner)

    def __hash__(self) -> int:
        return id(self._message)

    def __repr__(self) -> str:
        return f"TrackedMessage({self._message!r})"


def _wrap(
    descriptor: FieldDescriptor, value: Any, path: MessagePath, doubts: Doubts, log: _Reader
) -> Any:
    if descriptor.type != FieldDescriptor.TYPE_MESSAGE or not doubts.within(path):
        return value  # nothing below is doubtful: read as it is, without tracking
    entry = descriptor.message_type
    assert entry is not None
    if is_map(descriptor):
        if entry.fields_by_name["value"].type != FieldDescriptor.TYPE_MESSAGE:
            return value
        return _TrackedMap(value, path, doubts, log)
    if descriptor.is_repeated:
        return _TrackedList(value, path, doubts, log)
    return TrackedMessage(value, path, doubts, log)


class _TrackedContainer:
    """A repeated message field or a map of messages, whose messages are tracked too (those
    holding a doubtful field: the others are read as they are)."""

    __slots__ = ("_doubts", "_items", "_log", "_path")

    def __init__(self, items: Any, path: MessagePath, doubts: Doubts, log: _Reader) -> None:
        self._items = items
        self._path = path
        self._doubts = doubts
        self._log = log

    def _tracked(self, key: Any) -> Any:
        """The message at ``key`` (an index or a map key), at its place in the config
        (tracked where a doubtful field is in it)."""
        place = self._place(key)
        if not self._doubts.within(place):
            return self._items[key]
        return TrackedMessage(self._items[key], place, self._doubts, self._log)

    def _place(self, key: Any) -> MessagePath:
        return (*self._path, key)

    def __len__(self) -> int:
        return len(self._items)

    def __bool__(self) -> bool:
        return len(self._items) > 0


class _TrackedList(_TrackedContainer):
    __slots__ = ()

    def __iter__(self) -> Iterator[Any]:
        return (self._tracked(index) for index in range(len(self._items)))

    def __getitem__(self, index: int) -> Any:
        return self._tracked(index if index >= 0 else len(self._items) + index)


class _TrackedMap(_TrackedContainer):
    __slots__ = ()

    def _place(self, key: Any) -> MessagePath:
        # A map is bound as entries: the value is the field "value" of the entry at ``key``.
        return (*self._path, key, "value")

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def __iter__(self) -> Iterator[Any]:
        return iter(self._items)

    def __getitem__(self, key: Any) -> Any:
        return self._tracked(key)

    def keys(self) -> Any:
        return self._items.keys()

    def get(self, key: Any, default: Any = None) -> Any:
        return self._tracked(key) if key in self._items else default

    def items(self) -> Iterator[tuple[Any, Any]]:
        return ((key, self._tracked(key)) for key in self._items)

    def values(self) -> Iterator[Any]:
        return (self._tracked(key) for key in self._items)
