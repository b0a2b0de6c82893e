"""git's wildmatch in pure Python (tritonlint/repository/wildmatch.py) and the ignore files it
reads: git's own answers are the reference."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import make_tree

from tritonlint.repository.gitignored import IgnoreRules
from tritonlint.repository.ignore_patterns import IgnorePatterns
from tritonlint.repository.wildmatch import wildmatch

#: (text, pattern, whether it matches): the first column of git's t/t3070-wildmatch.sh, the
#: one for ``wildmatch(pattern, text, WM_PATHNAME)``, as git expects it.
GIT_WILDMATCH_TABLE = [
    ("foo", "foo", True),
    ("foo", "bar", False),
    ("", "", True),
    ("foo", "???", True),
    ("foo", "??", False),
    ("foo", "*", True),
    ("foo", "f*", True),
    ("foo", "*f", False),
    ("foo", "*foo*", True),
    ("foobar", "*ob*a*r*", True),
    ("aaaaaaabababab", "*ab", True),
    ("foo*", "foo\\*", True),
    ("foobar", "foo\\*bar", False),
    ("f\\oo", "f\\\\oo", True),
    ("foo\\", "foo\\", False),
    ("ball", "*[al]?", True),
    ("ten", "[ten]", False),
    ("ten", "**[!te]", True),
    ("ten", "**[!ten]", False),
    ("ten", "t[a-g]n", True),
    ("ten", "t[!a-g]n", False),
    ("ton", "t[!a-g]n", True),
    ("ton", "t[^a-g]n", True),
    ("a]b", "a[]]b", True),
    ("a-b", "a[]-]b", True),
    ("a]b", "a[]-]b", True),
    ("aab", "a[]-]b", False),
    ("aab", "a[]a-]b", True),
    ("]", "]", True),
    ("foo/baz/bar", "foo*bar", False),
    ("foo/baz/bar", "foo**bar", False),
    ("foobazbar", "foo**bar", True),
    ("foo/baz/bar", "foo/**/bar", True),
    ("foo/baz/bar", "foo/**/**/bar", True),
    ("foo/b/a/z/bar", "foo/**/bar", True),
    ("foo/b/a/z/bar", "foo/**/**/bar", True),
    ("foo/bar", "foo/**/bar", True),
    ("foo/bar", "foo/**/**/bar", True),
    ("foo/bar", "foo?bar", False),
    ("foo/bar", "foo[/]bar", False),
    ("foo/bar", "foo[^a-z]bar", False),
    ("foo/bar", "f[^eiu][^eiu][^eiu][^eiu][^eiu]r", False),
    ("foo-bar", "f[^eiu][^eiu][^eiu][^eiu][^eiu]r", True),
    ("foo", "**/foo", True),
    ("XXX/foo", "**/foo", True),
    ("bar/baz/foo", "**/foo", True),
    ("bar/baz/foo", "*/foo", False),
    ("foo/bar/baz", "**/bar*", False),
    ("deep/foo/bar/baz", "**/bar/*", True),
    ("deep/foo/bar/baz/", "**/bar/*", False),
    ("deep/foo/bar/baz/", "**/bar/**", True),
    ("deep/foo/bar", "**/bar/*", False),
    ("deep/foo/bar/", "**/bar/**", True),
    ("foo/bar/baz", "**/bar**", False),
    ("foo/bar/baz/x", "*/bar/**", True),
    ("deep/foo/bar/baz/x", "*/bar/**", False),
    ("deep/foo/bar/baz/x", "**/bar/*/*", True),
    ("acrt", "a[c-c]st", False),
    ("acrt", "a[c-c]rt", True),
    ("]", "[!]-]", False),
    ("a", "[!]-]", True),
    ("", "\\", False),
    ("\\", "\\", False),
    ("XXX/\\", "*/\\", False),
    ("XXX/\\", "*/\\\\", True),
    ("@foo", "@foo", True),
    ("foo", "@foo", False),
    ("[ab]", "\\[ab]", True),
    ("[ab]", "[[]ab]", True),
    ("[ab]", "[[:]ab]", True),
    ("[ab]", "[[::]ab]", False),
    ("[ab]", "[[:digit]ab]", True),
    ("[ab]", "[\\[:]ab]", True),
    ("?a?b", "\\??\\?b", True),
    ("abc", "\\a\\b\\c", True),
    ("foo", "", False),
    ("foo/bar/baz/to", "**/t[o]", True),
    ("a1B", "[[:alpha:]][[:digit:]][[:upper:]]", True),
    ("a", "[[:digit:][:upper:][:space:]]", False),
    ("A", "[[:digit:][:upper:][:space:]]", True),
    ("1", "[[:digit:][:upper:][:space:]]", True),
    ("1", "[[:digit:][:upper:][:spaci:]]", False),
    (" ", "[[:digit:][:upper:][:space:]]", True),
    (".", "[[:digit:][:upper:][:space:]]", False),
    (".", "[[:digit:][:punct:][:space:]]", True),
    ("5", "[[:xdigit:]]", True),
    ("f", "[[:xdigit:]]", True),
    ("D", "[[:xdigit:]]", True),
    (
        "_",
        "[[:alnum:][:alpha:][:blank:][:cntrl:][:digit:][:graph:][:lower:][:print:][:punct:][:space:][:upper:][:xdigit:]]",
        True,
    ),
    (
        ".",
        "[^[:alnum:][:alpha:][:blank:][:cntrl:][:digit:][:lower:][:space:][:upper:][:xdigit:]]",
        True,
    ),
    ("5", "[a-c[:digit:]x-z]", True),
    ("b", "[a-c[:digit:]x-z]", True),
    ("y", "[a-c[:digit:]x-z]", True),
    ("q", "[a-c[:digit:]x-z]", False),
    ("]", "[\\\\-^]", True),
    ("[", "[\\\\-^]", False),
    ("-", "[\\-_]", True),
    ("]", "[\\]]", True),
    ("\\]", "[\\]]", False),
    ("\\", "[\\]]", False),
    ("ab", "a[]b", False),
    ("a[]b", "a[]b", False),
    ("ab[", "ab[", False),
    ("ab", "[!", False),
    ("ab", "[-", False),
    ("-", "[-]", True),
    ("-", "[a-", False),
    ("-", "[!a-", False),
    ("-", "[--A]", True),
    ("5", "[--A]", True),
    (" ", "[ --]", True),
    ("$", "[ --]", True),
    ("-", "[ --]", True),
    ("0", "[ --]", False),
    ("-", "[---]", True),
    ("-", "[------]", True),
    ("j", "[a-e-n]", False),
    ("-", "[a-e-n]", True),
    ("a", "[!------]", True),
    ("[", "[]-a]", False),
    ("^", "[]-a]", True),
    ("^", "[!]-a]", False),
    ("[", "[!]-a]", True),
    ("^", "[a^bc]", True),
    ("-b]", "[a-]b]", True),
    ("\\", "[\\]", False),
    ("\\", "[\\\\]", True),
    ("\\", "[!\\\\]", False),
    ("G", "[A-\\\\]", True),
    ("aaabbb", "b*a", False),
    ("aabcaa", "*ba*", False),
    (",", "[,]", True),
    (",", "[\\\\,]", True),
    ("\\", "[\\\\,]", True),
    ("-", "[,-.]", True),
    ("+", "[,-.]", False),
    ("-.]", "[,-.]", False),
    ("2", "[\\1-\\3]", True),
    ("3", "[\\1-\\3]", True),
    ("4", "[\\1-\\3]", False),
    ("\\", "[[-\\]]", True),
    ("[", "[[-\\]]", True),
    ("]", "[[-\\]]", True),
    ("-", "[[-\\]]", False),
    (
        "-adobe-courier-bold-o-normal--12-120-75-75-m-70-iso8859-1",
        "-*-*-*-*-*-*-12-*-*-*-m-*-*-*",
        True,
    ),
    (
        "-adobe-courier-bold-o-normal--12-120-75-75-X-70-iso8859-1",
        "-*-*-*-*-*-*-12-*-*-*-m-*-*-*",
        False,
    ),
    (
        "-adobe-courier-bold-o-normal--12-120-75-75-/-70-iso8859-1",
        "-*-*-*-*-*-*-12-*-*-*-m-*-*-*",
        False,
    ),
    (
        "XXX/adobe/courier/bold/o/normal//12/120/75/75/m/70/iso8859/1",
        "XXX/*/*/*/*/*/*/12/*/*/*/m/*/*/*",
        True,
    ),
    (
        "XXX/adobe/courier/bold/o/normal//12/120/75/75/X/70/iso8859/1",
        "XXX/*/*/*/*/*/*/12/*/*/*/m/*/*/*",
        False,
    ),
    ("abcd/abcdefg/abcdefghijk/abcdefghijklmnop.txt", "**/*a*b*g*n*t", True),
    ("abcd/abcdefg/abcdefghijk/abcdefghijklmnop.txtz", "**/*a*b*g*n*t", False),
    ("foo", "*/*/*", False),
    ("foo/bar", "*/*/*", False),
    ("foo/bba/arr", "*/*/*", True),
    ("foo/bb/aa/rr", "*/*/*", False),
    ("foo/bb/aa/rr", "**/**/**", True),
    ("abcXdefXghi", "*X*i", True),
    ("ab/cXd/efXg/hi", "*X*i", False),
    ("ab/cXd/efXg/hi", "*/*X*/*/*i", True),
    ("ab/cXd/efXg/hi", "**/*X*/**/*i", True),
    ("foo", "fo", False),
    ("foo/bar", "foo/bar", True),
    ("foo/bar", "foo/*", True),
    ("foo/bba/arr", "foo/*", False),
    ("foo/bba/arr", "foo/**", True),
    ("foo/bba/arr", "foo*", False),
    ("foo/bba/arr", "foo**", False),
    ("foo/bba/arr", "foo/*arr", False),
    ("foo/bba/arr", "foo/**arr", False),
    ("foo/bba/arr", "foo/*z", False),
    ("foo/bba/arr", "foo/**z", False),
    ("ab/cXd/efXg/hi", "*Xg*i", False),
    ("a", "[A-Z]", False),
    ("A", "[A-Z]", True),
    ("A", "[a-z]", False),
    ("a", "[a-z]", True),
    ("a", "[[:upper:]]", False),
    ("A", "[[:upper:]]", True),
    ("A", "[[:lower:]]", False),
    ("a", "[[:lower:]]", True),
    ("A", "[B-Za]", False),
    ("a", "[B-Za]", True),
    ("A", "[B-a]", False),
    ("a", "[B-a]", True),
    ("z", "[Z-y]", False),
    ("Z", "[Z-y]", True),
]


@pytest.mark.parametrize(("text", "pattern", "expected"), GIT_WILDMATCH_TABLE)
def test_the_matcher_answers_as_gits_wildmatch_table(
    text: str, pattern: str, expected: bool
) -> None:
    assert wildmatch(pattern.encode(), text.encode()) is expected


needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

#: Lines of a .gitignore whose reading and matching git defines in its own way.
QUIRKS = "\n".join(
    [
        "foo**/bar",  # git compares "foo" as it is: the "**/" after it counts as leading
        "[!z-a]q",  # a reversed range is empty, so its negation is any byte
        "n[[:space:]]m",
        "n[[:punct:]]p",
        "é?",  # "?" is one byte, and "é" is two
        r"esc\ aped\ ",  # an escaped space that ends the line is kept
        "sl/**\\/end",  # "**" before an escaped slash crosses folders, never matches nothing
        "mid/***/x",
        "[[:alpha:]-]x",
        "open[ab",  # a set without its "]": the pattern matches nothing
        "lone\\",
        "*.o",
        "!keep.o",
        "/top/*.d/",
    ]
)
QUIRK_PATHS = [
    "foobar",
    "foox/y/bar",
    "foo/bar",
    "Wq",
    "zq",
    "n m",
    "n\tm",
    "n\vm",
    "n-p",
    "nxp",
    "éx",
    "éé",
    "esc aped ",
    "esc aped",
    "sl/end",
    "sl/a/end",
    "sl/a/b/end",
    "mid/x",
    "mid/a/b/x",
    "-x",
    "Qx",
    "1x",
    "open[ab",
    "opena",
    "lone\\",
    "lone",
    "a.o",
    "keep.o",
    "top/a.d/f",
    "top/b.d",
    "sub/top/a.d/f",
    "sub/a.o",
]


@needs_git
def test_the_quirks_of_gits_reading_are_kept(
    tmp_path: Path,
) -> None:
    """Paths that only a reading faithful to git answers right, asked of git too (a
    translation of the patterns to regular expressions answered some of them otherwise:
    POSIX classes, and "?" against a byte of a name that is not ASCII)."""
    environ = {
        **{key: value for key, value in os.environ.items() if not key.startswith("GIT_")},
        "HOME": str(tmp_path),
        "GIT_CONFIG_NOSYSTEM": "1",
    }
    root = tmp_path / "work"
    subprocess.run(["git", "init", "-q", str(root)], check=True, env=environ)
    make_tree(root, {".gitignore": QUIRKS + "\n", **dict.fromkeys(QUIRK_PATHS, "")}, verbatim=True)
    paths = [(root / relative, False) for relative in QUIRK_PATHS]
    paths += [(folder, True) for folder in {path.parent for path, _ in paths} - {root}]
    request = b"".join(os.fsencode(path.relative_to(root)) + b"\0" for path, _ in paths)
    answer = subprocess.run(
        ["git", "check-ignore", "--stdin", "-z"],
        input=request,
        cwd=root,
        capture_output=True,
        env=environ,
        check=False,
    )
    assert answer.returncode in (0, 1), answer.stderr
    git = {os.fsdecode(path) for path in answer.stdout.split(b"\0") if path}
    rules = IgnoreRules(root, environ)
    ours = {
        str(path.relative_to(root)) for path, is_dir in paths if rules.ignored(path, is_dir=is_dir)
    }
    assert sorted(ours - git) == []  # we alone ignore
    assert sorted(git - ours) == []  # git alone ignores
    assert len(git) > 10
    assert len(paths) - len(git) > 10


def test_stars_that_would_backtrack_are_answered_right() -> None:
    """Ten stars against 200 bytes: a backtracking matcher would not finish; the automaton
    answers at once (its time is measured by benchmarks/gitignore_search.py)."""
    pattern = b"*a" * 10 + b"*b"
    assert wildmatch(pattern, b"a" * 200) is False
    assert wildmatch(pattern, b"a" * 200 + b"b") is True
    assert wildmatch(b"**/" * 20 + b"x", b"a/" * 100 + b"x") is True
    assert wildmatch(b"**/" * 20 + b"x", b"a/" * 100 + b"y") is False


def test_the_last_of_two_thousand_patterns_that_matches_decides() -> None:
    lines = [f"dir{i}/**/*a*a*a*a*a*b{i}" for i in range(1000)]
    lines += ["big*", "!bigkeep", "*.log", "cache/", "!nested/cache/"]
    lines += [f"name{i}" for i in range(995)]
    patterns = IgnorePatterns(lines)
    assert len(patterns) == 2000
    long_name = "a" * 200
    assert patterns.verdict(f"dir5/x/y/{long_name}") is None
    assert patterns.verdict(f"dir5/x/y/{long_name}b5") is True
    assert patterns.verdict("bigone") is True
    assert patterns.verdict("bigkeep") is False
    assert patterns.verdict("x/run.log") is True
    assert patterns.verdict("cache") is None  # a file: "cache/" names folders only
    assert patterns.verdict("cache/") is True
    assert patterns.verdict("a/cache/") is True
    assert patterns.verdict("nested/cache/") is False
    assert patterns.verdict("name994") is True
    assert patterns.verdict("name995") is None


@pytest.mark.parametrize(
    ("lines", "path", "verdict"),
    [
        (["# comment", "", "   "], "# comment", None),
        (["\\#hash"], "#hash", True),
        (["\\!bang"], "!bang", True),
        (["!"], "x", None),
        (["trailing  "], "trailing", True),
        (["trailing\\ "], "trailing ", True),
        (["trailing\\ "], "trailing", None),
        (["/"], "x/", None),
        (["a/b"], "x/a/b", None),  # a path pattern is anchored to the file's folder
        (["/a"], "x/a", None),
        (["a"], "x/a", True),  # a name pattern matches at any depth
        (["a/**"], "a/", None),  # "a/**" is what is inside a, not a itself
        (["a/**"], "a/b/c", True),
        (["**/a"], "a", True),
        (["x/**/y"], "x/y", True),
        (["**/\\*"], "a*", None),  # once "**" matched a byte, the slash of "**/" must follow
        (["**/\\*"], "a/*", True),
        (["*", "!*.py"], "m.py", False),
        (["*.py", "!m.py", "*"], "m.py", True),
        (["dir/"], "dir", None),
        (["dir/"], "dir/", True),
    ],
)
def test_each_line_is_read_as_git_reads_it(
    lines: list[str], path: str, verdict: bool | None
) -> None:
    assert IgnorePatterns(lines).verdict(path) is verdict


#: Pieces of random patterns and of random path parts.
PATTERN_PIECES = ["a", "b", "/", "*", "**", "?", "[ab]", "[!a]", "[a-", "]", "\\*", "\\", "!"]
PATTERN_PIECES += ["[[:alpha:]]", "-", "/**/", "**/", "/**", " ", "\\ ", "#", "[^b-]", "[]a]"]
NAME_PIECES = ["a", "b", "ab", "ba", "aa", "*", "-", "]"]


@needs_git
def test_random_patterns_are_answered_as_git_answers_them(
    tmp_path: Path,
) -> None:
    """150 random patterns, each in the .gitignore of a folder of its own with random paths
    below it: every path and folder is ignored exactly when git ignores it. (Such a run found
    that ``**/`` may match nothing only before its ``**`` has matched a byte.)"""
    environ = {
        **{key: value for key, value in os.environ.items() if not key.startswith("GIT_")},
        "HOME": str(tmp_path),
        "GIT_CONFIG_NOSYSTEM": "1",
    }
    root = tmp_path / "work"
    subprocess.run(["git", "init", "-q", str(root)], check=True, env=environ)
    chosen = random.Random(3070)
    asked: set[tuple[Path, bool]] = set()
    for number in range(150):
        folder = root / f"f{number}"
        folder.mkdir()
        pattern = "".join(chosen.choice(PATTERN_PIECES) for _ in range(chosen.randint(1, 6)))
        (folder / ".gitignore").write_text(pattern + "\n", encoding="utf-8")
        for _ in range(8):
            parts = [
                "".join(chosen.choice(NAME_PIECES) for _ in range(chosen.randint(1, 3)))
                for _ in range(chosen.randint(1, 3))
            ]
            above = [folder.joinpath(*parts[:depth]) for depth in range(1, len(parts) + 1)]
            if any(path.exists() for path in above[-1:]) or any(
                path.is_file() for path in above[:-1]
            ):
                continue
            above[-1].parent.mkdir(parents=True, exist_ok=True)
            above[-1].write_text("", encoding="utf-8")
            asked.update((path, path != above[-1]) for path in above)
    paths = sorted(asked)
    request = b"".join(os.fsencode(path.relative_to(root)) + b"\0" for path, _ in paths)
    answer = subprocess.run(
        ["git", "check-ignore", "--stdin", "-z"],
        input=request,
        cwd=root,
        capture_output=True,
        env=environ,
        check=False,
    )
    assert answer.returncode in (0, 1), answer.stderr
    git = {root / os.fsdecode(path) for path in answer.stdout.split(b"\0") if path}
    rules = IgnoreRules(root, environ)
    ours = {path for path, is_dir in paths if rules.ignored(path, is_dir=is_dir)}
    assert sorted(str(path.relative_to(root)) for path in ours - git) == []
    assert sorted(str(path.relative_to(root)) for path in git - ours) == []
    assert len(git) > 50
    assert len(paths) - len(git) > 50
