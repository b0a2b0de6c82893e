"""``--format github``: GitHub Actions workflow commands, one annotation per finding.

``::error file=models/m/config.pbtxt,line=1,col=7,endLine=1,endColumn=14,title=TL201
name-mismatch::message`` (on one line); warnings are ``::warning``, info findings
``::notice``. GitHub shows columns only within one line, so a finding over several lines
gives its lines alone, and a finding about a folder only its path. Data is escaped as the
Actions toolkit does (``%``, CR and LF; in properties also ``:`` and ``,``). A plain summary
line follows the annotations (unless the report is quiet); GitHub shows it in the log as it is.
"""

from __future__ import annotations

from pathlib import Path

from tritonlint.diagnostics import Diagnostic, Severity
from tritonlint.paths import display_path
from tritonlint.report.printable import printable, printable_line, shown_path
from tritonlint.report.text_report import summary_text

COMMANDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _where(path: Path, line: int | None, column: int | None) -> str:
    where = shown_path(path)
    if line is not None:
        where += f":{line}:{column}"
    return where


def annotation(diagnostic: Diagnostic) -> str:
    """One workflow command for one finding."""
    properties = [("file", printable_line(Path(display_path(diagnostic.path)).as_posix()))]
    span = diagnostic.span
    if span is not None:
        properties.append(("line", str(span.line)))
        if span.end_line == span.line:
            properties += [("col", str(span.column)), ("endLine", str(span.end_line))]
            properties.append(("endColumn", str(span.end_column)))
        else:
            properties.append(("endLine", str(span.end_line)))
    properties.append(("title", f"{diagnostic.code} {diagnostic.name}"))
    message = printable(diagnostic.message)
    for related in diagnostic.related:
        line, column = (related.span.line, related.span.column) if related.span else (None, None)
        note = printable(related.message)
        message += f"\nnote: {note} ({_where(related.path, line, column)})"
    listed = ",".join(f"{key}={escape_property(value)}" for key, value in properties)
    return f"::{COMMANDS[diagnostic.severity]} {listed}::{escape_data(message)}"


def render_github(diagnostics: list[Diagnostic], models_checked: int, quiet: bool = False) -> str:
    lines = [annotation(d) for d in diagnostics]
    if not quiet:
        lines.append(summary_text(diagnostics, models_checked))
    return "\n".join(lines)
