"""The text edits that fixes are made of: quote a value, insert a field, remove fields.

Every edit is computed from the spans the parser recorded (and, to insert a field on a line
of its own, the text), so that its offsets and its lines and columns agree.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from google.protobuf import text_encoding

from tritonlint.diagnostics import TextEdit
from tritonlint.span import Span
from tritonlint.syntax.cst import Comment, Field

#: A position in a text: 1-based line and column, 0-based offset.
_Position = tuple[int, int, int]


def quote(value: str) -> str | None:
    """``value`` as a text-format string literal (None when it is not valid Unicode text)."""
    try:
        raw = value.encode("utf-8")
    except UnicodeEncodeError:
        return None  # a file name that is not UTF-8 on disk: no config string can equal it
    return '"' + text_encoding.CEscape(raw, as_utf8=True) + '"'


def insert_field_after(text: str, after: Span, field_text: str) -> TextEdit:
    """Insert ``field_text`` after the field at ``after``.

    When that field has its line to itself (a comment may follow it), the new field goes on
    a line of its own below it, indented alike; otherwise it follows on the same line.
    """
    line_start = text.rfind("\n", 0, after.start) + 1
    line_end = text.find("\n", after.end)
    if line_end == -1:
        line_end = len(text)
    indent = text[line_start : after.start]
    rest = text[after.end : line_end].strip()
    if indent.strip() or (rest and not rest.startswith("#")):
        return TextEdit(Span.point(*_end(after)), " " + field_text)
    carriage_return = text[after.end : line_end].endswith("\r")
    end_of_line = line_end - 1 if carriage_return else line_end
    column = after.end_column + (end_of_line - after.end)
    newline = "\r\n" if carriage_return else "\n"
    return TextEdit(Span.point(after.end_line, column, end_of_line), newline + indent + field_text)


def remove_fields(fields: Sequence[Field], indexes: Collection[int]) -> tuple[TextEdit, ...]:
    """Edits that remove ``fields[i]`` for each ``i`` in ``indexes``.

    A removed field takes its trailing comment and the space before it back to the field it
    follows (or, first in its message, the space up to the next field), so that no empty
    line is left; comments above it stay. Adjacent fields are removed by one edit.
    """
    edits = []
    chosen = sorted(i for i in indexes if 0 <= i < len(fields))
    position = 0
    # Only the fields removed are visited: one duplicate among many fields costs O(1).
    while position < len(chosen):
        first = index = chosen[position]
        while position + 1 < len(chosen) and chosen[position + 1] == index + 1:
            position += 1
            index += 1
        if first > 0:
            leading = _above(fields[first])
            start = _end(leading[-1].span if leading else _with_comment(fields[first - 1]))
            end = _end(_with_comment(fields[index]))
        elif index + 1 < len(fields):
            following = fields[index + 1]
            start = _start(fields[first].span)
            comments = _above(following)
            end = _start(comments[0].span if comments else following.span)
        else:
            start, end = _start(fields[first].span), _end(_with_comment(fields[index]))
        edits.append(TextEdit(Span(start[0], start[1], end[0], end[1], start[2], end[2]), ""))
        position += 1
    return tuple(edits)


def _above(field: Field) -> list[Comment]:
    """The comments that lead ``field`` from above it (its ``leading_comments`` hold those
    inside it as well: one in its list, one between its name and its value)."""
    return [c for c in field.leading_comments if c.span.start < field.span.start]


def comment_span(comment: Comment) -> Span:
    """The comment's span without the carriage return of a line that ends in CR LF."""
    span = comment.span
    if not comment.text.endswith("\r"):
        return span
    return span._replace(end_column=span.end_column - 1, end=span.end - 1)


def _with_comment(field: Field) -> Span:
    """The field's span, up to the end of its trailing comment if it has one."""
    comment = field.trailing_comment
    return field.span.cover(comment_span(comment)) if comment is not None else field.span


def _start(span: Span) -> _Position:
    return span.line, span.column, span.start


def _end(span: Span) -> _Position:
    return span.end_line, span.end_column, span.end
