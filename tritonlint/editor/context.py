"""Where a cursor is in a config: in which message, at a field name or at a value.

Read from the concrete syntax tree alone, so that a half-typed file (whose bound message is
partial or missing) still answers: the parser recovers from syntax errors before and after
the cursor, inserting missing colons, values and closing braces, and the walk here follows
what it built.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, TypeAlias

from tritonlint.document import ConfigDocument, parse_config
from tritonlint.span import Span
from tritonlint.syntax.cst import Field, ListValue, Message, Scalar
from tritonlint.syntax.incremental import focus_at
from tritonlint.syntax.parser import parse

if TYPE_CHECKING:
    from google.protobuf.descriptor import Descriptor, FieldDescriptor

    from tritonlint.schema.releases import Schema
    from tritonlint.syntax.cst import SyntaxTree

#: What a feature reads: a config's text, or that text parsed and bound (the language
#: server's engine has it for the checks already; it is not parsed again for each request).
Source: TypeAlias = str | ConfigDocument

#: A path to a message: field names and, for repeated fields, the index of the element as
#: written (``("input", 1)``; map entries count the same way).
MessagePath = tuple[str | int, ...]


class Position(Enum):
    #: Where a field name is (or may be) written.
    NAME = "name"
    #: After ``field:``, where its value is written.
    VALUE = "value"
    #: Inside the ``[ ]`` of a list of messages (``input [ | ]``), between its elements:
    #: where only an element (``{ ... }``) may be written, no field name.
    ELEMENT = "element"


class CursorContext(NamedTuple):
    #: The message the cursor is in (``()``: the top level, ModelConfig).
    path: MessagePath
    #: That message's type in the schema, or None where a name on the way is unknown.
    message: Descriptor | None
    position: Position
    #: The field whose value is at the cursor (``VALUE``), or the name under it (``NAME``).
    field: str | None
    #: What is typed of the word at the cursor, before it.
    prefix: str
    #: The word at the cursor (empty at a blank): what a completion replaces.
    replace: Span
    #: The fields already written in the message.
    present: frozenset[str]
    #: The index of the ensemble step the cursor is in, if any.
    step: int | None

    @property
    def field_descriptor(self) -> FieldDescriptor | None:
        """The schema field of :attr:`field` (None when unknown or no field)."""
        if self.message is None or self.field is None:
            return None
        found: FieldDescriptor | None = self.message.fields_by_name.get(self.field)
        return found


def offset_of(text: str, line: int, column: int) -> int:
    """The 0-based offset of a 1-based line and column (clamped to the text)."""
    start = 0
    for _ in range(line - 1):
        newline = text.find("\n", start)
        if newline < 0:
            return len(text)
        start = newline + 1
    end = text.find("\n", start)
    end = len(text) if end < 0 else end
    return min(start + max(column - 1, 0), end)


def span_at(text: str, offset: int) -> Span:
    """An empty span at an offset."""
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return Span.point(line, column, offset)


def read(source: Source, schema: Schema) -> ConfigDocument:
    """The document of ``source``: its text parsed and bound, when it is a text."""
    if isinstance(source, str):
        return parse_config(Path("config.pbtxt"), source, schema)
    return source


def syntax_tree(source: Source) -> tuple[str, SyntaxTree]:
    """The text of ``source`` and its syntax tree."""
    if isinstance(source, str):
        return source, parse(source).document
    assert source.text is not None and source.syntax is not None  # an editor's text
    return source.text, source.syntax.document


def context_at(source: Source, line: int, column: int, schema: Schema) -> CursorContext:
    """Where the cursor at ``line``/``column`` (1-based, code points) is in ``source``."""
    if isinstance(source, str):
        return context_in(parse(source).document, source, offset_of(source, line, column), schema)
    return locate(source, line, column, schema)[1]


def context_in(document: SyntaxTree, text: str, offset: int, schema: Schema) -> CursorContext:
    """:func:`context_at` for a parsed text and a 0-based offset."""
    return _context(document.fields, [], schema.model_config, len(text), text, offset)


def _context(
    fields: list[Field],
    path: list[str | int],
    descriptor: Descriptor | None,
    limit: int,
    text: str,
    offset: int,
) -> CursorContext:
    """The context of ``offset``, inside the message at ``path`` (of type ``descriptor``)
    whose fields are ``fields`` and whose inside ends at ``limit``."""
    while True:
        inner = _message_at(fields, offset, limit)
        if inner is None:
            break
        name, index, message, limit = inner
        descriptor = _descend(path, descriptor, name, index)
        fields = message.fields
    where = _where(fields, text, offset)
    present = frozenset(
        f.name.text
        for f in fields
        if not f.name.missing and not f.name.span.start <= offset <= f.name.span.end
    )
    return CursorContext(tuple(path), descriptor, *where, present, _step(path))


def _descend(
    path: list[str | int], descriptor: Descriptor | None, name: str, index: int
) -> Descriptor | None:
    """Add the message of field ``name`` (the ``index``-th as written) of a message of type
    ``descriptor`` to ``path``; its type (None where a name on the way is unknown)."""
    field = descriptor.fields_by_name.get(name) if descriptor is not None else None
    repeated = field is not None and field.is_repeated
    path.extend((name, index) if repeated else (name,))
    return field.message_type if field is not None else None


def _contains(message: Message, offset: int, limit: int) -> int | None:
    """The end of the inside of ``message`` if ``offset`` is inside it, else None.

    A brace the parser inserted (never typed) closes nothing the user wrote: the message
    runs on to the next field of its parent.
    """
    end = limit if message.close.missing else message.close.span.start
    if message.open.missing or not (message.open.span.end <= offset <= end):
        return None
    return end


def _message_at(
    fields: list[Field], offset: int, limit: int
) -> tuple[str, int, Message, int] | None:
    """The message value (directly in ``fields``) that holds ``offset``: its field's name,
    its index among that field's elements as written and the end of its inside."""
    seen: dict[str, int] = {}
    for number, field in enumerate(fields):
        bound = fields[number + 1].span.start if number + 1 < len(fields) else limit
        name = field.name.text
        for message in field.messages():
            index = seen.get(name, 0)
            seen[name] = index + 1
            end = _contains(message, offset, bound)
            if end is not None:
                return name, index, message, end
    return None


