"""Reading a model's file within limits: a regular file, never more bytes than a reader needs.

A model folder can hold anything: a named pipe would block a read forever, a symlink to a device
would never end, and a model file can be gigabytes when a reader wants kilobytes from it.
"""

from __future__ import annotations

import stat
from pathlib import Path


class UnreadableFile(Exception):
    """The file cannot be read within the limits; the message says why, for a finding."""


def regular_size(path: Path) -> int:
    """The size of the regular file at ``path`` (UnreadableFile when it is none or unreadable)."""
    try:
        status = path.stat()
    except OSError as error:
        raise UnreadableFile(f"cannot be read: {error.strerror or error}") from None
    if not stat.S_ISREG(status.st_mode):
        raise UnreadableFile("is not a regular file")
    return status.st_size


def read_bounded(path: Path, limit: int) -> bytes:
    """All bytes of the regular file at ``path``, or UnreadableFile when it has more than
    ``limit`` (also when it grows past the limit while being read)."""
    if regular_size(path) > limit:
        raise UnreadableFile(f"is larger than {describe_size(limit)}")
    try:
        with path.open("rb") as file:
            data = file.read(limit + 1)
    except OSError as error:
        raise UnreadableFile(f"cannot be read: {error.strerror or error}") from None
    if len(data) > limit:
        raise UnreadableFile(f"is larger than {describe_size(limit)}")
    return data


def describe_size(count: int) -> str:
    """A byte count for a message: ``8 MiB``, ``512 KiB``, ``100 bytes``."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if count >= size and count % size == 0:
            return f"{count // size} {unit}"
    return f"{count} bytes"
