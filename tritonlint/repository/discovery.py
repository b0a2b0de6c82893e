"""Find the model repositories below a folder, as a linter finds the source files of a project.

A folder is a repository when one of its subfolders is a model folder (see
:func:`~tritonlint.repository.recognise.is_model_folder`); the search does not go into a
repository it found. It goes at most :data:`MAX_DEPTH` folders down, never through a
symbolic link, and passes over folders that hold no repository of the user's: hidden ones
(``.git``, ``.venv``), virtual environments, package caches and build outputs, what git
ignores, and what the caller excludes (the settings' ``exclude``).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from tritonlint.paths import is_file_here, is_folder_here
from tritonlint.repository.gitignored import GitIgnored
from tritonlint.repository.recognise import is_model_folder

#: How many folders below the named one a repository may be (``deploy/triton/models`` is 3).
MAX_DEPTH = 6

#: Folders of tools and packages, never of a user's models.
SKIPPED_NAMES = frozenset(
    {"node_modules", "__pycache__", "__pypackages__", "site-packages", "_build", "buck-out"}
)


class _Subfolder(NamedTuple):
    path: Path
    #: A symbolic link: looked at as a model folder, never searched below.
    link: bool


def _subfolders(folder: Path) -> list[_Subfolder]:
    found = []
    try:
        with os.scandir(folder) as scan:
            for entry in scan:
                if entry.name.startswith(".") or entry.name in SKIPPED_NAMES:
                    continue
                try:
                    if entry.is_dir():
                        found.append(_Subfolder(Path(entry.path), entry.is_symlink()))
                except OSError:
                    continue
    except OSError:
        return []
    return [sub for sub in found if not _environment(sub.path)]


def _environment(folder: Path) -> bool:
    """A Python virtual environment or a conda environment."""
    return is_file_here(folder / "pyvenv.cfg") or is_folder_here(folder / "conda-meta")


def find_repositories(top: Path, skip: Callable[[Path], bool] | None = None) -> list[Path]:
    """The repositories at or below ``top`` (absolute), in byte order of their paths.

    ``skip`` names folders not to search (an excluded model still makes its folder a
    repository, whose other models are checked).
    """
    git = GitIgnored(top)
    found: list[Path] = []
    level = [top]
    for _ in range(MAX_DEPTH + 1):
        below = {folder: _subfolders(folder) for folder in level}
        candidates = [sub.path for subs in below.values() for sub in subs]
        passed_over = git.ignored(candidates)
        level = []
        for folder, subs in below.items():
            kept = [sub for sub in subs if sub.path not in passed_over]
            if any(is_model_folder(sub.path) for sub in kept):
                found.append(folder)
                continue
            level.extend(
                sub.path
                for sub in kept
                if not sub.link and not (skip is not None and skip(sub.path))
            )
        if not level:
            break
    return sorted(found, key=os.fsencode)
