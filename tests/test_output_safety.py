"""Every report is valid UTF-8 and never hands a terminal a control character from a config or
a file name: a folder whose name is not UTF-8 is shown with escapes (``m\\xff``; in URIs
percent-encoded, ``m%FF``), and control characters from a config (``\\x1b``) are escaped
in the formats a terminal or a log shows. The command runs as a user runs it, in a process of
its own, and its standard output is read as bytes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from helpers import make_tree, validate_sarif

from tritonlint.cli import main

#: A name that retitles the terminal and clears its screen, written with escapes in the config;
#: a key holding a raw ESC, a colour sequence and a right-to-left override.
CONFIG = (
    'name: "\\033]0;title\\007\\033[2J"\n'
    'backend: "onnxruntime"\n'
    "max_batch_size: -1\n"
    'parameters { key: "k\x1b[31m\u202e" value { string_value: "v" } }\n'
    'parameters { key: "k\x1b[31m\u202e" value { string_value: "v" } }\n'
)
FORMATS = ["text", "concise", "json", "sarif", "github", "gitlab", "junit"]
#: What no report may hold raw.
RAW_CONTROLS = [b"\x1b", b"\x07"]


@pytest.fixture(scope="module")
def repository(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A repository with one model, in a folder named ``m`` and the byte 0xFF."""
    if sys.platform == "darwin":
        pytest.skip("macOS file systems refuse names that are not UTF-8")
    root = tmp_path_factory.mktemp("repository")
    folder = os.fsencode(root) + b"/m\xff"
    os.makedirs(folder + b"/1")
    Path(os.fsdecode(folder + b"/1/model.onnx")).write_bytes(b"")
    Path(os.fsdecode(folder + b"/config.pbtxt")).write_text(CONFIG, encoding="utf-8")
    return root


def report(repository: Path, report_format: str) -> str:
    """What ``tritonlint check . --format FORMAT`` prints, decoded as strict UTF-8."""
    completed = subprocess.run(
        [sys.executable, "-m", "tritonlint.cli", "check", ".", "--format", report_format],
        cwd=repository,
        capture_output=True,
        env={**os.environ, "LC_ALL": "C.UTF-8", "NO_COLOR": "1"},
        check=False,
    )
    assert completed.returncode == 1, completed.stderr.decode(errors="replace")
    assert completed.stderr == b""
    for control in RAW_CONTROLS:
        assert control not in completed.stdout
    return completed.stdout.decode("utf-8")


@pytest.mark.parametrize("report_format", ["text", "concise"])
def test_text_reports_escape_names_and_controls(repository: Path, report_format: str) -> None:
    out = report(repository, report_format)
    assert "\u202e" not in out
    headings = [line for line in out.splitlines() if line.startswith("m")]
    assert headings == [
        'm\\xff/config.pbtxt:1:7: TL201 [error] name "\\x1b]0;title\\x07\\x1b[2J" differs '
        'from the model folder "m\\xff"; tritonserver refuses it: unexpected directory name '
        "'m\\xff' for model '\\x1b]0;title\\x07\\x1b[2J', directory name must equal model name",
        "m\\xff/config.pbtxt:3:17: TL501 [error] 'max_batch_size' must be non-negative value "
        "for \\x1b]0;title\\x07\\x1b[2J",
        "m\\xff/config.pbtxt:5:12: TL110 [warning] key 'k\\x1b[31m\\u202e' appears more than "
        "once in 'parameters'; only the last entry is kept and the earlier ones are silently "
        "dropped",
    ]
    if report_format == "text":
        assert (
            '5 | parameters { key: "k\\x1b[31m\\u202e" value { string_value: "v" } }\n'
            "  |            " + "^" * 54 + "\n"
            "  = note: first entry with this key (m\\xff/config.pbtxt:4:12)\n"
        ) in out


def test_github_annotations_escape_names_and_controls(repository: Path) -> None:
    out = report(repository, "github")
    assert "\u202e" not in out
    assert out.splitlines()[2] == (
        "::warning file=m\\xff/config.pbtxt,line=5,col=12,endLine=5,endColumn=58,"
        "title=TL110 duplicate-map-key::key 'k\\x1b[31m\\u202e' appears more than once in "
        "'parameters'; only the last entry is kept and the earlier ones are silently dropped"
        "%0Anote: first entry with this key (m\\xff/config.pbtxt:4:12)"
    )


def test_json_shows_a_name_that_is_not_utf8_with_escapes(repository: Path) -> None:
    findings: list[dict[str, Any]] = json.loads(report(repository, "json"))
    assert {finding["path"] for finding in findings} == {"m\\xff/config.pbtxt"}
    [mismatch] = [finding for finding in findings if finding["code"] == "TL201"]
    assert mismatch["message"].startswith(
        'name "\x1b]0;title\x07\x1b[2J" differs from the model folder "m\\xff"'
    )


