"""Which folders git ignores, so that the search for repositories passes over them.

The patterns are read, never asked of git: running git in a repository runs what its
``.git/config`` names (``core.fsmonitor``, hooks, filters), and the repository being linted
may be a stranger's. The rules git applies are read from the same files it reads, and
matched as git matches them, in time linear in the path
(:mod:`tritonlint.repository.ignore_patterns`):

- ``.gitignore`` in every folder from the work tree's root down to the path, the deepest
  deciding first; a pattern is relative to its file's folder;
- ``.git/info/exclude`` (of the repository's common folder, for a linked work tree);
- the user's global excludes: ``core.excludesFile`` of the user's git settings
  (``$GIT_CONFIG_GLOBAL``, or ``$XDG_CONFIG_HOME/git/config`` and ``~/.gitconfig``, after
  the system's ``/etc/gitconfig``), by default ``$XDG_CONFIG_HOME/git/ignore``.

Within one file the last matching pattern decides; a path below an ignored folder is
ignored whatever the patterns say about it (git does not look into that folder). The
repository's own ``.git/config`` is not read: its settings are the repository's to choose,
and its ``core.excludesFile`` could name any file of the machine. ``[include]`` sections of
the user's settings are not followed. An in-tree ``.gitignore`` that is a symbolic link is
not followed (as git does not), and one larger than :data:`MAX_IGNORE_FILE_BYTES` is not
read. Outside a git work tree nothing counts as ignored.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from tritonlint.repository.ignore_patterns import IgnorePatterns

#: An ignore file larger than this is not read (git's own limit is 100 MiB; a file of
#: patterns this large is no user's, and compiling it would hold the search up).
MAX_IGNORE_FILE_BYTES = 1 << 20


def work_tree_of(folder: Path) -> Path | None:
    """The root of the git work tree holding ``folder``: its nearest folder whose ``.git``
    is a repository (a folder, or a file naming one, with ``HEAD``, ``objects`` and ``refs``),
    as git looks for it."""
    for candidate in (folder, *folder.parents):
        if os.path.lexists(candidate / ".git") and _common_git_dir(candidate) is not None:
            return candidate
    return None


def _read_limited(path: Path, *, follow: bool) -> bytes | None:
    """The bytes of the regular file ``path``; None where it is missing, not a regular
    file (or, unless ``follow``, a symbolic link), unreadable, or too large."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
    if not follow:
        flags |= getattr(os, "O_NOFOLLOW", 0)
        if path.is_symlink():
            return None
    try:
        descriptor = os.open(path, flags)
    except OSError:
        return None
    try:
        with open(descriptor, "rb", closefd=True) as file:
            status = os.fstat(file.fileno())
            if not stat.S_ISREG(status.st_mode) or status.st_size > MAX_IGNORE_FILE_BYTES:
                return None
            data = file.read(MAX_IGNORE_FILE_BYTES + 1)
    except OSError:
        return None
    return data if len(data) <= MAX_IGNORE_FILE_BYTES else None


def _patterns(data: bytes | None) -> IgnorePatterns | None:
    if not data:
        return None
    text = data.decode("utf-8", "surrogateescape").removeprefix("\ufeff")
    patterns = IgnorePatterns(text.splitlines())
    return patterns if len(patterns) else None


# -- the user's global excludes file -------------------------------------------------------

_SECTION = re.compile(r'\s*\[\s*([A-Za-z0-9.-]+)(\s+"(?:[^"\\]|\\.)*")?\s*\]')
_KEY = re.compile(r"\s*([A-Za-z][A-Za-z0-9-]*)\s*(?:=(.*))?$")


def _config_value(raw: str) -> str:
    """A git config value as git reads it: quotes removed, escapes resolved, comments cut."""
    value: list[str] = []
    quoted = False
    index = 0
    while index < len(raw):
        char = raw[index]
        if char == '"':
            quoted = not quoted
        elif char == "\\" and index + 1 < len(raw):
            index += 1
            value.append({"n": "\n", "t": "\t", "b": "\b"}.get(raw[index], raw[index]))
        elif char in "#;" and not quoted:
            break
        else:
            value.append(char)
        index += 1
    return "".join(value).strip()


def _excludes_file_setting(config: str) -> str | None:
    """The last ``core.excludesFile`` of one git config file's text."""
    found: str | None = None
    section = ""
    for line in config.splitlines():
        stripped = line.strip()
        if not stripped or stripped[0] in "#;":
            continue
        header = _SECTION.match(line)
        if header:
            # A subsection (``[core "x"]``) is another section than ``[core]``.
            section = header.group(1).lower() + ("." if header.group(2) else "")
            rest = line[header.end() :]
            if not rest.strip():
                continue
            line = rest
        entry = _KEY.match(line)
        if entry and section == "core" and entry.group(1).lower() == "excludesfile":
            found = _config_value(entry.group(2) or "")
    return found


def _expand_user(value: str, home: Path | None) -> Path | None:
    if value == "~" or value.startswith("~/"):
        return None if home is None else home / value[2:]
    path = Path(value)
    return path if path.is_absolute() else None


