"""The ``tritonlint`` command.

``tritonlint PATH...`` (or ``tritonlint check PATH...``) lints (no path: the settings'
repositories, else the current folder; ``-``: standard input); ``tritonlint rules`` lists the
rules; ``tritonlint explain CODE`` documents one. Exit status of ``check``: 0 when nothing at
or above the ``--fail-on`` severity (default: error) was found, 1 when something was (0
always with ``--exit-zero``), 2 for a usage error, a bad settings file or an internal failure.

Each command imports what it uses when it runs: ``--version``, ``--help`` and argument errors
load no rule, and a lint whose report goes to a pipe or a file loads neither rich nor the
other report formats.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from tritonlint import __version__
from tritonlint.cycle_collection import without_cycle_collection
from tritonlint.environment import EnvironmentSettingError
from tritonlint.exit_status import EXIT_CLEAN, EXIT_USAGE, add_fail_options, exit_status
from tritonlint.format.options import add_format_command
from tritonlint.report.console import (
    COLOR_CHOICES,
    may_be_terminal,
    reader_may_leave,
    rich_console,
)
from tritonlint.schema.releases import covered_releases, resolve_release
from tritonlint.smoke.options import (
    SmokeUsageError,
    add_smoke_command,
    add_smoke_options,
    check_smoke_usage,
)

if TYPE_CHECKING:
    from rich.console import Console

    from tritonlint.diagnostics import Diagnostic
    from tritonlint.engine import LintOptions, LintResult
    from tritonlint.fixing import FixRun
    from tritonlint.settings import Settings

_COMMANDS = ("check", "format", "rules", "explain", "smoke", "report", "completion", "lsp")
#: The shells `tritonlint completion` writes a script for (tritonlint/completion.py).
SHELLS = ("bash", "zsh", "fish")


class UsageError(Exception):
    """A mistake in how tritonlint was called; reported as such, exit status 2."""


def _split_codes(values: list[str] | None) -> tuple[str, ...]:
    from tritonlint.selection import check_rule_selector

    codes = tuple(c.strip() for v in values or [] for c in v.split(",") if c.strip())
    for code in codes:
        try:
            check_rule_selector(code)
        except ValueError as error:
            raise UsageError(str(error)) from None
    return codes


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tritonlint",
        description="Lint NVIDIA Triton Inference Server model repositories.",
    )
    parser.add_argument("--version", action="version", version=f"tritonlint {__version__}")
    commands = parser.add_subparsers(dest="command")

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

    add_smoke_command(commands)
    _add_report_command(commands)
    add_format_command(commands)
    rules = commands.add_parser("rules", help="list every rule")
    rules.add_argument(
        "--markdown",
        action="store_true",
        help="print the full documentation of every rule as Markdown (docs/rules.md)",
    )
    rules.add_argument(
        "--markdown-packs",
        action="store_true",
        help="print the table of the rule packs as Markdown (README.md's)",
    )
    lsp = commands.add_parser(
        "lsp",
        help="run the language server (for editors; see docs/editors.md)",
        description="Serve the Language Server Protocol on standard input and output.",
    )
    lsp.add_argument(
        "--stdio", action="store_true", help="talk over standard input and output (the default)"
    )
    explain = commands.add_parser("explain", help="show the documentation of one rule")
    explain.add_argument("code", metavar="CODE")
    completion = commands.add_parser(
        "completion",
        help="print a shell completion script",
        description="Print the completion script of tritonlint for a shell. bash: "
        "`source <(tritonlint completion bash)` (in ~/.bashrc); zsh: "
        "`source <(tritonlint completion zsh)` (in ~/.zshrc, after compinit); fish: "
        "`tritonlint completion fish > ~/.config/fish/completions/tritonlint.fish`.",
    )
    completion.add_argument("shell", choices=SHELLS, metavar="SHELL", help="bash, zsh or fish")
    return parser


#: The formats ``report merge`` merges (tritonlint/report/merge.py).
MERGE_FORMATS = ("json", "sarif", "junit")


def _add_report_command(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
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


def _report_merge(args: argparse.Namespace) -> int:
    from tritonlint.report.merge import MergeError, Report, merge_reports
    from tritonlint.report.output import ReportNotWritten, deliver
    from tritonlint.report.printable import shown_path

    reports = []
    for path in args.files:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            reason = getattr(error, "strerror", None) or error
            raise UsageError(f"cannot read the report {shown_path(path)}: {reason}") from None
        reports.append(Report(shown_path(path), text))
    try:
        merged = merge_reports(reports, args.format)
        with reader_may_leave():
            deliver(merged, args.output)
    except (MergeError, ReportNotWritten) as error:
        raise UsageError(str(error)) from None
    return EXIT_CLEAN


#: ``full`` is ``text`` under ruff's name for it; ``concise`` is text, one line per finding.
REPORT_FORMATS = ("text", "full", "concise", "json", "sarif", "github", "junit", "gitlab")
#: The formats the text report's options (--quiet, the statistics table after it) apply to.
_TEXT_FORMATS = ("text", "concise")


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
        "Quality) (default: github when GITHUB_ACTIONS=true, else text)",
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


def _fix_usage(args: argparse.Namespace, stdin: bool) -> None:
    """Raise UsageError for fix options that do not go together."""
    fixing = args.fix or args.diff
    for flag, given in (("--unsafe-fixes", args.unsafe_fixes), ("--show-fixes", args.show_fixes)):
        if given and not fixing:
            raise UsageError(f"{flag} goes with --fix or --diff")
    if fixing and stdin:
        raise UsageError("--fix and --diff change files; they cannot fix standard input")
    if args.diff and args.smoke:
        raise UsageError("--diff writes nothing, so there is nothing new for --smoke to load")


def lint_paths(
    paths: Sequence[Path], options: LintOptions, repositories: Sequence[Path] = ()
) -> LintResult:
    """The engine's :func:`~tritonlint.engine.lint_paths`, imported when a lint runs."""
    from tritonlint.engine import lint_paths as lint

    return lint(paths, options, repositories=repositories)


