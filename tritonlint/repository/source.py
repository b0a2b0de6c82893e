"""The text of a model's own file (a Python model's ``model.py``), for the rules that search it.

Such a file is only searched for a few words, never parsed, run or shown: bytes that are not
UTF-8 are replaced rather than refused. What cannot be read as text (not a regular file, far too
large, unreadable) reads as no text at all; the walk has already reported a path it could not
read, and a rule cannot tell more from it.
"""

from __future__ import annotations

import stat
from pathlib import Path

#: Larger files are not read: no model's source comes near this size.
MAX_SOURCE_BYTES = 8 * 1024 * 1024


def read_source(path: Path) -> str | None:
    """The text of the file at ``path``, or None where it cannot be read as text."""
    try:
        status = path.stat()
        if not stat.S_ISREG(status.st_mode) or status.st_size > MAX_SOURCE_BYTES:
            return None  # a pipe would block the read; a huge file is no source
        with path.open("rb") as file:
            data = file.read(MAX_SOURCE_BYTES + 1)
    except OSError:
        return None
    if len(data) > MAX_SOURCE_BYTES:
        return None  # it grew since it was looked at
    return data.decode("utf-8", errors="replace")
