"""The files a client names: a ``file:`` URI as an absolute path (other schemes name none)."""

from __future__ import annotations

import os
from pathlib import Path

from pygls.uris import to_fs_path


def path_of(uri: str) -> Path | None:
    """The absolute path of a ``file:`` URI; None for an ``untitled:`` buffer and the like."""
    if not uri.startswith("file:"):
        return None
    path = to_fs_path(uri)
    return Path(os.path.abspath(path)) if path else None