#: The name findings in standard input are reported at, without ``--stdin-filename``.
STDIN_NAME = "<stdin>"


def _check(args: argparse.Namespace) -> int:
    stdin = _reads_stdin(args)
    _fix_usage(args, stdin)
    fixes: FixRun | None = None
    with without_cycle_collection():
        options, report_format, settings = _check_options(args)
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
        _fix_warnings(fixes, args.color)
        if args.diff:
            return _show_diff(fixes, args)
        _write_fixes(fixes)
    if result.empty:
        return _nothing_checked(result, report_format, args)
    if not args.smoke:
        with reader_may_leave():
            _report(result, report_format, args, fixes)
            _list_fixes(fixes, report_format, args)
        return _exit_status(result, args)
    from tritonlint.smoke.command import run_check_smoke

    try:
        smoke = run_check_smoke(args, result, options)
    except SmokeUsageError as error:
        raise UsageError(str(error)) from None
    with reader_may_leave():
        _report(smoke.result, report_format, args, fixes)
        _list_fixes(fixes, report_format, args)
        to_stdout = report_format in _TEXT_FORMATS and args.output is None
        smoke.show(rich_console(args.color, stderr=not to_stdout))
    return _exit_status(smoke.result, args)


def _fix_warnings(fixes: FixRun, color: str) -> None:
    from tritonlint.fixing.report import fix_warnings

    errors = rich_console(color, stderr=True)
    for warning in fix_warnings(fixes):
        errors.print(
            f"tritonlint: warning: {warning}", style="bold yellow", markup=False, soft_wrap=True
        )


def _show_diff(fixes: FixRun, args: argparse.Namespace) -> int:
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


def _write_fixes(fixes: FixRun) -> None:
    from tritonlint.fixing import write_fixes
    from tritonlint.fixing.report import move_listing

    if fixes.moved:  # made already, as the fixes were applied
        sys.stderr.write(move_listing(fixes, "tritonlint: moved"))

    try:
        write_fixes(fixes)
    except OSError as error:
        where = f" {error.filename}" if error.filename else ""
        raise UsageError(
            f"cannot write the fixes{where}: {error.strerror or error}; no file was changed"
        ) from None


