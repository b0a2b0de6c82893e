#!/usr/bin/env python3
"""Time the question "which of these folders does git ignore?", as the search for
repositories asks it, answered by reading the ignore files (what tritonlint does) and by
``git check-ignore --stdin`` (what it did before: that runs the repository's
``core.fsmonitor``, so it is no longer used).

Usage: python benchmarks/gitignore_search.py [--folders N [N ...]] [--repeat R]

Builds a git work tree of its own in a temporary folder: N folders (default 300, 5000 and
20000, one tree each) in a tree
three levels deep, a ``.gitignore`` with a dozen patterns at the top and one in every
first-level folder, and asks both about every folder, level by level as
:func:`~tritonlint.repository.discovery.find_repositories` does (one question per level).
Prints the median of R runs (default 5) of each, and checks that both answer the same.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
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


def build(root: Path, folders: int) -> list[list[Path]]:
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


def ask_git(root: Path, levels: list[list[Path]]) -> set[Path]:
    ignored: set[Path] = set()
    for level in levels:
        request = b"".join(os.fsencode(path) + b"\0" for path in level)
        answer = subprocess.run(
            ["git", "check-ignore", "--stdin", "-z"],
            input=request,
            cwd=root,
            capture_output=True,
            check=False,
        )
        ignored.update(Path(os.fsdecode(p)) for p in answer.stdout.split(b"\0") if p)
    return ignored


def read_files(root: Path, levels: list[list[Path]]) -> set[Path]:
    git = GitIgnored(root)
    ignored: set[Path] = set()
    for level in levels:
        ignored.update(git.ignored(level))
    return ignored


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folders", type=int, nargs="+", default=[300, 5000, 20000])
    parser.add_argument("--repeat", type=int, default=5)
    options = parser.parse_args()
    for folders in options.folders:
        _compare(folders, options.repeat)


def _compare(folders: int, repeat: int) -> None:
    with tempfile.TemporaryDirectory() as temporary:
        root = Path(temporary) / "work"
        levels = build(root, folders)
        total = sum(len(level) for level in levels)
        timings: dict[str, list[float]] = {"read the ignore files": [], "git check-ignore": []}
        answers = {}
        for _ in range(repeat):
            for label, ask in (
                ("read the ignore files", read_files),
                ("git check-ignore", ask_git),
            ):
                start = time.perf_counter()
                answers[label] = ask(root, levels)
                timings[label].append(time.perf_counter() - start)
        same = answers["read the ignore files"] == answers["git check-ignore"]
        print(f"{total} folders, {len(answers['git check-ignore'])} of them ignored")
        for label, times in timings.items():
            print(f"  {label:<22} {statistics.median(times) * 1000:8.1f} ms")
        print(f"  same answer: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
