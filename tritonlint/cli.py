"""The ``tritonlint`` command.

``tritonlint PATH...`` (or ``tritonlint check PATH...``) lints; ``tritonlint rules`` lists the
rules; ``tritonlint explain CODE`` documents one. Exit status: 0 when nothing of error
severity was found, 1 when something was, 2 for a usage error or an internal failure.
"""

from __future__ import annotations

import argparse
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table

from tritonlint import __version__
from tritonlint.diagnostics import Severity
from tritonlint.linter import LintOptions, lint_paths
from tritonlint.report.json_report import render_json
from tritonlint.report.paths import display_path
from tritonlint.report.rules_doc import render_rules_doc, rule_markdown
from tritonlint.report.text_report import render_text
from tritonlint.rules.registry import all_rules, by_code
from tritonlint.schema.releases import covered_releases, resolve_release
from tritonlint.settings import Settings, SettingsError, load_settings

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
_COMMANDS = ("check", "rules", "explain")


class UsageError(Exception):
    """A mistake in how tritonlint was called; reported as such, exit status 2."""


def _split_codes(values: list[str] | None) -> tuple[str, ...]:
    codes = tuple(c.strip() for v in values or [] for c in v.split(",") if c.strip())
    known = all_rules()
    for code in codes:
        if not any(r.code.startswith(code.upper()) or r.name == code for r in known):
            raise UsageError(f"no rule code, prefix or name matches {code!r}")
    return codes


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tritonlint",
        description="Lint NVIDIA Triton Inference Server model repositories.",
    )
    parser.add_argument("--version", action="version", version=f"tritonlint {__version__}")
    commands = parser.add_subparsers(dest="command")

    check = commands.add_parser("check", help="lint repositories, model folders or config files")
    check.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    check.add_argument("--format", choices=("text", "json"), default="text")
    check.add_argument(
        "--select",
        action="append",
        metavar="CODES",
        help="report only these rule codes or prefixes (comma-separated, e.g. TL1,TL201)",
    )
    check.add_argument(
        "--ignore",
        action="append",
        metavar="CODES",
        help="do not report these rule codes or prefixes (comma-separated)",
    )
    check.add_argument(
        "--triton-version",
        metavar="X.Y.Z",
        help=f"the Triton release the repository targets: {covered_releases()}; e.g. 2.51, "
        "2.51.0 or 24.10 (default: triton-version in .tritonlint.toml or [tool.tritonlint] of "
        "pyproject.toml, else the newest)",
    )

    rules = commands.add_parser("rules", help="list every rule")
    rules.add_argument(
        "--markdown",
        action="store_true",
        help="print the full documentation of every rule as Markdown (docs/rules.md)",
    )
    explain = commands.add_parser("explain", help="show the documentation of one rule")
    explain.add_argument("code", metavar="CODE")
    return parser


def _check(args: argparse.Namespace, console: Console) -> int:
    try:
        settings = load_settings(args.paths[0])
    except SettingsError as error:
        raise UsageError(str(error)) from None
    _warn_unapplied(settings)
    try:
        requested = args.triton_version
        release = resolve_release(settings.triton_version if requested is None else requested)
    except ValueError as error:
        raise UsageError(str(error)) from None
    options = LintOptions(
        select=_split_codes(args.select),
        ignore=_split_codes(args.ignore),
        triton_version=release,
    )
    result = lint_paths(args.paths, options)
    if args.format == "json":
        print(render_json(result.diagnostics))
    else:
        render_text(result.diagnostics, result.models_checked, console)
    has_error = any(d.severity is Severity.ERROR for d in result.diagnostics)
    return EXIT_FINDINGS if has_error else EXIT_CLEAN


def _warn_unapplied(settings: Settings) -> None:
    """Say which keys of the settings file are checked but have no effect yet."""
    unapplied = [key for key in settings.given if key != "triton-version"]
    if unapplied and settings.path is not None:
        Console(stderr=True, highlight=False).print(
            f"tritonlint: warning: {display_path(settings.path)}: {', '.join(unapplied)} "
            f"{'is' if len(unapplied) == 1 else 'are'} checked but not applied yet "
            "(only triton-version is)",
            style="yellow",
            markup=False,
        )


def _rules(console: Console) -> int:
    table = Table(show_lines=False)
    for column in ("code", "name", "severity", "pack", "summary"):
        table.add_column(column)
    for rule in all_rules():
        table.add_row(rule.code, rule.name, rule.severity.value, rule.pack, rule.summary)
    console.print(table)
    return EXIT_CLEAN


def _explain(code: str, console: Console) -> int:
    rule = by_code(code) or next((r for r in all_rules() if r.name == code), None)
    if rule is None:
        raise UsageError(f"no rule {code!r}; `tritonlint rules` lists them")
    console.print(Markdown(rule_markdown(rule)))
    return EXIT_CLEAN


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if (arguments and arguments[0] not in _COMMANDS and not arguments[0].startswith("-")) or (
        arguments
        and arguments[0].startswith("-")
        and arguments[0] not in ("-h", "--help", "--version")
    ):
        arguments.insert(0, "check")
    parser = _parser()
    try:
        args = parser.parse_args(arguments)
    except SystemExit as done:  # --help, --version, or a usage error already printed
        return done.code if isinstance(done.code, int) else EXIT_USAGE
    console = Console(highlight=False)
    errors = Console(stderr=True, highlight=False)
    try:
        if args.command == "rules":
            if args.markdown:
                print(render_rules_doc(), end="")
                return EXIT_CLEAN
            return _rules(console)
        if args.command == "explain":
            return _explain(args.code, console)
        if args.command == "check":
            return _check(args, console)
        parser.print_help()
        return EXIT_USAGE
    except UsageError as error:
        errors.print(f"tritonlint: error: {error}", style="bold red")
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except Exception:
        errors.print(
            "tritonlint: internal error (this is a bug, please report it):", style="bold red"
        )
        errors.print(traceback.format_exc(), markup=False)
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
