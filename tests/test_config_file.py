"""Every key of the settings file takes effect, and the command line goes over the file."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from helpers import (
    GOOD_RENAMED_NOVERSION,
    make_tree,
    onnx_ensemble,
    report_workdir,
    run_cli,
)

from tritonlint.selection import PathPatterns
from tritonlint.settings import load_settings


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``models/``: renamed (TL201 at its config) and noversion (TL212 at its folder)."""
    return report_workdir(tmp_path, monkeypatch, GOOD_RENAMED_NOVERSION)


def settings(path: Path, text: str) -> None:
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")


def check(
    argv: Sequence[str], capsys: pytest.CaptureFixture[str]
) -> tuple[int, list[dict[str, Any]]]:
    """Lint with ``--format json``: the exit status and the findings (stderr must be empty)."""
    status, out, err = run_cli([*argv, "--format", "json"], capsys)
    assert err == ""
    findings: list[dict[str, Any]] = json.loads(out)
    return status, findings


def codes(argv: Sequence[str], capsys: pytest.CaptureFixture[str]) -> list[str]:
    """The codes found, sorted."""
    return sorted(f["code"] for f in check(argv, capsys)[1])


# --- select, ignore, extend-select and the command line ----------------------------------------


@pytest.mark.parametrize(
    ("file", "flags", "expected"),
    [
        ("", [], ["TL201", "TL212"]),
        ('select = ["TL201"]', [], ["TL201"]),
        ('select = ["name-mismatch"]', [], ["TL201"]),
        ('ignore = ["TL212"]', [], ["TL201"]),
        ('select = ["TL2"]\nignore = ["TL212"]', [], ["TL201"]),  # ignore wins
        ('select = ["TL201"]\nextend-select = ["TL212"]', [], ["TL201", "TL212"]),
        ('extend-select = ["TL212"]', [], ["TL201", "TL212"]),  # select: every rule
        # --select replaces the file's select (and extend-select) ...
        ('select = ["TL201"]', ["--select", "TL212"], ["TL212"]),
        ('select = ["TL201"]\nextend-select = ["TL212"]', ["--select", "TL201"], ["TL201"]),
        # ... --extend-select and --ignore add to the file's lists.
        ('select = ["TL201"]', ["--extend-select", "TL212"], ["TL201", "TL212"]),
        ('ignore = ["TL201"]', ["--ignore", "TL212"], []),
        ('ignore = ["TL201"]', ["--select", "TL2"], ["TL212"]),
        ("", ["--select", "TL1", "--extend-select", "TL21"], ["TL212"]),
    ],
)
def test_selection(
    workdir: Path,
    capsys: pytest.CaptureFixture[str],
    file: str,
    flags: list[str],
    expected: list[str],
) -> None:
    settings(workdir / ".tritonlint.toml", file)
    assert codes(["models", *flags], capsys) == expected


def test_the_pyproject_table_works_the_same(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings(workdir / "pyproject.toml", '[tool.tritonlint]\nignore = ["TL2"]\n')
    assert check(["models"], capsys) == (0, [])


def test_the_file_is_found_from_the_linted_path(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings(workdir / "models" / ".tritonlint.toml", 'select = ["TL212"]\n')
    assert codes(["models/noversion", "models/renamed"], capsys) == ["TL212"]


# --- per-file-ignores ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ('"models/renamed/*" = ["TL201"]', ["TL212"]),
        ('"models/renamed" = ["TL2"]', ["TL212"]),  # a folder: everything below it
        ('"models/noversion" = ["TL212"]', ["TL201"]),  # a finding about the folder itself
        ('"models/*" = ["name-mismatch"]', ["TL212"]),
        ('"**/config.pbtxt" = ["TL2"]', ["TL212"]),
        ('"models/no*" = ["TL2"]', ["TL201"]),
        ('"models/[nr]*" = ["TL2"]', []),
        ('"models/renamed/*" = ["TL212"]', ["TL201", "TL212"]),  # another code
        ('"renamed/*" = ["TL201"]', ["TL201", "TL212"]),  # relative to the file's folder
        ('"models/renamed/*" = ["TL201"]\n"models/noversion" = ["TL21"]', []),
    ],
)
def test_per_file_ignores(
    workdir: Path, capsys: pytest.CaptureFixture[str], table: str, expected: list[str]
) -> None:
    settings(workdir / ".tritonlint.toml", f"[per-file-ignores]\n{table}\n")
    assert codes(["models"], capsys) == expected


