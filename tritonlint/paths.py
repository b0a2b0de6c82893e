"""Paths: how they are shown (relative to the working directory when below it), and asking
what a path is without failing where a folder cannot be read."""

from __future__ import annotations

import os
from pathlib import Path


def display_path(path: Path) -> str:
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return str(path)
    return str(path) if relative.startswith("..") else relative


def is_file_here(path: Path) -> bool:
    """Whether ``path`` is a file; False where its folder cannot be read.

    ``Path.is_file`` raises on a folder without read or search permission (before Python
    3.12), and an unreadable folder is a finding of the walk, never a crash of the search.
    """
    try:
        return path.is_file()
    except OSError:
        return False


def is_folder_here(path: Path) -> bool:
    """Whether ``path`` is a folder; False where its parent cannot be read."""
    try:
        return path.is_dir()
    except OSError:
        return False


def leaves(path: Path, root: Path) -> bool:
    """Whether ``path``, below the folder ``root``, is in truth somewhere else: a symbolic link
    (the file's own, or a folder's on the way) leads out of ``root``."""
    real, real_root = os.path.realpath(path), os.path.realpath(root)
    try:
        return os.path.commonpath([real, real_root]) != real_root
    except ValueError:  # another drive on Windows
        return True
