"""Bind a re-parsed config again, binding only the message whose fields were re-read.

:func:`tritonlint.syntax.incremental.reparse` re-reads some fields inside one message, its
*focus*, and reuses the rest of the tree. Binding a message's fields depends on nothing
outside the message: the problems, the doubts and the source map entries it makes are those
of the message alone. So when the focus was bound as a message of its own (an element of a
repeated message field, or the value of a message field set once; not a map entry, whose
key decides where it goes), the new config is the old one with the focus bound again in
place, and its problems, doubts and source map entries replaced. The others are moved as
the text after the edit moved (the source map's as they are read, see
:meth:`~tritonlint.schema.source_map.SourceMap.moved`).

Where a message was bound is read from the old source map, which records each bound
message's place in the text: :func:`bound_place` checks, level by level down from the top,
that the message found in the tree is the one bound at the path it would have (a message
that was refused, such as a second value of a field set once, is not there).
"""

from __future__ import annotations

from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message as ProtoMessage

from tritonlint.schema.binder import BoundConfig, SchemaProblem, bind_message, is_map
from tritonlint.schema.doubts import Doubts
from tritonlint.schema.source_map import Location, Path, SourceMap
from tritonlint.syntax.cst import Field, Message
from tritonlint.syntax.incremental import Focus, Level
from tritonlint.syntax.shift import Shift


def bound_place(
    bound: BoundConfig, fields: list[Field], levels: tuple[Level, ...]
) -> tuple[int, Path] | None:
    """The deepest of ``levels`` (down from ``fields``, the top-level fields of the tree
    ``bound`` was bound from) whose message was bound as a message of its own: its index in
    ``levels`` and its path (None: none was)."""
    descriptor: Descriptor = bound.message.DESCRIPTOR  # type: ignore[assignment]
    path: Path = ()
    found: tuple[int, Path] | None = None
    for depth, level in enumerate(levels):
        field = level.field
        name = field.name
        child = descriptor.fields_by_name.get(name.text)
        if name.is_extension or name.missing or child is None:
            break
        if child.type != FieldDescriptor.TYPE_MESSAGE or is_map(child):
            break
        if child.is_repeated:
            candidate: Path = (*path, child.name, level.index_among(fields))
        else:
            candidate = (*path, child.name)
        location = bound.source_map.get(candidate)
        if location != Location(field.span, name.span, level.message.span):
            break
        path = candidate
        found = (depth, path)
        descriptor = child.message_type  # type: ignore[assignment]
        fields = level.message.fields
    return found


def rebind(earlier: BoundConfig, path: Path, focus: Focus) -> BoundConfig:
    """The binding of a tree made from another, whose binding is ``earlier``, by re-reading
    inside ``focus``, the message ``earlier`` bound at ``path``."""
    config = earlier.message.__class__()
    config.CopyFrom(earlier.message)
    target = _message_at(config, path)
    target.Clear()
    if not isinstance(path[-1], int):
        target.SetInParent()  # a message field set once is set, even when empty
    bound = bind_message(target, focus.message.fields, path)
    doubts = {doubt for doubt in earlier.doubts.fields if not _under(doubt[0], path)}
    return BoundConfig(
        config,
        SourceMap.moved(earlier.source_map, path, bound.source_map, focus.shift),
        _problems(earlier.problems, bound.problems, focus.levels[-1].message, focus.shift),
        Doubts(frozenset(doubts | bound.doubts.fields)),
        (earlier, path),
    )


def _message_at(config: ProtoMessage, path: Path) -> ProtoMessage:
    target = config
    for part in path:
        target = target[part] if isinstance(part, int) else getattr(target, str(part))  # type: ignore[index]
    return target


def _under(path: Path, prefix: Path) -> bool:
    """Whether ``path`` is ``prefix`` or below it."""
    return path[: len(prefix)] == prefix


def _problems(
    old: list[SchemaProblem], found: list[SchemaProblem], message: Message, shift: Shift
) -> list[SchemaProblem]:
    """``old`` with those inside ``message`` (of the old tree) replaced by ``found``, the
    others moved; in the order binding finds them (the order of the text)."""
    inside_start, inside_end = message.open.span.end, message.close.span.start
    before: list[SchemaProblem] = []
    after: list[SchemaProblem] = []
    for problem in old:
        start, end = problem.span.start, problem.span.end
        if inside_start <= start and end <= inside_end:
            continue
        (before if start < message.span.start else after).append(shift.problem(problem))
    return [*before, *found, *after]
