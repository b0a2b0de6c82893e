"""How paths are shown: relative to the working directory when they are below it."""

from __future__ import annotations

import os
from pathlib import Path


def display_path(path: Path) -> str:
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return str(path)
    return str(path) if relative.startswith("..") else relative