def test_gitlab_shows_a_name_that_is_not_utf8_with_escapes(repository: Path) -> None:
    issues: list[dict[str, Any]] = json.loads(report(repository, "gitlab"))
    assert {issue["location"]["path"] for issue in issues} == {"m\\xff/config.pbtxt"}
    assert len({issue["fingerprint"] for issue in issues}) == 3


def test_sarif_percent_encodes_a_name_that_is_not_utf8(repository: Path) -> None:
    log = json.loads(report(repository, "sarif"))
    validate_sarif(log)
    [sarif_run] = log["runs"]
    uris = {
        location["physicalLocation"]["artifactLocation"]["uri"]
        for result in sarif_run["results"]
        for location in result["locations"] + result.get("relatedLocations", [])
    }
    assert uris == {"m%FF/config.pbtxt"}


def test_junit_shows_a_name_that_is_not_utf8_with_escapes(repository: Path) -> None:
    suites = ET.fromstring(report(repository, "junit"))
    assert {suite.get("name") for suite in suites.iter("testsuite")} == {"m\\xff"}
    failures = [failure.get("message") or "" for failure in suites.iter("failure")]
    assert any("\\x1b]0;title\\x07\\x1b[2J" in message for message in failures), failures


@pytest.mark.parametrize("report_format", FORMATS)
def test_every_format_is_valid_utf8_without_raw_controls(
    repository: Path, report_format: str
) -> None:
    out = report(repository, report_format)
    # The escape, as it is written in the format: ``m\\xff`` in a JSON string.
    assert any(shown in out for shown in ("m\\xff", "m\\\\xff", "m%FF"))


def test_a_message_quoting_a_long_value_is_cut_in_its_middle(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A name of 100 KB, quoted by the findings of 200 inputs: each message is cut to 2,000
    characters, so that the report grows with the findings, not with them times the name."""
    monkeypatch.chdir(tmp_path)
    name = "x" * 100_000
    inputs = 'input { name: "i" data_type: TYPE_FP32 dims: [ -2 ] }\n' * 200
    config = f'name: "{name}"\nbackend: "onnxruntime"\nmax_batch_size: 8\n{inputs}'
    make_tree(tmp_path, {"m/1/model.onnx": b"", "m/config.pbtxt": config}, verbatim=True)
    assert main(["check", "m", "--format", "concise", "--quiet"]) == 1
    lines = capsys.readouterr().out.splitlines()
    full = (
        f'name "{name}" differs from the model folder "m"; tritonserver refuses it: unexpected '
        f"directory name 'm' for model '{name}', directory name must equal model name"
    )
    left_out = len(full) - 1_333 - 500
    assert lines[0] == (
        "m/config.pbtxt:1:7: TL201 [error] "
        f"{full[:1_333]} … ({left_out:,} characters left out) … {full[-500:]}"
    )
    assert len(lines) == 1 + 200 + 199  # the name, a dimension of each input, its duplicates
    assert sum(len(line.encode()) for line in lines) / len(lines) < 2_100


def _run(folder: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "tritonlint.cli", *args],
        cwd=folder,
        capture_output=True,
        env={**os.environ, "LC_ALL": "C.UTF-8", "NO_COLOR": "1"},
        check=False,
    )


@pytest.fixture
def misformatted(tmp_path: Path) -> Path:
    """A model in a folder named ``m`` and the byte 0xFF whose config is not formatted and
    has a fix (a duplicate field)."""
    if sys.platform == "darwin":
        pytest.skip("macOS file systems refuse names that are not UTF-8")
    folder = os.fsencode(tmp_path) + b"/repo/m\xff"
    os.makedirs(folder + b"/1")
    Path(os.fsdecode(folder + b"/1/model.py")).write_bytes(b"")
    config = 'backend:"python"\nmax_batch_size: 1\nmax_batch_size: 1\n'
    Path(os.fsdecode(folder + b"/config.pbtxt")).write_text(config, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["format", "--check", "repo"], "Would reformat: repo/m\\xff/config.pbtxt\n"),
        (["format", "--diff", "repo"], "--- a/repo/m\\xff/config.pbtxt\n+++ b/repo/m\\xff/"),
        (["check", "--fix", "--diff", "repo"], "--- a/repo/m\\xff/config.pbtxt\n"),
    ],
)
def test_format_and_fix_name_files_with_escapes(
    misformatted: Path, args: list[str], expected: str
) -> None:
    completed = _run(misformatted, *args)
    out = completed.stdout.decode("utf-8") + completed.stderr.decode("utf-8")
    assert expected in out
