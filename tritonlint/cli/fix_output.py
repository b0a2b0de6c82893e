"""What ``check --fix`` and ``check --diff`` print and write, besides the report: which fix
options go together, the warnings of a fix run, the diff, the files written, the list of the
findings fixed (``--show-fixes``)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from tritonlint.exit_status import EXIT_CLEAN
from tritonlint.report.console import reader_may_leave, rich_console
from tritonlint.report.formats import TEXT_FORMATS
from tritonlint.usage import UsageError

if TYPE_CHECKING:
    from tritonlint.fixing import FixRun


def check_fix_usage(args: argparse.Namespace, stdin: bool) -> None:
    """Raise UsageError for fix options that do not go together."""
    fixing = args.fix or args.diff
    for flag, given in (("--unsafe-fixes", args.unsafe_fixes), ("--show-fixes", args.show_fixes)):
        if given and not fixing:
            raise UsageError(f"{flag} goes with --fix or --diff")
    if fixing and stdin:
        raise UsageError("--fix and --diff change files; they cannot fix standard input")
    if args.diff and args.smoke:
        raise UsageError("--diff writes nothing, so there is nothing new for --smoke to load")


def print_fix_warnings(fixes: FixRun, color: str) -> None:
    from tritonlint.fixing.report import fix_warnings

    errors = rich_console(color, stderr=True)
    for warning in fix_warnings(fixes):
        errors.print(
            f"tritonlint: warning: {warning}", style="bold yellow", markup=False, soft_wrap=True
        )


def show_diff(fixes: FixRun, args: argparse.Namespace) -> int:
    """``--diff``: the changes on stdout, what they fix on stderr; exit status 1 when there
    is a change (0 when there is none)."""
    from tritonlint.fixing.report import diff_summary, fix_listing

    with reader_may_leave():
        sys.stdout.write(fixes.diff())
        sys.stdout.flush()
        errors = rich_console(args.color, stderr=True)
        if args.show_fixes:
            errors.print(fix_listing(fixes, "Would fix"), end="", markup=False, highlight=False)
        errors.print(diff_summary(fixes), markup=False, highlight=False)
    return 1 if fixes.changed or fixes.moved else EXIT_CLEAN


def write_fixes(fixes: FixRun) -> None:
    from tritonlint.fixing import write_fixes as write
    from tritonlint.fixing.report import move_listing

    if fixes.moved:  # made already, as the fixes were applied
        sys.stderr.write(move_listing(fixes, "tritonlint: moved"))

    try:
        write(fixes)
    except OSError as error:
        where = f" {error.filename}" if error.filename else ""
        raise UsageError(
            f"cannot write the fixes{where}: {error.strerror or error}; no file was changed"
        ) from None


def list_fixes(fixes: FixRun | None, report_format: str, args: argparse.Namespace) -> None:
    """``--show-fixes``: after a text report on stdout, there; else on stderr."""
    if fixes is None or not args.show_fixes:
        return
    from tritonlint.fixing.report import fix_listing

    listing = fix_listing(fixes)
    if report_format in TEXT_FORMATS and args.output is None:
        sys.stdout.write(listing)
    else:
        sys.stderr.write(listing)
