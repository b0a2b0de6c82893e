"""Text → concrete syntax tree, with the grammar in ``grammar/pbtxt.lark``.

The parser runs the grammar's LALR(1) tables (shipped in ``grammar/pbtxt.tables.json``) over
the tokens of the text. It never stops at the first mistake: ``tritonlint.syntax.recovery``
reports what was expected and puts the parser back on its feet, and parsing carries on.

Every parse has its own tokens, stacks, tree builder and problems; what parses share (the
tables, the token expression) never changes, so parses may run in several threads at once.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from tritonlint.span import Span
from tritonlint.syntax.builder import Reducer, TreeBuilder, reducers
from tritonlint.syntax.comments import attach_comments
from tritonlint.syntax.cst import Comment, Document, Field, Token
from tritonlint.syntax.foreign import foreign_problem
from tritonlint.syntax.lalr import LalrParser
from tritonlint.syntax.lexer import tokenize
from tritonlint.syntax.problems import SyntaxProblem
from tritonlint.syntax.recovery import Recovery
from tritonlint.syntax.tables import load_tables

__all__ = ["MAX_SYNTAX_ERRORS", "ParseResult", "SyntaxProblem", "parse", "parse_fields"]

#: A file with more syntax errors than this is not worth reading further.
MAX_SYNTAX_ERRORS = 50


@dataclass(slots=True)
class ParseResult:
    document: Document
    problems: list[SyntaxProblem]
    #: Whether the tree is a guess: the parser had to recover from a syntax error, or the
    #: text was recognised as another language and its tree dropped.
    recovered: bool = False


def parse(text: str) -> ParseResult:
    """Parse text-format source into a CST; never raises on bad input.

    After :data:`MAX_SYNTAX_ERRORS` syntax errors the rest of the text is not read, and the
    tree ends where the next one was found. A refused file that is JSON or Python source has
    that one problem and no fields (see ``tritonlint.syntax.foreign``).
    """
    comments: list[Comment] = []
    tokens = tokenize(text, comments)
    builder = TreeBuilder()
    parser = LalrParser(load_tables(), _reducers(), builder)
    refused = parser.run(tokens)
    problems: list[SyntaxProblem] = []
    recovered = refused is not None
    if refused is not None:
        recovery = Recovery(parser, tokens, MAX_SYNTAX_ERRORS)
        recovery.resume(refused)
        problems = recovery.problems
    document: Document = parser.result or Document([], [], Span(1, 1, 1, 1, 0, 0))
    problems = sorted([*problems, *builder.problems], key=lambda p: p.span.start)
    foreign = foreign_problem(text) if problems else None
    if foreign is not None:
        problems = [foreign]
        document = Document([], [], document.span)
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
