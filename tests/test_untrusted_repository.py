"""Linting a stranger's repository runs none of its commands: git's settings in its
``.git/config`` (``core.fsmonitor``, hooks) are never given the chance to run."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import ONNX_MODEL, armed_git_repository, make_tree, model

from tritonlint.cli import main

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


@pytest.mark.parametrize("named", [".", "deploy"])
def test_checking_a_repository_runs_none_of_its_git_commands(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    named: str,
) -> None:
    project = tmp_path / "project"
    marker = tmp_path / "ran"
    make_tree(project / "deploy" / "models", model("classifier", ONNX_MODEL))
    # Broken, where git ignores it: a finding there would say the search went in.
    make_tree(project / "build" / "models", {"m/config.pbtxt": 'name: "x"\n', "m/1/": None})
    (project / ".gitignore").write_text("build/\n", encoding="utf-8")
    armed_git_repository(project, marker)
    monkeypatch.chdir(project)
    status = main(["check", named])
    out = capsys.readouterr().out
    assert not marker.exists()
    # The search did pass over what git ignores, so the patterns were read.
    assert status == 0, out
    assert "build" not in out
