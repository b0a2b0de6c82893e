"""The patterns of one ignore file, matched against paths as git matches them.

The ignore files come with the repository being linted, so a stranger's
``*a*a*a*a*a*a*b`` must not hold the search up as a backtracking matcher (Python's :mod:`re`)
would let it: :mod:`tritonlint.repository.wildmatch` is git's own matcher run as an automaton
in pure Python, in time linear in the path whatever the pattern. It answers as git does
(``tests/test_wildmatch.py`` holds git's wildmatch table and compares it with git on random
patterns), which a translation of the patterns to regular expressions did not (POSIX classes,
ranges that run backwards, some escapes and placements of ``-`` and ``]`` in sets, ``?``
against a name that is not ASCII), and it needs no binary wheel, so the copy of tritonlint
bundled in the VS Code extension reads ignore files too.

A line is read as git reads it (``dir.c``): trailing spaces cut unless escaped, ``!``
negates, a trailing ``/`` means folders only, a pattern without ``/`` matches the last part
of a path at any depth, one with ``/`` the path below the file's folder.
"""

from __future__ import annotations

from collections.abc import Iterable

from tritonlint.repository.wildmatch import GLOB_SPECIAL, Wildmatch


class _Rule:
    """One line of an ignore file, as git's ``add_pattern`` keeps it."""

    __slots__ = ("folders_only", "ignores", "on_name", "prefix", "suffix", "whole")

    def __init__(self, pattern: bytes, *, ignores: bool, folders_only: bool) -> None:
        self.ignores = ignores
        self.folders_only = folders_only
        #: No ``/`` in it: matched against the last part of the path.
        self.on_name = b"/" not in pattern
        if not self.on_name and pattern.startswith(b"/"):
            pattern = pattern[1:]
        # As git does, the part of a path pattern before its first glob character is
        # compared as it is and the rest matched from there (so "**" just after that part
        # counts as leading); a name pattern is compared whole or matched whole.
        literal = len(pattern)
        for index, byte in enumerate(pattern):
            if byte in GLOB_SPECIAL:
                literal = 0 if self.on_name else index
                break
        self.prefix = pattern[:literal]
        rest = pattern[literal:]
        #: ``*literal``: the name or path ends so (git's ``PATTERN_FLAG_ENDSWITH``).
        self.suffix: bytes | None = None
        self.whole: Wildmatch | None = None
        if rest[:1] == b"*" and not GLOB_SPECIAL.intersection(rest[1:]) and self.on_name:
            self.suffix = rest[1:]
        elif rest:
            self.whole = Wildmatch(rest)

    def matches(self, path: bytes, name: bytes) -> bool:
        text = name if self.on_name else path
        if self.suffix is not None:
            return text.endswith(self.suffix)
        if not text.startswith(self.prefix):
            return False
        if self.whole is None:
            return len(text) == len(self.prefix)
        return self.whole.match(text[len(self.prefix) :])


def _trim_trailing_spaces(line: bytes) -> bytes:
    """The line without its trailing spaces, but for one escaped by a backslash."""
    last_space: int | None = None
    index = 0
    while index < len(line):
        byte = line[index]
        if byte == ord(" "):
            if last_space is None:
                last_space = index
        elif byte == ord("\\"):
            index += 1
            if index == len(line):
                return line
            last_space = None
        else:
            last_space = None
        index += 1
    return line if last_space is None else line[:last_space]


def _rule(line: str) -> _Rule | None:
    """The rule of one line; None for a blank line, a comment, or a pattern that can match
    nothing."""
    raw = line.encode("utf-8", "surrogateescape").split(b"\0", 1)[0]
    if not raw or raw.startswith(b"#"):
        return None
    pattern = _trim_trailing_spaces(raw)
    ignores = not pattern.startswith(b"!")
    if not ignores:
        pattern = pattern[1:]
    folders_only = pattern.endswith(b"/")
    if folders_only:
        pattern = pattern[:-1]
    if not pattern:
        return None
    try:
        return _Rule(pattern, ignores=ignores, folders_only=folders_only)
    except ValueError:  # an unterminated set, a lone backslash: git never matches it
        return None


class IgnorePatterns:
    """The patterns of one ignore file, matched by :class:`Wildmatch`.

    The patterns that are plain names (``node_modules``, ``build/``) are looked up in a
    table; the others are tried from the last up, down to the last plain name that matched.
    """

    def __init__(self, lines: Iterable[str]) -> None:
        rules = [rule for rule in map(_rule, lines) if rule is not None]
        self._rules = rules
        #: Plain names: the index of the last such rule, for files and for folders.
        self._names: dict[bytes, int] = {}
        self._folder_names: dict[bytes, int] = {}
        #: The other rules' indexes, last first.
        self._globbed: list[int] = []
        for index, rule in enumerate(rules):
            if rule.on_name and rule.whole is None and rule.suffix is None:
                self._folder_names[rule.prefix] = index
                if not rule.folders_only:
                    self._names[rule.prefix] = index
            else:
                self._globbed.append(index)
        self._globbed.reverse()

    def __len__(self) -> int:
        return len(self._rules)

    def verdict(self, path: str) -> bool | None:
        """Whether the last pattern matching ``path`` (relative to the file's folder;
        ``dir/`` for a folder) ignores it; None where none matches."""
        is_folder = path.endswith("/")
        whole = path.rstrip("/").encode("utf-8", "surrogateescape")
        name = whole.rpartition(b"/")[2]
        found = (self._folder_names if is_folder else self._names).get(name, -1)
        for index in self._globbed:
            if index < found:
                break
            rule = self._rules[index]
            if (is_folder or not rule.folders_only) and rule.matches(whole, name):
                found = index
                break
        return None if found < 0 else self._rules[found].ignores
