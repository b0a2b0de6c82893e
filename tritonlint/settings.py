"""Project settings: ``[tool.tritonlint]`` in ``pyproject.toml``, or ``.tritonlint.toml``.

The settings file is found by walking up from the linted path to the filesystem root; the
first folder with a ``.tritonlint.toml``, or a ``pyproject.toml`` that has a
``[tool.tritonlint]`` table, decides (``.tritonlint.toml`` wins when a folder has both; a
``pyproject.toml`` without the table is passed over). In ``.tritonlint.toml`` the keys are
written at the top level, or under ``[tool.tritonlint]`` too:

```toml
triton-version = "2.51"          # a Triton release (2.51, 2.51.0) or a container release (24.10)
select = ["TL1", "TL201"]        # rule codes, code prefixes or rule names
ignore = ["TL306"]
extend-select = []
per-file-ignores = { "legacy/*" = ["TL2"] }
severity = { TL202 = "error" }
exclude = ["scratch/*"]
repositories = ["deploy/model_repository"]
```

Every key is validated here; a file that is not TOML, a key that is not one of these, a value of
the wrong type, an unknown rule or an unknown release raises :class:`SettingsError`, whose
message names the file and the key (a file whose arrays or tables nest more than
:data:`MAX_DEPTH` levels deep, or one larger than :data:`MAX_BYTES`, raises it too, naming the
file). Command-line options override
the file (``--select`` replaces ``select``; ``--extend-select`` and ``--ignore`` add to the
file's lists). The glob patterns of ``per-file-ignores`` and ``exclude`` are relative to the
folder of the settings file (see :class:`~tritonlint.selection.PathPatterns`), and so are the
folders of ``repositories``, which must exist. What a rule selector or a glob pattern matches
is :mod:`tritonlint.selection`'s to say; this module only reads and validates the file.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tritonlint.diagnostics import Severity
from tritonlint.paths import is_file_here, is_folder_here
from tritonlint.report.printable import shown_path
from tritonlint.schema.releases import resolve_release
from tritonlint.selection import check_rule_selector
from tritonlint.usage import UsageError

#: The settings file of its own, checked before ``pyproject.toml`` in each folder.
SETTINGS_FILE = ".tritonlint.toml"
PYPROJECT = "pyproject.toml"


class SettingsError(UsageError, ValueError):
    """A settings file tritonlint cannot use: reported as a usage error (exit status 2)."""


@dataclass(frozen=True)
class Settings:
    """What a settings file says; every field is empty when there is no file or no key."""

    #: The file the settings came from (None: none was found).
    path: Path | None = None
    #: The target Triton release as written (``2.51``, ``2.51.0``, ``24.10``); validated.
    triton_version: str | None = None
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    #: Glob pattern -> rule codes not reported for the files it matches.
    per_file_ignores: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: Rule code or name -> the severity it is reported with instead of its own.
    severity: Mapping[str, Severity] = field(default_factory=dict)
    exclude: tuple[str, ...] = ()
    #: The model repositories of the project, as written (relative to the settings file).
    repositories: tuple[str, ...] = ()

    #: The keys that were given, as written in the file (``triton-version``, ...).
    given: tuple[str, ...] = ()

    @property
    def root(self) -> Path | None:
        """The folder the glob patterns are relative to: the settings file's (None: no file)."""
        return None if self.path is None else self.path.parent

    @property
    def repository_paths(self) -> list[Path]:
        """The folders of ``repositories``, absolute."""
        root = self.root or Path.cwd()
        return [Path(os.path.abspath(root / folder)) for folder in self.repositories]


# --- Value checks: each returns the parsed value or raises ValueError saying what is wrong --


