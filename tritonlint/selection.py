"""What a selection names: rules by code, code prefix or name; paths by glob pattern.

The settings file, the command line, the engine's options and suppression comments all select
rules and paths the same way, here: one meaning of ``TL2``, ``ALL`` or ``legacy/**`` wherever
it is written.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path


def check_rule_selector(code: str) -> None:
    """Raise ValueError unless ``code`` (a rule code, prefix, name or ``ALL``) names a rule.

    The one check of a rule selector, for the settings file and the command line alike.
    """
    from tritonlint.rules.registry import all_rules  # the rule packs import much; load late

    if not any(rule_matches(code, r.code, r.name) for r in all_rules()):
        raise ValueError(f"no rule code, prefix or name matches {code!r}")


def rule_matches(pattern: str, code: str, name: str) -> bool:
    """Whether ``pattern`` (a rule code, a code prefix, any case, a rule name, or ``ALL``)
    names a rule."""
    upper = pattern.upper()
    return upper == "ALL" or code.startswith(upper) or name == pattern


# --- Glob patterns of paths --------------------------------------------------------------------


def glob_regex(pattern: str) -> re.Pattern[str]:
    """The regular expression of a glob pattern over ``/``-separated relative paths.

    ``*`` is any run of characters but ``/``, ``?`` one such character, ``[abc]``/``[!abc]`` a
    character class, ``**/`` any number of folders (none included) and a final ``**``
    everything below. A leading ``./`` and a trailing ``/`` are ignored.
    """
    pattern = pattern.strip().replace(os.sep, "/")
    while pattern.startswith("./"):
        pattern = pattern[2:]
    pattern = pattern.rstrip("/") or "."
    out: list[str] = []
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if pattern.startswith("**/", index):
            out.append("(?:[^/]+/)*")
            index += 3
            continue
        if pattern.startswith("**", index):
            out.append(".*")
            index += 2
            continue
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[" and (close := pattern.find("]", index + 2)) != -1:
            body = pattern[index + 1 : close].replace("\\", "\\\\").replace("[", "\\[")
            if body.startswith("!"):
                body = "^" + body[1:]
            out.append(f"[{body}]")
            index = close + 1
            continue
        else:
            out.append(re.escape(char))
        index += 1
    return re.compile("".join(out))


class PathPatterns:
    """Glob patterns relative to a folder, matched against paths and the folders above them.

    A pattern matches a path when it matches the path relative to ``root`` or one of the
    folders on the way to it: ``legacy/*`` matches ``legacy/resnet``, ``legacy/resnet/1`` and
    ``legacy/resnet/config.pbtxt``. Paths outside ``root`` match nothing.
    """

    def __init__(self, patterns: Iterable[str], root: Path | None = None) -> None:
        self.patterns = tuple(patterns)
        self._regexes = [(p, glob_regex(p)) for p in self.patterns]
        self._root = os.path.abspath(root if root is not None else Path.cwd())

    def __bool__(self) -> bool:
        return bool(self.patterns)

    def matching(self, path: Path) -> list[str]:
        """The patterns that match ``path`` (absolute, or relative to the working directory)."""
        if not self._regexes:
            return []
        try:
            relative = os.path.relpath(os.path.abspath(path), self._root)
        except ValueError:  # another drive on Windows
            return []
        if relative == ".." or relative.startswith(".." + os.sep):
            return []
        parts = relative.replace(os.sep, "/").split("/")
        candidates = ["/".join(parts[: end + 1]) for end in range(len(parts))]
        return [
            pattern
            for pattern, regex in self._regexes
            if any(regex.fullmatch(candidate) for candidate in candidates)
        ]

    def match(self, path: Path) -> bool:
        return bool(self.matching(path))
