"""The text report: plain text where there is no terminal, the same through rich on one."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from helpers import make_tree
from rich.console import Console

from tritonlint.cli import main
from tritonlint.diagnostics import Diagnostic, Fix, RelatedLocation, Severity, TextEdit
from tritonlint.report.text_report import (
    FULL,
    TextOptions,
    help_text,
    render_text,
    summary_text,
    write_text,
)
from tritonlint.span import Span

#: A config whose lines hold what rich changes when it prints: tabs, a form feed, a carriage
#: return, wide characters.
SOURCE = 'name:\t"m"\r\nbackend: "\x0connx"\nlabel: "\u6f22\u5b57\tx"\n'
ANSI = re.compile(r"\x1b\[[0-9;]*m")


#: A fix whose title says what it does, with a tab in it.
RENAME = Fix("Replace 'backend'\twith 'platform'", (TextEdit(Span(2, 1, 2, 8, 0, 7), "x"),))


def span(line: int, column: int, end_column: int, end_line: int | None = None) -> Span:
    end = line if end_line is None else end_line
    return Span(line, column, end, end_column, 0, 0)


def findings(config: Path) -> list[Diagnostic]:
    folder = config.parent
    first = RelatedLocation(path=config, span=span(1, 1, 5), message="first\tgiven here")
    around = RelatedLocation(path=folder, message="the folder")
    return [
        Diagnostic("TL201", "a", Severity.ERROR, "a tab\there", config, span(1, 6, 9)),
        Diagnostic("TL301", "b", Severity.WARNING, "form\x0cfeed", config, span(2, 10, 17)),
        Diagnostic(
            "TL401", "c", Severity.INFO, "\u6f22\u5b57\tin a message", config, span(3, 8, 14)
        ),
        Diagnostic("TL402", "d", Severity.ERROR, "over lines", config, span(1, 1, 3, end_line=3)),
        Diagnostic("TL212", "e", Severity.ERROR, "a folder\r", folder),
        Diagnostic("TL107", "f", Severity.ERROR, "twice", config, span(2, 1, 8), (first, around)),
        Diagnostic("TL001", "g", Severity.ERROR, "unreadable", folder / "gone", span(4, 1, 2)),
        Diagnostic(
            "TL101", "h", Severity.ERROR, "a fix", config, span(2, 1, 8), (first,), (RENAME,)
        ),
    ]


def rich_text(diagnostics: list[Diagnostic], models: int, options: TextOptions = FULL) -> str:
    """The report as rich prints it where there is no terminal."""
    buffer = io.StringIO()
    render_text(diagnostics, models, Console(file=buffer, highlight=False), options)
    return buffer.getvalue()


def plain_text(diagnostics: list[Diagnostic], models: int, options: TextOptions = FULL) -> str:
    buffer = io.StringIO()
    write_text(diagnostics, models, buffer, options)
    return buffer.getvalue()


def test_plain_text_is_what_rich_prints_without_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    config = tmp_path / "m" / "config.pbtxt"
    config.parent.mkdir()
    config.write_bytes(SOURCE.encode())
    diagnostics = findings(config)
    every_style = [
        TextOptions(concise, quiet) for concise in (False, True) for quiet in (False, True)
    ]
    for options in every_style:
        for models in (0, 1, 3):
            assert plain_text(diagnostics, models, options) == rich_text(
                diagnostics, models, options
            )
            assert plain_text([], models, options) == rich_text([], models, options)
        for diagnostic in diagnostics:
            assert plain_text([diagnostic], 1, options) == rich_text([diagnostic], 1, options)


def test_plain_text_of_a_finding(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    config = tmp_path / "m" / "config.pbtxt"
    config.parent.mkdir()
    config.write_bytes(SOURCE.encode())
    [tab, form_feed, wide, *_] = findings(config)
    # A tab goes to the next multiple of 8 cells (a wide character takes two); control
    # characters are escaped; a tab in the source line is one space.
    assert plain_text([tab, form_feed, wide], 1).splitlines() == [
        "m/config.pbtxt:1:6: TL201 [error] a tab here",
        "  |",
        '1 | name: "m"',
        "  |      ^^^",
        "",
        "m/config.pbtxt:2:10: TL301 [warning] form\\x0cfeed",
        "  |",
        '2 | backend: "\\x0connx"',
        "  |          ^^^^^^^^^^",
        "",
        "m/config.pbtxt:3:8: TL401 [info] \u6f22\u5b57   in a message",
        "  |",
        '3 | label: "\u6f22\u5b57 x"',
        "  |        ^^^^^^",
        "",
        "Found 1 error, 1 warning, 1 info (1 model checked).",
    ]


def test_help_and_concise_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    config = tmp_path / "m" / "config.pbtxt"
    config.parent.mkdir()
    config.write_bytes(SOURCE.encode())
    *_, folder, _, _, fixed = findings(config)
    assert plain_text([fixed], 1).splitlines() == [
        "m/config.pbtxt:2:1: TL101 [error] a fix",
        "  |",
        '2 | backend: "\\x0connx"',
        "  | ^^^^^^^",
        "  = note: first given here (m/config.pbtxt:1:1)",
        "  = help: replace 'backend'     with 'platform'",
        "",
        "Found 1 error (1 model checked).",
        "No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option).",
    ]
    assert plain_text([fixed, folder], 1, TextOptions(concise=True)).splitlines() == [
        "m/config.pbtxt:2:1: TL101 [error] a fix",
        "m: TL212 [error] a folder\\x0d",
        "Found 2 errors (1 model checked).",
        "No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option).",
    ]
    assert plain_text([fixed, folder], 1, TextOptions(concise=True, quiet=True)).splitlines() == [
        "m/config.pbtxt:2:1: TL101 [error] a fix",
        "m: TL212 [error] a folder\\x0d",
    ]
    # The title's first letter is lowered, unless it starts an acronym or a name.
    assert help_text(fixed) == "replace 'backend'\twith 'platform'"
    shouting = fixed._replace(fixes=(RENAME._replace(title="ONNX Runtime is the backend"),))
    assert help_text(shouting) == "ONNX Runtime is the backend"
    assert help_text(folder) is None


def test_the_summary_line(tmp_path: Path) -> None:
    config = tmp_path / "config.pbtxt"
    diagnostics = findings(config)
    assert summary_text([], 1) == "All checks passed (1 model checked)."
    assert summary_text(diagnostics[:3], 2) == (
        "Found 1 error, 1 warning, 1 info (2 models checked)."
    )
    assert summary_text(diagnostics[3:5], 2) == "Found 2 errors (2 models checked)."


@pytest.fixture
def broken_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``models/m`` named ``other`` (TL201) and without a version folder (TL212)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "400")
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "NO_COLOR"):
        monkeypatch.delenv(name, raising=False)
    models = make_tree(
        tmp_path / "models", {"m/config.pbtxt": 'name: "other"\nbackend: "python"\n'}
    )
    return models / "m"


def test_a_terminal_gets_the_same_report_in_colour(
    broken_model: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["models"]) == 1
    plain = capsys.readouterr().out
    assert "TL201 [error]" in plain and "\x1b[" not in plain
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setenv("TERM", "xterm-256color")
    assert main(["models"]) == 1
    coloured = capsys.readouterr().out
    assert "\x1b[1;31mTL201\x1b[0m" in coloured
    assert ANSI.sub("", coloured) == plain


def test_statistics_follow_the_plain_report(
    broken_model: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["models", "--statistics"]) == 1
    out = capsys.readouterr().out
    summary = "Found 2 errors (1 model checked)."
    assert summary in out
    report, table = out.split(summary)
    assert "TL201 [error]" in report
    assert "Findings per rule" in table and "TL201" in table


# --- Long lines -------------------------------------------------------------------------------


def frame_of(line: str, start: int, end: int, tmp_path: Path) -> list[str]:
    """The code frame of a finding at columns ``start`` to ``end`` (1-based, end exclusive)
    of ``line``, the one line of a config."""
    config = tmp_path / "config.pbtxt"
    config.write_text(line + "\n", encoding="utf-8")
    found = Diagnostic("TL107", "f", Severity.ERROR, "m", config, span(1, start, end))
    return plain_text([found], 1, TextOptions(quiet=True)).splitlines()[1:4]


def test_a_frame_shows_80_columns_either_side_of_a_long_line(tmp_path: Path) -> None:
    line = "x" * 300 + 'name: "m"' + "y" * 300
    assert frame_of(line, 301, 310, tmp_path) == [
        "  |",
        "1 | …" + "x" * 80 + 'name: "m"' + "y" * 80 + "…",
        "  | " + " " * 81 + "^" * 9,
    ]


def test_a_frame_cuts_only_the_side_that_is_long(tmp_path: Path) -> None:
    line = 'name: "m"' + "y" * 300
    assert frame_of(line, 1, 5, tmp_path) == [
        "  |",
        "1 | " + line[:84] + "…",
        "  | ^^^^",
    ]
    short = "x" * 100 + "name"
    assert frame_of(short, 101, 105, tmp_path) == [
        "  |",
        "1 | …" + short[20:],
        "  | " + " " * 81 + "^^^^",
    ]


def test_a_frame_shows_160_columns_of_a_long_span(tmp_path: Path) -> None:
    line = "a" * 1000 + "b" * 1000
    assert frame_of(line, 1, 1501, tmp_path) == [
        "  |",
        "1 | " + "a" * 240 + "…",
        "  | " + "^" * 160,
    ]


def test_a_frame_aligns_its_carets_with_escaped_characters(tmp_path: Path) -> None:
    line = 'name: "\x1b[2J" max_batch_size: x'
    assert frame_of(line, 30, 31, tmp_path) == [
        "  |",
        '1 | name: "\\x1b[2J" max_batch_size: x',
        "  | " + " " * 32 + "^",
    ]


def test_a_report_on_a_long_line_grows_with_its_findings_not_the_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every field of a one-line config of 100 KB given twice: each finding's frame holds at
    most 160 columns of the line, so the report is a few hundred bytes a finding."""
    monkeypatch.chdir(tmp_path)
    line = 'name: "m" backend: "onnxruntime" ' + "max_batch_size: 1 " * 5_000
    make_tree(tmp_path, {"m/1/model.onnx": b"", "m/config.pbtxt": line + "\n"}, verbatim=True)
    buffer = io.StringIO()
    monkeypatch.setattr("sys.stdout", buffer)
    assert main(["check", "m"]) == 1
    out = buffer.getvalue()
    findings = out.count(": TL107 ")
    assert findings == 4_999
    assert len(out.encode()) / findings < 700
