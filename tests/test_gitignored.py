"""Which paths count as ignored by git: tritonlint reads the ignore files itself (running git
would run the repository's ``core.fsmonitor``), and must answer as ``git check-ignore`` does.

Each comparison builds a git repository of the test's own, with tricky patterns at several
levels, and asks both."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path

import pytest
from helpers import make_tree

from tritonlint.repository.gitignored import (
    GitIgnored,
    IgnoreRules,
    global_excludes_file,
    work_tree_of,
)

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


ROOT_IGNORE = r"""# a comment, then a blank line

*.log
!keep.log
/anchored
build/
docs/**/generated
**/cache
temp?
[abc]x
[!q]z
\#hash
\!bang
trailing\·
plain···
dironly/
a/b
**/deep/**
out/*
!out/kept
foo/
!foo/bar
vendor
!vendor/
*.tmp/
x/**/y
keepdir
*.swp
""".replace("·", " ")  # "·": a space that ends a line (kept only when escaped)
SUB_IGNORE = """!*.log
!keepdir
/local
nested/
*.txt
!special.txt
!/anchored
"""
DEEPER_IGNORE = """!local
!*.txt
other
"""
INFO_EXCLUDE = """info-only
!sub/deeper/other
"""
GLOBAL_EXCLUDE = """global-only/
*.bak
"""

FILES = [
    "a.log",
    "keep.log",
    "sub/a.log",
    "anchored",
    "sub/anchored",
    "build/x",
    "sub/build/x",
    "docs/generated",
    "docs/a/generated",
    "docs/a/b/generated",
    "src/docs/a/generated",
    "cache/x",
    "sub/cache/x",
    "temp1",
    "temp12",
    "ax",
    "dx",
    "az",
    "qz",
    "#hash",
    "!bang",
    "trailing ",
    "plain",
    "dironly",
    "sub/dironly/x",
    "a/b",
    "sub/a/b",
    "deep/x",
    "sub/deep/y/z",
    "out/x",
    "out/kept",
    "out/sub/x",
    "foo/bar",
    "foo/baz",
    "vendor",
    "sub/vendor/x",
    "thing.tmp",
    "dir.tmp/x",
    "x/y",
    "x/a/b/y",
    "sub/local",
    "sub/deeper/local",
    "sub/nested/x",
    "sub/deeper/nested/x",
    "sub/notes.txt",
    "sub/special.txt",
    "sub/deeper/notes.txt",
    "sub/deeper/other",
    "sub/deeper/more/other",
    "info-only",
    "sub/info-only/x",
    "global-only/x",
    "sub/global-only",
    "old.bak",
    "sub/old.bak",
    "README.md",
    "keepdir/a",
    "sub/keepdir/a.swp",
    "sub/keepdir/kept",
    "sub/deeper/README.md",
]


def _git_environ(home: Path) -> dict[str, str]:
    environ = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("GIT_") and key != "XDG_CONFIG_HOME"
    }
    return {**environ, "HOME": str(home), "GIT_CONFIG_NOSYSTEM": "1"}


def _build(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A work tree with ignore files at three levels, an info/exclude and a global excludes
    file named in the user's ~/.gitconfig; the environment that makes git read them."""
    home = tmp_path / "home"
    home.mkdir()
    environ = _git_environ(home)
    root = tmp_path / "work"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True, env=environ)
    files = {
        **dict.fromkeys(FILES, ""),
        ".gitignore": ROOT_IGNORE,
        "sub/.gitignore": SUB_IGNORE,
        "sub/deeper/.gitignore": DEEPER_IGNORE,
        ".git/info/exclude": INFO_EXCLUDE,
    }
    make_tree(root, files, verbatim=True)
    gitconfig = '[user]\n\tname = x\n[core]\n\texcludesFile = "~/my-ignores" ; the global one\n'
    make_tree(home, {"my-ignores": GLOBAL_EXCLUDE, ".gitconfig": gitconfig}, verbatim=True)
    return root, environ


def _every_path(root: Path) -> list[tuple[Path, bool]]:
    found: list[tuple[Path, bool]] = []
    for folder, folders, files in os.walk(root):
        folders[:] = [name for name in folders if name != ".git"]
        found.extend((Path(folder, name), True) for name in folders)
        found.extend((Path(folder, name), False) for name in files if name != ".gitignore")
    return found


