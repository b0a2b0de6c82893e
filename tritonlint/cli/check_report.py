"""The report of ``tritonlint check``: its format, where it goes (standard output, through
rich on a terminal, or ``--output``), the statistics table after it, and what is said of a
folder that held nothing to check."""

from __future__ import annotations

import argparse
import io
import sys
from typing import TYPE_CHECKING

from tritonlint.exit_status import EXIT_USAGE
from tritonlint.report.console import may_be_terminal, rich_console
from tritonlint.report.formats import TEXT_FORMATS, chosen_format
from tritonlint.usage import UsageError

if TYPE_CHECKING:
    from rich.console import Console

    from tritonlint.diagnostics import Diagnostic
    from tritonlint.engine import LintResult
    from tritonlint.fixing import FixRun


def report_format(args: argparse.Namespace) -> str:
    """The format to report in (:func:`~tritonlint.report.formats.chosen_format`); raises
    UsageError for --statistics where its table would break the report on stdout."""
    chosen = chosen_format(args.format)
    if args.statistics and chosen not in (*TEXT_FORMATS, "github") and args.output is None:
        raise UsageError(
            f"--statistics prints a table, which would break the {chosen} report on stdout; "
            "write the report to a file with --output"
        )
    return chosen


def nothing_checked(result: LintResult, chosen: str, args: argparse.Namespace) -> int:
    """Some folders named hold nothing to check: say so on stderr and exit with status 2
    (a check that looked at nothing must not pass), after the report of the others."""
    from tritonlint.report.printable import shown_path

    if result.models_checked or result.diagnostics:
        report(result, chosen, args)
    errors = rich_console(stderr=True)
    for folder in result.empty:
        errors.print(
            f"tritonlint: error: nothing to check in {shown_path(folder)}: no model "
            "repository (a folder whose subfolders hold config.pbtxt files or numbered "
            "version folders), model folder or config file found there",
            style="bold red",
            markup=False,
            soft_wrap=True,
        )
    return EXIT_USAGE


def report(
    result: LintResult, chosen: str, args: argparse.Namespace, fixes: FixRun | None = None
) -> None:
    """Print the report, or write it to ``--output``; then the statistics, if asked for.
    ``fixes``: what ``--fix`` did, which the text report's summary says. Raises
    :class:`~tritonlint.report.output.ReportNotWritten` (a UsageError)."""
    if chosen in TEXT_FORMATS:
        _report_text(result, chosen, args, fixes)
        return
    from tritonlint.report.formats import render_report
    from tritonlint.report.output import deliver

    rendered = render_report(
        chosen,
        result.diagnostics,
        models_checked=result.models_checked,
        checked=result.checked,
        quiet=args.quiet,
    )
    deliver(rendered, args.output)
    if args.statistics:
        _print_statistics(result.diagnostics, rich_console(args.color))


def _report_text(
    result: LintResult, chosen: str, args: argparse.Namespace, fixes: FixRun | None
) -> None:
    """The text report: through rich on what may be a terminal (in colour), else plain."""
    from tritonlint.report.output import write_report
    from tritonlint.report.text_report import FixSummary, TextOptions, render_text, write_text

    diagnostics, models = result.diagnostics, result.models_checked
    options = TextOptions(concise=chosen == "concise", quiet=args.quiet)
    fixed = FixSummary(fixes.fixed, fixes.hidden()) if fixes is not None else None
    if args.output is not None:
        buffer = io.StringIO()
        write_text(diagnostics, models, buffer, options, result.texts, fixed)
        if args.statistics:
            _print_statistics(diagnostics, rich_console(file=buffer, no_color=True, width=100))
        write_report(args.output, buffer.getvalue())
        return
    if may_be_terminal(sys.stdout, args.color):
        console = rich_console(args.color)
        render_text(diagnostics, models, console, options, result.texts, fixed)
    else:
        write_text(diagnostics, models, sys.stdout, options, result.texts, fixed)
    if args.statistics:
        _print_statistics(diagnostics, rich_console(args.color))


def _print_statistics(diagnostics: list[Diagnostic], console: Console) -> None:
    from tritonlint.report.statistics import statistics_table

    console.print(statistics_table(diagnostics))
