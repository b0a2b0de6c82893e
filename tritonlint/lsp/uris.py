"""The files a client names: a ``file:`` URI as an absolute path (other schemes name none)."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import unquote_to_bytes, urlsplit

from pygls.uris import to_fs_path


def path_of(uri: str) -> Path | None:
    """The absolute path of a ``file:`` URI; None for an ``untitled:`` buffer and the like.

    On POSIX a name is bytes: ``%FF`` in a URI (what :meth:`Path.as_uri` writes for a folder
    name that is not UTF-8) is that byte, as the file system has it, not U+FFFD."""
    if not uri.startswith("file:"):
        return None
    parts = urlsplit(uri)
    if os.name == "posix" and parts.netloc in ("", "localhost"):
        return (
            Path(os.path.abspath(os.fsdecode(unquote_to_bytes(parts.path)))) if parts.path else None
        )
    path = to_fs_path(uri)
    return Path(os.path.abspath(path)) if path else None
