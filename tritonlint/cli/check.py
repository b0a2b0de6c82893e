"""``tritonlint check``: the settings file and the command line made into options, then a
lint of the paths named or of standard input, with ``--fix``/``--diff`` and ``--smoke``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from tritonlint.cli.check_report import nothing_checked, report, report_format
from tritonlint.cli.fix_output import (
    check_fix_usage,
    list_fixes,
    print_fix_warnings,
    show_diff,
    write_fixes,
)
from tritonlint.cycle_collection import without_cycle_collection
from tritonlint.exit_status import exit_status
from tritonlint.report.console import reader_may_leave, rich_console
from tritonlint.report.formats import TEXT_FORMATS
from tritonlint.schema.releases import resolve_release
from tritonlint.smoke.options import check_smoke_usage
from tritonlint.usage import UsageError

if TYPE_CHECKING:
    from tritonlint.engine import LintOptions, LintResult
    from tritonlint.fixing import FixRun
    from tritonlint.settings import Settings

#: The name findings in standard input are reported at, without ``--stdin-filename``.
STDIN_NAME = "<stdin>"


def run_check(args: argparse.Namespace) -> int:
    """Run ``tritonlint check`` with its parsed arguments; raises UsageError."""
    stdin = _reads_stdin(args)
    check_fix_usage(args, stdin)
    fixes: FixRun | None = None
    with without_cycle_collection():
        options, chosen, settings = _check_options(args)
        if stdin:
            from tritonlint.engine import lint_text

            name = args.stdin_filename or Path(STDIN_NAME)
            result = lint_text(name, sys.stdin.buffer.read(), options)
        else:
            repositories = settings.repository_paths
            paths = args.paths or repositories or [Path(".")]
            if args.fix or args.diff:
                from tritonlint.fixing import fix_paths

                fixes = fix_paths(
                    paths,
                    options,
                    repositories=repositories,
                    unsafe=args.unsafe_fixes,
                    move_files=not args.diff,
                )
                result = fixes.result
            else:
                result = lint_paths(paths, options, repositories)
    if fixes is not None:
        print_fix_warnings(fixes, args.color)
        if args.diff:
            return show_diff(fixes, args)
        write_fixes(fixes)
    if result.empty:
        return nothing_checked(result, chosen, args)
    if not args.smoke:
        with reader_may_leave():
            report(result, chosen, args, fixes)
            list_fixes(fixes, chosen, args)
        return _exit_status(result, args)
    from tritonlint.smoke.command import run_check_smoke

    smoke = run_check_smoke(args, result, options)
    with reader_may_leave():
        report(smoke.result, chosen, args, fixes)
        list_fixes(fixes, chosen, args)
        to_stdout = chosen in TEXT_FORMATS and args.output is None
        smoke.show(rich_console(args.color, stderr=not to_stdout))
    return _exit_status(smoke.result, args)


def lint_paths(
    paths: Sequence[Path], options: LintOptions, repositories: Sequence[Path] = ()
) -> LintResult:
    """The engine's :func:`~tritonlint.engine.lint_paths`, imported when a lint runs."""
    from tritonlint.engine import lint_paths as lint

    return lint(paths, options, repositories=repositories)


def _reads_stdin(args: argparse.Namespace) -> bool:
    """Whether to check standard input: ``-`` is the one path, or ``--stdin-filename`` is
    given with no path; raises UsageError for a mix of both with other paths."""
    dash = [path for path in args.paths if str(path) == "-"]
    if not dash and args.stdin_filename is None:
        return False
    if len(args.paths) > len(dash) or len(dash) > 1:
        raise UsageError(
            "standard input is checked on its own: give - or --stdin-filename, no other path"
        )
    if args.smoke:
        raise UsageError("--smoke loads models from disk; it cannot check standard input")
    return True


def _settings_start(args: argparse.Namespace) -> Path:
    """Where the settings file is looked for: at the first path named, else here."""
    if args.stdin_filename is not None:
        return Path(args.stdin_filename)
    named = [path for path in args.paths if str(path) != "-"]
    return named[0] if named else Path(".")


def _check_options(args: argparse.Namespace) -> tuple[LintOptions, str, Settings]:
    """What to check and how (the settings file's, under the command line's), the report
    format and the settings; raises UsageError (a bad settings file is one)."""
    from tritonlint.engine import options_from_settings
    from tritonlint.settings import load_settings

    settings = load_settings(_settings_start(args))
    try:
        requested = args.triton_version
        release = resolve_release(settings.triton_version if requested is None else requested)
    except ValueError as error:
        raise UsageError(str(error)) from None
    extend_select = _split_codes(args.extend_select)
    options = options_from_settings(
        settings,
        release,
        select=_split_codes(args.select) if args.select else None,
        extend_select=extend_select,
        ignore=_split_codes(args.ignore),
        follow_outside_links=getattr(args, "follow_outside_links", False),
    )
    chosen = report_format(args)
    misuse = check_smoke_usage(args)
    if misuse is not None:
        raise UsageError(misuse)
    return options, chosen, settings


def _split_codes(values: list[str] | None) -> tuple[str, ...]:
    """The rule codes of ``--select``-like options (each comma-separated); raises UsageError
    for one that names no rule."""
    from tritonlint.selection import check_rule_selector

    codes = tuple(c.strip() for v in values or [] for c in v.split(",") if c.strip())
    for code in codes:
        try:
            check_rule_selector(code)
        except ValueError as error:
            raise UsageError(str(error)) from None
    return codes


def _exit_status(result: LintResult, args: argparse.Namespace) -> int:
    return exit_status(result.diagnostics, args.fail_on, args.exit_zero)