def _strings(value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError(f"must be an array of strings, not {_toml_type(value)}")
    return tuple(value)


def _globs(value: object) -> tuple[str, ...]:
    patterns = _strings(value)
    for pattern in patterns:
        try:
            _check_glob(pattern)
        except ValueError as error:
            raise ValueError(f"{pattern!r}: {error}") from None
    return patterns


def _check_glob(pattern: str) -> None:
    if not pattern.strip():
        raise ValueError("a glob pattern must not be empty")
    if pattern.startswith("/") or os.path.isabs(pattern):
        raise ValueError("write the pattern relative to the folder of the settings file")


def _folders(value: object) -> tuple[str, ...]:
    folders = _strings(value)
    for folder in folders:
        if not folder.strip():
            raise ValueError("a folder must not be empty")
    return folders


def _rule_codes(value: object) -> tuple[str, ...]:
    codes = _strings(value)
    for code in codes:
        check_rule_selector(code)
    return codes


def _triton_version(value: object) -> str:
    if not isinstance(value, str):
        raise ValueError(
            f'must be a string such as "2.51", not {_toml_type(value)} (write it in quotes)'
        )
    resolve_release(value)  # raises ValueError naming the covered releases
    return value


def _per_file_ignores(value: object) -> dict[str, tuple[str, ...]]:
    if not isinstance(value, dict):
        raise ValueError(f"must be a table of glob pattern = [codes], not {_toml_type(value)}")
    parsed = {}
    for pattern, codes in value.items():
        try:
            _check_glob(pattern)
            parsed[pattern] = _rule_codes(codes)
        except ValueError as error:
            raise ValueError(f"{pattern!r}: {error}") from None
    return parsed


def _severity(value: object) -> dict[str, Severity]:
    if not isinstance(value, dict):
        raise ValueError(
            f'must be a table of code = "error" | "warning" | "info", not {_toml_type(value)}'
        )
    parsed = {}
    levels = [s.value for s in Severity]
    for code, level in value.items():
        check_rule_selector(code)
        if level not in levels:
            raise ValueError(
                f"{code}: must be one of {', '.join(map(repr, levels))}, not {level!r}"
            )
        parsed[code] = Severity(level)
    return parsed


#: Every key a settings file may have: its field in :class:`Settings` and its check.
KEYS: dict[str, tuple[str, Callable[[object], Any]]] = {
    "triton-version": ("triton_version", _triton_version),
    "select": ("select", _rule_codes),
    "ignore": ("ignore", _rule_codes),
    "extend-select": ("extend_select", _rule_codes),
    "per-file-ignores": ("per_file_ignores", _per_file_ignores),
    "severity": ("severity", _severity),
    "exclude": ("exclude", _globs),
    "repositories": ("repositories", _folders),
}


def _toml_type(value: object) -> str:
    names = {bool: "a boolean", int: "an integer", float: "a float", str: "a string"}
    names |= {list: "an array", dict: "a table"}
    return names.get(type(value), type(value).__name__)


# --- Finding and reading the file -------------------------------------------------------------


#: Levels of arrays and tables a settings file may nest: its keys nest three at most
#: (``[tool.tritonlint]``, ``per-file-ignores``, a list of codes).
MAX_DEPTH = 32


def _too_deep(path: Path) -> SettingsError:
    return SettingsError(
        f"{shown_path(path)}: arrays or tables nested more than {MAX_DEPTH} levels deep; "
        "no setting nests more than 3"
    )


#: Bytes of a settings file read: a pyproject.toml is some kilobytes.
MAX_BYTES = 1024 * 1024


def _read_bytes(path: Path) -> bytes:
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except OSError as error:
        raise SettingsError(f"{shown_path(path)}: cannot read it: {error}") from None
    if len(raw) > MAX_BYTES:
        raise SettingsError(
            f"{shown_path(path)}: larger than {MAX_BYTES // 1024 // 1024} MiB, which no "
            "settings file is; it is not read"
        )
    return raw


def _parse_toml(raw: bytes, path: Path) -> dict[str, Any]:
    # Imported here: most runs find no settings file, or a pyproject.toml without tritonlint's
    # table, and never parse TOML.
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]
    try:
        data: dict[str, Any] = tomllib.loads(raw.decode("utf-8"))
        return data
    except tomllib.TOMLDecodeError as error:
        raise SettingsError(f"{shown_path(path)}: not valid TOML: {error}") from None
    except UnicodeDecodeError as error:
        raise SettingsError(f"{shown_path(path)}: cannot read it: {error}") from None
    except RecursionError:  # the TOML parser recurses into each nested array or table
        raise _too_deep(path) from None


