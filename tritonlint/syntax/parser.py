"""Text → concrete syntax tree, with the grammar in ``grammar/pbtxt.lark``.

The parser runs the grammar's LALR(1) tables (shipped in ``grammar/pbtxt.tables.json``) over
the tokens of the text. It never stops at the first mistake: ``tritonlint.syntax.recovery``
reports what was expected and puts the parser back on its feet, and parsing carries on.

Every parse has its own tokens, stacks, tree builder and problems; what parses share (the
tables, the token expression) never changes, so parses may run in several threads at once.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from functools import lru_cache
from typing import Protocol

from tritonlint.span import Span
from tritonlint.syntax.builder import Reducer, TreeBuilder, reducers
from tritonlint.syntax.comments import attach_comments
from tritonlint.syntax.cst import Comment, Field, SyntaxTree, Token
from tritonlint.syntax.foreign import foreign_problem
from tritonlint.syntax.lalr import LalrParser
from tritonlint.syntax.lexer import tokenize
from tritonlint.syntax.limits import limit_nesting, limit_string_runs
from tritonlint.syntax.problems import SyntaxProblem
from tritonlint.syntax.recovery import Recovery
from tritonlint.syntax.tables import load_tables

__all__ = ["MAX_SYNTAX_ERRORS", "ParseResult", "SyntaxProblem", "parse", "parse_fields"]

#: A file with more syntax errors than this is not worth reading further.
MAX_SYNTAX_ERRORS = 50


class Pending(Protocol):
    """A tree to be built when it is first read (see ``tritonlint.syntax.incremental``)."""

    def build(self, comments: list[Comment]) -> SyntaxTree: ...


class ParseResult:
    """A text's syntax tree, its comments and the problems found in it.

    The tree of a re-parsed text may be built only when it is first read (``pending``):
    a check reads the comments and the problems, and the binding of the re-read fields, but
    rarely the whole tree.
    """

    __slots__ = ("_document", "_lock", "comments", "pending", "problems", "recovered")

    def __init__(
        self,
        document: SyntaxTree | None,
        problems: list[SyntaxProblem],
        recovered: bool = False,
        *,
        comments: list[Comment] | None = None,
        pending: Pending | None = None,
    ) -> None:
        """``document``: the tree, or None with ``pending`` and ``comments`` given."""
        assert document is not None or pending is not None
        self._document = document
        self._lock = threading.Lock() if document is None else None
        self.problems = problems
        #: Whether the tree is a guess: the parser had to recover from a syntax error, or
        #: the text was recognised as another language and its tree dropped.
        self.recovered = recovered
        if document is not None:
            comments = document.comments
        assert comments is not None
        #: Every comment of the text, in order.
        self.comments = comments
        #: How the tree is built, for a tree made from another one (kept once it is built:
        #: the next edit may be re-read from it again).
        self.pending = pending

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ParseResult):
            return NotImplemented
        return (self.document, self.problems, self.recovered) == (
            other.document,
            other.problems,
            other.recovered,
        )

    __hash__ = None  # type: ignore[assignment]  # mutable, as the tree it holds

    @property
    def built(self) -> bool:
        """Whether the tree is built (it is, unless it is pending and nobody read it)."""
        return self._document is not None

    @property
    def document(self) -> SyntaxTree:
        document = self._document
        if document is None:
            assert self._lock is not None and self.pending is not None
            with self._lock:  # one thread builds it; another asking meanwhile waits for it
                if self._document is None:
                    self._document = self.pending.build(self.comments)
                document = self._document
        return document


def parse(text: str) -> ParseResult:
    """Parse text-format source into a CST; never raises on bad input.

    After :data:`MAX_SYNTAX_ERRORS` syntax errors the rest of the text is not read, and the
    tree ends where the next one was found. A message nested deeper than
    :data:`~tritonlint.syntax.limits.MAX_NESTING` is read as empty, and the adjacent string
    literals of a value after :data:`~tritonlint.syntax.limits.MAX_ADJACENT_STRINGS` are left
    out (one syntax error each).
    A refused file that is JSON or Python source has that one problem and no fields (see
    ``tritonlint.syntax.foreign``).
    """
    comments: list[Comment] = []
    limited: list[SyntaxProblem] = []
    tokens = limit_nesting(limit_string_runs(tokenize(text, comments), limited), limited)
    builder = TreeBuilder()
    parser = LalrParser(load_tables(), _reducers(), builder)
    refused = parser.run(tokens)
    problems: list[SyntaxProblem] = []
    recovered = refused is not None
    if refused is not None:
        recovery = Recovery(parser, tokens, MAX_SYNTAX_ERRORS - len(limited))
        recovery.resume(refused)
        problems = recovery.problems
    if limited:
        problems = [*problems, *limited]
        recovered = True
    document: SyntaxTree = parser.result or SyntaxTree([], [], Span(1, 1, 1, 1, 0, 0))
    problems = sorted([*problems, *builder.problems], key=lambda p: p.span.start)
    foreign = foreign_problem(text) if problems else None
    if foreign is not None:
        problems = [foreign]
        document = SyntaxTree([], [], document.span)
        recovered = True
    document.comments = comments
    attach_comments(document)
    return ParseResult(document, problems, recovered)


def parse_fields(tokens: Iterator[Token]) -> tuple[list[Field], list[SyntaxProblem]] | None:
    """The fields that ``tokens`` (ending with :data:`~tritonlint.syntax.tables.END`) are,
    with the problems found in their tokens; None when they are not a sequence of fields
    without syntax errors. Comments are not attached.
    """
    builder = TreeBuilder()
    parser = LalrParser(load_tables(), _reducers(), builder)
    if parser.run(tokens) is not None or parser.result is None:
        return None
    return parser.result.fields, builder.problems


@lru_cache(maxsize=1)
def _reducers() -> tuple[Reducer, ...]:
    return reducers(load_tables().rules)