def _git_says(root: Path, paths: list[Path], environ: Mapping[str, str]) -> set[Path]:
    request = b"".join(os.fsencode(path.relative_to(root)) + b"\0" for path in paths)
    answer = subprocess.run(
        ["git", "check-ignore", "--stdin", "-z"],
        input=request,
        cwd=root,
        capture_output=True,
        env=dict(environ),
        check=False,
    )
    assert answer.returncode in (0, 1), answer.stderr
    return {root / os.fsdecode(path) for path in answer.stdout.split(b"\0") if path}


@needs_git
def test_every_path_is_ignored_exactly_when_git_ignores_it(tmp_path: Path) -> None:
    root, environ = _build(tmp_path)
    paths = _every_path(root)
    git = _git_says(root, [path for path, _ in paths], environ)
    rules = IgnoreRules(root, environ)
    ours = {path for path, is_dir in paths if rules.ignored(path, is_dir=is_dir)}
    # Named relative to the work tree, so that a failure lists the paths that differ.
    assert sorted(str(p.relative_to(root)) for p in ours - git) == []  # we alone ignore
    assert sorted(str(p.relative_to(root)) for p in git - ours) == []  # git alone ignores
    # The comparison is not empty on either side: both kinds of answer occur.
    assert len(git) > 20
    assert len(paths) - len(git) > 20


@needs_git
def test_a_linked_work_tree_reads_the_exclude_file_of_its_repository(tmp_path: Path) -> None:
    root, environ = _build(tmp_path)
    env = {**environ, "GIT_AUTHOR_NAME": "x", "GIT_AUTHOR_EMAIL": "x@x", "GIT_COMMITTER_NAME": "x"}
    env["GIT_COMMITTER_EMAIL"] = "x@x"
    subprocess.run(
        ["git", "-C", str(root), "commit", "-q", "--allow-empty", "-m", "start"],
        check=True,
        env=env,
    )
    linked = tmp_path / "linked"
    subprocess.run(
        ["git", "-C", str(root), "worktree", "add", "-q", str(linked)], check=True, env=env
    )
    (linked / "info-only").mkdir()
    (linked / "kept").mkdir()
    assert work_tree_of(linked / "kept") == linked
    assert GitIgnored(linked, environ).ignored([linked / "info-only", linked / "kept"]) == {
        linked / "info-only"
    }


def test_the_global_excludes_file_is_found_as_git_finds_it(tmp_path: Path) -> None:
    home = tmp_path / "home"
    xdg = tmp_path / "xdg"
    (xdg / "git").mkdir(parents=True)
    home.mkdir()
    base = {"HOME": str(home), "GIT_CONFIG_NOSYSTEM": "1"}
    # No setting: $XDG_CONFIG_HOME/git/ignore, else ~/.config/git/ignore.
    assert global_excludes_file({**base, "XDG_CONFIG_HOME": str(xdg)}) == xdg / "git" / "ignore"
    assert global_excludes_file(base) == home / ".config" / "git" / "ignore"
    # ~/.gitconfig is read after $XDG_CONFIG_HOME/git/config: its setting wins.
    (xdg / "git" / "config").write_text("[core]\nexcludesfile = /from/xdg\n", encoding="utf-8")
    assert global_excludes_file({**base, "XDG_CONFIG_HOME": str(xdg)}) == Path("/from/xdg")
    (home / ".gitconfig").write_text(
        '[Core]\n  ExcludesFile = "~/ignores" # comment\n[core "x"]\nexcludesFile = /no\n',
        encoding="utf-8",
    )
    assert global_excludes_file({**base, "XDG_CONFIG_HOME": str(xdg)}) == home / "ignores"
    # $GIT_CONFIG_GLOBAL replaces both.
    (tmp_path / "global").write_text("[core] excludesFile = /from/global\n", encoding="utf-8")
    chosen = {**base, "GIT_CONFIG_GLOBAL": str(tmp_path / "global")}
    assert global_excludes_file(chosen) == Path("/from/global")


