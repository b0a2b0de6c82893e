"""Print a concrete syntax tree in the canonical layout (``docs/formatting.md``).

Fields keep their order; each goes on its own line, indented two spaces per level. A message
is ``name {`` ... ``}`` (``name { }`` when empty), a list of messages one ``{ }`` block per
element, a list of scalars on one line when it fits in :data:`LINE_WIDTH` columns. Every
comment is printed where it was: before the field it leads, after the code on its line, or
at the end of its message or of the file. One blank line is kept where the source had one or
more between two fields or comments. A region between ``# tritonlint: format-off`` and
``# tritonlint: format-on`` comments (on lines of their own, among the fields of one message)
is copied as written.

The printer works on a tree without syntax errors; it keeps what protobuf reads from the file
(``tritonlint.format.equivalence`` checks that it did).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from google.protobuf.descriptor import Descriptor

from tritonlint.format.strings import canonical_string
from tritonlint.syntax.cst import (
    Comment,
    Field,
    ListValue,
    Message,
    Scalar,
    ScalarKind,
    SyntaxTree,
)

#: A list of scalars longer than this (its indentation included) gets one element per line.
LINE_WIDTH = 100
INDENT = "  "
#: Between code and the comment after it on the same line.
COMMENT_GAP = "  "

_DIRECTIVE = re.compile(r"#\s*tritonlint:\s*format-(off|on)\s*$")


def directive(comment: Comment) -> str | None:
    """``off`` or ``on`` for a ``# tritonlint: format-off``/``format-on`` comment."""
    found = _DIRECTIVE.match(comment.text)
    return found.group(1) if found else None


def render_scalar(scalar: Scalar) -> str:
    if scalar.kind is ScalarKind.STRING:
        literals = [token.text for token in scalar.tokens]
        canonical = canonical_string(literals)
        return canonical if canonical is not None else " ".join(literals)
    return scalar.text


def scalar_fields(document: SyntaxTree, descriptor: Descriptor) -> frozenset[int]:
    """The fields (by ``id``) that the message ``descriptor`` knows as scalar fields but that
    are written with a ``:`` and a message as their value (``default_model_filename: { }``):
    the printer keeps their colon, without which the binder finds a syntax error."""
    found: set[int] = set()
    _scalar_fields(document.fields, descriptor, found)
    return frozenset(found)


def _scalar_fields(fields: Sequence[Field], descriptor: Descriptor, found: set[int]) -> None:
    for field in fields:
        known = None if field.name.is_extension else descriptor.fields_by_name.get(field.name.text)
        if known is None:
            continue  # not bound: nothing inside it is read
        values = field.value.items if isinstance(field.value, ListValue) else [field.value]
        messages = [value for value in values if isinstance(value, Message)]
        if known.message_type is None:
            if messages and field.colon is not None:
                found.add(id(field))
            continue
        for message in messages:
            _scalar_fields(message.fields, known.message_type, found)


