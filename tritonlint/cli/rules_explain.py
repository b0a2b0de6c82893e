"""``tritonlint rules`` (the table of every rule, or the Markdown of docs/rules.md and of the
README's table of packs) and ``tritonlint explain CODE`` (one rule's documentation)."""

from __future__ import annotations

import argparse

from tritonlint.exit_status import EXIT_CLEAN
from tritonlint.report.console import reader_may_leave, rich_console
from tritonlint.usage import UsageError


def add_rules_command(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
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


def add_explain_command(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    explain = commands.add_parser("explain", help="show the documentation of one rule")
    explain.add_argument("code", metavar="CODE")


def run_rules(args: argparse.Namespace) -> int:
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
    return _rules_table()


def _rules_table() -> int:
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


def run_explain(code: str) -> int:
    """The documentation of the rule of that code or name; raises UsageError for none."""
    from rich.markdown import Markdown

    from tritonlint.report.rules_doc import rule_markdown
    from tritonlint.rules.registry import all_rules, by_code

    rule = by_code(code) or next((r for r in all_rules() if r.name == code), None)
    if rule is None:
        raise UsageError(f"no rule {code!r}; `tritonlint rules` lists them")
    with reader_may_leave():
        rich_console().print(Markdown(rule_markdown(rule)))
    return EXIT_CLEAN
