"""Checking a config read from standard input: ``tritonlint -`` and ``--stdin-filename``."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from helpers import ONNX_MODEL, locate, make_tree, model

from tritonlint.cli import main

CONFIG = ONNX_MODEL["config.pbtxt"]
assert isinstance(CONFIG, str)
#: A config whose line 3 has a misspelt field ("dim" for "dims") at column 47.
MISSPELT = CONFIG.replace(
    '{ name: "INPUT0" data_type: TYPE_FP32 dims', '{ name: "INPUT0" data_type: TYPE_FP32 dim'
)
assert MISSPELT != CONFIG


def run(
    argv: Sequence[str],
    stdin: bytes,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder with ``models/good``, a clean model."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "400")
    make_tree(tmp_path / "models", model("good", ONNX_MODEL))
    return tmp_path


def test_dash_checks_stdin_as_a_loose_config(
    workdir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, err = run(["-"], MISSPELT.encode(), capsys, monkeypatch)
    assert (status, err) == (1, "")
    lines = out.splitlines()
    assert lines[0].startswith(
        '<stdin>:3:47: TL101 [error] message type "inference.ModelInput" has no field named "dim"'
    )
    # The code frame shows the line of standard input, not of any file.
    assert lines[1:4] == [
        "  |",
        '3 | input [ { name: "INPUT0" data_type: TYPE_FP32 dim: [ 16 ] } ]',
        "  | " + " " * 46 + "^^^",
    ]
    assert lines[-2:] == [
        "Found 1 error (1 model checked).",
        "No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option).",
    ]


def test_clean_stdin(
    workdir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run(["-"], CONFIG.encode(), capsys, monkeypatch) == (
        0,
        "All checks passed (1 model checked).\n",
        "",
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["--stdin-filename", "models/good/config.pbtxt"],
        ["--stdin-filename", "models/good/config.pbtxt", "-"],
    ],
)
def test_stdin_filename_checks_the_text_as_that_model_s_config(
    workdir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
) -> None:
    text = 'name: "renamed"\n' + CONFIG
    status, out, _ = run([*argv, "--format", "json"], text.encode(), capsys, monkeypatch)
    assert status == 1
    found = [(f["code"], f["path"], f["line"], f["column"]) for f in json.loads(out)]
    assert found == [("TL201", "models/good/config.pbtxt", 1, 7)]
    # The file on disk is untouched and still clean.
    assert (workdir / "models/good/config.pbtxt").read_text(encoding="utf-8") == CONFIG


def test_stdin_filename_is_checked_with_its_model_folder(
    workdir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The text names a label file the model folder lacks: only the folder on disk tells.
    text = CONFIG.replace(
        "dims: [ 16 ] } ]\ndyn", 'dims: [ 16 ] label_filename: "labels.txt" } ]\ndyn'
    )
    assert text != CONFIG
    status, out, _ = run(
        ["--stdin-filename", "models/good/config.pbtxt"], text.encode(), capsys, monkeypatch
    )
    assert status == 1
    line, column = locate(text, '"labels.txt"')
    assert out.splitlines()[0].startswith(
        f"models/good/config.pbtxt:{line}:{column}: TL218 [error]"
    )


def test_stdin_filename_of_a_model_not_yet_on_disk(
    workdir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = 'name: "fresh"\n' + CONFIG
    status, out, _ = run(
        ["--stdin-filename", "models/fresh/config.pbtxt"], text.encode(), capsys, monkeypatch
    )
    assert status == 1
    assert [line.split(" [")[0] for line in out.splitlines() if ": TL" in line] == [
        "models/fresh: TL212"
    ]


def test_stdin_filename_anywhere_else_is_a_loose_config(
    workdir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = run(
        ["--stdin-filename", "drafts/resnet.pbtxt"], MISSPELT.encode(), capsys, monkeypatch
    )
    assert status == 1
    assert out.splitlines()[0].startswith("drafts/resnet.pbtxt:3:47: TL101 [error]")


@pytest.mark.parametrize(
    ("data", "finding"),
    [
        (
            b'name: "caf\xe9"\n',
            "<stdin>:1:11: TL001 [error] byte 0xe9 is not valid UTF-8; save the file as UTF-8",
        ),
        (
            b"\x08\x01\x00\x00",
            "<stdin>: TL002 [error] this is a binary file, not a text-format model configuration",
        ),
    ],
)
def test_undecodable_stdin_gets_the_findings_a_file_would(
    workdir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    data: bytes,
    finding: str,
) -> None:
    status, out, err = run(["-"], data, capsys, monkeypatch)
    assert (status, err) == (1, "")
    assert out.splitlines()[0] == finding
    assert out.splitlines()[-1] == "Found 1 error (1 model checked)."


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["-", "models"],
            "standard input is checked on its own: give - or --stdin-filename, no other path",
        ),
        (
            ["--stdin-filename", "x.pbtxt", "models"],
            "standard input is checked on its own: give - or --stdin-filename, no other path",
        ),
        (
            ["-", "-"],
            "standard input is checked on its own: give - or --stdin-filename, no other path",
        ),
        (["-", "--smoke"], "--smoke loads models from disk; it cannot check standard input"),
    ],
)
def test_stdin_with_other_paths_is_a_usage_error(
    workdir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    message: str,
) -> None:
    assert run(argv, CONFIG.encode(), capsys, monkeypatch) == (
        2,
        "",
        f"tritonlint: error: {message}\n",
    )


def test_stdin_through_the_installed_command(workdir: Path) -> None:
    environment = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "tritonlint",
            "--stdin-filename",
            "models/good/config.pbtxt",
            "--format",
            "json",
        ],
        input=('name: "renamed"\n' + CONFIG).encode(),
        capture_output=True,
        env=environment,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 1
    found = json.loads(completed.stdout)
    assert [(f["code"], f["path"], f["line"]) for f in found] == [
        ("TL201", "models/good/config.pbtxt", 1)
    ]
