"""Bind a re-parsed config again, binding only the message whose fields were re-read.

:func:`tritonlint.syntax.incremental.reparse` re-reads some fields of one message (the
deepest it could go down to) and reuses the rest of the tree. Binding a message's fields
depends on nothing outside the message: the problems, the doubts and the source map entries
it makes are those of the message alone. So when that message was bound as a message of its
own (an element of a repeated message field, or the value of a message field set once; not
a map entry, whose key decides where it goes), the new config is the old one with that
message bound again in place, and its problems, doubts and source map entries replaced. The
old ones outside it are moved as the text after the edit moved.

Where the message was bound is read from the old source map, which records each bound
message's place in the text: the walk down from the top checks, level by level, that the
message found in the tree is the one bound at the path it would have (a message that was
refused, such as a second value of a field set once, is not there). The outermost message
that passes is bound again; at the top (the file's own fields were re-read), :func:`rebind`
answers None and the caller binds the whole tree.
"""

from __future__ import annotations

from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message as ProtoMessage

from tritonlint.schema.binder import BoundConfig, SchemaProblem, bind_message, is_map
from tritonlint.schema.doubts import Doubts
from tritonlint.schema.source_map import Location, Path, SourceMap
from tritonlint.syntax.cst import Field, Message
from tritonlint.syntax.incremental import Level, Reparsed
from tritonlint.syntax.shift import Shift


def rebind(old: BoundConfig, fields: list[Field], reparsed: Reparsed) -> BoundConfig | None:
    """The binding of the new tree of ``reparsed``, made from ``old``, the binding of the
    old tree (``fields``: its top-level fields); None when the whole tree must be bound."""
    found = _bound_place(old, fields, reparsed.levels)
    if found is None:
        return None
    depth, path, repeated = found
    shift = reparsed.shift
    before = reparsed.levels[depth].message
    after = reparsed.messages[depth]
    config = old.message.__class__()
    config.CopyFrom(old.message)
    target = _message_at(config, path)
    target.Clear()
    if not repeated:
        target.SetInParent()
    bound = bind_message(target, after.fields, path)
    doubts = {doubt for doubt in old.doubts.fields if not _under(doubt[0], path)}
    return BoundConfig(
        config,
        _source_map(old.source_map, bound.source_map, path, shift),
        _problems(old.problems, bound.problems, before, shift),
        Doubts(frozenset(doubts | bound.doubts.fields)),
    )


def _bound_place(
    old: BoundConfig, fields: list[Field], levels: tuple[Level, ...]
) -> tuple[int, Path, bool] | None:
    """The deepest of ``levels`` whose message was bound as a message of its own: its depth,
    its path and whether it is an element of a repeated field (None: none of them was)."""
    descriptor: Descriptor = old.message.DESCRIPTOR  # type: ignore[assignment]
    path: Path = ()
    found: tuple[int, Path, bool] | None = None
    for depth, level in enumerate(levels):
        field = level.field
        name = field.name
        child = descriptor.fields_by_name.get(name.text)
        if name.is_extension or name.missing or child is None:
            break
        if child.type != FieldDescriptor.TYPE_MESSAGE or is_map(child):
            break
        if child.is_repeated:
            index = _elements_before(fields, level) + _position_in_field(level)
            candidate: Path = (*path, child.name, index)
        else:
            candidate = (*path, child.name)
        location = old.source_map.get(candidate)
        if location is None or location != _location(field, level.message):
            break
        path = candidate
        found = (depth, path, child.is_repeated)
        descriptor = child.message_type  # type: ignore[assignment]
        fields = level.message.fields
    return found


def _location(field: Field, message: Message) -> Location:
    return Location(field.span, field.name.span, message.span)


def _elements_before(fields: list[Field], level: Level) -> int:
    """How many messages the fields of the same name before ``level``'s field hold."""
    name = level.field.name.text
    return sum(
        sum(1 for _ in field.messages())
        for field in fields[: level.at]
        if field.name.text == name and not field.name.is_extension
    )


def _position_in_field(level: Level) -> int:
    """The index of ``level``'s message among the messages of its field."""
    if level.item is None:
        return 0
    items = level.field.messages()
    return next(index for index, message in enumerate(items) if message is level.message)


def _message_at(config: ProtoMessage, path: Path) -> ProtoMessage:
    target = config
    for part in path:
        target = target[part] if isinstance(part, int) else getattr(target, str(part))  # type: ignore[index]
    return target


def _under(path: Path, prefix: Path) -> bool:
    """Whether ``path`` is ``prefix`` or below it."""
    return path[: len(prefix)] == prefix


def _source_map(old: SourceMap, new: SourceMap, path: Path, shift: Shift) -> SourceMap:
    """``old`` with the entries below ``path`` replaced by ``new``'s and the others moved."""
    merged = SourceMap()
    span = shift.span
    added = False
    size = len(path)
    for key, location in old.items():
        if len(key) > size and key[:size] == path:
            if not added:
                merged.update(new)
                added = True
            continue
        merged.add(key, Location(span(location[0]), span(location[1]), span(location[2])))
    if not added:
        merged.update(new)
    return merged


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