def _where(fields: list[Field], text: str, offset: int) -> tuple[Position, str | None, str, Span]:
    """Name or value, the field, the prefix typed and the word to replace."""
    for field in fields:
        name = field.name
        if not name.missing and name.span.start <= offset <= name.span.end:
            return Position.NAME, name.text, text[name.span.start : offset], name.span
        if _in_message_list(field, offset):
            return Position.ELEMENT, name.text, "", span_at(text, offset)
        if field.colon is None or field.colon.missing or offset < field.colon.span.end:
            continue
        value = field.value
        scalar = _scalar_at(value, offset)
        if scalar is not None:
            if _on_later_line(field, scalar, text, offset):
                # ``data_type: |`` then a new line: the next word is a field name the
                # parser took for the missing value.
                span = scalar.span
                word = text[span.start : offset]
                if span.start <= offset <= span.end:
                    return Position.NAME, scalar.text, word, span
                continue
            if scalar.missing:
                return Position.VALUE, name.text, "", span_at(text, offset)
            span = scalar.span
            if span.start <= offset <= span.end:
                return Position.VALUE, name.text, text[span.start : offset], span
        if offset <= _value_end(value):
            return Position.VALUE, name.text, "", span_at(text, offset)
    return Position.NAME, None, "", span_at(text, offset)


def _in_message_list(field: Field, offset: int) -> bool:
    """Whether ``offset`` is inside the brackets of ``field``'s list of messages (written
    without a colon, as lists of messages are), outside its elements."""
    value = field.value
    if field.colon is not None and not field.colon.missing:
        return False
    if not isinstance(value, ListValue) or value.open.missing:
        return False
    return value.open.span.end <= offset <= _value_end(value)


def _scalar_at(value: Scalar | Message | ListValue, offset: int) -> Scalar | None:
    """The scalar of ``value`` at or after the cursor: a lone value, or a list element."""
    if isinstance(value, Scalar):
        return value
    if isinstance(value, ListValue):
        for item in value.items:
            if isinstance(item, Scalar) and item.span.start <= offset <= item.span.end:
                return item
    return None


def _value_end(value: Scalar | Message | ListValue) -> int:
    if isinstance(value, ListValue) and value.close.missing:
        return value.close.span.start
    return value.span.end if not isinstance(value, ListValue) else value.close.span.start


def _on_later_line(field: Field, scalar: Scalar, text: str, offset: int) -> bool:
    colon = field.colon
    assert colon is not None
    if scalar.missing or scalar.span.line == colon.span.line:
        return False
    return text.count("\n", colon.span.end, offset) > 0


def _step(path: list[str | int]) -> int | None:
    for number in range(len(path) - 2):
        if path[number : number + 2] == ["ensemble_scheduling", "step"]:
            index = path[number + 2]
            return index if isinstance(index, int) else None
    return None


def locate(
    source: Source, line: int, column: int, schema: Schema
) -> tuple[ConfigDocument, CursorContext]:
    """The parsed and bound text, and where the cursor is in it.

    In the document of an edited text whose tree is built only up to the message edited
    (see :mod:`tritonlint.syntax.incremental`), a cursor in that message is found from it.
    """
    document = read(source, schema)
    text = document.text
    assert text is not None and document.syntax is not None  # an editor's text
    offset = offset_of(text, line, column)
    focus = focus_at(document.syntax, offset)
    if focus is None:
        return document, context_in(document.syntax.document, text, offset, schema)
    path: list[str | int] = []
    descriptor: Descriptor | None = schema.model_config
    for name, index in focus[0]:
        descriptor = _descend(path, descriptor, name, index)
    inside = focus[1].fields
    return document, _context(inside, path, descriptor, focus[1].close.span.start, text, offset)
