"""``tritonlint format``: format config files in place, or say which would change.

Exit status: 0 when every file is formatted (or was reformatted); 1 with ``--check`` or
``--diff`` when a file would change; 2 when a file could not be formatted (a syntax error,
an unreadable, binary or non-UTF-8 file), a path cannot be used, or nothing was found to
format. One file's failure does not stop the others.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from tritonlint.exit_status import EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE
from tritonlint.format.api import Formatted, Refusal, format_text
from tritonlint.format.files import config_files, decode_text, read_text
from tritonlint.report.printable import shown_path
from tritonlint.rewrite import unified_diff, write_in_place
from tritonlint.selection import PathPatterns
from tritonlint.settings import load_settings
from tritonlint.usage import UsageError

#: The name standard input is reported as, without ``--stdin-filename``.
STDIN_NAME = "<stdin>"


@dataclass
class _Tally:
    changed: int = 0
    unchanged: int = 0
    #: Files that could not be formatted.
    failed: int = 0
    #: Files left alone: symbolic links to outside their repository.
    skipped: int = 0
    #: Paths that could not be used, and folders with nothing to format.
    bad_paths: int = 0

    def status(self, *, check: bool) -> int:
        if self.failed or self.bad_paths:
            return EXIT_USAGE
        return EXIT_FINDINGS if check and self.changed else EXIT_CLEAN


def run_format(args: argparse.Namespace) -> int:
    """Run ``tritonlint format`` with its parsed arguments; raises UsageError (a bad settings file
    is one)."""
    dash = [path for path in args.paths if str(path) == "-"]
    if dash or args.stdin_filename is not None:
        if len(args.paths) > len(dash) or len(dash) > 1:
            raise UsageError(
                "standard input is formatted on its own: give - or --stdin-filename, no other path"
            )
        name = shown_path(args.stdin_filename) if args.stdin_filename else STDIN_NAME
        return _format_stdin(name, args.check, args.diff)
    return _format_paths(args.paths, args.check, args.diff, args.follow_outside_links)


def _format_stdin(name: str, check: bool, diff: bool) -> int:
    """Standard input to standard output (with --check: nothing out; --diff: the diff)."""
    data = sys.stdin.buffer.read()
    text = decode_text(Path(name), data)
    result = format_text(text) if isinstance(text, str) else text
    if isinstance(result, Refusal):
        _refused(name, result)
        return EXIT_USAGE
    assert isinstance(text, str)
    if diff:
        sys.stdout.write(unified_diff(name, text, result.text))
    elif not check:
        sys.stdout.write(result.text)
    return EXIT_FINDINGS if (check or diff) and result.changed else EXIT_CLEAN


def _format_paths(paths: Sequence[Path], check: bool, diff: bool, follow: bool = False) -> int:
    settings = load_settings(paths[0] if paths else Path("."))
    repositories = settings.repository_paths
    named = list(paths) or repositories or [Path(".")]
    excluded = PathPatterns(settings.exclude, settings.root)
    found = config_files(named, repositories, excluded.match if excluded else None)
    tally = _Tally()
    for problem in found.problems:
        _error(f"{shown_path(problem.path)}: {problem.message}")
        tally.bad_paths += 1
    for folder in found.empty:
        _error(
            f"nothing to format in {shown_path(folder)}: no model repository, model "
            "folder or config file found there"
        )
        tally.bad_paths += 1
    for path in found.files:
        if not follow and found.leaves(path):
            _warning(
                f"{shown_path(path)} is a symbolic link to a file outside the repository: "
                "not formatted (--follow-outside-links formats it)"
            )
            tally.skipped += 1
            continue
        _format_file(path, check, diff, tally)
    _summary(tally, check or diff, sys.stderr if diff else sys.stdout)
    return tally.status(check=check or diff)


def _format_file(path: Path, check: bool, diff: bool, tally: _Tally) -> None:
    name = shown_path(path)
    text = read_text(path)
    result: Formatted | Refusal = format_text(text) if isinstance(text, str) else text
    if isinstance(result, Refusal):
        _refused(name, result)
        tally.failed += 1
        return
    if not result.changed:
        tally.unchanged += 1
        return
    assert isinstance(text, str)
    if diff:
        sys.stdout.write(unified_diff(name, text, result.text))
    elif check:
        print(f"Would reformat: {name}")
    else:
        try:
            write_in_place(path, result.text)
        except OSError as error:
            _error(f"{name}: cannot write the formatted file: {error.strerror or error}")
            tally.failed += 1
            return
    tally.changed += 1


def _refused(name: str, refusal: Refusal) -> None:
    where = f"{name}:{refusal.span.line}:{refusal.span.column}" if refusal.span else name
    _error(f"{where}: cannot format: {refusal.message}")


def _error(message: str) -> None:
    print(f"tritonlint: error: {message}", file=sys.stderr)


def _warning(message: str) -> None:
    print(f"tritonlint: warning: {message}", file=sys.stderr)


def _summary(tally: _Tally, check: bool, stream: TextIO) -> None:
    parts = []
    if tally.changed:
        verb = "would be reformatted" if check else "reformatted"
        parts.append(f"{_files(tally.changed)} {verb}")
    if tally.unchanged:
        state = "already formatted" if check else "left unchanged"
        parts.append(f"{_files(tally.unchanged)} {state}")
    if tally.failed:
        parts.append(f"{_files(tally.failed)} could not be formatted")
    if tally.skipped:
        parts.append(f"{_files(tally.skipped)} skipped")
    if parts:
        print(", ".join(parts), file=stream)


def _files(count: int) -> str:
    return f"{count} file{'' if count == 1 else 's'}"
