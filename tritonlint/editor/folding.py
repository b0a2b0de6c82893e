"""Folding ranges of a config: multi-line messages and lists, and runs of comment lines."""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

from tritonlint.editor.context import Source, syntax_tree
from tritonlint.syntax.cst import Comment, ListValue, Message, Value


class FoldKind(Enum):
    #: A message ``{ … }`` or a list ``[ … ]``.
    REGION = "region"
    COMMENT = "comment"


class FoldingRange(NamedTuple):
    #: The line of the opening ``{``/``[`` (or of the run's first comment).
    start_line: int
    #: The line of the closing ``}``/``]`` (where the parser had to insert it, the line
    #: the value ends on), or of the run's last comment.
    end_line: int
    kind: FoldKind


def folding_ranges(source: Source) -> list[FoldingRange]:
    """Every message and list of ``source`` over more than one line, and every run of two or
    more lines holding only a comment, ordered by start line (outer ranges first)."""
    text, document = syntax_tree(source)
    ranges = _comment_runs(text, document.comments)
    stack: list[Value] = [field.value for field in reversed(document.fields)]
    while stack:
        value = stack.pop()
        if isinstance(value, Message):
            stack.extend(field.value for field in reversed(value.fields))
        elif isinstance(value, ListValue):
            stack.extend(reversed(value.items))
        else:
            continue
        start = value.open.span.line
        end = value.span.end_line if value.close.missing else value.close.span.line
        if not value.open.missing and end > start:
            ranges.append(FoldingRange(start, end, FoldKind.REGION))
    return sorted(ranges, key=lambda fold: (fold.start_line, -fold.end_line))


def _comment_runs(text: str, comments: list[Comment]) -> list[FoldingRange]:
    """Runs of consecutive lines that hold a comment and nothing else."""
    lines = [
        comment.span.line
        for comment in comments
        if not text[text.rfind("\n", 0, comment.span.start) + 1 : comment.span.start].strip()
    ]
    runs: list[FoldingRange] = []
    first = previous = None
    for line in [*lines, None]:
        if previous is not None and line != previous + 1:
            assert first is not None
            if previous > first:
                runs.append(FoldingRange(first, previous, FoldKind.COMMENT))
            first = None
        if first is None:
            first = line
        previous = line
    return runs