def _check_depth(table: dict[str, Any], path: Path) -> None:
    """Refuse a table that nests deeper than :data:`MAX_DEPTH`, before anything walks it."""
    pending: list[tuple[object, int]] = [(table, 1)]
    while pending:
        value, depth = pending.pop()
        if depth > MAX_DEPTH:
            raise _too_deep(path)
        if isinstance(value, dict):
            pending.extend((item, depth + 1) for item in value.values())
        elif isinstance(value, list):
            pending.extend((item, depth + 1) for item in value)


def _tool_table(data: dict[str, Any], path: Path) -> dict[str, Any] | None:
    tool = data.get("tool")
    if tool is None:
        return None
    if not isinstance(tool, dict):
        raise SettingsError(f"{shown_path(path)}: key 'tool' must be a table")
    table = tool.get("tritonlint")
    if table is not None and not isinstance(table, dict):
        raise SettingsError(f"{shown_path(path)}: key 'tool.tritonlint' must be a table")
    return table


def _settings_table(path: Path) -> tuple[dict[str, Any], str] | None:
    """The table of tritonlint settings in ``path`` and how to name its keys, or None."""
    raw = _read_bytes(path)
    if path.name == PYPROJECT and b"tritonlint" not in raw:
        return None  # no [tool.tritonlint] can be written without the word
    data = _parse_toml(raw, path)
    table = _tool_table(data, path)
    if table is not None or path.name != PYPROJECT:  # (other tools' tables are theirs)
        _check_depth(data if table is None else table, path)
    if path.name == PYPROJECT:
        return (table, "tool.tritonlint.") if table is not None else None
    if table is not None:
        others = sorted(key for key in data if key != "tool")
        if others:
            raise SettingsError(
                f"{shown_path(path)}: key {others[0]!r} is at the top level while the file also "
                "has [tool.tritonlint]; write every key in one of the two places"
            )
        return table, "tool.tritonlint."
    return {key: value for key, value in data.items() if key != "tool"}, ""


def find_settings_file(start: Path) -> Path | None:
    """The settings file for ``start`` (a path to lint): walk up from it to the root."""
    here = Path.cwd() / start  # absolute, without resolving symbolic links
    folder = here if is_folder_here(here) else here.parent
    for candidate_folder in (folder, *folder.parents):
        own = candidate_folder / SETTINGS_FILE
        if is_file_here(own):
            return own
        pyproject = candidate_folder / PYPROJECT
        if is_file_here(pyproject) and _settings_table(pyproject) is not None:
            return pyproject
    return None


def parse_settings(table: Mapping[str, object], path: Path, prefix: str = "") -> Settings:
    """Check every key of ``table`` (read from ``path``) and return the settings."""
    values: dict[str, Any] = {}
    for key, value in table.items():
        if key not in KEYS:
            known = ", ".join(KEYS)
            raise SettingsError(
                f"{shown_path(path)}: unknown key '{prefix}{key}' (known keys: {known})"
            )
        attribute, check = KEYS[key]
        try:
            values[attribute] = check(value)
        except ValueError as error:
            raise SettingsError(f"{shown_path(path)}: key '{prefix}{key}': {error}") from None
    settings = Settings(path=path, given=tuple(table), **values)
    for folder, found in zip(settings.repositories, settings.repository_paths, strict=True):
        if not found.is_dir():
            what = "is not a folder" if found.exists() else "does not exist"
            raise SettingsError(
                f"{shown_path(path)}: key '{prefix}repositories': {folder!r} {what} "
                f"({shown_path(found)})"
            )
    return settings


def load_settings(start: Path) -> Settings:
    """The settings that apply to ``start``; empty settings when no file is found."""
    path = find_settings_file(start)
    if path is None:
        return Settings()
    found = _settings_table(path)
    assert found is not None
    table, prefix = found
    return parse_settings(table, path, prefix)
