#!/usr/bin/env python3
"""Time the question "which of these folders does git ignore?", as the search for
repositories asks it, answered by reading the ignore files (what tritonlint does: git's
wildmatch in pure Python, :mod:`tritonlint.repository.wildmatch`), and by
``git check-ignore --stdin`` (what it did before: that runs the repository's
``core.fsmonitor``, so it is no longer used).

Usage: python benchmarks/gitignore_search.py [--folders N [N ...]] [--repeat R]

Builds a git work tree of its own in a temporary folder: N folders (default 300, 5000 and
20000, one tree each) in a tree
three levels deep, a ``.gitignore`` with a dozen patterns at the top and one in every
first-level folder, and asks each way about every folder, level by level as
:func:`~tritonlint.repository.discovery.find_repositories` does (one question per level).
Then the same on a work tree made to hold a backtracking matcher up (:func:`build_bait`),
where git itself is stopped after half a minute.
Prints the median of R runs (default 5) of each, and checks that all answer the same.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tritonlint.repository.gitignored import GitIgnored  # noqa: E402

TOP_PATTERNS = """build/
*.egg-info/
/dist
**/cache
node_modules/
out/*
!out/keep
docs/**/generated
*.tmp/
[a-c]x*/
!bx1/
vendor
"""


def build(root: Path, *, folders: int) -> list[list[Path]]:
    """The work tree; its folders, level by level."""
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / ".gitignore").write_text(TOP_PATTERNS, encoding="utf-8")
    names = ["build", "cache", "src", "ax", "bx", "models", "out", "keep", "x.tmp", "local"]
    levels: list[list[Path]] = [[], [], []]
    for i in range(max(1, folders // 50)):
        folder = root / f"{names[i % len(names)]}{i}"
        folder.mkdir()
        (folder / ".gitignore").write_text("local/\n!cache\n*.bak\n", encoding="utf-8")
        levels[0].append(folder)
        for j in range(7):
            child = folder / names[(i + j) % len(names)]
            child.mkdir()
            levels[1].append(child)
    remaining = folders - len(levels[0]) - len(levels[1])
    for k in range(max(0, remaining)):
        parent = levels[1][k % len(levels[1])]
        grandchild = parent / f"{names[k % len(names)]}{k}"
        grandchild.mkdir()
        levels[2].append(grandchild)
    return levels


def build_bait(root: Path) -> list[list[Path]]:
    """A work tree whose ``.gitignore`` and folder names would hold a backtracking matcher
    up for years: 2,000 lines, ``*a*a*a*a*a*a*a*a*a*a*b`` first, and 200 folders named with
    200 bytes, 199 ``a`` then a digit or a ``b``. git's own matcher backtracks on it (it is
    stopped after :data:`GIT_PATIENCE`). Its folders, level by level."""
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    lines = ["*a" * 10 + "*b"]
    for i in range(1, 2000):
        lines.append((f"dir{i}/**/*x{i}", f"name{i}", f"*.ext{i}", f"[a-c]x{i}*/")[i % 4])
    (root / ".gitignore").write_text("\n".join(lines) + "\n", encoding="utf-8")
    levels: list[list[Path]] = [[], []]
    for i in range(20):
        folder = root / f"dir{i}"
        folder.mkdir()
        levels[0].append(folder)
        for j in range(10):
            child = folder / ("a" * 199 + ("b" if j == 0 else str(j)))
            child.mkdir()
            levels[1].append(child)
    return levels


#: How long git may take over one bait tree before it is stopped, in seconds.
GIT_PATIENCE = 30.0


def ask_git(root: Path, levels: list[list[Path]]) -> set[Path]:
    """git's answer; raises :class:`subprocess.TimeoutExpired` after :data:`GIT_PATIENCE`."""
    ignored: set[Path] = set()
    for level in levels:
        request = b"".join(os.fsencode(path) + b"\0" for path in level)
        answer = subprocess.run(
            ["git", "check-ignore", "--stdin", "-z"],
            input=request,
            cwd=root,
            capture_output=True,
            check=False,
            timeout=GIT_PATIENCE,
        )
        ignored.update(Path(os.fsdecode(p)) for p in answer.stdout.split(b"\0") if p)
    return ignored


def read_files(root: Path, levels: list[list[Path]]) -> set[Path]:
    git = GitIgnored(root)
    ignored: set[Path] = set()
    for level in levels:
        ignored.update(git.ignored(level))
    return ignored


def askers() -> dict[str, Callable[[Path, list[list[Path]]], set[Path]]]:
    """Each way of answering, by label."""
    return {"read by tritonlint": read_files, "git check-ignore": ask_git}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folders", type=int, nargs="+", default=[300, 5000, 20000])
    parser.add_argument("--repeat", type=int, default=5)
    options = parser.parse_args()
    for folders in options.folders:
        _compare(f"{folders} folders", partial(build, folders=folders), options.repeat)
    _compare("backtracking bait", build_bait, options.repeat)


def _compare(title: str, make: Callable[[Path], list[list[Path]]], repeat: int) -> None:
    with tempfile.TemporaryDirectory() as temporary:
        root = Path(temporary) / "work"
        levels = make(root)
        total = sum(len(level) for level in levels)
        ways = askers()
        timings: dict[str, list[float]] = {label: [] for label in ways}
        answers: dict[str, set[Path]] = {}
        stopped: set[str] = set()
        for _ in range(repeat):
            for label, ask in ways.items():
                if label in stopped:
                    continue
                start = time.perf_counter()
                try:
                    answers[label] = ask(root, levels)
                except subprocess.TimeoutExpired:
                    stopped.add(label)
                    continue
                timings[label].append(time.perf_counter() - start)
        reference = answers.get("git check-ignore", answers["read by tritonlint"])
        same = all(answer == reference for answer in answers.values())
        print(f"{title}: {total} folders, {len(reference)} of them ignored")
        for label, times in timings.items():
            if label in stopped:
                print(f"  {label:<22} over {GIT_PATIENCE:.0f} s: stopped")
            else:
                print(f"  {label:<22} {statistics.median(times) * 1000:8.1f} ms")
        compared = "" if not stopped else " (of those that finished)"
        print(f"  same answer{compared}: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
