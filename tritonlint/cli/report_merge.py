"""``tritonlint report merge FILE...``: one report from several (the shares of ``smoke
--shard``), merged by :mod:`tritonlint.report.merge`."""

from __future__ import annotations

import argparse
from pathlib import Path

from tritonlint.exit_status import EXIT_CLEAN
from tritonlint.report.console import reader_may_leave
from tritonlint.report.formats import MERGE_FORMATS
from tritonlint.usage import UsageError


def add_report_command(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    report = commands.add_parser(
        "report",
        help="merge reports, such as those of the shares of `smoke --shard`",
        description="report merge FILE...: merge JSON, SARIF or JUnit reports of tritonlint "
        "(the format is read from their content) into one, on standard output or in --output; "
        "for the jobs of a CI matrix that each ran `tritonlint smoke --shard I/N` (see "
        "docs/ci.md). SARIF: one run per tool, results concatenated, artifacts listed once; "
        "JUnit: the test suites of all, counts summed; JSON: findings concatenated, smoke "
        "reports' models and findings joined.",
    )
    report.add_argument("action", choices=("merge",), metavar="merge", help="merge reports")
    report.add_argument("files", nargs="+", type=Path, metavar="FILE", help="the reports")
    report.add_argument(
        "--format",
        choices=MERGE_FORMATS,
        default=None,
        help="the reports' format (default: read from their content); each must be of it",
    )
    report.add_argument(
        "-o", "--output", type=Path, metavar="FILE", help="write the report to FILE, not stdout"
    )


def run_report_merge(args: argparse.Namespace) -> int:
    """Merge the reports named; raises UsageError (a report that cannot be read, merged or
    written)."""
    from tritonlint.report.merge import Report, merge_reports
    from tritonlint.report.output import deliver
    from tritonlint.report.printable import shown_path

    reports = []
    for path in args.files:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            reason = getattr(error, "strerror", None) or error
            raise UsageError(f"cannot read the report {shown_path(path)}: {reason}") from None
        reports.append(Report(shown_path(path), text))
    merged = merge_reports(reports, args.format)
    with reader_may_leave():
        deliver(merged, args.output)
    return EXIT_CLEAN
