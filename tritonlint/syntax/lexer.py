"""Text → tokens, as lark's basic lexer would cut it, with comments kept apart.

Tokens come from one compiled regular expression built from the grammar's own terminals, in
the order lark's lexer tries them, and are made directly as CST tokens, one at a time as the
parser asks for them (a parse that stops early has not cut the rest of the text). Characters
no terminal matches become one :data:`STRAY` token per run (up to whitespace or the next
token), which the parser reports as a syntax error; the text after them is read on.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from tritonlint.span import Span
from tritonlint.syntax.cst import Comment, Token
from tritonlint.syntax.tables import COMMENT, END, token_pattern

#: The kind of a run of characters that no terminal matches (not a terminal of the grammar).
STRAY = "$STRAY"

_SPACE = re.compile(r"\s*")
_A_SPACE = re.compile(r"\s")


def tokenize(
    text: str, comments: list[Comment], offset: int = 0, line: int = 1, line_start: int = 0
) -> Iterator[Token]:
    """The tokens of ``text``, ending with an empty :data:`END` token at its end.

    Comments are not tokens: they are appended to ``comments`` as they are passed.
    No token of the grammar spans lines (strings and comments end at a newline), so lines
    are counted only in the whitespace skipped before each token.

    ``offset``: where to begin, a place where a token of the whole text ends (or 0), on
    line ``line``, which begins at offset ``line_start``.
    """
    match = token_pattern().match
    count = text.count
    make_span = tuple.__new__
    position, size = offset, len(text)
    while position < size:
        found = match(text, position)
        if found is not None:
            kind: str = found.lastgroup  # type: ignore[assignment]
            start, end = found.start(kind), found.end()
        else:
            kind = STRAY
            start = _SPACE.match(text, position).end()  # type: ignore[union-attr]
            end = _stray_end(text, start)
        if start != position:  # whitespace skipped before the token
            newlines = count("\n", position, start)
            if newlines:
                line += newlines
                line_start = text.rfind("\n", position, start) + 1
        if start == size:  # only whitespace was left
            break
        span = make_span(
            Span, (line, start - line_start + 1, line, end - line_start + 1, start, end)
        )
        if kind == COMMENT:
            comments.append(Comment(text[start:end], span))
        else:
            yield Token(kind, text[start:end], span)
        position = end
    yield Token(END, "", Span.point(line, size - line_start + 1, size))


def _stray_end(text: str, start: int) -> int:
    """Where the run of stray characters from ``start`` ends: at whitespace, or a token."""
    match = token_pattern().match
    position = start + 1  # nothing matched at start
    while position < len(text) and _A_SPACE.match(text, position) is None:
        if match(text, position) is not None:
            break
        position += 1
    return position