class Printer:
    """Prints one document; ``source`` is the text it was parsed from. The fields in
    ``keep_colon`` (by ``id``, see :func:`scalar_fields`) keep the ``:`` before a message
    value that every other field loses."""

    def __init__(self, source: str, keep_colon: frozenset[int] = frozenset()) -> None:
        self.source = source
        self.keep_colon = keep_colon
        self.lines: list[str] = []

    def document(self, document: SyntaxTree) -> str:
        self._block(document.fields, document.trailing_comments, 0)
        return "\n".join(self.lines) + "\n" if self.lines else ""

    # -- blocks: the fields and comments of one message ------------------------------------

    def _block(
        self,
        fields: Sequence[Field],
        tail: Sequence[Comment],
        depth: int,
        skip: Comment | None = None,
    ) -> None:
        """The fields of a message with their comments, and the comments after them.

        ``skip`` is a comment already printed on the line that opens the message.
        """
        entries: list[Comment | Field] = []
        for field in fields:
            entries.extend(
                c
                for c in field.leading_comments
                if c.span.start < field.span.start and c is not skip
            )
            entries.append(field)
        entries.extend(c for c in tail if c is not skip)
        previous_end: int | None = None
        index = 0
        while index < len(entries):
            entry = entries[index]
            start = entry.span.start
            if previous_end is not None and self._blank_between(previous_end, start):
                self.lines.append("")
            if isinstance(entry, Comment) and self._turns_off(entry):
                index, previous_end = self._verbatim(entries, index)
                continue
            if isinstance(entry, Comment):
                self.lines.append(INDENT * depth + _comment_text(entry))
                previous_end = entry.span.end
            else:
                self._field(entry, depth)
                previous_end = _end_of(entry)
            index += 1

    def _blank_between(self, end: int, start: int) -> bool:
        return self.source.count("\n", end, start) >= 2

    def _blank_if_between(self, end: int | None, start: int) -> None:
        """A blank line where the source has one or more between two list elements."""
        if end is not None and self._blank_between(end, start):
            self.lines.append("")

    def _turns_off(self, comment: Comment) -> bool:
        return directive(comment) == "off" and self._own_line(comment)

    def _own_line(self, comment: Comment) -> bool:
        line_start = self.source.rfind("\n", 0, comment.span.start) + 1
        return not self.source[line_start : comment.span.start].strip()

    def _verbatim(self, entries: list[Comment | Field], first: int) -> tuple[int, int]:
        """Copy the source from the format-off comment ``entries[first]`` to the end of the
        line of the next format-on comment (else to the end of the last entry); returns the
        index of the entry after the region and where the region ends in the source."""
        last = len(entries) - 1
        for index in range(first + 1, len(entries)):
            entry = entries[index]
            if isinstance(entry, Comment) and directive(entry) == "on" and self._own_line(entry):
                last = index
                break
        start = self.source.rfind("\n", 0, entries[first].span.start) + 1
        end = _end_of(entries[last])
        self.lines.extend(self.source[start:end].split("\n"))
        return last + 1, end

    # -- fields ----------------------------------------------------------------------------

    def _field(self, field: Field, depth: int) -> None:
        indent = INDENT * depth
        inside = [c for c in field.leading_comments if c.span.start > field.span.start]
        value = field.value
        name = f"[{field.name.text}]" if field.name.is_extension else field.name.text
        trailing = field.trailing_comment
        if isinstance(value, Scalar):
            self._hoist(inside, depth)
            self._line(f"{indent}{name}: {render_scalar(value)}", trailing)
        elif isinstance(value, Message):
            self._hoist(inside, depth)
            colon = ":" if id(field) in self.keep_colon else ""
            self._message(f"{indent}{name}{colon} ", value, depth, "", trailing)
        else:
            before_open = [c for c in inside if c.span.start < value.open.span.start]
            self._hoist(before_open, depth)
            in_list = [c for c in inside if c.span.start > value.open.span.start]
            self._list(field, name, value, in_list, depth)

    def _hoist(self, comments: Sequence[Comment], depth: int) -> None:
        """Comments inside a field but not inside its values (between its name and value):
        printed on their own lines before it."""
        for comment in comments:
            self.lines.append(INDENT * depth + _comment_text(comment))

    def _line(self, code: str, comment: Comment | None) -> None:
        self.lines.append(code if comment is None else code + COMMENT_GAP + _comment_text(comment))

    def _message(
        self, opening: str, message: Message, depth: int, after: str, trailing: Comment | None
    ) -> None:
        """``opening{`` ... ``}after`` (``after``: the comma after a list element), with
        ``trailing`` after the closing brace."""
        if message.fields:
            first_start = message.fields[0].span.start
            first = [c for c in message.fields[0].leading_comments if c.span.start < first_start]
        else:
            first = message.inner_comments
        on_open = next((c for c in first if c.span.line == message.open.span.line), None)
        if not message.fields and not message.inner_comments:
            self._line(f"{opening}{{ }}{after}", trailing)
            return
        self._line(f"{opening}{{", on_open)
        self._block(message.fields, message.inner_comments, depth + 1, skip=on_open)
        self._line(f"{INDENT * depth}}}{after}", trailing)

    # -- lists -----------------------------------------------------------------------------

    def _list(
        self, field: Field, name: str, value: ListValue, comments: list[Comment], depth: int
    ) -> None:
        indent = INDENT * depth
        messages = any(isinstance(item, Message) for item in value.items)
        kept = not messages or id(field) in self.keep_colon
        colon = ":" if field.colon is not None and kept else ""
        opening = f"{indent}{name}{colon} ["
        trailing = field.trailing_comment
        if not value.items and not comments:
            self._line(f"{opening} ]", trailing)
            return
        scalars = [item for item in value.items if isinstance(item, Scalar)]
        if not messages and not comments:
            one_line = f"{opening} {', '.join(render_scalar(item) for item in scalars)} ]"
            if len(one_line) <= LINE_WIDTH:
                self._line(one_line, trailing)
                return
        self._list_block(opening, value, comments, depth, trailing)

    def _list_block(
        self,
        opening: str,
        value: ListValue,
        comments: list[Comment],
        depth: int,
        trailing: Comment | None,
    ) -> None:
        """One element per line (a message: per block), with the comments between them: a
        comment on the line of the bracket or of an element stays on that line."""
        pending = list(comments)
        on_open = _take_on_line(pending, value.open.span.line, before=_next_start(value, -1))
        self._line(opening, on_open)
        inner = INDENT * (depth + 1)
        previous_end: int | None = None  # no blank line after the opening bracket
        last = len(value.items) - 1
        for index, item in enumerate(value.items):
            while pending and pending[0].span.start < item.span.start:
                comment = pending.pop(0)
                self._blank_if_between(previous_end, comment.span.start)
                self.lines.append(inner + _comment_text(comment))
                previous_end = comment.span.end
            self._blank_if_between(previous_end, item.span.start)
            comma = "," if index < last else ""
            after_item = _take_on_line(
                pending, item.span.end_line, before=_next_start(value, index)
            )
            if isinstance(item, Message):
                self._message(inner, item, depth + 1, comma, after_item)
            else:
                self._line(inner + render_scalar(item) + comma, after_item)
            previous_end = after_item.span.end if after_item else item.span.end
        for comment in pending:
            self._blank_if_between(previous_end, comment.span.start)
            self.lines.append(inner + _comment_text(comment))
            previous_end = comment.span.end
        self._line(f"{INDENT * depth}]", trailing)


def _next_start(value: ListValue, index: int) -> int:
    """Where the element after ``value.items[index]`` starts (else the closing bracket)."""
    items = value.items
    return items[index + 1].span.start if index + 1 < len(items) else value.close.span.start


def _take_on_line(pending: list[Comment], line: int, before: int) -> Comment | None:
    """Remove and return the first pending comment, when it is on ``line`` and before the
    offset ``before``."""
    if pending and pending[0].span.line == line and pending[0].span.start < before:
        return pending.pop(0)
    return None


def _comment_text(comment: Comment) -> str:
    return comment.text.rstrip()


def _end_of(entry: Comment | Field) -> int:
    """Where an entry ends in the source, the comment after a field included."""
    if isinstance(entry, Field) and entry.trailing_comment is not None:
        return entry.trailing_comment.span.end
    return entry.span.end
