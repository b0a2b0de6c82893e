"""Settings files: discovery, validation, and the command line over the file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import ONNX_MODEL, make_tree, model, run_cli

from tritonlint.diagnostics import Severity
from tritonlint.settings import Settings, SettingsError, find_settings_file, load_settings

CONFIG = ONNX_MODEL["config.pbtxt"]
assert isinstance(CONFIG, str)


def write(path: Path, text: str) -> Path:
    """One file of :func:`make_tree`; its path."""
    make_tree(path.parent, {path.name: text})
    return path


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``tmp_path/proj`` as the working directory, with a repository nested two folders down.

    ``deep/models/m`` is a model whose config has ``model_metrics`` (added in Triton 2.52).
    """
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "400")  # keep error messages on one line
    root = tmp_path / "proj"
    make_tree(
        root / "deep" / "models",
        {**model("m", ONNX_MODEL), "m/config.pbtxt": CONFIG + "model_metrics { }\n"},
    )
    return root


# --- Discovery ----------------------------------------------------------------------------------


def test_no_file_gives_empty_settings(project: Path) -> None:
    assert load_settings(project / "deep" / "models") == Settings()


def test_pyproject_is_found_walking_up_from_a_nested_path(project: Path) -> None:
    pyproject = write(project / "pyproject.toml", '[tool.tritonlint]\ntriton-version = "2.51"\n')
    for start in (
        project / "deep" / "models",
        project / "deep" / "models" / "m",
        project / "deep" / "models" / "m" / "config.pbtxt",
        project / "deep" / "models" / "not_there" / "config.pbtxt",
        Path("proj/deep/models"),  # relative to the working directory
    ):
        settings = load_settings(start)
        assert settings.path == pyproject, start
        assert settings.triton_version == "2.51"


def test_a_pyproject_without_the_table_is_passed_over(project: Path) -> None:
    write(project / "deep" / "pyproject.toml", '[project]\nname = "x"\n')
    found = write(project / "pyproject.toml", '[tool.tritonlint]\ntriton-version = "2.40"\n')
    assert find_settings_file(project / "deep" / "models") == found


def test_the_nearest_file_wins_and_the_own_file_before_pyproject(project: Path) -> None:
    write(project / "pyproject.toml", '[tool.tritonlint]\ntriton-version = "2.40"\n')
    own = write(project / "deep" / ".tritonlint.toml", 'triton-version = "2.45"\n')
    write(project / "deep" / "pyproject.toml", '[tool.tritonlint]\ntriton-version = "2.50"\n')
    settings = load_settings(project / "deep" / "models")
    assert (settings.path, settings.triton_version) == (own, "2.45")


def test_the_own_file_may_use_a_tool_table(project: Path) -> None:
    write(project / ".tritonlint.toml", '[tool.tritonlint]\ntriton-version = "24.10"\n')
    assert load_settings(project / "deep").triton_version == "24.10"


def test_every_key_is_read(project: Path) -> None:
    write(
        project / ".tritonlint.toml",
        """
        triton-version = "2.51.0"
        select = ["TL1", "name-mismatch"]
        ignore = ["TL306"]
        extend-select = ["TL2"]
        per-file-ignores = { "legacy/*" = ["TL2"] }
        severity = { TL202 = "error" }
        exclude = ["scratch/*"]
        """,
    )
    settings = load_settings(project)
    assert settings.triton_version == "2.51.0"
    assert settings.select == ("TL1", "name-mismatch")
    assert settings.ignore == ("TL306",)
    assert settings.extend_select == ("TL2",)
    assert settings.per_file_ignores == {"legacy/*": ("TL2",)}
    assert settings.severity == {"TL202": Severity.ERROR}
    assert settings.exclude == ("scratch/*",)
    assert len(settings.given) == 7


# --- Validation ---------------------------------------------------------------------------------


#: Arrays and inline tables nested past what the TOML parser reads without its recursion
#: running out.
DEEP_ARRAYS = "[" * 500 + "]" * 500
DEEP_TABLES = "{ a = " * 500 + "}" * 500
TOO_DEEP = "arrays or tables nested more than 32 levels deep; no setting nests more than 3"


