"""Attach the comments the lexer collected to the nodes they belong to.

A comment on the same line after a field is that field's trailing comment; other comments
lead the next field of the same message; what is left at the end of a message (or of the
file) belongs to that message (or file). Comments inside a field but outside its message
values (between a name and its value, between list elements) stay with the field, in source
order. The walk uses an explicit stack, so deeply nested input cannot exhaust Python's
recursion limit.
"""

from __future__ import annotations

from tritonlint.syntax.cst import Comment, Field, SyntaxTree

#: (the fields of a message, the comments inside it, where the unclaimed ones go)
_Work = tuple[list[Field], list[Comment], list[Comment]]


def attach_comments(document: SyntaxTree) -> None:
    document.trailing_comments = []
    stack: list[_Work] = [(document.fields, document.comments, document.trailing_comments)]
    _attach(stack)


def attach_to_run(
    fields: list[Field], comments: list[Comment], previous: Field | None
) -> list[Comment]:
    """Attach ``comments`` to ``fields``, some of the fields of a message, as
    :func:`attach_comments` does with all of them.

    ``comments`` (sorted) are those from the end of ``previous`` (the field before
    ``fields``; None: they are first in their message) up to the next field or the end of
    the message. A comment on the line where ``previous`` ends becomes its trailing comment
    (it must not have one yet). Returns the comments after the last of ``fields`` that are
    not its trailing comment: they lead the next field, or end the message.
    """
    stack: list[_Work] = []
    rest = _distribute(fields, comments, stack, previous)
    _attach(stack)
    return rest


def _attach(stack: list[_Work]) -> None:
    while stack:
        fields, comments, leftover = stack.pop()
        leftover.extend(_distribute(fields, comments, stack))


def _distribute(
    fields: list[Field],
    comments: list[Comment],
    stack: list[_Work],
    previous: Field | None = None,
) -> list[Comment]:
    """Give ``comments`` (sorted, all inside one message) to ``fields``; return the rest."""
    index = 0
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
        if inside_start < index:
            _inside_field(field, comments[inside_start:index], stack)
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


def _inside_field(field: Field, comments: list[Comment], stack: list[_Work]) -> None:
    """Comments within a field's span: into its messages, or kept by the field in order."""
    index = 0
    for message in field.messages():
        while index < len(comments) and comments[index].span.start < message.span.start:
            field.leading_comments.append(comments[index])
            index += 1
        within_start = index
        while index < len(comments) and comments[index].span.start < message.span.end:
            index += 1
        if within_start < index:
            stack.append((message.fields, comments[within_start:index], message.inner_comments))
    field.leading_comments.extend(comments[index:])
