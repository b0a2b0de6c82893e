"""``--statistics``: how many findings each rule has, most first."""

from __future__ import annotations

from collections import Counter

from rich.table import Table

from tritonlint.diagnostics import Diagnostic


def rule_counts(diagnostics: list[Diagnostic]) -> list[tuple[str, str, str, int]]:
    """(code, name, severity, count) of every rule with findings: most findings first, then
    by code. A rule whose severity was changed for some findings is counted per severity."""
    counts = Counter((d.code, d.name, d.severity.value) for d in diagnostics)
    return sorted(
        ((code, name, severity, count) for (code, name, severity), count in counts.items()),
        key=lambda row: (-row[3], row[0], row[2]),
    )


def statistics_table(diagnostics: list[Diagnostic]) -> Table:
    table = Table(title="Findings per rule", title_justify="left")
    table.add_column("code")
    table.add_column("name")
    table.add_column("severity")
    table.add_column("count", justify="right")
    for code, name, severity, count in rule_counts(diagnostics):
        table.add_row(code, name, severity, str(count))
    return table
