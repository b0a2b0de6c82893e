"""The fix that moves a model file into its version folder (TL212): `--fix --unsafe-fixes`
moves it on disk and says so, `--diff` shows the rename as git does, a move never replaces a
file, and the reports give the move."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import forget_rule, make_tree, register_rule

from tritonlint.cli import main
from tritonlint.diagnostics import Applicability, FileMove, Fix
from tritonlint.fixing.moves import make_moves
from tritonlint.rules.context import Finding, ModelContext

CONFIG = (
    'platform: "onnxruntime_onnx"\nmax_batch_size: 8\n'
    'input [ { name: "x" data_type: TYPE_FP32 dims: [ 3 ] } ]\n'
    'output [ { name: "y" data_type: TYPE_FP32 dims: [ 3 ] } ]\n'
)
MOVED = "tritonlint: moved repo/m/model.onnx to repo/m/1/model.onnx\n"


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A model whose model file lies beside its config, not in 1/."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "200")
    return make_tree(tmp_path / "repo", {"m/config.pbtxt": CONFIG, "m/model.onnx": "weights"})


def test_unsafe_fixes_move_the_model_file_into_1(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The check after the move reads the repository again: the model file's own rules now
    see it in 1/ (a text file is no ONNX model), where before it was not looked at."""
    status = main(["check", "repo", "--fix", "--unsafe-fixes"])
    out, err = capsys.readouterr()
    assert status == 1
    assert err == MOVED
    assert out.splitlines() == [
        "repo/m/1/model.onnx: TL901 [error] the ONNX model is a text file, not in ONNX's format",
        "Found 2 errors (1 fixed, 1 remaining; 1 model checked).",
    ]
    assert (root / "m" / "1" / "model.onnx").read_text() == "weights"
    assert not (root / "m" / "model.onnx").exists()
    assert (root / "m" / "config.pbtxt").read_text() == CONFIG


def test_a_safe_fix_run_moves_nothing(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["check", "repo", "--fix"])
    out, err = capsys.readouterr()
    assert status == 1
    assert err == ""
    assert "1 hidden fix can be enabled with the `--unsafe-fixes` option" in out
    assert (root / "m" / "model.onnx").exists() and not (root / "m" / "1").exists()


def test_diff_shows_the_move_as_a_git_rename_and_moves_nothing(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["check", "repo", "--diff", "--unsafe-fixes"])
    out, err = capsys.readouterr()
    assert status == 1
    assert out == (
        "diff --git a/repo/m/model.onnx b/repo/m/1/model.onnx\n"
        "rename from repo/m/model.onnx\n"
        "rename to repo/m/1/model.onnx\n"
    )
    assert err == "Would fix 1 finding in 1 file.\n"
    assert (root / "m" / "model.onnx").exists() and not (root / "m" / "1").exists()


def test_the_json_report_gives_the_move(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["check", "repo", "--output-format", "json"])
    (finding,) = json.loads(capsys.readouterr().out)
    move = {"from": "repo/m/model.onnx", "to": "repo/m/1/model.onnx"}
    assert finding["code"] == "TL212"
    assert finding["fix"] == {
        "message": "Move model.onnx into 1/",
        "applicability": "unsafe",
        "edits": [],
        "moves": [move],
    }
    assert finding["fixes"][0]["moves"] == [move]


def test_the_sarif_report_gives_the_move_in_the_result_s_properties(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["check", "repo", "--output-format", "sarif"])
    (result,) = json.loads(capsys.readouterr().out)["runs"][0]["results"]
    assert "fixes" not in result  # an artifactChange cannot rename a file
    assert result["properties"]["moves"] == [
        {
            "description": {"text": "Move model.onnx into 1/"},
            "applicability": "unsafe",
            "moves": [
                {
                    "from": {"uri": "repo/m/model.onnx", "uriBaseId": "%SRCROOT%"},
                    "to": {"uri": "repo/m/1/model.onnx", "uriBaseId": "%SRCROOT%"},
                }
            ],
        }
    ]


@pytest.fixture
def rule_moving_onto_a_file() -> Iterator[None]:
    """A rule whose fix moves m/model.onnx onto m/other.onnx, which exists: as if that file
    had been written after the check."""

    def check(ctx: ModelContext) -> Iterator[Finding]:
        source = ctx.model.path / "model.onnx"
        if source.exists():
            move = FileMove(source, ctx.model.path / "other.onnx")
            fix = Fix("Test move", (), Applicability.UNSAFE, (move,))
            yield ctx.about(ctx.model.path, "a test finding", fixes=(fix,))

    register_rule("TL993", check, Applicability.UNSAFE)
    yield
    forget_rule("TL993")


@pytest.mark.usefixtures("rule_moving_onto_a_file")
def test_a_move_onto_an_existing_file_is_refused(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (root / "m" / "other.onnx").write_text("other weights")
    status = main(["check", "repo", "--fix", "--unsafe-fixes", "--select", "TL993"])
    out, err = capsys.readouterr()
    assert status == 1
    assert err == (
        "tritonlint: warning: refused the fix of TL993 at repo/m ('Test move'): "
        "repo/m/other.onnx exists already, and a fix never replaces a file\n"
    )
    assert (root / "m" / "model.onnx").read_text() == "weights"
    assert (root / "m" / "other.onnx").read_text() == "other weights"
    assert out.splitlines()[-1] == "Found 1 error (1 model checked)."


def test_the_moves_of_a_fix_are_made_all_or_none(tmp_path: Path) -> None:
    root = make_tree(tmp_path, {"m/a.onnx": "a", "m/b.onnx": "b", "m/1/b.onnx": "old"})
    moves = [FileMove(root / "m" / n, root / "m" / "2" / n) for n in ("a.onnx", "b.onnx")]
    moves.append(FileMove(root / "m" / "b.onnx", root / "m" / "1" / "b.onnx"))
    os.chdir(tmp_path)
    assert make_moves(moves) == "m/1/b.onnx exists already, and a fix never replaces a file"
    assert sorted(p.relative_to(root).as_posix() for p in root.rglob("*")) == [
        "m",
        "m/1",
        "m/1/b.onnx",
        "m/a.onnx",
        "m/b.onnx",
    ]