def test_outside_a_work_tree_or_in_a_false_one_nothing_is_ignored(tmp_path: Path) -> None:
    (tmp_path / ".gitignore").write_text("build/\n", encoding="utf-8")
    (tmp_path / "build").mkdir()
    assert GitIgnored(tmp_path, {}).ignored([tmp_path / "build"]) == frozenset()
    (tmp_path / ".git").mkdir()  # an empty folder: git finds no repository there
    assert work_tree_of(tmp_path) is None
    assert GitIgnored(tmp_path, {}).ignored([tmp_path / "build"]) == frozenset()


@needs_git
def test_an_ignored_top_folder_has_nothing_below_it_ignored(tmp_path: Path) -> None:
    root, environ = _build(tmp_path)
    top = root / "build"
    (top / "cache").mkdir()
    (top / "other").mkdir()
    assert GitIgnored(root, environ).ignored([top, root / "sub"]) == {top}
    # Named by the user, build/ is searched, and so is its cache/ ("**/cache" matches it).
    assert GitIgnored(top, environ).ignored([top / "cache", top / "other"]) == frozenset()


@needs_git
def test_a_symbolic_link_ignore_file_is_not_followed(tmp_path: Path) -> None:
    root, environ = _build(tmp_path)
    (tmp_path / "elsewhere").write_text("*\n", encoding="utf-8")
    (root / "linked").mkdir()
    (root / "linked" / "inside").mkdir()
    (root / "linked" / ".gitignore").symlink_to(tmp_path / "elsewhere")
    assert _git_says(root, [root / "linked" / "inside"], environ) == set()
    assert GitIgnored(root, environ).ignored([root / "linked" / "inside"]) == frozenset()


def test_a_pattern_that_backtracks_without_end_is_matched_at_once(tmp_path: Path) -> None:
    """A stranger's .gitignore and folder names must not hold the search up: the matcher
    takes time linear in the name, not exponential in the pattern's stars."""
    name = "a" * 200
    root = make_tree(
        tmp_path,
        {
            ".git/HEAD": "ref: refs/heads/main\n",
            ".git/objects": None,
            ".git/refs": None,
            ".gitignore": "*a" * 16 + "*b\n",
            name: None,
        },
    )
    assert GitIgnored(root, {}).ignored([root / name]) == frozenset()


@needs_git
def test_the_repositorys_own_git_config_is_not_read(tmp_path: Path) -> None:
    """A repository's .git/config is the repository's to write: its core.excludesFile could
    name any file of the machine to be read. The user's own settings are read instead."""
    root, environ = _build(tmp_path)
    (tmp_path / "everything").write_text("*\n", encoding="utf-8")
    with (root / ".git" / "config").open("a", encoding="utf-8") as config:
        config.write(f"[core]\n\texcludesFile = {tmp_path / 'everything'}\n")
    (root / "kept").mkdir()
    assert _git_says(root, [root / "kept"], environ) == {root / "kept"}  # git reads it
    assert GitIgnored(root, environ).ignored([root / "kept", root / "info-only"]) == {
        root / "info-only"
    }


@needs_git
def test_an_ignore_file_of_thousands_of_patterns_is_read_whole(tmp_path: Path) -> None:
    """Thousands of patterns, a negation among them: the last matching pattern still decides."""
    root, environ = _build(tmp_path)
    filler = [f"dir{i}/**/[a-z]*x{i}?.tmp" for i in range(3000)]
    lines = ["big*", *filler, "!bigkeep", *filler, "bigkeep/"]
    (root / "many").mkdir()
    (root / "many" / ".gitignore").write_text("\n".join(lines) + "\n", encoding="utf-8")
    paths = [(root / "many" / name, True) for name in ("bigone", "bigkeep")]
    (root / "many" / "bigone").mkdir()
    (root / "many" / "bigkeep").mkdir()
    (root / "many" / "sub").mkdir()
    (root / "many" / "sub" / "bigkeep").write_text("", encoding="utf-8")
    paths.append((root / "many" / "sub" / "bigkeep", False))
    git = _git_says(root, [path for path, _ in paths], environ)
    rules = IgnoreRules(root, environ)
    ours = {path for path, folder in paths if rules.ignored(path, is_dir=folder)}
    assert ours == git == {root / "many" / "bigone", root / "many" / "bigkeep"}
