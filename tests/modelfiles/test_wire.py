"""The protobuf wire-format walk under every model-file reader that reads protobuf."""

from __future__ import annotations

import io

import pytest

from tritonlint.modelfiles.wire import I32, I64, LEN, VARINT, LimitError, WireError, WireReader


def reader(data: bytes) -> WireReader:
    return WireReader(io.BytesIO(data), len(data))


def test_fields_of_every_wire_type_and_groups_skipped() -> None:
    data = (
        b"\x08\x96\x01"  # 1: varint 150
        + b"\x11"
        + (2**40).to_bytes(8, "little")  # 2: fixed64
        + b"\x1b\x08\x01\x2a\x01x\x1c"  # 3: a group, with fields inside, skipped
        + b"\x25"
        + (7).to_bytes(4, "little")  # 4: fixed32
        + b"\x2a\x03abc"  # 5: 3 bytes
        + b"\x30\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"  # 6: varint -1, ten bytes
    )
    walk = reader(data)
    fields = list(walk.fields([walk.whole()]))
    assert fields == [
        (1, VARINT, 150, 3),
        (2, I64, 2**40, 4),
        (4, I32, 7, 20),
        (5, LEN, 3, 26),
        (6, VARINT, 2**64 - 1, len(data)),
    ]
    assert walk.payload(26, 3, limit=3) == b"abc"


def test_a_message_in_parts_is_walked_as_one() -> None:
    data = b"\x08\x01\x10\x02\x18\x03"
    walk = reader(data)
    assert [f[0] for f in walk.fields([(4, 6), (0, 2)])] == [3, 1]


def test_a_long_field_is_stepped_over_not_read() -> None:
    class Stream(io.BytesIO):
        read_bytes = 0

        def read(self, size: int | None = -1) -> bytes:
            data = super().read(size)
            self.read_bytes += len(data)
            return data

    data = b"\x0a\x80\x80\x80\x01" + bytes(2**21) + b"\x10\x05"
    stream = Stream(data)
    walk = WireReader(stream, len(data))
    assert list(walk.fields([walk.whole()])) == [(1, LEN, 2**21, 5), (2, VARINT, 5, len(data))]
    assert stream.read_bytes < 2 * 16 * 1024


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\x0a\x05abc", "a field of 5 bytes at byte 0 runs past the end of the file"),
        (b"\x08", "a number at byte 1 runs past the end of the file"),
        (b"\x08" + b"\x80" * 10 + b"\x01", "a number of more than ten bytes at byte 1"),
        (b"\x11\x00\x00", "a fixed-size field at byte 0 runs past the end of the file"),
        (b"\x00\x01", "field number 0 at byte 0"),
        (b"\x0e\x01", "wire type 6 at byte 0"),
        (b"\x0c", "the end of a group that never started, at byte 0"),
        (b"\x0b\x08\x01", "a group runs past the end of the file"),
        (b"\x0b\x14", "the end of another group than the one open, at byte 1"),
    ],
)
def test_bytes_that_are_not_protobuf(data: bytes, message: str) -> None:
    walk = reader(data)
    with pytest.raises(WireError) as raised:
        list(walk.fields([walk.whole()]))
    assert str(raised.value) == message


def test_a_field_must_end_inside_its_message() -> None:
    # A message of two bytes (from byte 2) whose one field says it holds five.
    walk = reader(b"\x0a\x02\x12\x05abcde")
    with pytest.raises(WireError) as raised:
        list(walk.fields([(2, 4)]))
    assert str(raised.value) == "a field of 5 bytes at byte 2 runs past the end of its message"


def test_a_string_longer_than_its_limit() -> None:
    walk = reader(b"\x0a\x05abcde")
    with pytest.raises(LimitError, match=r"a string of 5 bytes at byte 2 \(at most 4\)"):
        walk.payload(2, 5, limit=4)