def _list_fixes(fixes: FixRun | None, report_format: str, args: argparse.Namespace) -> None:
    """``--show-fixes``: after a text report on stdout, there; else on stderr."""
    if fixes is None or not args.show_fixes:
        return
    from tritonlint.fixing.report import fix_listing

    listing = fix_listing(fixes)
    if report_format in _TEXT_FORMATS and args.output is None:
        sys.stdout.write(listing)
    else:
        sys.stderr.write(listing)


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
    format and the settings; raises UsageError."""
    from tritonlint.settings import SettingsError, load_settings

    try:
        settings = load_settings(_settings_start(args))
    except SettingsError as error:
        raise UsageError(str(error)) from None
    try:
        requested = args.triton_version
        release = resolve_release(settings.triton_version if requested is None else requested)
    except ValueError as error:
        raise UsageError(str(error)) from None
    options = _lint_options(args, settings, release)
    report_format = _report_format(args)
    misuse = check_smoke_usage(args)
    if misuse is not None:
        raise UsageError(misuse)
    return options, report_format, settings


def _lint_options(args: argparse.Namespace, settings: Settings, release: str) -> LintOptions:
    """The settings file's options with the command line's over them: ``--select`` replaces
    the file's select and extend-select, ``--extend-select`` and ``--ignore`` add to it."""
    from tritonlint.engine import LintOptions

    extend_select = _split_codes(args.extend_select)
    if args.select:
        select = _split_codes(args.select)
    else:
        select, extend_select = settings.select, settings.extend_select + extend_select
    return LintOptions(
        select=select,
        ignore=settings.ignore + _split_codes(args.ignore),
        triton_version=release,
        extend_select=extend_select,
        per_file_ignores=settings.per_file_ignores,
        severity=settings.severity,
        exclude=settings.exclude,
        root=settings.root,
        follow_outside_links=getattr(args, "follow_outside_links", False),
    )


def _report_format(args: argparse.Namespace) -> str:
    """The format asked for (``full`` is ``text``), or github in GitHub Actions, else text;
    checks --statistics."""
    chosen: str = args.format or (
        "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text"
    )
    if chosen == "full":
        chosen = "text"
    if args.statistics and chosen not in (*_TEXT_FORMATS, "github") and args.output is None:
        raise UsageError(
            f"--statistics prints a table, which would break the {chosen} report on stdout; "
            "write the report to a file with --output"
        )
    return chosen


def _nothing_checked(result: LintResult, report_format: str, args: argparse.Namespace) -> int:
    """Some folders named hold nothing to check: say so on stderr and exit with status 2
    (a check that looked at nothing must not pass), after the report of the others."""
    from tritonlint.report.printable import shown_path

    if result.models_checked or result.diagnostics:
        _report(result, report_format, args)
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


def _report(
    result: LintResult, report_format: str, args: argparse.Namespace, fixes: FixRun | None = None
) -> None:
    """Print the report, or write it to ``--output``; then the statistics, if asked for.
    ``fixes``: what ``--fix`` did, which the text report's summary says."""
    from tritonlint.report.output import ReportNotWritten

    try:
        _send_report(result, report_format, args, fixes)
    except ReportNotWritten as error:
        raise UsageError(str(error)) from None


def _send_report(
    result: LintResult, report_format: str, args: argparse.Namespace, fixes: FixRun | None
) -> None:
    if report_format in _TEXT_FORMATS:
        _report_text(result, report_format, args, fixes)
        return
    from tritonlint.report.formats import render_report
    from tritonlint.report.output import deliver

    report = render_report(
        report_format,
        result.diagnostics,
        models_checked=result.models_checked,
        checked=result.checked,
        quiet=args.quiet,
    )
    deliver(report, args.output)
    if args.statistics:
        _print_statistics(result.diagnostics, rich_console(args.color))


def _report_text(
    result: LintResult, report_format: str, args: argparse.Namespace, fixes: FixRun | None
) -> None:
    """The text report: through rich on what may be a terminal (in colour), else plain."""
    from tritonlint.report.output import write_report
    from tritonlint.report.text_report import FixSummary, TextOptions, render_text, write_text

    diagnostics, models = result.diagnostics, result.models_checked
    options = TextOptions(concise=report_format == "concise", quiet=args.quiet)
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


def _exit_status(result: LintResult, args: argparse.Namespace) -> int:
    return exit_status(result.diagnostics, args.fail_on, args.exit_zero)


