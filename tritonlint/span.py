"""Source positions shared by every stage."""

from __future__ import annotations

from typing import NamedTuple


class Span(NamedTuple):
    """A range in a text file.

    Lines and columns are 1-based and count Unicode code points; ``end_column`` is exclusive
    (the column just after the last character). ``start``/``end`` are 0-based offsets into
    the decoded text. (A named tuple: the parser makes one per token.)
    """

    line: int
    column: int
    end_line: int
    end_column: int
    start: int
    end: int

    def cover(self, other: Span) -> Span:
        """The smallest span that contains both ``self`` and ``other``."""
        first, last = (self, other) if self.start <= other.start else (other, self)
        end = last if last.end >= first.end else first
        return Span(first.line, first.column, end.end_line, end.end_column, first.start, end.end)

    @classmethod
    def point(cls, line: int, column: int, offset: int) -> Span:
        """An empty span at one position."""
        return cls(line, column, line, column, offset, offset)
