"""The ``tritonlint`` command: output formats, rule selection, exit statuses, subcommands."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from helpers import ONNX_MODEL, make_tree, model

from tritonlint.cli import check as cli
from tritonlint.cli import main
from tritonlint.rules.registry import all_rules

CONFIG = ONNX_MODEL["config.pbtxt"]
assert isinstance(CONFIG, str)

JSON_KEYS = {
    "code", "name", "severity", "message", "url", "path",
    "line", "column", "end_line", "end_column", "related", "fix", "fixes",
}  # fmt: skip


def run(argv: Sequence[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``main(argv)``: exit status, stdout, stderr (argparse's own errors exit with SystemExit)."""
    try:
        status = main(list(argv))
    except SystemExit as exit_:
        status = exit_.code if isinstance(exit_.code, int) else 2
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def run_json(argv: Sequence[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[Any]]:
    status, out, err = run([*argv, "--format", "json"], capsys)
    assert "Traceback" not in err
    return status, json.loads(out)


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working directory with ``models/``: one name mismatch, one model without versions."""
    monkeypatch.chdir(tmp_path)
    make_tree(
        tmp_path / "models",
        {
            **model("good", ONNX_MODEL),
            **model("renamed", ONNX_MODEL),
            "renamed/config.pbtxt": 'name: "other"\n' + CONFIG,
            "noversion/config.pbtxt": CONFIG,
        },
    )
    return tmp_path


# --- Text output -----------------------------------------------------------------------------


def test_text_output_has_location_code_frame_and_summary(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(["models"], capsys)
    assert status == 1
    assert err == ""
    lines = out.splitlines()
    heading = next(line for line in lines if "TL201" in line)
    assert heading.startswith("models/renamed/config.pbtxt:1:7: TL201 [error] ")
    assert 'name "other" differs from the model folder "renamed"' in heading
    frame = lines[lines.index(heading) + 1 : lines.index(heading) + 4]
    assert frame == ["  |", '1 | name: "other"', "  |       ^^^^^^^"]
    assert "models/noversion: TL212 [error] " in out
    assert lines[-2:] == [
        "Found 2 errors (3 models checked).",
        "[*] 1 fixable with the `--fix` option.",
    ]


def test_text_output_of_a_clean_repository(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(["models/good"], capsys)
    assert status == 0
    assert out.strip() == "All checks passed (1 model checked)."


def test_related_locations_are_shown_as_notes(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = "max_batch_size: 8\n" + CONFIG
    (workdir / "models" / "good" / "config.pbtxt").write_text(text, encoding="utf-8")
    status, out, _ = run(["models/good"], capsys)
    assert status == 1
    assert "models/good/config.pbtxt:3:1: TL107 [error]" in out
    assert "  = note: first given here (models/good/config.pbtxt:1:1)" in out


def test_warnings_alone_exit_zero(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_tree(workdir / "models" / "good", {"v1/": None})
    status, out, _ = run(["models/good"], capsys)
    assert status == 0
    assert "models/good/v1: TL213 [warning]" in out
    assert out.splitlines()[-1] == "Found 1 warning (1 model checked)."


def test_explicit_check_subcommand_is_the_default(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["check", "models"], capsys)[:2] == run(["models"], capsys)[:2]


# --- JSON output -----------------------------------------------------------------------------


def test_json_output_keys_and_positions(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, findings = run_json(["models"], capsys)
    assert status == 1
    assert isinstance(findings, list)
    assert all(set(item) == JSON_KEYS for item in findings)
    by_code = {item["code"]: item for item in findings}
    assert by_code["TL201"] == {
        "code": "TL201",
        "name": "name-mismatch",
        "severity": "error",
        "message": by_code["TL201"]["message"],
        "url": "https://github.com/tritonlint/tritonlint/blob/main/docs/rules.md#tl201-name-mismatch",
        "path": "models/renamed/config.pbtxt",
        "line": 1,
        "column": 7,
        "end_line": 1,
        "end_column": 14,
        "related": [],
        "fix": {
            "message": 'Set name to "renamed", the model folder\'s name',
            "applicability": "safe",
            "edits": [
                {
                    "content": '"renamed"',
                    "location": {"row": 1, "column": 7},
                    "end_location": {"row": 1, "column": 14},
                }
            ],
        },
        "fixes": [
            {
                "title": 'Set name to "renamed", the model folder\'s name',
                "applicability": "safe",
                "edits": [
                    {
                        "new_text": '"renamed"',
                        "line": 1,
                        "column": 7,
                        "end_line": 1,
                        "end_column": 14,
                    }
                ],
            }
        ],
    }
    folder = by_code["TL212"]
    assert folder["path"] == "models/noversion"
    assert [folder[k] for k in ("line", "column", "end_line", "end_column")] == [None] * 4


def test_json_related_locations(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = "max_batch_size: 8\n" + CONFIG
    (workdir / "models" / "good" / "config.pbtxt").write_text(text, encoding="utf-8")
    _, findings = run_json(["models/good"], capsys)
    [duplicate] = findings
    assert duplicate["code"] == "TL107"
    assert duplicate["related"] == [
        {
            "path": "models/good/config.pbtxt",
            "message": "first given here",
            "line": 1,
            "column": 1,
            "end_line": 1,
            "end_column": 15,
        }
    ]


def test_json_of_a_clean_repository_is_an_empty_array(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_json(["models/good"], capsys) == (0, [])


def test_paths_outside_the_working_directory_are_absolute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_tree(tmp_path / "repo", {"m/config.pbtxt": CONFIG})
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    _, findings = run_json([str(root)], capsys)
    assert [item["path"] for item in findings] == [str(root / "m")]


# --- --select / --ignore ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ([], ["TL201", "TL212"]),
        (["--select", "TL201"], ["TL201"]),
        (["--select", "TL2"], ["TL201", "TL212"]),
        (["--select", "TL21"], ["TL212"]),
        (["--select", "tl20"], ["TL201"]),
        (["--select", "name-mismatch"], ["TL201"]),
        (["--select", "TL201,TL212"], ["TL201", "TL212"]),
        (["--select", "TL201", "--select", "TL212"], ["TL201", "TL212"]),
        (["--select", "TL1"], []),
        (["--ignore", "TL201"], ["TL212"]),
        (["--ignore", "TL2"], []),
        (["--select", "TL2", "--ignore", "TL212"], ["TL201"]),
    ],
)
def test_select_and_ignore(
    workdir: Path, capsys: pytest.CaptureFixture[str], options: list[str], expected: list[str]
) -> None:
    status, findings = run_json(["models", *options], capsys)
    assert sorted(item["code"] for item in findings) == expected
    assert status == (1 if expected else 0)


@pytest.mark.parametrize("option", ["--select", "--ignore"])
@pytest.mark.parametrize("value", ["TL999", "TL99", "no-such-rule", "TL201,XX"])
def test_unknown_rule_is_a_usage_error(
    workdir: Path, capsys: pytest.CaptureFixture[str], option: str, value: str
) -> None:
    status, out, err = run(["models", option, value], capsys)
    assert status == 2
    assert out == ""
    assert "tritonlint: error: no rule code, prefix or name matches" in err


# --- --triton-version ------------------------------------------------------------------------


def test_triton_version_selects_the_schema(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # model_metrics appeared after 2.51.
    text = CONFIG + "model_metrics { }\n"
    (workdir / "models" / "good" / "config.pbtxt").write_text(text, encoding="utf-8")
    assert run_json(["models/good"], capsys) == (0, [])
    status, findings = run_json(["models/good", "--triton-version", "2.51"], capsys)
    assert status == 1
    assert [(f["code"], f["line"], f["column"]) for f in findings] == [("TL101", 6, 1)]
    assert run_json(["models/good", "--triton-version", "2.51.0"], capsys)[0] == 1


@pytest.mark.parametrize("version", ["1.0", "2.99", "latest", "2.5"])
def test_unknown_triton_version_is_a_usage_error(
    workdir: Path, capsys: pytest.CaptureFixture[str], version: str
) -> None:
    status, out, err = run(["models", "--triton-version", version], capsys)
    assert status == 2
    assert out == ""
    assert "no schema for Triton release" in err
    assert "2.51.0" in err


# --- Exit statuses and usage errors ----------------------------------------------------------


@pytest.mark.parametrize("argv", [[], ["check"]])
def test_no_path_checks_the_current_folder(
    workdir: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    status, out, err = run(argv, capsys)
    assert (status, err) == (1, "")
    assert "models/renamed/config.pbtxt:1:7: TL201 [error] " in out
    assert out.splitlines()[-2:] == [
        "Found 2 errors (3 models checked).",
        "[*] 1 fixable with the `--fix` option.",
    ]


@pytest.mark.parametrize("argv", [["models", "--format", "xml"], ["--no-such-option", "models"]])
def test_bad_command_lines_exit_2(
    workdir: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    status, _, err = run(argv, capsys)
    assert status == 2
    assert "usage: tritonlint" in err


def test_internal_failure_exits_2_and_says_it_is_a_bug(
    workdir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_: object, **__: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(cli, "lint_paths", broken)
    status, _, err = run(["models"], capsys)
    assert status == 2
    assert "internal error" in err
    assert "RuntimeError: boom" in err


# --- rules and explain -----------------------------------------------------------------------


def test_rules_lists_every_rule(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["rules"], capsys)
    assert status == 0
    for rule in all_rules():
        assert rule.code in out
    assert out.count("TL") >= len(all_rules())


@pytest.mark.parametrize("name", ["TL101", "tl101", "unknown-field"])
def test_explain_prints_the_documentation(capsys: pytest.CaptureFixture[str], name: str) -> None:
    status, out, _ = run(["explain", name], capsys)
    assert status == 0
    text = " ".join(out.split())
    assert "TL101 unknown-field" in text
    assert "a field that the message type does not have" in text
    assert "Every field name must be a field of the message it appears in" in text
    assert "dim: [ 16 ]" in text and "dims: [ 16 ]" in text
    assert 'has no field named "{field}"' in text


def test_explain_of_an_unknown_code_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(["explain", "TL999"], capsys)
    assert status == 2
    assert out == ""
    assert "no rule 'TL999'" in err


# --- The installed command -------------------------------------------------------------------


def _command() -> list[str]:
    script = Path(sys.executable).parent / "tritonlint"
    return [str(script)] if script.exists() else [sys.executable, "-m", "tritonlint.cli"]


def test_console_script_end_to_end(workdir: Path) -> None:
    completed = subprocess.run(
        [*_command(), "models", "--format", "json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 1, completed.stderr
    assert completed.stderr == ""
    findings = json.loads(completed.stdout)
    assert sorted((f["code"], f["path"], f["line"]) for f in findings) == [
        ("TL201", "models/renamed/config.pbtxt", 1),
        ("TL212", "models/noversion", None),
    ]


def test_module_entry_point(workdir: Path) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "tritonlint.cli", "models/good"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert "All checks passed (1 model checked)." in completed.stdout


@pytest.mark.parametrize(("typed", "meant"), [("explian", "explain"), ("rulse", "rules")])
def test_a_misspelt_command_is_a_usage_error_with_a_suggestion(
    typed: str,
    meant: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main([typed, "TL101"]) == 2
    error = " ".join(capsys.readouterr().err.split())
    assert f"'{typed}' is neither a command nor a path; did you mean '{meant}'?" in error


def test_a_path_named_like_a_command_is_still_linted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    make_tree(tmp_path, {"rulse/m/config.pbtxt": 'backend: "python"\n', "rulse/m/1/model.py": ""})
    assert main(["rulse"]) == 0
    assert "1 model checked" in capsys.readouterr().out