def _rules() -> int:
    from rich.table import Table

    from tritonlint.report.rules_doc import fix_column, in_default_set
    from tritonlint.rules.registry import all_rules

    table = Table(show_lines=False)
    for column in ("code", "name", "severity", "default", "fix", "pack", "summary"):
        table.add_column(column)
    for rule in all_rules():
        table.add_row(
            rule.code,
            rule.name,
            rule.severity.value,
            in_default_set(rule),
            fix_column(rule),
            rule.pack,
            rule.summary,
        )
    with reader_may_leave():
        rich_console().print(table)
    return EXIT_CLEAN


def _explain(code: str) -> int:
    from rich.markdown import Markdown

    from tritonlint.report.rules_doc import rule_markdown
    from tritonlint.rules.registry import all_rules, by_code

    rule = by_code(code) or next((r for r in all_rules() if r.name == code), None)
    if rule is None:
        raise UsageError(f"no rule {code!r}; `tritonlint rules` lists them")
    with reader_may_leave():
        rich_console().print(Markdown(rule_markdown(rule)))
    return EXIT_CLEAN


def _completion(parser: argparse.ArgumentParser, shell: str) -> int:
    from tritonlint.completion import completion_script
    from tritonlint.rules.registry import all_rules

    codes = [rule.code for rule in all_rules()]
    with reader_may_leave():
        print(completion_script(parser, shell, "check", {"explain": codes}), end="")
    return EXIT_CLEAN


def _misspelt_command(arguments: Sequence[str]) -> str | None:
    """What to say when the first argument is no path but close to a command's name."""
    if not arguments or arguments[0] in _COMMANDS or arguments[0].startswith("-"):
        return None
    first = arguments[0]
    if os.path.lexists(first):
        return None
    import difflib

    close = difflib.get_close_matches(first, _COMMANDS, n=1, cutoff=0.6)
    if not close:
        return None
    return f"{first!r} is neither a command nor a path; did you mean {close[0]!r}?"


def _implies_check(arguments: Sequence[str]) -> bool:
    """Whether the command line means ``check`` without saying so: no argument at all, a
    path (``-`` included) or an option of ``check`` first."""
    if not arguments:
        return True
    first = arguments[0]
    if first.startswith("-"):
        return first not in ("-h", "--help", "--version")
    return first not in _COMMANDS


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    misspelt = _misspelt_command(arguments)
    if misspelt is not None:
        rich_console(stderr=True).print(f"tritonlint: error: {misspelt}", style="bold red")
        return EXIT_USAGE
    if _implies_check(arguments):
        arguments.insert(0, "check")
    parser = _parser()
    try:
        args = parser.parse_args(arguments)
    except SystemExit as done:  # --help, --version, or a usage error already printed
        return done.code if isinstance(done.code, int) else EXIT_USAGE
    try:
        if args.command == "rules":
            if args.markdown:
                from tritonlint.report.rules_doc import render_rules_doc

                with reader_may_leave():
                    print(render_rules_doc(), end="")
                return EXIT_CLEAN
            if args.markdown_packs:
                from tritonlint.report.rules_doc import render_packs_table

                with reader_may_leave():
                    print(render_packs_table(), end="")
                return EXIT_CLEAN
            return _rules()
        if args.command == "explain":
            return _explain(args.code)
        if args.command == "completion":
            return _completion(parser, args.shell)
        if args.command == "report":
            return _report_merge(args)
        if args.command == "lsp":
            from tritonlint.lsp.server import main as serve

            return serve()
        if args.command == "check":
            return _check(args)
        if args.command == "format":
            from tritonlint.format.command import FormatUsageError, run_format

            try:
                return run_format(args)
            except FormatUsageError as error:
                raise UsageError(str(error)) from None
        if args.command == "smoke":
            from tritonlint.smoke.command import run_smoke_command

            try:
                return run_smoke_command(args, rich_console())
            except SmokeUsageError as error:
                raise UsageError(str(error)) from None
        parser.print_help()
        return EXIT_USAGE
    except (UsageError, EnvironmentSettingError) as error:
        color = getattr(args, "color", "auto")
        rich_console(color, stderr=True).print(f"tritonlint: error: {error}", style="bold red")
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except Exception:
        import traceback

        errors = rich_console(stderr=True)
        errors.print(
            "tritonlint: internal error (this is a bug, please report it):", style="bold red"
        )
        errors.print(traceback.format_exc(), markup=False)
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
