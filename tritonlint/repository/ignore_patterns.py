"""The patterns of one ignore file, matched against paths: by RE2 where it is installed, by a
pure-Python wildmatch where it is not.

Both answer as git does, and both take time linear in the path whatever the pattern: the
ignore files come with the repository being linted, and a stranger's ``*a*a*a*a*a*a*b``
must not hold the search up as a backtracking matcher (Python's :mod:`re`) would let it.

- **RE2** (``google-re2``, a dependency): :mod:`pathspec` translates each line into a
  regular expression (git's wildmatch syntax), and one RE2 set answers for a few hundred
  patterns at once, in C++. It is the faster of the two on long ignore files.
- **wildmatch** (:mod:`tritonlint.repository.wildmatch`): git's matcher itself, run as an
  automaton in pure Python, for installs that carry no binary wheels (the copy of tritonlint
  bundled in the VS Code extension). A line is read as git reads it (``dir.c``): trailing
  spaces cut unless escaped, ``!`` negates, a trailing ``/`` means folders only, a pattern
  without ``/`` matches the last part of a path at any depth, one with ``/`` the path below
  the file's folder.

The two differ where pathspec's translation departs from git, on unusual patterns: POSIX
classes (``[[:alpha:]]``, which it does not know), ranges that run backwards, some escapes
and placements of ``-`` and ``]`` in sets, and ``?`` against a name that is not ASCII (a
character to it, a byte to git). There the wildmatch engine answers as git does
(``tests/test_wildmatch.py`` compares it with git on random patterns).

The choice is made once, at import: RE2 where ``import re2`` succeeds. :data:`ENGINE` names
it; tests set it to ``"wildmatch"`` to run the same comparisons with git without RE2.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Literal, Protocol

from tritonlint.repository.wildmatch import GLOB_SPECIAL, Wildmatch

try:
    import re2  # type: ignore[import-untyped]
except ImportError:  # a pure-Python install: the wildmatch engine answers
    re2 = None

Engine = Literal["re2", "wildmatch"]

#: The engine that matches the patterns of the ignore files read from now on.
ENGINE: Engine = "wildmatch" if re2 is None else "re2"


class PatternList(Protocol):
    """The patterns of one ignore file."""

    def __len__(self) -> int: ...

    def verdict(self, path: str) -> bool | None:
        """Whether the last pattern matching ``path`` (relative to the file's folder;
        ``dir/`` for a folder) ignores it; None where none matches."""


def compile_patterns(lines: Iterable[str]) -> PatternList:
    """The lines of one ignore file, compiled for :data:`ENGINE`."""
    if ENGINE == "re2" and re2 is not None:
        return Re2Patterns(lines)
    return WildmatchPatterns(lines)


# -- RE2 ---------------------------------------------------------------------------------


class Re2Patterns:
    """The patterns of one ignore file as RE2 sets, each pattern held to a whole path.

    pathspec's expressions also match what lies below a matching folder; held to the end of
    the path here, they match as git matches a pattern against the path itself (what is
    below an ignored folder is ignored by the caller, which looks at the folders first).
    """

    def __init__(self, lines: Iterable[str]) -> None:
        # Imported here, with RE2 known to import: pathspec imports re2 itself, and lets
        # anything but its absence (a wheel that is there but broken) stop the import.
        from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern

        patterns: list[tuple[str, bool]] = []
        for line in lines:
            try:
                pattern = GitIgnoreSpecPattern(_inside_only(line))
            except (ValueError, re.error):  # an invalid range: git discards the pattern
                continue
            if pattern.include is not None and pattern.regex is not None:
                patterns.append((f"(?:{pattern.regex.pattern})$", pattern.include))
        #: Sets of consecutive patterns, last first, each with its patterns' verdicts.
        self._sets: list[tuple[Any, list[bool]]] = []
        for start in range(0, len(patterns), _SET_SIZE):
            self._sets.extend(_compiled(patterns[start : start + _SET_SIZE]))
        self._sets.reverse()
        self._count = sum(len(verdicts) for _, verdicts in self._sets)

    def __len__(self) -> int:
        return self._count

    def verdict(self, path: str) -> bool | None:
        for patterns, verdicts in self._sets:
            matched: list[int] = patterns.Match(path)
            if matched:
                return verdicts[max(matched)]
        return None


#: Patterns per RE2 set: more than any user's ignore file holds, few enough that a set
#: compiles within RE2's memory budget.
_SET_SIZE = 256


def _compiled(patterns: list[tuple[str, bool]]) -> list[tuple[Any, list[bool]]]:
    """``patterns`` as RE2 sets, in order: one set, or, where RE2 cannot compile them as one
    (too large), halves of them; a single pattern it cannot compile is left out."""
    if not patterns:
        return []
    try:
        options = re2.Options()
        options.log_errors = False  # a pattern RE2 cannot compile is left out, silently
        compiled = re2.Set.SearchSet(options)
        kept = []
        for expression, include in patterns:
            try:
                compiled.Add(expression)
            except re2.error:
                continue
            kept.append(include)
        if kept:
            compiled.Compile()
    except re2.error:
        if len(patterns) == 1:
            return []
        middle = len(patterns) // 2
        return _compiled(patterns[:middle]) + _compiled(patterns[middle:])
    return [(compiled, kept)] if kept else []


def _inside_only(line: str) -> str:
    """``dir/**`` as ``dir/**/*``: the same to git (all that is inside ``dir``, not ``dir``
    itself), but pathspec's expression for the first one matches the folder ``dir/`` too."""
    pattern = line.rstrip(" ")
    return pattern + "/*" if pattern.endswith("/**") else line


# -- wildmatch ---------------------------------------------------------------------------


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


class WildmatchPatterns:
    """The patterns of one ignore file, matched by :class:`Wildmatch` (pure Python).

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