def test_per_file_ignores_are_relative_to_the_settings_file(
    workdir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    settings(workdir / "models" / ".tritonlint.toml", '[per-file-ignores]\n"renamed/*" = ["TL2"]\n')
    assert codes(["models"], capsys) == ["TL212"]
    monkeypatch.chdir(workdir / "models" / "renamed")  # the working directory does not matter
    _, findings = check([".."], capsys)
    assert [f["code"] for f in findings] == ["TL212"]


# --- severity ------------------------------------------------------------------------------------


def test_severity_changes_the_level_and_the_exit_status(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings(workdir / ".tritonlint.toml", 'severity = { TL201 = "warning", TL212 = "info" }\n')
    status, findings = check(["models"], capsys)
    assert status == 0
    assert [(f["code"], f["severity"]) for f in findings] == [
        ("TL212", "info"),
        ("TL201", "warning"),
    ]
    assert check(["models", "--fail-on", "warning"], capsys)[0] == 1


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ('TL2 = "info"', {"TL201": "info", "TL212": "info"}),
        ('TL2 = "info"\nTL212 = "warning"', {"TL201": "info", "TL212": "warning"}),
        ('TL21 = "warning"\nTL2 = "info"', {"TL201": "info", "TL212": "warning"}),
        ('"name-mismatch" = "info"\nTL20 = "warning"', {"TL201": "info", "TL212": "error"}),
        ('TL404 = "info"', {"TL201": "error", "TL212": "error"}),
    ],
)
def test_the_most_specific_severity_key_wins(
    workdir: Path, capsys: pytest.CaptureFixture[str], table: str, expected: dict[str, str]
) -> None:
    settings(workdir / ".tritonlint.toml", f"[severity]\n{table}\n")
    _, findings = check(["models"], capsys)
    assert {f["code"]: f["severity"] for f in findings} == expected


