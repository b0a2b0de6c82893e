"""The TensorRT version read from a plan's header."""

from pathlib import Path

import pytest

from tritonlint.modelfiles.tensorrt import header_version, plan_version


def plan(major: int, minor: int, patch: int, *, magic: bytes = b"ftrt", size: int = 64) -> bytes:
    """Plan bytes laid out as the header is known: the magic, the version at bytes 24-26."""
    data = bytearray(size)
    data[: len(magic)] = magic
    data[24:27] = bytes((major, minor, patch))
    return bytes(data)


@pytest.mark.parametrize(
    ("version", "expected"),
    [((10, 5, 0), (10, 5, 0)), ((8, 6, 1), (8, 6, 1)), ((10, 13, 3), (10, 13, 3))],
)
def test_the_version_in_bytes_24_to_26(
    version: tuple[int, int, int], expected: tuple[int, int, int]
) -> None:
    assert header_version(plan(*version)) == expected


@pytest.mark.parametrize(
    "header",
    [
        plan(10, 5, 0, magic=b"ptrt"),  # another magic
        plan(10, 5, 0)[:26],  # shorter than the header
        plan(8, 5, 3),  # before 8.6 the header is laid out otherwise
        plan(7, 9, 9),
        b"",
        b"version https://git-lfs.github.com/spec/v1\n",
    ],
    ids=["magic", "short", "8.5", "7.x", "empty", "lfs pointer"],
)
def test_no_version_where_the_header_does_not_fit(header: bytes) -> None:
    assert header_version(header) is None


def test_a_file_is_read_for_its_header_only(tmp_path: Path) -> None:
    path = tmp_path / "model.plan"
    path.write_bytes(plan(10, 3, 0, size=1 << 16))
    assert plan_version(path) == (10, 3, 0)
    assert plan_version(tmp_path) is None  # a folder
    assert plan_version(tmp_path / "missing.plan") is None
