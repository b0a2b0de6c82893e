"""How tritonlint finds and starts the programs it runs, so that the folder it is run in (often
the repository being checked, maybe a stranger's) chooses none of them.

- A program is looked up on the absolute folders of ``PATH`` only: an empty or relative
  entry (``PATH=.:...``, ``PATH=/usr/bin:``) names the working folder, where a repository's
  own ``tritonserver`` or ``cc`` would then be found first.
- A program runs in :data:`NEUTRAL_FOLDER`, never in the working folder: what it would read
  from there (a library of an empty ``LD_LIBRARY_PATH`` entry, the package a
  ``python -m`` imports first) is then not the repository's.

docs/security.md lists every program tritonlint starts.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

#: The working folder of the programs tritonlint starts: the file system's root, which no
#: repository is and where nothing is written.
NEUTRAL_FOLDER = os.path.abspath(os.sep)


def find_program(name: str, environ: Mapping[str, str] | None = None) -> str | None:
    """The absolute path of the executable ``name`` on the absolute folders of ``PATH``;
    ``name`` itself when it is an absolute path to an executable; None otherwise (a relative
    path such as ``./cc`` included)."""
    if not name:
        return None
    if os.path.dirname(name):
        return name if os.path.isabs(name) and _executable(name) else None
    env = os.environ if environ is None else environ
    for folder in env.get("PATH", os.defpath).split(os.pathsep):
        if not os.path.isabs(folder):
            continue
        candidate = os.path.join(folder, name)
        if _executable(candidate):
            return candidate
    return None


def _executable(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)
