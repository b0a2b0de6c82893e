"""Whole files in another language saved as config.pbtxt: JSON, or Python source.

Read as text format, such a file is a cascade of syntax errors, none of which says what is
wrong. When a file the parser refused is recognisably one of these, it is reported once, as
what it is, and its tree (a guess made of another language's tokens) is dropped.
"""

from __future__ import annotations

import json
import re

from tritonlint.span import Span
from tritonlint.stage_rules import StageRule
from tritonlint.syntax.problems import SyntaxProblem

_JSON_KEY = re.compile(r'^\s*\{\s*"[A-Za-z_]+"\s*:', re.DOTALL)

#: A line only Python source has: an import, the head of a function or class, a decorator.
_PYTHON_LINE = re.compile(
    r"[ \t]*(?:"
    r"import[ \t]+[A-Za-z_][\w.]*(?:[ \t]+as[ \t]+\w+)?(?:[ \t]*,[ \t]*[\w.]+)*"
    r"|from[ \t]+\.*[\w.]*[ \t]+import[ \t]+.+"
    r"|(?:async[ \t]+)?def[ \t]+\w+[ \t]*\(.*"
    r"|class[ \t]+\w+[ \t]*(?:\(.*\))?[ \t]*:.*"
    r"|@[A-Za-z_][\w.]*(?:\(.*\))?"
    r")[ \t]*\r?$"
)

#: How many such lines make a file Python source, the first meaningful line among them.
_PYTHON_LINES = 2


def foreign_problem(text: str) -> SyntaxProblem | None:
    """The one problem of a file that is JSON or Python source, or None for any other text.

    Only for text the parser refused: valid text format is never another language's file.
    """
    if _looks_like_json(text):
        return _json_problem(text)
    return _python_problem(text)


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


def _python_problem(text: str) -> SyntaxProblem | None:
    """The file's first meaningful line, when it and another line are Python's own.

    Comments (``#``) and blank lines mean the same in both languages and are passed over.
    """
    first: Span | None = None
    found = 0
    offset = 0
    for number, line in enumerate(text.split("\n"), start=1):
        content = line.strip()
        if content and not content.startswith("#"):
            python = _PYTHON_LINE.fullmatch(line) is not None
            if first is None:
                if not python:
                    return None
                column = len(line) - len(line.lstrip())
                start, width = offset + column, len(content)
                first = Span(number, column + 1, number, column + 1 + width, start, start + width)
            found += python
            if found >= _PYTHON_LINES:
                return SyntaxProblem(
                    "this file is Python source, not a model configuration: a Python "
                    "backend's code goes in the model's version folder as model.py (e.g. "
                    "1/model.py), and config.pbtxt holds the configuration in protobuf text "
                    "format",
                    first,
                    kind=StageRule.PYTHON_SOURCE,
                )
        offset += len(line) + 1
    return None
