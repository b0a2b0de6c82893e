"""Which folders git ignores, so that the search for repositories passes over them.

git answers (``git check-ignore --stdin``), one call per batch of folders, so every rule
it knows applies: ``.gitignore`` files at every level, ``.git/info/exclude`` and the user's
global excludes. Outside a git work tree, or where git is missing or fails, nothing counts
as ignored.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence
from pathlib import Path

#: Longer than any answer of git about a few thousand paths takes.
_TIMEOUT_S = 30


def work_tree_of(folder: Path) -> Path | None:
    """The root of the git work tree holding ``folder`` (its nearest folder with ``.git``)."""
    for candidate in (folder, *folder.parents):
        if os.path.lexists(candidate / ".git"):
            return candidate
    return None


class GitIgnored:
    """Asks git which of some folders below ``top`` it ignores.

    When ``top`` is ignored itself, nothing below it counts as ignored: the user named it.
    """

    def __init__(self, top: Path) -> None:
        self._top: Path | None = top
        self._root = work_tree_of(top)

    def ignored(self, folders: Sequence[Path]) -> frozenset[Path]:
        """The folders of ``folders`` that git ignores (absolute paths below ``top``)."""
        if self._root is None or not folders:
            return frozenset()
        top, self._top = self._top, None
        if top is not None and top in self._ask([top]):
            self._root = None
            return frozenset()
        return self._ask(folders)

    def _ask(self, folders: Sequence[Path]) -> frozenset[Path]:
        if self._root is None:
            return frozenset()
        request = b"".join(os.fsencode(folder) + b"\0" for folder in folders)
        try:
            answer = subprocess.run(
                ["git", "check-ignore", "--stdin", "-z"],
                input=request,
                cwd=self._root,
                capture_output=True,
                timeout=_TIMEOUT_S,
                check=False,
            )
        except (OSError, subprocess.SubprocessError):
            self._root = None  # no git: nothing is ignored, and git is not asked again
            return frozenset()
        if answer.returncode not in (0, 1):  # 1: none ignored; else not a work tree after all
            self._root = None
            return frozenset()
        return frozenset(Path(os.fsdecode(path)) for path in answer.stdout.split(b"\0") if path)