def global_excludes_file(environ: Mapping[str, str] | None = None) -> Path | None:
    """The user's global excludes file, as git finds it, from the files only (no git run)."""
    env = os.environ if environ is None else environ
    home = Path(env["HOME"]) if env.get("HOME") else None
    xdg = Path(env["XDG_CONFIG_HOME"]) if env.get("XDG_CONFIG_HOME") else None
    if xdg is None and home is not None:
        xdg = home / ".config"
    configs: list[Path] = []
    if not env.get("GIT_CONFIG_NOSYSTEM"):
        configs.append(Path(env.get("GIT_CONFIG_SYSTEM") or "/etc/gitconfig"))
    if env.get("GIT_CONFIG_GLOBAL"):
        configs.append(Path(env["GIT_CONFIG_GLOBAL"]))
    else:
        if xdg is not None:
            configs.append(xdg / "git" / "config")
        if home is not None:
            configs.append(home / ".gitconfig")
    setting: str | None = None
    for config in configs:
        data = _read_limited(config, follow=True)
        if data is not None:
            setting = _excludes_file_setting(data.decode("utf-8", "surrogateescape")) or setting
    if setting:
        return _expand_user(setting, home)
    return None if xdg is None else xdg / "git" / "ignore"


def _common_git_dir(work_tree: Path) -> Path | None:
    """The repository's (common) git folder: ``.git``, or where a ``.git`` file points;
    None where that is no repository."""
    dot_git = work_tree / ".git"
    if dot_git.is_dir():
        git_dir = dot_git
    else:
        data = _read_limited(dot_git, follow=False)
        text = (data or b"").decode("utf-8", "surrogateescape").strip()
        if not text.startswith("gitdir:"):
            return None
        git_dir = work_tree / text[len("gitdir:") :].strip()
    common = git_dir
    named = _read_limited(git_dir / "commondir", follow=True)
    if named:
        common = git_dir / named.decode("utf-8", "surrogateescape").strip()
    valid = (git_dir / "HEAD").is_file() and all(
        (common / part).is_dir() for part in ("objects", "refs")
    )
    return common if valid else None


class IgnoreRules:
    """git's ignore rules for the paths of one work tree, read from its files."""

    def __init__(self, work_tree: Path, environ: Mapping[str, str] | None = None) -> None:
        self._root = work_tree
        root = os.fspath(work_tree)
        self._prefix = root if root.endswith(os.sep) else root + os.sep
        outer: list[IgnorePatterns] = []
        git_dir = _common_git_dir(work_tree)
        if git_dir is not None:
            info = _patterns(_read_limited(git_dir / "info" / "exclude", follow=True))
            if info is not None:
                outer.append(info)
        excludes = global_excludes_file(environ)
        if excludes is not None:
            user = _patterns(_read_limited(excludes, follow=True))
            if user is not None:
                outer.append(user)
        #: Below the per-folder files, highest precedence first.
        self._outer = tuple(outer)
        self._specs: dict[tuple[str, ...], IgnorePatterns | None] = {}
        self._folders: dict[tuple[str, ...], bool] = {}

    def ignored(self, path: Path, *, is_dir: bool) -> bool:
        """Whether git ignores ``path`` (absolute, in the work tree; not the root itself)."""
        text = os.fspath(path)
        if not text.startswith(self._prefix):
            return False
        parts = tuple(part for part in text[len(self._prefix) :].split(os.sep) if part)
        if not parts or parts[0] == ".git":
            return False
        for depth in range(1, len(parts)):
            if self._folder_ignored(parts[:depth]):
                return True
        if is_dir:
            return self._folder_ignored(parts)
        return self._matched(parts, is_dir=False)

    def _folder_ignored(self, parts: tuple[str, ...]) -> bool:
        known = self._folders.get(parts)
        if known is None:
            known = self._folders[parts] = self._matched(parts, is_dir=True)
        return known

    def _matched(self, parts: tuple[str, ...], *, is_dir: bool) -> bool:
        """The verdict of the patterns about ``parts`` itself (its folders not ignored)."""
        tail = "/" if is_dir else ""
        for depth in range(len(parts) - 1, -1, -1):
            spec = self._spec_of(parts[:depth])
            if spec is not None:
                verdict = spec.verdict("/".join(parts[depth:]) + tail)
                if verdict is not None:
                    return verdict
        whole = "/".join(parts) + tail
        for spec in self._outer:
            verdict = spec.verdict(whole)
            if verdict is not None:
                return verdict
        return False

    def _spec_of(self, folder: tuple[str, ...]) -> IgnorePatterns | None:
        if folder not in self._specs:
            self._specs[folder] = _patterns(
                _read_limited(self._root.joinpath(*folder, ".gitignore"), follow=False)
            )
        return self._specs[folder]


class GitIgnored:
    """Which of some folders below ``top`` git ignores, by git's rules (see the module).

    When ``top`` is ignored itself, nothing below it counts as ignored: the user named it.
    """

    def __init__(self, top: Path, environ: Mapping[str, str] | None = None) -> None:
        root = work_tree_of(top)
        self._rules: IgnoreRules | None = None
        if root is not None and top != root:
            rules = IgnoreRules(root, environ)
            if not rules.ignored(top, is_dir=True):
                self._rules = rules
        elif root is not None:
            self._rules = IgnoreRules(root, environ)

    def ignored(self, folders: Sequence[Path] | Iterable[Path]) -> frozenset[Path]:
        """The folders of ``folders`` that git ignores (absolute paths below ``top``)."""
        rules = self._rules
        if rules is None:
            return frozenset()
        # A symbolic link is not a folder to git: ``build/`` does not match a link ``build``.
        return frozenset(
            folder for folder in folders if rules.ignored(folder, is_dir=not folder.is_symlink())
        )