@pytest.mark.parametrize(
    ("name", "text", "phrase"),
    [
        (".tritonlint.toml", 'triton-version = "2.51\n', "not valid TOML"),
        (".tritonlint.toml", 'triton_version = "2.51"\n', "unknown key 'triton_version'"),
        (".tritonlint.toml", "triton-version = 2.51\n", "key 'triton-version': must be a string"),
        (".tritonlint.toml", 'triton-version = "2.99"\n', "key 'triton-version': no schema"),
        (".tritonlint.toml", 'triton-version = "25.07"\n', "key 'triton-version': no schema"),
        (".tritonlint.toml", 'select = "TL1"\n', "key 'select': must be an array of strings"),
        (".tritonlint.toml", 'ignore = ["TL999"]\n', "key 'ignore': no rule code"),
        (".tritonlint.toml", 'severity = { TL202 = "fatal" }\n', "key 'severity': TL202"),
        (".tritonlint.toml", "exclude = [1]\n", "key 'exclude': must be an array of strings"),
        (
            ".tritonlint.toml",
            'per-file-ignores = { "a/*" = ["XX"] }\n',
            "key 'per-file-ignores': 'a/*': no rule code",
        ),
        (
            ".tritonlint.toml",
            'select = ["TL1"]\n[tool.tritonlint]\nignore = ["TL2"]\n',
            "key 'select' is at the top level",
        ),
        (
            "pyproject.toml",
            '[tool.tritonlint]\ntriton-versoin = "2.51"\n',
            "unknown key 'tool.tritonlint.triton-versoin'",
        ),
        (
            "pyproject.toml",
            "[tool.tritonlint]\ntriton-version = [2, 51]\n",
            "key 'tool.tritonlint.triton-version': must be a string",
        ),
        ("pyproject.toml", "[tool]\ntritonlint = 3\n", "key 'tool.tritonlint' must be a table"),
        (".tritonlint.toml", f"select = {DEEP_ARRAYS}\n", TOO_DEEP),
        (".tritonlint.toml", "select = " + "[" * 40 + "]" * 40 + "\n", TOO_DEEP),
        ("pyproject.toml", f"[tool.tritonlint]\nseverity = {DEEP_TABLES}\n", TOO_DEEP),
        (
            ".tritonlint.toml",
            "# " + "x" * 1024 * 1024 + "\n",
            "larger than 1 MiB, which no settings file is; it is not read",
        ),
    ],
)
def test_a_bad_file_is_an_error_naming_file_and_key(
    project: Path, name: str, text: str, phrase: str
) -> None:
    path = write(project / name, text)
    with pytest.raises(SettingsError) as caught:
        load_settings(project / "deep" / "models")
    message = str(caught.value)
    assert message.startswith(f"{path.relative_to(project.parent)}: "), message
    assert phrase in message


# --- The command line ---------------------------------------------------------------------------


def findings(out: str) -> list[dict[str, Any]]:
    parsed: list[dict[str, Any]] = json.loads(out)
    return parsed


def test_the_file_sets_the_release(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = "proj/deep/models"
    assert run_cli([target, "--format", "json"], capsys)[:2] == (0, "[]\n")
    write(project / "pyproject.toml", '[tool.tritonlint]\ntriton-version = "24.10"\n')
    status, out, err = run_cli([target, "--format", "json"], capsys)
    assert (status, err) == (1, "")
    [finding] = findings(out)
    assert finding["code"] == "TL101"
    assert "added in Triton 2.52.0; this repository targets 2.51.0" in finding["message"]


@pytest.mark.parametrize(
    ("in_file", "flag", "status"),
    [("2.51", "2.73", 0), ("2.73", "2.51", 1), ("2.73", "24.10", 1), ("2.51", "2.52.0", 0)],
)
def test_the_flag_beats_the_file(
    project: Path, capsys: pytest.CaptureFixture[str], in_file: str, flag: str, status: int
) -> None:
    write(project / ".tritonlint.toml", f'triton-version = "{in_file}"\n')
    argv = ["proj/deep/models", "--format", "json", "--triton-version", flag]
    assert run_cli(argv, capsys)[0] == status


def test_a_bad_flag_is_an_error_even_with_a_good_file(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(project / ".tritonlint.toml", 'triton-version = "2.51"\n')
    status, out, err = run_cli(["proj/deep/models", "--triton-version", "9.9"], capsys)
    assert (status, out) == (2, "")
    assert "no schema for Triton release '9.9'" in err


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('triton-version = "2.99"\n', "key 'triton-version'"),
        ('triton-versions = "2.51"\n', "unknown key 'triton-versions'"),
        ("triton-version = 2.51\n", "key 'triton-version'"),
        (f"select = {DEEP_ARRAYS}\n", TOO_DEEP),
    ],
)
def test_a_bad_file_exits_2_naming_file_and_key(
    project: Path, capsys: pytest.CaptureFixture[str], text: str, key: str
) -> None:
    write(project / ".tritonlint.toml", text)
    # Even when the flag would override the value: the file itself is wrong.
    for extra in ([], ["--triton-version", "2.51"]):
        status, out, err = run_cli(["proj/deep/models", *extra], capsys)
        assert (status, out) == (2, "")
        assert err.startswith("tritonlint: error: proj/.tritonlint.toml: ")
        assert key in err
        assert "Traceback" not in err


def test_every_key_applies_without_a_warning(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # triton-version 2.51 makes model_metrics an error; exclude takes the model out again.
    write(project / ".tritonlint.toml", 'triton-version = "2.51"\nexclude = ["x/*"]\n')
    status, out, err = run_cli(["proj/deep/models", "--format", "json"], capsys)
    assert (status, err) == (1, "")
    assert [f["code"] for f in findings(out)] == ["TL101"]
    write(project / ".tritonlint.toml", 'triton-version = "2.51"\nexclude = ["deep/models/m"]\n')
    assert run_cli(["proj/deep/models", "--format", "json"], capsys) == (0, "[]\n", "")
