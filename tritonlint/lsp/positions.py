"""Engine places to LSP positions.

The engine counts lines from 1 and columns in Unicode code points from 1; LSP counts both
from 0 and columns in the code units of the encoding agreed at start-up (UTF-16 unless the
client prefers UTF-8 or UTF-32). A character outside the Basic Multilingual Plane (an emoji) is one
code point, two UTF-16 code units and four UTF-8 bytes.
"""

from __future__ import annotations

from lsprotocol import types

from tritonlint.span import Span


def units(text: str, encoding: types.PositionEncodingKind) -> int:
    """How many code units ``text`` takes in ``encoding``."""
    if encoding == types.PositionEncodingKind.Utf32:
        return len(text)
    if encoding == types.PositionEncodingKind.Utf8:
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)


class Positions:
    """Converts places in one text; lines are split where the engine splits them (``\\n``)."""

    def __init__(self, text: str, encoding: types.PositionEncodingKind) -> None:
        self.lines = text.split("\n")
        self.encoding = encoding

    def position(self, line: int, column: int) -> types.Position:
        """The LSP position of the engine's (1-based line, 1-based code-point column)."""
        index = min(max(line - 1, 0), len(self.lines) - 1)
        prefix = self.lines[index][: max(column - 1, 0)]
        return types.Position(line=index, character=units(prefix, self.encoding))

    def range(self, span: Span) -> types.Range:
        return types.Range(
            start=self.position(span.line, span.column),
            end=self.position(span.end_line, span.end_column),
        )

    def line_end(self, line: int) -> types.Position:
        """The end of the engine's line ``line`` (before its ``\\r``, if it ends so)."""
        index = min(max(line - 1, 0), len(self.lines) - 1)
        content = self.lines[index].removesuffix("\r")
        return types.Position(line=index, character=units(content, self.encoding))

    def engine(self, position: types.Position) -> tuple[int, int]:
        """The engine's (1-based line, 1-based code-point column) of an LSP position; a
        position past a line's end is at its end, one in the middle of a character after it."""
        index = min(max(position.line, 0), len(self.lines) - 1)
        line = self.lines[index]
        count = 0
        column = 0
        while column < len(line) and count < position.character:
            count += units(line[column], self.encoding)
            column += 1
        return index + 1, column + 1
