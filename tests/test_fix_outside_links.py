"""A config that is a symbolic link to a file outside the repository checked: ``--fix`` does not
write through it, and no report quotes that file's text (code frames, fixes, quoted values),
unless ``--follow-outside-links`` is given."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import Link, make_tree, run_cli

#: The file outside: a python model's config with a backend written as platform (TL301, a
#: safe fix) and a value that must not show up in a report.
OUTSIDE = 'name: "m"\nplatform: "python"  # s3cr3t-t0ken\nmax_batch_size: "s3cr3t"\n'


@pytest.fixture
def linked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``repo/m/config.pbtxt``, a link to ``outside/config.pbtxt``; returns the outside file."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "200")
    files = {
        "outside/config.pbtxt": OUTSIDE,
        "repo/m/1/model.py": "",
        "repo/m/config.pbtxt": Link("../../outside/config.pbtxt"),
    }
    return make_tree(tmp_path, files, verbatim=True) / "outside" / "config.pbtxt"


TEXT_REPORT = """\
repo/m/config.pbtxt:2:11: TL301 [error] '\u2026' is a backend, not a platform: write backend: \
"\u2026" (tritonserver: unexpected platform type '\u2026' for m)

repo/m/config.pbtxt:3:17: TL103 [error] field 'max_batch_size' takes an integer (int32), found \
"\u2026"

Found 2 errors (1 model checked).
"""


def test_fix_does_not_write_through_the_link_and_says_so(
    linked: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(["check", "repo", "--fix"], capsys)
    assert status == 1
    assert linked.read_text() == OUTSIDE
    assert err == (
        "tritonlint: warning: repo/m/config.pbtxt is a symbolic link to a file outside the "
        "repository: its fixes are not applied (--follow-outside-links applies them)\n"
    )
    assert out == TEXT_REPORT


def test_follow_outside_links_fixes_the_file_through_the_link(
    linked: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(["check", "repo", "--fix", "--follow-outside-links"], capsys)
    assert (status, err) == (1, "")  # max_batch_size remains
    assert linked.read_text() == OUTSIDE.replace("platform:", "backend:")
    assert (tmp_path / "repo/m/config.pbtxt").is_symlink()
    assert '3 | max_batch_size: "s3cr3t"\n' in out  # quoted: its code frame


@pytest.mark.parametrize(
    "report", ["text", "concise", "github", "json", "sarif", "gitlab", "junit"]
)
def test_no_report_quotes_the_file_outside(
    report: str, linked: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(["check", "repo", "--format", report], capsys)
    assert (status, err) == (1, "")
    assert "TL301" in out and "TL103" in out
    assert "s3cr3t" not in out
    if report != "sarif":  # whose rule documentation has examples with python models
        assert "python" not in out
    if report == "text":
        assert out == TEXT_REPORT
    if report == "json":
        assert [finding["fix"] for finding in json.loads(out)] == [None, None]


def test_follow_outside_links_quotes_it_as_any_other(
    linked: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run_cli(["check", "repo", "--follow-outside-links"], capsys)
    assert status == 1
    assert '2 | platform: "python"  # s3cr3t-t0ken\n' in out
    assert '= help: write backend: "python" instead of platform' in out


def test_a_config_linked_inside_the_repository_is_quoted_and_fixed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    files = {
        "repo/m/1/model.py": "",
        "repo/shared.pbtxt": OUTSIDE,
        "repo/m/config.pbtxt": Link("../shared.pbtxt"),
    }
    shared = make_tree(tmp_path, files, verbatim=True) / "repo" / "shared.pbtxt"
    status, out, err = run_cli(["check", "repo", "--fix"], capsys)
    assert (status, err) == (1, "")
    assert shared.read_text() == OUTSIDE.replace("platform:", "backend:")
    assert '3 | max_batch_size: "s3cr3t"\n' in out
