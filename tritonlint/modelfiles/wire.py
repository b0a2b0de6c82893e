"""The protocol-buffer wire format, walked field by field in a file that is never loaded whole.

A model file can be gigabytes of weights around a few kilobytes of metadata. A protobuf
library parses (and copies) every byte of a message; this reader walks only the messages it is
asked about and steps over every other field by moving the file position: of a long field it
skips, no more is read than the small window of bytes read ahead of the field's start. It
knows nothing of any schema: callers name the fields they want by number (see
:mod:`tritonlint.modelfiles.onnx`).

It reads the format as protobuf's own parsers do where that matters for what is found: a
length-delimited field must end inside the message that holds it, field number 0 and wire
types 6 and 7 are errors, groups are skipped as a whole. Anything else that does not fit, and
any input that would take more than :data:`MAX_FIELDS` fields or more than :data:`MAX_DEPTH`
levels of groups to walk, stops the walk with a :class:`WireError` (a :class:`LimitError` for
a limit): time and memory stay bounded on any input.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import chain
from typing import BinaryIO

#: Wire types (https://protobuf.dev/programming-guides/encoding/#structure).
VARINT = 0
I64 = 1
LEN = 2
SGROUP = 3
EGROUP = 4
I32 = 5

#: Fields walked in one file, all messages together, before the walk gives up; each message
#: walked counts as one field more (starting a walk costs about what a field does). The graph
#: of a large model is some ten thousand nodes, a field each; the fields of a file made to cost
#: the most for its size take a few microseconds each, so no file is walked for more than
#: seconds.
MAX_FIELDS = 1_000_000

#: Levels of groups inside groups (protobuf's own parsers stop at 100).
MAX_DEPTH = 64

#: Bytes read from the file at a time while walking on: the tags and lengths of many small
#: fields.
_BLOCK = 16 * 1024
#: Bytes read where the walk lands after stepping over a long field: the start of the next
#: field, which is often one more long one (the next weight of a model).
_PEEK = 1024

#: The most bytes a field's tag and number (or length) take: two varints of up to ten bytes.
_HEAD = 20

#: What :func:`_varint` returns for a number of more than ten bytes, or one cut short.
_TOO_LONG = 0
_CUT_SHORT = 1

#: Field numbers are 29 bits.
_MAX_FIELD_NUMBER = (1 << 29) - 1


class WireError(Exception):
    """The bytes are not a protobuf message, or walking them would pass a limit."""


class LimitError(WireError):
    """Walking the bytes, or keeping what a reader wants of them, would pass a limit."""


#: The bytes of one message in the file: its start and its end (exclusive).
Span = tuple[int, int]


#: One field of a message: its number, its wire type, its value (the number of a VARINT, I64 or
#: I32 field, the length of a LEN field's payload) and where its payload starts in the file.
#: Fields and spans are plain tuples: one is made for every field walked, and a named tuple
#: takes several times longer to make.
Field = tuple[int, int, int, int]


def payload_span(start: int, length: int) -> Span:
    """The payload of a LEN field (the message it holds, when it holds one)."""
    return start, start + length


class WireReader:
    """Fields of the messages in one binary file, read through a small window of its bytes."""

    def __init__(self, file: BinaryIO, size: int) -> None:
        self._file = file
        self.size = size
        self._window = b""
        self._window_start = 0
        self._fields = 0

    def whole(self) -> Span:
        """The whole file: the top-level message."""
        return 0, self.size

    def head(self, length: int) -> bytes:
        """The first ``length`` bytes of the file (all of it, when it is shorter)."""
        window, offset = self._at(0, min(length, self.size))
        return window[offset : offset + length]

    def fields(self, spans: Sequence[Span]) -> Iterator[Field]:
        """The fields of the message made of ``spans``, in file order; groups are skipped.

        A singular message field written more than once is, for protobuf, one message merged
        from all of them (as if their bytes were concatenated); callers pass all its spans.
        """
        if len(spans) == 1:  # nearly always: spare a generator
            return self._fields_of(*spans[0])
        return chain.from_iterable(self._fields_of(start, end) for start, end in spans)

    def payload(self, start: int, length: int, limit: int) -> bytes:
        """The payload of a LEN field; a WireError when it is longer than ``limit`` bytes."""
        if length > limit:
            raise LimitError(f"a string of {length:,} bytes at byte {start:,} (at most {limit:,})")
        window, offset = self._at(start, length)
        data = window[offset : offset + length]
        if len(data) < length:
            raise WireError(f"the file ends at byte {self._window_start + len(window):,}")
        return data

    def _fields_of(self, position: int, end: int) -> Iterator[Field]:
        """The fields from ``position`` to ``end``; the hot loop of every walk, so the common
        case (a one-byte tag and a one-byte number or length in the current window) is inline."""
        groups: list[int] = []
        self._fields += 1
        while position < end:
            at = position
            self._fields += 1
            if self._fields > MAX_FIELDS:
                raise LimitError(f"more than {MAX_FIELDS:,} fields to walk")
            need = min(_HEAD, end - position)
            window, offset = self._window, position - self._window_start
            if offset < 0 or offset + need > len(window):
                window, offset = self._at(position, need)
            base = position - offset
            stop = min(offset + need, len(window))
            if offset < stop and window[offset] < 0x80:
                tag, cursor = window[offset], offset + 1
            else:
                tag, cursor = _varint(window, offset, stop)
                if cursor < 0:
                    raise self._bad_number(tag, at, end)
            number, wire_type = tag >> 3, tag & 7
            if number == 0 or number > _MAX_FIELD_NUMBER:
                raise WireError(f"field number {number:,} at byte {at:,}")
            if wire_type in (VARINT, LEN):
                if cursor < stop and window[cursor] < 0x80:
                    value, cursor = window[cursor], cursor + 1
                else:
                    value, after = _varint(window, cursor, stop)
                    if after < 0:
                        raise self._bad_number(value, base + cursor, end)
                    cursor = after
                start = position = base + cursor
                if wire_type == LEN:
                    position += value
                    if position > end:
                        raise WireError(
                            f"a field of {value:,} bytes at byte {at:,} runs past the end of "
                            + self._holder(end)
                        )
            elif wire_type in (I64, I32):
                start = base + cursor
                position = start + (8 if wire_type == I64 else 4)
                if position > end:
                    raise WireError(
                        f"a fixed-size field at byte {at:,} runs past the end of "
                        + self._holder(end)
                    )
                value = int.from_bytes(self.payload(start, position - start, 8), "little")
            elif wire_type == SGROUP:
                if len(groups) >= MAX_DEPTH:
                    raise LimitError(f"groups nested more than {MAX_DEPTH} deep")
                groups.append(number)
                position = base + cursor
                continue
            elif wire_type == EGROUP:
                if not groups:
                    raise WireError(f"the end of a group that never started, at byte {at:,}")
                if groups.pop() != number:
                    raise WireError(f"the end of another group than the one open, at byte {at:,}")
                position = base + cursor
                continue
            else:
                raise WireError(f"wire type {wire_type} at byte {at:,}")
            if not groups:
                yield number, wire_type, value, start
        if groups:
            raise WireError(f"a group runs past the end of {self._holder(end)}")

    def _holder(self, end: int) -> str:
        """What ends at ``end``: the file, or the message being walked."""
        return "the file" if end == self.size else "its message"

    def _bad_number(self, code: int, position: int, end: int) -> WireError:
        """Why the varint at ``position`` could not be read (``code`` from :func:`_varint`)."""
        if code == _TOO_LONG:
            return WireError(f"a number of more than ten bytes at byte {position:,}")
        return WireError(f"a number at byte {position:,} runs past the end of {self._holder(end)}")

    def _at(self, position: int, length: int) -> tuple[bytes, int]:
        """The window holding ``length`` bytes from ``position`` (fewer at the end of the
        file), read anew when the current one does not, and the offset of ``position`` in it."""
        offset = position - self._window_start
        if offset >= 0 and offset + length <= len(self._window):
            return self._window, offset
        stepped_over = offset - len(self._window) >= _BLOCK
        self._file.seek(position)
        self._window = self._file.read(max(length, _PEEK if stepped_over else _BLOCK))
        self._window_start = position
        return self._window, 0


def _varint(window: bytes, offset: int, stop: int) -> tuple[int, int]:
    """The varint at ``offset`` in ``window`` (read as an unsigned 64-bit number) and the offset
    after it; where there is none, (:data:`_TOO_LONG` or :data:`_CUT_SHORT`, -1)."""
    value = 0
    for index, cursor in enumerate(range(offset, min(stop, offset + 10))):
        byte = window[cursor]
        value |= (byte & 0x7F) << (7 * index)
        if byte < 0x80:
            return value & 0xFFFF_FFFF_FFFF_FFFF, cursor + 1
    return (_TOO_LONG if stop - offset >= 10 else _CUT_SHORT), -1
