"""Everyday report options of ``tritonlint check``: help lines, ``--output-format concise``,
``--quiet``, ``--color``, ``--format gitlab``, and a reader that stops reading early."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from helpers import ONNX_MODEL, make_tree, model, report_workdir, run_cli

from tritonlint.report.gitlab import fingerprint

CONFIG = ONNX_MODEL["config.pbtxt"]
assert isinstance(CONFIG, str)
ROOT = Path(__file__).resolve().parents[1]
ANSI = re.compile(r"\x1b\[[0-9;]*m")
#: models/typo: TL101 at 3:47 (`dim` for `dims`, with a fix); models/warned: TL213 (a folder).
TYPO = CONFIG.replace("dims: [ 16 ] } ]\noutput", "dim: [ 16 ] } ]\noutput")


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return report_workdir(
        tmp_path,
        monkeypatch,
        {
            **model("typo", ONNX_MODEL),
            "typo/config.pbtxt": TYPO,
            **model("warned", ONNX_MODEL),
            "warned/v1/": None,
        },
    )


TYPO_HEADING = (
    'models/typo/config.pbtxt:3:47: TL101 [error] message type "inference.ModelInput" has no '
    "field named \"dim\"; did you mean 'dims'? (valid fields: name, data_type, format, dims, "
    "reshape, is_shape_tensor, allow_ragged_batch, optional, is_non_linear_format_io)"
)
WARNED_HEADING = (
    "models/warned/v1: TL213 [warning] subfolder 'v1' is not a version number; tritonserver "
    "ignores it"
)


# --- help lines ----------------------------------------------------------------------------------


def test_a_finding_with_a_fix_has_a_help_line(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run_cli(["models/typo"], capsys)
    assert status == 1
    assert out.splitlines() == [
        TYPO_HEADING,
        "  |",
        '3 | input [ { name: "INPUT0" data_type: TYPE_FP32 dim: [ 16 ] } ]',
        "  |                                               ^^^",
        "  = help: replace 'dim' with 'dims'",
        "",
        "Found 1 error (1 model checked).",
        "No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option).",
    ]


def test_the_help_line_in_colour(
    workdir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TERM", "xterm-256color")
    plain = run_cli(["models/typo"], capsys)[1]
    coloured = run_cli(["models/typo", "--color", "always"], capsys)[1]
    assert "\x1b[1;36m  = help: \x1b[0mreplace 'dim' with 'dims'" in coloured
    assert ANSI.sub("", coloured) == plain


# --- --output-format concise / full --------------------------------------------------------------


def test_concise_is_one_line_per_finding(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(["models", "--output-format", "concise"], capsys)
    assert status == 1
    assert out.splitlines() == [
        TYPO_HEADING,
        WARNED_HEADING,
        "Found 1 error, 1 warning (2 models checked).",
        "No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option).",
    ]
    # --format and --output-format are one option; full is text.
    assert run_cli(["models", "--format", "concise"], capsys)[1] == out
    assert (
        run_cli(["models", "--output-format", "full"], capsys)[1] == run_cli(["models"], capsys)[1]
    )


def test_concise_to_a_file_and_in_colour(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    concise = run_cli(["models", "--output-format", "concise"], capsys)[1]
    assert run_cli(["models", "--output-format", "concise", "-o", "r.txt"], capsys)[1] == ""
    assert Path("r.txt").read_text(encoding="utf-8") == concise
    coloured = run_cli(["models", "--output-format", "concise", "--color", "always"], capsys)[1]
    assert coloured != concise and ANSI.sub("", coloured) == concise


# --- --quiet -------------------------------------------------------------------------------------


@pytest.mark.parametrize("flag", ["-q", "--quiet"])
def test_quiet_prints_the_findings_alone(
    workdir: Path, capsys: pytest.CaptureFixture[str], flag: str
) -> None:
    status, out, _ = run_cli(["models", "--output-format", "concise", flag], capsys)
    assert (status, out.splitlines()) == (1, [TYPO_HEADING, WARNED_HEADING])
    full = run_cli(["models", flag], capsys)[1]
    assert full == run_cli(["models"], capsys)[1].replace(
        "Found 1 error, 1 warning (2 models checked).\n"
        + "No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option)."
        + "\n",
        "",
    )
    # Without findings, nothing at all.
    assert run_cli(["models/warned", "--ignore", "TL213", flag], capsys) == (0, "", "")
    github = run_cli(["models", "--format", "github", flag], capsys)[1].splitlines()
    assert [line[:9] for line in github] == ["::error f", "::warning"]
    assert run_cli(["models/warned", "--ignore", "TL213", "--format", "github", flag], capsys) == (
        0,
        "",
        "",
    )


# --- --color -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("environment", "flag", "coloured"),
    [
        ({}, [], False),  # not a terminal
        ({}, ["--color", "always"], True),
        ({"FORCE_COLOR": "1"}, [], True),
        ({"FORCE_COLOR": "1"}, ["--color", "auto"], True),
        ({"FORCE_COLOR": "1"}, ["--color", "never"], False),  # the flag wins
        ({"NO_COLOR": "1"}, ["--color", "always"], True),
        ({"NO_COLOR": "1", "FORCE_COLOR": "1"}, [], False),
    ],
)
def test_color_flag_over_the_environment(
    workdir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    environment: dict[str, str],
    flag: list[str],
    coloured: bool,
) -> None:
    monkeypatch.setenv("TERM", "xterm-256color")
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    status, out, _ = run_cli(["models", *flag, "--statistics"], capsys)
    assert status == 1
    assert ("\x1b[1;31mTL101\x1b[0m" in out) is coloured
    if not coloured and (not environment or "never" in flag):  # no style, not even bold
        assert "\x1b[" not in out


def test_color_of_a_usage_error(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, _, err = run_cli(["models", "--select", "TL999", "--color", "always"], capsys)
    assert err.startswith("\x1b[1;31mtritonlint: error: no rule code")
    _, _, err = run_cli(["models", "--select", "TL999", "--color", "never"], capsys)
    assert err.startswith("tritonlint: error: no rule code") and "\x1b[" not in err


# --- --format gitlab -----------------------------------------------------------------------------


def gitlab(capsys: pytest.CaptureFixture[str], *options: str) -> list[dict[str, object]]:
    status, out, err = run_cli(["models", "--format", "gitlab", *options], capsys)
    assert (status, err) == (1, "")
    issues = json.loads(out)
    assert isinstance(issues, list)
    return issues


def test_gitlab_code_quality_issues(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (workdir / ".tritonlint.toml").write_text(
        'extend-select = ["TL505"]\nseverity = { TL505 = "info" }\n'
    )
    Path("models/typo/config.pbtxt").write_text(TYPO.replace("dynamic_batching { }\n", ""))
    batching, typo, warned = gitlab(capsys)
    assert typo == {
        "description": TYPO_HEADING.split(" [error] ")[1].join(["TL101 unknown-field: ", ""]),
        "check_name": "TL101",
        "fingerprint": fingerprint(
            "models/typo/config.pbtxt", "TL101", TYPO_HEADING.split(" [error] ")[1], 0
        ),
        "severity": "major",
        "location": {"path": "models/typo/config.pbtxt", "lines": {"begin": 3, "end": 3}},
    }
    assert (batching["check_name"], batching["severity"]) == ("TL505", "info")
    # A folder: line 1.
    assert warned["location"] == {"path": "models/warned/v1", "lines": {"begin": 1}}
    assert (warned["check_name"], warned["severity"]) == ("TL213", "minor")
    for issue in (typo, batching, warned):
        assert re.fullmatch("[0-9a-f]{64}", str(issue["fingerprint"]))


def test_gitlab_fingerprints_stay_when_lines_move_and_tell_twins_apart(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = gitlab(capsys)
    config = Path("models/typo/config.pbtxt")
    config.write_text("# a comment that moves every line down\n\n" + TYPO, encoding="utf-8")
    after = gitlab(capsys)
    assert [i["fingerprint"] for i in after] == [i["fingerprint"] for i in before]
    assert after[0]["location"] == {
        "path": "models/typo/config.pbtxt",
        "lines": {"begin": 5, "end": 5},
    }
    # Two findings alike in one file: two fingerprints, each kept when lines move.
    twice = TYPO.replace(
        "output [ {", 'input [ { name: "INPUT1" data_type: TYPE_FP32 dim: [ 16 ] } ]\noutput [ {'
    )
    config.write_text(twice, encoding="utf-8")
    first = [i for i in gitlab(capsys) if i["check_name"] == "TL101"]
    config.write_text("\n" + twice, encoding="utf-8")
    second = [i for i in gitlab(capsys) if i["check_name"] == "TL101"]
    assert len({i["fingerprint"] for i in first}) == 2
    assert [i["fingerprint"] for i in second] == [i["fingerprint"] for i in first]
    assert first[0]["fingerprint"] == before[0]["fingerprint"]


# --- a reader that stops early (| head) ----------------------------------------------------------


@pytest.fixture
def warned_only(tmp_path: Path) -> Path:
    """A repository with warnings only: TL213 for ``m/v1`` and ``m/v2``."""
    make_tree(tmp_path / "models", {**model("m", ONNX_MODEL), "m/v1/": None, "m/v2/": None})
    return tmp_path


def run_unread(cwd: Path, argv: Sequence[str]) -> tuple[int, str]:
    """Run tritonlint with a standard output whose reader has left before anything was
    written (as ``| head`` leaves once it has its lines): exit status and standard error."""
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "120"}
    for name in ("GITHUB_ACTIONS", "FORCE_COLOR", "TTY_COMPATIBLE"):
        environment.pop(name, None)
    process = subprocess.Popen(
        [sys.executable, "-m", "tritonlint", *argv],
        cwd=cwd,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None
    process.stdout.close()
    _, err = process.communicate(timeout=120)
    return process.returncode, err.decode()


@pytest.mark.parametrize(
    "report_format", ["text", "concise", "json", "sarif", "github", "junit", "gitlab"]
)
def test_a_reader_that_leaves_early_changes_no_exit_status(
    warned_only: Path, report_format: str
) -> None:
    assert run_unread(warned_only, ["models", "--format", report_format]) == (0, "")


def test_a_reader_that_leaves_early_keeps_a_failing_status(warned_only: Path) -> None:
    assert run_unread(warned_only, ["models", "--fail-on", "warning", "--statistics"]) == (1, "")
    assert run_unread(warned_only, ["models", "--color", "always"]) == (0, "")
    assert run_unread(warned_only, ["rules"]) == (0, "")
    assert run_unread(warned_only, ["explain", "TL101"]) == (0, "")


# --- the documented JSON fix ---------------------------------------------------------------------


def test_the_readme_shows_the_fix_json_gives(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    example = readme.split("in the shape of ruff's JSON output", 1)[1]
    documented = json.loads("{" + example.split("```json\n", 1)[1].split("```", 1)[0] + "}")
    findings = json.loads(
        run_cli(["fixtures/broken/unknown_field_dim", "--format", "json"], capsys)[1]
    )
    [typo] = [finding for finding in findings if finding["code"] == "TL101"]
    assert documented == {"fix": typo["fix"]}
    assert typo["url"].endswith("/docs/rules.md#tl101-unknown-field")
