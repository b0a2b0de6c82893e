"""Text → concrete syntax tree, with the grammar in ``grammar/pbtxt.lark``.

The parser runs the grammar's LALR(1) tables (shipped in ``grammar/pbtxt.tables.json``) over
the tokens of the text. It never stops at the first mistake: ``tritonlint.syntax.recovery``
reports what was expected and puts the parser back on its feet, and parsing carries on.

Every parse has its own tokens, stacks, tree builder and problems; what parses share (the
tables, the token expression) never changes, so parses may run in several threads at once.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache

from tritonlint.span import Span
from tritonlint.stage_rules import StageRule
from tritonlint.syntax.builder import Reducer, TreeBuilder, reducers
from tritonlint.syntax.comments import attach_comments
from tritonlint.syntax.cst import Comment, Document
from tritonlint.syntax.lalr import LalrParser
from tritonlint.syntax.lexer import tokenize
from tritonlint.syntax.problems import SyntaxProblem
from tritonlint.syntax.recovery import Recovery
from tritonlint.syntax.tables import load_tables

__all__ = ["MAX_SYNTAX_ERRORS", "ParseResult", "SyntaxProblem", "parse"]

#: A file with more syntax errors than this is not worth reading further.
MAX_SYNTAX_ERRORS = 50


@dataclass(slots=True)
class ParseResult:
    document: Document
    problems: list[SyntaxProblem]


def parse(text: str) -> ParseResult:
    """Parse text-format source into a CST; never raises on bad input.

    After :data:`MAX_SYNTAX_ERRORS` syntax errors the rest of the text is not read, and the
    tree ends where the next one was found.
    """
    comments: list[Comment] = []
    tokens = tokenize(text, comments)
    builder = TreeBuilder()
    parser = LalrParser(load_tables(), _reducers(), builder)
    refused = parser.run(tokens)
    problems: list[SyntaxProblem] = []
    if refused is not None:
        recovery = Recovery(parser, tokens, MAX_SYNTAX_ERRORS)
        recovery.resume(refused)
        problems = recovery.problems
    document: Document = parser.result or Document([], [], Span(1, 1, 1, 1, 0, 0))
    document.comments = comments
    attach_comments(document)
    problems = sorted([*problems, *builder.problems], key=lambda p: p.span.start)
    if problems and _looks_like_json(text):
        problems = [_json_problem(text)]
    return ParseResult(document, problems)


@lru_cache(maxsize=1)
def _reducers() -> tuple[Reducer, ...]:
    return reducers(load_tables().rules)


_JSON_KEY = re.compile(r'^\s*\{\s*"[A-Za-z_]+"\s*:', re.DOTALL)


def _looks_like_json(text: str) -> bool:
    """A JSON object (what the server's config endpoint returns), not text format."""
    if _JSON_KEY.match(text) is None:
        return False
    try:
        return isinstance(json.loads(text), dict)
    except (ValueError, RecursionError):
        return True  # JSON-shaped, with a mistake of its own (or nested too deep to read)


def _json_problem(text: str) -> SyntaxProblem:
    offset = len(text) - len(text.lstrip())
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return SyntaxProblem(
        "this file is JSON (as GET /v2/models/<model>/config returns it), not protobuf text "
        'format: write `name: "x"` for `"name": "x"`, `input [ { ... } ]` for `"input": '
        "[ { ... } ]`, and drop the outer braces",
        Span(line, column, line, column + 1, offset, offset + 1),
        kind=StageRule.JSON_CONFIG,
    )
