"""Where the nodes of a tree are after a stretch of its text was replaced.

An edit replaces the old text from ``start`` to ``end`` (offsets) with a text of another
length. A node that ends at or before ``start`` is where it was. A node that begins at or
after ``end`` moved: by ``delta`` offsets and ``lines`` lines, and, when it is on the line
where the replaced stretch ended, by ``columns`` columns as well. A node around the stretch
(the message or list holding it) keeps its start and its end moved. The nodes within the
stretch are parsed again, not moved.

Spans and tokens are immutable, so moving a node makes a new one: moving costs time in
proportion to what is after the edit, and it is kept to plain tuple making (a named tuple's
own constructor takes keyword arguments, and is several times slower). An edit that leaves
the text after it where it was (one that replaces characters by as many, on a line) moves
nothing: the nodes after it are the old ones. So no moved node is changed in place.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from tritonlint.diagnostics import Fix, TextEdit
from tritonlint.span import Span
from tritonlint.syntax.cst import (
    Comment,
    Field,
    FieldName,
    ListValue,
    Message,
    Scalar,
    Token,
    Value,
)

_new = tuple.__new__


def _same(node: Any) -> Any:
    return node


class Moved(NamedTuple):
    """Functions moving nodes that are all after the edited stretch."""

    span: Callable[[Span], Span]
    token: Callable[[Token], Token]
    comment: Callable[[Comment], Comment]
    value: Callable[[Value], Value]
    #: An item of a list.
    item: Callable[[Scalar | Message], Scalar | Message]
    field: Callable[[Field], Field]


class Shift:
    """How an edit moved the text after the stretch it replaced (see the module's text)."""

    __slots__ = ("columns", "delta", "end", "line", "lines", "moved", "start")

    def __init__(
        self, start: int, end: int, delta: int, lines: int, line: int, columns: int
    ) -> None:
        self.start = start
        self.end = end
        self.delta = delta
        self.lines = lines
        #: The (old) line on which the replaced stretch ended.
        self.line = line
        self.columns = columns
        self.moved = _movers(delta, lines, line, columns)

    def span(self, span: Span) -> Span:
        """Where ``span`` is now: any span that does not overlap the stretch partly."""
        if span[5] <= self.start:
            return span
        if span[4] >= self.end:
            return self.moved.span(span)
        end_line, end_column = span[2], span[3]
        if end_line == self.line:
            end_column += self.columns
        return _new(
            Span,
            (span[0], span[1], end_line + self.lines, end_column, span[4], span[5] + self.delta),
        )

    def comment(self, comment: Comment) -> Comment:
        return comment if comment[1][5] <= self.start else self.moved.comment(comment)

    def comments(self, comments: list[Comment]) -> list[Comment]:
        return [self.comment(comment) for comment in comments]

    def fixes(self, fixes: tuple[Fix, ...]) -> tuple[Fix, ...]:
        """``fixes`` with the spans of their edits moved."""
        if not fixes:
            return fixes
        return tuple(
            fix._replace(
                edits=tuple(
                    TextEdit(self.span(edit.span), edit.new_text, edit.path) for edit in fix.edits
                )
            )
            for fix in fixes
        )

    def related(self, related: tuple[tuple[Span, str], ...]) -> tuple[tuple[Span, str], ...]:
        """Related places, each a span and what it is."""
        return tuple((self.span(span), message) for span, message in related)

    def problem(self, problem: Any) -> Any:
        """A problem (a named tuple with ``span`` and ``fixes``, and maybe ``related``) moved."""
        changes: dict[str, Any] = {"span": self.span(problem.span)}
        if problem.fixes:
            changes["fixes"] = self.fixes(problem.fixes)
        if getattr(problem, "related", None):
            changes["related"] = self.related(problem.related)
        return problem._replace(**changes)


def _movers(delta: int, lines: int, line: int, columns: int) -> Moved:
    """The functions of :class:`Moved` for one shift (closures: the hot loop of a re-parse
    looks nothing up but local names)."""
    if not (delta or lines or columns):
        return Moved(*(_same,) * 6)  # each takes a node and gives it back

    def span(old: Span) -> Span:
        first, column, last, end_column, start, end = old
        if first == line:
            column += columns
        if last == line:
            end_column += columns
        return _new(
            Span, (first + lines, column, last + lines, end_column, start + delta, end + delta)
        )

    def token(old: Token) -> Token:
        return _new(Token, (old[0], old[1], span(old[2]), old[3]))

    def comment(old: Comment) -> Comment:
        return _new(Comment, (old[0], span(old[1])))

    def item(old: Scalar | Message) -> Scalar | Message:
        if isinstance(old, Scalar):
            return Scalar(old.kind, [token(t) for t in old.tokens], span(old.span))
        return Message(
            token(old.open),
            [field(f) for f in old.fields],
            token(old.close),
            span(old.span),
            [comment(c) for c in old.inner_comments],
        )

    def value(old: Value) -> Value:
        if isinstance(old, ListValue):
            items = [item(i) for i in old.items]
            return ListValue(token(old.open), items, token(old.close), span(old.span))
        return item(old)

    def field(old: Field) -> Field:
        name = old.name
        colon, separator, trailing = old.colon, old.separator, old.trailing_comment
        return Field(
            _new(FieldName, (name[0], span(name[1]), name[2], name[3])),
            None if colon is None else token(colon),
            value(old.value),
            None if separator is None else token(separator),
            span(old.span),
            [comment(c) for c in old.leading_comments],
            None if trailing is None else comment(trailing),
        )

    return Moved(span, token, comment, value, item, field)
