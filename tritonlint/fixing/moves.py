"""Moving files on disk for the fixes that move them (a model file into its version folder).

A move is an ``os.rename`` within the repository: atomic, and never over anything. Every
move of a fix is checked before the first is made (its file is there, its target is not, it
is no symbolic link, whose relative target would point elsewhere once moved), and when one
of them fails, those already made are undone: a fix is made whole or not at all. (The check
and the rename are two steps: a file created at the target between them would be replaced,
as POSIX renames do; nothing else writes into a repository being fixed.)
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence

from tritonlint.diagnostics import FileMove
from tritonlint.report.printable import shown_path


def move_refusal(move: FileMove) -> str | None:
    """Why ``move`` cannot be made now, or None."""
    if not os.path.lexists(move.source):
        return f"{shown_path(move.source)} is not there any more"
    if os.path.islink(move.source):
        return f"{shown_path(move.source)} is a symbolic link (moved, it could point elsewhere)"
    if os.path.lexists(move.target):
        return f"{shown_path(move.target)} exists already, and a fix never replaces a file"
    return None


def make_moves(moves: Sequence[FileMove]) -> str | None:
    """Make every move of one fix on disk, or none (why not, then)."""
    for move in moves:
        reason = move_refusal(move)
        if reason is not None:
            return reason
    made: list[FileMove] = []
    created: list[str] = []
    try:
        for move in moves:
            _make_folders(str(move.target.parent), created)
            if os.path.lexists(move.target):
                raise FileExistsError(0, "it exists already", str(move.target))
            os.rename(move.source, move.target)
            made.append(move)
    except OSError as error:
        for move in reversed(made):
            with contextlib.suppress(OSError):
                os.rename(move.target, move.source)
        for folder in reversed(created):
            with contextlib.suppress(OSError):
                os.rmdir(folder)
        where = f"{shown_path(move.source)} to {shown_path(move.target)}"
        return f"cannot move {where}: {error.strerror or error}"
    return None


def _make_folders(folder: str, created: list[str]) -> None:
    """Create ``folder`` and those above it that are missing, adding each to ``created``
    (outermost first) as it is made."""
    missing = []
    while not os.path.isdir(folder):
        missing.append(folder)
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    for path in reversed(missing):
        os.mkdir(path)
        created.append(path)
