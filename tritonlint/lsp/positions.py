"""Engine places to LSP positions and back.

The engine counts lines from 1 and columns in Unicode code points from 1, and ends a line
only at ``\\n`` (as protobuf's text format does: a comment runs to the next ``\\n``); its
spans also carry offsets into the text. LSP counts both from 0, ends a line at ``\\n``,
``\\r\\n`` or ``\\r`` (and nowhere else: not at ``\\f``, ``\\v``, ``\\x85``, ``\\u2028`` or
the other characters Python's ``str.splitlines`` splits at), and counts columns in the code
units of the encoding agreed at start-up (UTF-16 unless the client prefers UTF-8 or UTF-32).
A character outside the Basic Multilingual Plane (an emoji) is one code point, two UTF-16
code units and four UTF-8 bytes.

Places are converted through offsets, so the two ways of counting lines never meet: an
engine place becomes an offset, an offset an LSP position, and back. LSP ranges are compared
here too (:func:`overlaps`, :func:`contains`, :func:`lines_touched`).
"""

from __future__ import annotations

import re
from bisect import bisect_right

from lsprotocol import types

from tritonlint.diagnostics import TextEdit
from tritonlint.span import Span

#: What ends a line for LSP.
LINE_END = re.compile(r"\r\n|\r|\n")
_NEWLINE = re.compile("\n")


def units(text: str, encoding: types.PositionEncodingKind) -> int:
    """How many code units ``text`` takes in ``encoding``."""
    if encoding == types.PositionEncodingKind.Utf32:
        return len(text)
    if encoding == types.PositionEncodingKind.Utf8:
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)


def line_starts(text: str) -> list[int]:
    """The offset at which each LSP line of ``text`` starts (a text ending with a line end
    has an empty last line)."""
    return [0, *(found.end() for found in LINE_END.finditer(text))]


class Positions:
    """Converts places in one text, in the encoding agreed with the client."""

    def __init__(self, text: str, encoding: types.PositionEncodingKind) -> None:
        self.text = text
        self.encoding = encoding
        self._starts = line_starts(text)
        #: Where each of the engine's lines starts (only ``\n`` ends one).
        self._engine_starts = [0, *(found.end() for found in _NEWLINE.finditer(text))]

    # -- offsets -------------------------------------------------------------------------------

    def at(self, offset: int) -> types.Position:
        """The LSP position of an offset (one inside a line end is at the end of its line)."""
        offset = min(max(offset, 0), len(self.text))
        line = bisect_right(self._starts, offset) - 1
        start = self._starts[line]
        offset = min(offset, self._content_end(line))
        return types.Position(line=line, character=units(self.text[start:offset], self.encoding))

    def offset(self, position: types.Position) -> int:
        """The offset of an LSP position. A position past a line's end is at its end (as the
        protocol says), one past the last line at the end of the text, one in the middle of
        a character (half a surrogate pair) after it."""
        if position.line >= len(self._starts):
            return len(self.text)
        index = self._starts[max(position.line, 0)]
        end = self._content_end(max(position.line, 0))
        count = 0
        while index < end and count < position.character:
            count += units(self.text[index], self.encoding)
            index += 1
        return index

    def _content_end(self, line: int) -> int:
        """Where LSP line ``line``'s text ends, before its line end."""
        if line + 1 >= len(self._starts):
            return len(self.text)
        end = self._starts[line + 1]
        return end - 2 if self.text.startswith("\r\n", end - 2) else end - 1

    # -- engine places -------------------------------------------------------------------------

    def range(self, span: Span) -> types.Range:
        return types.Range(start=self.at(span.start), end=self.at(span.end))

    def text_edit(self, edit: TextEdit) -> types.TextEdit:
        """An engine edit of this text as an LSP one."""
        return types.TextEdit(range=self.range(edit.span), new_text=edit.new_text)

    def position(self, line: int, column: int) -> types.Position:
        """The LSP position of the engine's (1-based line, 1-based code-point column); a
        column past the line's end is at its end."""
        return self.at(self._engine_offset(line, column))

    def engine(self, position: types.Position) -> tuple[int, int]:
        """The engine's (1-based line, 1-based code-point column) of an LSP position."""
        offset = self.offset(position)
        line = bisect_right(self._engine_starts, offset)
        return line, offset - self._engine_starts[line - 1] + 1

    def _engine_offset(self, line: int, column: int) -> int:
        index = min(max(line - 1, 0), len(self._engine_starts) - 1)
        start = self._engine_starts[index]
        end = self.text.find("\n", start)
        return min(start + max(column - 1, 0), len(self.text) if end == -1 else end)

    # -- lines ---------------------------------------------------------------------------------

    def line_end(self, line: int) -> types.Position:
        """The end of LSP line ``line`` (0-based), before its line end."""
        line = min(max(line, 0), len(self._starts) - 1)
        return self.at(self._content_end(line))


# -- LSP ranges --------------------------------------------------------------------------------


def _key(position: types.Position) -> tuple[int, int]:
    return (position.line, position.character)


def overlaps(one: types.Range, other: types.Range) -> bool:
    """Whether two ranges share a position (ranges that only touch do)."""
    return _key(one.start) <= _key(other.end) and _key(other.start) <= _key(one.end)


def contains(span: types.Range, position: types.Position) -> bool:
    """Whether ``position`` is in ``span``, its ends included."""
    return _key(span.start) <= _key(position) <= _key(span.end)


def insertion(at: types.Position, text: str) -> types.TextEdit:
    """An edit that inserts ``text`` at ``at``."""
    return types.TextEdit(range=types.Range(start=at, end=at), new_text=text)


def lines_touched(span: types.Range) -> tuple[int, int]:
    """The first and last line a range touches (a range ending at a line's start does not
    touch that line; an empty one touches its line)."""
    end = span.end.line
    if span.end.character == 0 and end > span.start.line:
        end -= 1
    return span.start.line, end
