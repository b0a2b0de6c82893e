"""Attach the comments the lexer collected to the nodes they belong to.

A comment on the same line after a field is that field's trailing comment; other comments
lead the next field of the same message; what is left at the end of a message (or of the
file) belongs to that message (or file).
"""

from __future__ import annotations

from tritonlint.syntax.cst import Comment, Document, Field


def attach_comments(document: Document) -> None:
    leftover = _attach(document.fields, document.comments)
    document.trailing_comments = leftover


def _attach(fields: list[Field], comments: list[Comment]) -> list[Comment]:
    """Distribute ``comments`` (sorted, all inside this container) over ``fields``."""
    index = 0
    previous: Field | None = None
    for field in fields:
        start, end = field.span.start, field.span.end
        while index < len(comments) and comments[index].span.start < start:
            comment = comments[index]
            if (
                previous is not None
                and previous.trailing_comment is None
                and comment.span.line == previous.span.end_line
            ):
                previous.trailing_comment = comment
            else:
                field.leading_comments.append(comment)
            index += 1
        inside_start = index
        while index < len(comments) and comments[index].span.start < end:
            index += 1
        inside = comments[inside_start:index]
        if inside:
            _attach_inside(field, inside)
        previous = field
    rest = comments[index:]
    if (
        rest
        and previous is not None
        and previous.trailing_comment is None
        and rest[0].span.line == previous.span.end_line
    ):
        previous.trailing_comment = rest[0]
        rest = rest[1:]
    return rest


def _attach_inside(field: Field, comments: list[Comment]) -> None:
    messages = list(field.messages())
    index = 0
    for message in messages:
        before = index
        while index < len(comments) and comments[index].span.start < message.span.end:
            index += 1
        within = [c for c in comments[before:index] if c.span.start > message.span.start]
        message.inner_comments.extend(_attach(message.fields, within))
    # Comments inside a scalar list, or between a name and its value, stay with the field.
    field.leading_comments.extend(comments[index:])
    field.leading_comments.extend(
        c
        for c in comments[:index]
        if not any(m.span.start < c.span.start < m.span.end for m in messages)
    )
