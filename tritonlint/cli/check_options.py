"""The command line of ``tritonlint check``: what to check, which rules, how to report, and
the fixes; the smoke stage's options come from :mod:`tritonlint.smoke.options`."""

from __future__ import annotations

import argparse
from pathlib import Path

from tritonlint.exit_status import add_fail_options
from tritonlint.report.console import COLOR_CHOICES
from tritonlint.report.formats import DEFAULT_FORMAT_HELP, REPORT_FORMATS
from tritonlint.schema.releases import covered_releases
from tritonlint.smoke.options import add_smoke_options


def add_check_command(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """The ``check`` command and its options."""
    check = commands.add_parser("check", help="lint repositories, model folders or config files")
    check.add_argument(
        "paths",
        nargs="*",
        type=Path,
        metavar="PATH",
        help="repositories, model folders, files, or folders to search for repositories "
        "(default: the settings' repositories, else the current folder); - reads a config "
        "from standard input",
    )
    check.add_argument(
        "--stdin-filename",
        type=Path,
        metavar="PATH",
        help="check standard input as the config file PATH (in its repository, when PATH "
        "is a model's config there); findings are reported at PATH",
    )
    _add_report_options(check)
    check.add_argument(
        "--select",
        action="append",
        metavar="CODES",
        help="report only these rule codes or prefixes (comma-separated, e.g. TL1,TL201; ALL: "
        "every rule, the opt-in ones too)",
    )
    check.add_argument(
        "--ignore",
        action="append",
        metavar="CODES",
        help="do not report these rule codes or prefixes (comma-separated)",
    )
    check.add_argument(
        "--extend-select",
        action="append",
        metavar="CODES",
        help="report these rule codes or prefixes too, besides the selected ones (this is how "
        "an opt-in rule such as TL505 is turned on)",
    )
    check.add_argument(
        "--triton-version",
        metavar="X.Y.Z",
        help=f"the Triton release the repository targets: {covered_releases()}; e.g. 2.51, "
        "2.51.0 or 24.10 (default: triton-version in .tritonlint.toml or [tool.tritonlint] of "
        "pyproject.toml, else the newest)",
    )
    check.add_argument(
        "--smoke",
        action="store_true",
        help="after static lint, load every model without static errors into a real "
        "tritonserver (see `tritonlint smoke --help` and docs/smoke.md)",
    )
    add_smoke_options(check, in_check=True)
    _add_fix_options(check)


def _add_report_options(check: argparse.ArgumentParser) -> None:
    """--format (--output-format), --output, --quiet, --color, --statistics, --fail-on and
    --exit-zero."""
    check.add_argument(
        "--format",
        "--output-format",
        dest="format",
        choices=REPORT_FORMATS,
        default=None,
        help="how to report findings: text (also called full) with the source line of each, "
        "concise (one line each), json, sarif, github (annotations), junit or gitlab (Code "
        f"Quality) (default: {DEFAULT_FORMAT_HELP})",
    )
    check.add_argument(
        "-o", "--output", type=Path, metavar="FILE", help="write the report to FILE, not stdout"
    )
    check.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="print the findings alone, without the summary line (text, concise and github)",
    )
    check.add_argument(
        "--color",
        choices=COLOR_CHOICES,
        default="auto",
        help="colour the text report: auto (on a terminal, as NO_COLOR and FORCE_COLOR say), "
        "always or never (over the terminal and the environment)",
    )
    check.add_argument(
        "--statistics",
        action="store_true",
        help="after the findings, print how many each rule has (text, concise and github "
        "formats, or with --output)",
    )
    add_fail_options(check)


def _add_fix_options(check: argparse.ArgumentParser) -> None:
    check.add_argument(
        "--fix",
        action="store_true",
        help="apply the safe fixes the findings carry, check again until none is left, write "
        "the changed files, and report what remains",
    )
    check.add_argument(
        "--unsafe-fixes",
        action="store_true",
        help="with --fix or --diff: apply the unsafe fixes too (guesses to review)",
    )
    check.add_argument(
        "--diff",
        action="store_true",
        help="print the changes the fixes would make as a unified diff, and write nothing "
        "(exit status 1 when there is a change)",
    )
    check.add_argument(
        "--show-fixes",
        action="store_true",
        help="with --fix or --diff: list the findings fixed, file by file",
    )
    check.add_argument(
        "--follow-outside-links",
        action="store_true",
        help="treat a config that is a symbolic link to a file outside its repository as any "
        "other: quote its lines in reports, and let --fix write through the link (by default "
        "its findings are reported without its text, and --fix leaves it alone)",
    )
