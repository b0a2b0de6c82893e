"""Golden reports: ``fixtures/broken/<case>/expected.txt`` is what ``tritonlint check`` prints on
the case, compared exactly.

The report is made deterministic: the command runs from the checkout's root on the relative path
``fixtures/broken/<case>``, as plain text without colour, for Triton 2.51 (the release the
fixtures were judged on, so that a newer release's data does not change them), with a fixed
``COLUMNS``. No message names a path but from the repository's root, so the report is the same on
every machine. ``expected.txt`` sits in the repository's root, where the linter and the server
look only at folders, so it is not part of any model.

Regenerate them all, then review the diff: ``python -m pytest tests/test_golden.py --update-golden``.
"""

from __future__ import annotations

import difflib
import shutil
from pathlib import Path

import pytest

from tritonlint.cli import main

ROOT = Path(__file__).resolve().parents[1]
BROKEN = ROOT / "fixtures" / "broken"
CASES = sorted(path.name for path in BROKEN.iterdir() if path.is_dir())
GOLDEN = "expected.txt"
OPTIONS = ("--format", "text", "--color", "never", "--triton-version", "2.51")


def check(
    cwd: Path,
    paths: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> str:
    """The text report of ``tritonlint check`` on ``paths``, run in ``cwd``; every broken case
    has an error, so the exit status is 1."""
    monkeypatch.chdir(cwd)
    monkeypatch.setenv("COLUMNS", "100")
    status = main(["check", *OPTIONS, *paths])
    captured = capsys.readouterr()
    assert captured.err == ""
    assert status == 1, f"exit status {status} for {paths}"
    return captured.out


def golden_report(
    case: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> str:
    """The report of ``tritonlint check fixtures/broken/<case>``."""
    return check(ROOT, [f"fixtures/broken/{case}"], capsys, monkeypatch)


@pytest.mark.parametrize("case", CASES)
def test_report_matches_the_golden_file(
    case: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
) -> None:
    report = golden_report(case, capsys, monkeypatch)
    golden = BROKEN / case / GOLDEN
    if request.config.getoption("--update-golden"):
        golden.write_text(report, encoding="utf-8")
        return
    assert golden.is_file(), (
        f"{case}: no {GOLDEN}; run `python -m pytest tests/test_golden.py --update-golden`"
    )
    expected = golden.read_text(encoding="utf-8")
    diff = "".join(
        difflib.unified_diff(
            expected.splitlines(keepends=True),
            report.splitlines(keepends=True),
            f"fixtures/broken/{case}/{GOLDEN}",
            "tritonlint check",
        )
    )
    assert report == expected, f"{case}: the report differs from {GOLDEN}:\n{diff}"


def test_the_golden_files_change_no_report(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The cases report the same with their expected.txt as in a copy without it."""
    copy = tmp_path / "broken"
    shutil.copytree(BROKEN, copy, ignore=shutil.ignore_patterns(GOLDEN))
    assert not list(copy.rglob(GOLDEN))
    with_golden = check(BROKEN, CASES, capsys, monkeypatch)
    without = check(copy, CASES, capsys, monkeypatch)
    assert with_golden == without
