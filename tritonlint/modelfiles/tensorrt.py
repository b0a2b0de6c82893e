"""The TensorRT version a serialized plan (an engine) was built with, read from its header.

A plan is opaque, and TensorRT has no API that reads its version without deserializing it.
What is known of the header:

- a plan starts with the magic ``ftrt`` (tools that tell a raw plan from a wrapped one test
  for it, e.g. torch_tensorrt's ``engine.startswith(b"ftrt")``);
- in plans built by TensorRT 8.6 and later, bytes 24, 25 and 26 are the major, minor and patch
  version of the TensorRT that built it (NVIDIA's answer in NVIDIA/TensorRT#3073,
  https://github.com/NVIDIA/TensorRT/issues/3073#issuecomment-1599934548, which Autoware's
  ``autoware_tensorrt_common`` reads as ``TRT_MAJOR_IDX = 24`` ... ``TRT_PATCH_IDX = 26``).

The build number is not in those bytes, so a version here is ``(major, minor, patch)``. Where
the header does not fit (no magic, a file shorter than the header, bytes that are no version
of 8.6 or later) there is no version: earlier plans lay out their header otherwise, and
nothing is guessed about them.
"""

from __future__ import annotations

import stat
from pathlib import Path

MAGIC = b"ftrt"
#: Where the version bytes are: major, minor, patch.
VERSION_OFFSET = 24
HEADER_BYTES = VERSION_OFFSET + 3
#: The first TensorRT whose plans carry their version at ``VERSION_OFFSET``.
FIRST_VERSIONED = (8, 6)

PlanVersion = tuple[int, int, int]


def header_version(header: bytes) -> PlanVersion | None:
    """The TensorRT version in a plan's first bytes (None where they hold none)."""
    if len(header) < HEADER_BYTES or not header.startswith(MAGIC):
        return None
    major, minor, patch = header[VERSION_OFFSET:HEADER_BYTES]
    if (major, minor) < FIRST_VERSIONED:
        return None
    return major, minor, patch


def plan_version(path: Path) -> PlanVersion | None:
    """The TensorRT version of the plan at ``path``: its first bytes only, from a regular file
    (None where the file cannot be read or its header holds no version)."""
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            return None
        with path.open("rb") as file:
            header = file.read(HEADER_BYTES)
    except OSError:
        return None
    return header_version(header)


def shown_version(version: PlanVersion) -> str:
    return ".".join(str(part) for part in version)