def test_a_warning_can_become_an_error(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_tree(workdir / "models" / "good", {"v1/": None})  # TL213, a warning
    assert check(["models/good"], capsys)[0] == 0
    settings(workdir / ".tritonlint.toml", 'severity = { TL213 = "error" }\n')
    status, findings = check(["models/good"], capsys)
    assert status == 1
    assert [(f["code"], f["severity"]) for f in findings] == [("TL213", "error")]


# --- exclude -------------------------------------------------------------------------------------


def test_exclude_takes_models_out_of_the_run(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings(workdir / ".tritonlint.toml", 'exclude = ["models/noversion"]\n')
    status, out, err = run_cli(["models"], capsys)
    assert (status, err) == (1, "")
    assert "TL212" not in out and "TL201" in out
    assert out.splitlines()[-2:] == [
        "Found 1 error (2 models checked).",
        "[*] 1 fixable with the `--fix` option.",
    ]
    settings(workdir / ".tritonlint.toml", 'exclude = ["models/*"]\n')
    status, out, _ = run_cli(["models/renamed", "models/noversion"], capsys)
    assert (status, out.strip()) == (0, "All checks passed (0 models checked).")


def test_exclude_of_a_file_and_a_missing_path(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings(workdir / ".tritonlint.toml", 'exclude = ["models/*/config.pbtxt", "gone"]\n')
    assert codes(["models", "gone"], capsys) == ["TL212"]


def test_an_excluded_model_still_serves_an_ensemble(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_tree(
        workdir / "models", {"pipeline/config.pbtxt": onnx_ensemble("good"), "pipeline/1/": None}
    )
    settings(workdir / ".tritonlint.toml", 'exclude = ["models/good", "models/renamed"]\n')
    assert codes(["models"], capsys) == ["TL212"]


# --- Bad settings files --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ('exclude = ["/abs/*"]', "key 'exclude': '/abs/*': write the pattern relative"),
        ('exclude = [""]', "key 'exclude': '': a glob pattern must not be empty"),
        ('per-file-ignores = { "x/*" = "TL1" }', "key 'per-file-ignores': 'x/*': must be an array"),
        ('per-file-ignores = { "x/*" = ["TL99"] }', "key 'per-file-ignores': 'x/*': no rule code"),
        ('severity = { TL201 = "fatal" }', "key 'severity': TL201: must be one of"),
        ('severity = { TL999 = "info" }', "key 'severity': no rule code"),
        ('extend-select = ["TL99"]', "key 'extend-select': no rule code"),
        ('select = "TL1"', "key 'select': must be an array of strings"),
        ('selct = ["TL1"]', "unknown key 'selct'"),
    ],
)
def test_a_bad_file_is_a_usage_error_naming_file_and_key(
    workdir: Path, capsys: pytest.CaptureFixture[str], text: str, phrase: str
) -> None:
    settings(workdir / ".tritonlint.toml", text + "\n")
    status, out, err = run_cli(["models", "--format", "json"], capsys)
    assert (status, out) == (2, "")
    assert err.startswith("tritonlint: error: .tritonlint.toml: ")
    assert phrase in err
    assert "Traceback" not in err


@pytest.mark.parametrize("flag", ["--select", "--extend-select", "--ignore"])
def test_a_bad_code_on_the_command_line_is_a_usage_error(
    workdir: Path, capsys: pytest.CaptureFixture[str], flag: str
) -> None:
    status, out, err = run_cli(["models", flag, "TL99"], capsys)
    assert (status, out) == (2, "")
    assert "no rule code, prefix or name matches 'TL99'" in err


# --- Glob patterns -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        ("models/*", "models/a", True),
        ("models/*", "models/a/1/model.onnx", True),
        ("models/*", "models", False),
        ("models/*", "other/models/a", False),
        ("*", "anything/below", True),
        ("models/a?", "models/ab/config.pbtxt", True),
        ("models/a?", "models/a/b", False),
        ("**/config.pbtxt", "config.pbtxt", True),
        ("**/config.pbtxt", "x/y/config.pbtxt", True),
        ("**/config.pbtxt", "x/y/config.pbtxt.bak", False),
        ("models/**/1", "models/a/b/1/model.onnx", True),
        ("models/**", "models/a", True),
        ("./models/a/", "models/a", True),
        ("models/[!a]*", "models/a1", False),
        ("models/[!a]*", "models/b1", True),
        ("models/a.b", "models/axb", False),
        ("models/(a)", "models/(a)", True),
    ],
)
def test_glob_patterns(tmp_path: Path, pattern: str, path: str, matches: bool) -> None:
    patterns = PathPatterns([pattern], tmp_path)
    assert patterns.match(tmp_path / path) is matches


def test_paths_outside_the_root_match_nothing(tmp_path: Path) -> None:
    assert not PathPatterns(["**"], tmp_path / "a").match(tmp_path / "b" / "c")
    assert PathPatterns(["**"], tmp_path / "a").match(tmp_path / "a" / "c")


# --- The documented example ----------------------------------------------------------------------


def test_the_readme_example_is_a_valid_settings_file(workdir: Path) -> None:
    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Configuration\n", 1)[1]
    example = section.split("```toml\n", 1)[1].split("```", 1)[0]
    (workdir / "pyproject.toml").write_text(example, encoding="utf-8")
    (workdir / "model_repository").mkdir()  # the repository the example names
    loaded = load_settings(workdir / "models")
    assert set(loaded.given) == {
        "triton-version", "select", "extend-select", "ignore", "exclude", "per-file-ignores",
        "severity", "repositories",
    }  # fmt: skip
