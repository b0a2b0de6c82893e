"""What the binder could not fill in a config, for the rules to know which reads to doubt."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: A message's place in the config: field names, indexes and map keys.
MessagePath = tuple[str | int | bool, ...]


@dataclass(frozen=True, slots=True)
class Doubts:
    """What the binder could not fill: (message path, field name) pairs.

    A field name of None stands for "some field of this message, unknown which".
    """

    fields: frozenset[tuple[MessagePath, str | None]] = frozenset()
    #: The path of each message holding a doubtful field, and of each message around it.
    _around: frozenset[MessagePath] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        around = {path[:end] for path, _ in self.fields for end in range(len(path) + 1)}
        object.__setattr__(self, "_around", frozenset(around))

    def __bool__(self) -> bool:
        return bool(self.fields)

    def within(self, path: MessagePath) -> bool:
        """Whether a doubtful field is in the message at ``path`` or in a message inside it
        (where none is, no read below ``path`` is doubtful)."""
        return path in self._around

    def covers(self, message: Any, path: MessagePath, name: str) -> bool:
        """Whether reading field ``name`` of ``message`` (at ``path``) reads a doubtful value."""
        if (path, name) in self.fields:
            return True
        return (path, None) in self.fields and not _is_set(message, name)


def _is_set(message: Any, name: str) -> bool:
    descriptor = message.DESCRIPTOR.fields_by_name[name]
    if descriptor.is_repeated:
        return len(getattr(message, name)) > 0
    if descriptor.has_presence:
        return bool(message.HasField(name))
    return bool(getattr(message, name) != descriptor.default_value)
