"""Format the text of one file: text in, formatted text (or text edits) out, or the reason
it is left alone. What the command line and an editor's document formatting call; it reads
no file and prints nothing."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import NamedTuple

from tritonlint.diagnostics import TextEdit
from tritonlint.document import parse_config
from tritonlint.format.equivalence import protobuf_agrees, same_structure
from tritonlint.format.layout import Printer, scalar_fields
from tritonlint.integrity import new_breakage
from tritonlint.schema.releases import load_schema
from tritonlint.span import Span
from tritonlint.syntax.cst import Comment, SyntaxTree
from tritonlint.syntax.lexer import tokenize
from tritonlint.syntax.parser import parse

#: The path the formatter's own checks bind a text under (they read no file).
_NO_PATH = Path("config.pbtxt")


class Refusal(NamedTuple):
    """Why a text is not formatted; ``span`` is where (a syntax error), when it is somewhere."""

    message: str
    span: Span | None = None


class Formatted(NamedTuple):
    text: str
    #: Whether ``text`` differs from the text that was formatted.
    changed: bool


#: The refusal when a formatted text would not read as the original: a bug of the formatter.
UNSAFE = (
    "the formatted text would not read as the original does, so it is left as it is "
    "(this is a bug of the formatter, please report it)"
)


def format_text(text: str) -> Formatted | Refusal:
    """``text`` in the canonical layout, or why it cannot be formatted.

    A text with a syntax error is refused. The result is checked before it is returned: it
    has the same comments in the same order; where protobuf reads the original as a
    ModelConfig, it must read the result as the same message, else the result must parse to
    the same tree and, bound as a ModelConfig, have no syntax error and no field given twice
    that the original has not (see :mod:`tritonlint.integrity`). Line endings stay as
    the text has them (``\\r\\n`` when its first line ends so, else ``\\n``).
    """
    crlf = "\r\n" in text and text.index("\n") > 0 and text[text.index("\n") - 1] == "\r"
    source = text.replace("\r\n", "\n") if crlf else text
    parsed = parse(source)
    if parsed.problems:
        first = parsed.problems[0]
        more = len(parsed.problems) - 1
        also = f" (and {more} more syntax error{'s' if more > 1 else ''})" if more else ""
        return Refusal(f"syntax error: {first.message}{also}", first.span)
    try:
        keep_colon = scalar_fields(parsed.document, load_schema().model_config)
        formatted = Printer(source, keep_colon).document(parsed.document)
    except RecursionError:
        return Refusal("messages are nested too deeply to format")
    if formatted == source:
        return Formatted(text, False)
    if crlf:
        formatted = formatted.replace("\n", "\r\n")
    kept = _comments(formatted) == [c.text.rstrip() for c in parsed.document.comments]
    if not kept or not _reads_the_same(text, formatted, parsed.document):
        return Refusal(UNSAFE)
    return Formatted(formatted, True)


def _breaks(original: str, formatted: str) -> bool:
    """Whether the binder finds a syntax error or a field given twice in ``formatted`` that
    ``original`` has not (a ``:`` lost before a scalar field's value)."""
    schema = load_schema()
    try:
        before = parse_config(_NO_PATH, original, schema)
        after = parse_config(_NO_PATH, formatted, schema)
    except RecursionError:
        return True
    return new_breakage(before, after) is not None


def _comments(text: str) -> list[str]:
    found: list[Comment] = []
    for _ in tokenize(text, found):
        pass
    return [comment.text.rstrip() for comment in found]


def _reads_the_same(original: str, formatted: str, tree: SyntaxTree) -> bool:
    """protobuf's verdict where it reads the original as a ModelConfig (it reads the same
    message, so nothing it refuses: no syntax error, no field given twice), else the trees'
    and the binder's."""
    verdict = protobuf_agrees(original, formatted)
    if verdict is not None:
        return verdict
    try:
        reparsed = parse(formatted)
        same = not reparsed.problems and same_structure(tree, reparsed.document)
    except RecursionError:
        return False
    return same and not _breaks(original, formatted)


def format_edits(text: str) -> list[TextEdit] | Refusal:
    """The edits that turn ``text`` into its formatted text, whole lines each (an editor
    keeps the cursor and folds of the lines that do not change); none when it is formatted."""
    result = format_text(text)
    if isinstance(result, Refusal):
        return result
    return line_edits(text, result.text)


def line_edits(before: str, after: str) -> list[TextEdit]:
    """Edits of whole lines of ``before`` that make it ``after``."""
    old = before.splitlines(keepends=True)
    new = after.splitlines(keepends=True)
    starts = [0]
    for line in old:
        starts.append(starts[-1] + len(line))
    edits = []
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, first, last, new_first, new_last in matcher.get_opcodes():
        if tag == "equal":
            continue
        span = _line_span(first, last, starts)
        edits.append(TextEdit(span, "".join(new[new_first:new_last])))
    return edits


def _line_span(first: int, last: int, starts: list[int]) -> Span:
    """Lines ``first`` to ``last`` (0-based, ``last`` excluded) as a span from the start of
    one to the start of the other."""
    return Span(first + 1, 1, last + 1, 1, starts[first], starts[last])
