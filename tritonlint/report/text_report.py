"""Text output in the style of rustc and ruff: location, code, message, source line, caret.

A finding is its heading (``path:line:col: CODE [severity] message``), the source line with
carets under what it points at (of a long line, :data:`CONTEXT` columns either side of what
it points at, cut with ``…``), a ``= note:`` line for each related place and, where the rule
suggests a fix, a ``= help:`` line saying what the fix does. Control characters and bytes of
names that are not UTF-8 are shown escaped (``\\x1b``, ``\\xff``; see
``tritonlint.report.printable``). The concise style is the heading
alone, one line per finding. A summary line ends the report, unless it is quiet.

The report is made of lines of styled pieces. A terminal gets them through rich, in colour
(:func:`render_text`); a pipe or a file gets them as plain text (:func:`write_text`), without
importing rich, whose import alone costs a one-file run more than the lint itself. The plain
text is what rich prints where there is no terminal: rich drops a few control characters and
expands tabs, and so does :func:`_plain_line`; only a summary line wider than the console,
which rich wraps, stays whole.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, TextIO

from tritonlint.diagnostics import Diagnostic, Severity
from tritonlint.report.printable import printable_line, shown_path

if TYPE_CHECKING:
    from rich.console import Console


class TextOptions(NamedTuple):
    """How the text report looks."""

    #: One line per finding: no source line, notes or help.
    concise: bool = False
    #: The findings alone, without the summary line.
    quiet: bool = False


FULL = TextOptions()


class FixSummary(NamedTuple):
    """What ``--fix`` did, for the summary lines."""

    #: The findings the fixes resolved.
    fixed: list[Diagnostic]
    #: How many remaining findings only ``--unsafe-fixes`` would fix.
    hidden: int = 0


#: Text and its rich style ("" for none).
Piece = tuple[str, str]
#: One line of the report (no pieces: an empty line).
Line = tuple[Piece, ...]

_STYLES = {Severity.ERROR: "bold red", Severity.WARNING: "bold yellow", Severity.INFO: "bold blue"}
#: How many columns of a source line a code frame shows either side of what it points at.
CONTEXT = 80
#: How many columns of what it points at a code frame shows at most.
MARKED = 160

#: The control characters rich leaves out of any text it prints: bell, backspace, vertical
#: tab, form feed and carriage return.
_DROPPED_BY_RICH = dict.fromkeys((7, 8, 11, 12, 13))


class _Sources:
    """Reads each file once, to show the lines diagnostics point at; ``texts`` are those
    checked in place of a file (standard input)."""

    def __init__(self, texts: Mapping[Path, str] | None = None) -> None:
        self._lines: dict[Path, list[str] | None] = {
            path: _lines(text) for path, text in (texts or {}).items()
        }

    def line(self, path: Path, number: int) -> str | None:
        if path not in self._lines:
            try:
                self._lines[path] = _lines(path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError):
                self._lines[path] = None
        lines = self._lines[path]
        if lines is None or not 1 <= number <= len(lines):
            return None
        return lines[number - 1]


def _lines(text: str) -> list[str]:
    """The lines of ``text``, without their line breaks (``\\r\\n`` or ``\\n``)."""
    return [line.rstrip("\r") for line in text.split("\n")]


def _frame(diagnostic: Diagnostic, sources: _Sources) -> list[Line]:
    span = diagnostic.span
    if span is None or not diagnostic.quotable:
        return []
    source = sources.line(diagnostic.path, span.line)
    if source is None:
        return []
    gutter = " " * len(str(span.line))
    start = min(span.column - 1, len(source))
    end = span.end_column - 1 if span.end_line == span.line else len(source)
    shown, offset, width = _window(source, start, max(start, end))
    style = _STYLES[diagnostic.severity]
    return [
        ((f"{gutter} |", "blue"),),
        ((f"{span.line} | ", "blue"), (shown, "")),
        ((f"{gutter} | ", "blue"), (" " * offset, ""), ("^" * width, style)),
    ]


def _window(line: str, start: int, end: int) -> tuple[str, int, int]:
    """What a code frame shows of ``line`` for the columns ``start`` to ``end`` (0-based,
    end exclusive): the line with its unprintable characters escaped, cut to
    :data:`CONTEXT` columns either side of them (and to :data:`MARKED` columns of them)
    with ``…`` where it is cut, a tab as one space; and where the carets start in it and
    how many there are. A frame's size and the time it takes do not grow with the length
    of its line."""
    low = max(0, start - CONTEXT)
    marked_end = min(end, start + MARKED)
    high = min(len(line), marked_end + CONTEXT)
    before = ("…" if low else "") + _shown(line[low:start])
    marked = _shown(line[start:marked_end])
    after = _shown(line[marked_end:high]) + ("…" if high < len(line) else "")
    return before + marked + after, len(before), max(1, len(marked))


def _shown(part: str) -> str:
    """Part of a source line as a code frame shows it: a tab as one space, escapes."""
    return printable_line(part.replace("\t", " "))


def _heading(diagnostic: Diagnostic) -> Line:
    location = shown_path(diagnostic.path)
    if diagnostic.span is not None:
        location += f":{diagnostic.span.line}:{diagnostic.span.column}"
    style = _STYLES[diagnostic.severity]
    return (
        (location, "bold"),
        (": ", ""),
        (diagnostic.code, style),
        (" ", ""),
        (f"[{diagnostic.severity.value}] ", style),
        (printable_line(diagnostic.message), ""),
    )


def _note(diagnostic: Diagnostic) -> Iterator[Line]:
    for related in diagnostic.related:
        where = shown_path(related.path)
        if related.span is not None:
            where += f":{related.span.line}:{related.span.column}"
        note = printable_line(related.message)
        yield (("  = note: ", "bold"), (f"{note} ({where})", ""))


def help_text(diagnostic: Diagnostic) -> str | None:
    """The next step a finding's first fix takes, as a help line says it (lower case first,
    as rustc's and ruff's help lines are): ``replace 'dim' with 'dims'``."""
    if not diagnostic.fixes:
        return None
    title = diagnostic.fixes[0].title
    if title[1:2].isupper():  # an acronym or a name: leave it as it is
        return title
    return title[:1].lower() + title[1:]


def _help(diagnostic: Diagnostic) -> Iterator[Line]:
    text = help_text(diagnostic)
    if text is not None:
        yield (("  = help: ", "bold cyan"), (printable_line(text), ""))


def _findings(
    diagnostics: list[Diagnostic], concise: bool, texts: Mapping[Path, str] | None = None
) -> Iterator[Line]:
    """Every finding: its heading, then (unless concise) the source line it points at, its
    notes and its help."""
    sources = _Sources(texts)
    for diagnostic in diagnostics:
        yield _heading(diagnostic)
        if concise:
            continue
        yield from _frame(diagnostic, sources)
        yield from _note(diagnostic)
        yield from _help(diagnostic)
        if diagnostic.span is not None:
            yield ()


def _summary(diagnostics: list[Diagnostic], models: int, fixes: FixSummary | None = None) -> Line:
    """``Found 2 errors, 1 warning (3 models checked).``; after fixing, the fixed findings
    count too: ``Found 3 errors (2 fixed, 1 remaining; 1 model checked).``"""
    checked = f"{models} model{'s' if models != 1 else ''} checked"
    if fixes is not None and fixes.fixed:
        checked = f"{len(fixes.fixed)} fixed, {len(diagnostics)} remaining; {checked}"
        diagnostics = [*diagnostics, *fixes.fixed]
    counts = Counter(d.severity for d in diagnostics)
    if not diagnostics:
        return (("All checks passed", "bold green"), (f" ({checked}).", ""))
    parts: list[Piece] = []
    for severity in (Severity.ERROR, Severity.WARNING, Severity.INFO):
        if counts[severity]:
            noun = severity.value if counts[severity] == 1 else f"{severity.value}s"
            if parts:
                parts.append((", ", ""))
            parts.append((f"{counts[severity]} {noun}", _STYLES[severity]))
    return (("Found ", ""), *parts, (f" ({checked}).", ""))


def _fix_hint(diagnostics: list[Diagnostic], fixes: FixSummary | None) -> Iterator[Line]:
    """What fixing would do, as ruff says it: ``[*] 2 fixable with the `--fix` option.``,
    with how many more ``--unsafe-fixes`` would apply; after ``--fix``, those alone."""
    if fixes is None:
        safe = sum(1 for d in diagnostics if d.fix_to_apply(unsafe=False) is not None)
        hidden = sum(1 for d in diagnostics if d.fix_is_hidden)
    else:
        safe, hidden = 0, fixes.hidden
    if not safe and not hidden:
        return
    noun = "fix" if hidden == 1 else "fixes"
    more = f"{hidden} hidden {noun} can be enabled with the `--unsafe-fixes` option"
    if not safe:
        yield ((f"No fixes available ({more}).", ""),)
        return
    yield (("[*]", "bold cyan"), (f" {safe} fixable with the `--fix` option", ""),
           (f" ({more})." if hidden else ".", ""))  # fmt: skip


def summary_text(diagnostics: list[Diagnostic], models: int) -> str:
    """The summary line, unstyled: ``Found 2 errors, 1 warning (3 models checked).``"""
    return "".join(text for text, _ in _summary(diagnostics, models))


def render_text(
    diagnostics: list[Diagnostic],
    models: int,
    console: Console,
    options: TextOptions = FULL,
    texts: Mapping[Path, str] | None = None,
    fixes: FixSummary | None = None,
) -> None:
    """The report on a rich console (in colour on a terminal); ``fixes``: what ``--fix`` did."""
    from rich.text import Text

    for line in _findings(diagnostics, options.concise, texts):
        console.print(Text.assemble(*line), soft_wrap=True, highlight=False)
    if not options.quiet:
        console.print(Text.assemble(*_summary(diagnostics, models, fixes)), highlight=False)
        for line in _fix_hint(diagnostics, fixes):
            console.print(Text.assemble(*line), soft_wrap=True, highlight=False)


def write_text(
    diagnostics: list[Diagnostic],
    models: int,
    stream: TextIO,
    options: TextOptions = FULL,
    texts: Mapping[Path, str] | None = None,
    fixes: FixSummary | None = None,
) -> None:
    """The report as plain text, as rich prints it where there is no terminal."""
    lines = list(_findings(diagnostics, options.concise, texts))
    if not options.quiet:
        lines.append(_summary(diagnostics, models, fixes))
        lines.extend(_fix_hint(diagnostics, fixes))
    stream.write("".join(_plain_line(line) + "\n" for line in lines))


def _plain_line(line: Line) -> str:
    """A line's text as rich prints it where there is no terminal."""
    text = "".join(piece for piece, _ in line).translate(_DROPPED_BY_RICH)
    if "\t" in text:
        text = _expand_tabs(text)
    return text


def _expand_tabs(text: str) -> str:
    """Tabs expanded as rich expands them: to the next multiple of 8 terminal cells, where a
    wide character takes two cells. Rare enough in a report to leave it to rich."""
    from rich.text import Text

    expanded = Text(text)
    expanded.expand_tabs(8)
    return expanded.plain
