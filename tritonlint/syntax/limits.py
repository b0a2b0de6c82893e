"""Limits on what one file may make the parser keep, applied to the tokens before it sees them.

**Nesting.** No real config nests messages more than a few levels deep (``ModelConfig``'s
deepest field is under ten), but a hostile or broken file can open thousands:
``a { a { a { ...``. Each level costs the parser, its recovery and every walk of the tree,
so a message opened deeper than :data:`MAX_NESTING` is read as empty: the tokens inside
it, up to its closing delimiter, are passed over without being parsed, and one syntax error
says so. The limit is the default recursion limit of protobuf's parsers of the binary
format (Python's ``text_format`` takes one as ``max_recursion_depth``).

**Adjacent string literals.** Protobuf concatenates adjacent string literals (``"a" "b"``)
into one value, and a config may split a long string over lines so; but each literal is a
token the parser keeps (with its span, about 300 bytes), so that ``"" "" "" ...`` costs over
a hundred times its size. The literals of one value after the first
:data:`MAX_ADJACENT_STRINGS` are passed over without being kept, and one syntax error says so.
"""

from __future__ import annotations

from collections.abc import Iterator

from tritonlint.syntax.cst import Token
from tritonlint.syntax.problems import SyntaxProblem
from tritonlint.syntax.tables import END

#: The most adjacent string literals one value is read from.
MAX_ADJACENT_STRINGS = 10_000

#: The deepest a message may be nested (fields at the top of the file are at depth 0; the
#: message of one of them is at depth 1).
MAX_NESTING = 100

_OPENERS = frozenset({"LBRACE", "LANGLE"})
_CLOSERS = frozenset({"RBRACE", "RANGLE"})


def limit_nesting(tokens: Iterator[Token], problems: list[SyntaxProblem]) -> Iterator[Token]:
    """``tokens``, less the inside of each message nested deeper than :data:`MAX_NESTING`
    (its delimiters are kept, so that the parser reads an empty message); a problem for each
    such message is appended to ``problems``."""
    depth = 0
    for token in tokens:
        kind = token.kind
        if kind in _OPENERS:
            if depth == MAX_NESTING:
                problems.append(_too_deep(token))
                yield token
                token = _skip_inside(tokens)
                kind = token.kind
                if kind == END:
                    yield token
                    return
            else:
                depth += 1
        elif kind in _CLOSERS and depth:
            depth -= 1
        yield token


def _skip_inside(tokens: Iterator[Token]) -> Token:
    """Pass over the tokens of a message whose opening delimiter was just read; the token
    that closes it (or the end of the text)."""
    inner = 0
    for token in tokens:
        kind = token.kind
        if kind in _OPENERS:
            inner += 1
        elif kind in _CLOSERS:
            if not inner:
                return token
            inner -= 1
        elif kind == END:
            return token
    raise AssertionError("the tokens end with END")


def _too_deep(opener: Token) -> SyntaxProblem:
    return SyntaxProblem(
        f"message nested more than {MAX_NESTING} levels deep; what this '{opener.text}' "
        "opens is not read",
        opener.span,
    )


def limit_string_runs(tokens: Iterator[Token], problems: list[SyntaxProblem]) -> Iterator[Token]:
    """``tokens``, less the string literals of each run of adjacent ones after the first
    :data:`MAX_ADJACENT_STRINGS`; a problem for each run cut so is appended to
    ``problems``."""
    run = 0
    first: Token | None = None
    last: Token | None = None
    for token in tokens:
        if token.kind == "STRING":
            run += 1
            if run > MAX_ADJACENT_STRINGS:
                if first is None:
                    first = token
                last = token
                continue
        else:
            if first is not None and last is not None:
                problems.append(_too_many(first, last, run - MAX_ADJACENT_STRINGS))
                first = last = None
            run = 0
        yield token


def beyond_limits(tokens: list[Token], depth: int) -> bool:
    """Whether ``tokens``, read inside messages ``depth`` deep, open a message deeper than
    :data:`MAX_NESTING` or hold more than :data:`MAX_ADJACENT_STRINGS` adjacent string
    literals."""
    run = 0
    for token in tokens:
        if token.kind == "STRING":
            run += 1
            if run > MAX_ADJACENT_STRINGS:
                return True
            continue
        run = 0
        if token.kind in _OPENERS:
            depth += 1
            if depth > MAX_NESTING:
                return True
        elif token.kind in _CLOSERS:
            depth -= 1
    return False


def _too_many(first: Token, last: Token, left_out: int) -> SyntaxProblem:
    rest = "the one after them is" if left_out == 1 else f"the {left_out:,} after them are"
    return SyntaxProblem(
        f"more than {MAX_ADJACENT_STRINGS:,} adjacent string literals make one value; "
        f"{rest} not read",
        first.span.cover(last.span),
    )
