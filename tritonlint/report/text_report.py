"""Text output in the style of rustc and ruff: location, code, message, source line, caret."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from rich.console import Console
from rich.text import Text

from tritonlint.diagnostics import Diagnostic, Severity
from tritonlint.report.paths import display_path

_STYLES = {Severity.ERROR: "bold red", Severity.WARNING: "bold yellow", Severity.INFO: "bold blue"}


class _Sources:
    """Reads each file once, to show the lines diagnostics point at."""

    def __init__(self) -> None:
        self._lines: dict[Path, list[str] | None] = {}

    def line(self, path: Path, number: int) -> str | None:
        if path not in self._lines:
            try:
                self._lines[path] = path.read_text(encoding="utf-8").split("\n")
            except (OSError, UnicodeDecodeError):
                self._lines[path] = None
        lines = self._lines[path]
        if lines is None or not 1 <= number <= len(lines):
            return None
        return lines[number - 1].rstrip("\r")


def _frame(diagnostic: Diagnostic, sources: _Sources) -> list[Text]:
    span = diagnostic.span
    if span is None:
        return []
    source = sources.line(diagnostic.path, span.line)
    if source is None:
        return []
    gutter = " " * len(str(span.line))
    expanded = source.expandtabs(1)
    start = span.column - 1
    end = span.end_column - 1 if span.end_line == span.line else len(expanded)
    width = max(1, end - start)
    style = _STYLES[diagnostic.severity]
    return [
        Text(f"{gutter} |", style="blue"),
        Text.assemble((f"{span.line} | ", "blue"), expanded),
        Text.assemble((f"{gutter} | ", "blue"), " " * start, ("^" * width, style)),
    ]


def _heading(diagnostic: Diagnostic) -> Text:
    location = display_path(diagnostic.path)
    if diagnostic.span is not None:
        location += f":{diagnostic.span.line}:{diagnostic.span.column}"
    return Text.assemble(
        (location, "bold"),
        ": ",
        (diagnostic.code, _STYLES[diagnostic.severity]),
        " ",
        (f"[{diagnostic.severity.value}] ", _STYLES[diagnostic.severity]),
        diagnostic.message,
    )


def _summary(diagnostics: list[Diagnostic], models: int) -> Text:
    counts = Counter(d.severity for d in diagnostics)
    checked = f"{models} model{'s' if models != 1 else ''} checked"
    if not diagnostics:
        return Text.assemble(("All checks passed", "bold green"), f" ({checked}).")
    parts = []
    for severity in (Severity.ERROR, Severity.WARNING, Severity.INFO):
        if counts[severity]:
            noun = severity.value if counts[severity] == 1 else f"{severity.value}s"
            parts.append((f"{counts[severity]} {noun}", _STYLES[severity]))
    text = Text("Found ")
    for index, part in enumerate(parts):
        if index:
            text.append(", ")
        text.append(*part)
    text.append(f" ({checked}).")
    return text


def render_text(diagnostics: list[Diagnostic], models: int, console: Console) -> None:
    sources = _Sources()
    for diagnostic in diagnostics:
        console.print(_heading(diagnostic), soft_wrap=True, highlight=False)
        for line in _frame(diagnostic, sources):
            console.print(line, soft_wrap=True, highlight=False)
        for related in diagnostic.related:
            where = display_path(related.path)
            if related.span is not None:
                where += f":{related.span.line}:{related.span.column}"
            console.print(
                Text.assemble(("  = note: ", "bold"), f"{related.message} ({where})"),
                soft_wrap=True,
                highlight=False,
            )
        if diagnostic.span is not None:
            console.print()
    console.print(_summary(diagnostics, models), highlight=False)
