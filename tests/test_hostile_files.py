"""Hostile files in a repository: each gets a finding (or a clear usage error), never a
traceback, a hang or a run that takes gigabytes; the other models are still checked."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ONNX_MODEL, make_tree
from hostile_files import make_hostile_repository

from tritonlint.cli import main

#: Reports the peak memory of the run it makes (in MiB) on standard error, after its output.
MEASURED = """
import resource, sys
from tritonlint.cli import main
status = main(sys.argv[1:])
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
print(f"peak {peak}", file=sys.stderr)
sys.exit(status)
"""


def test_every_hostile_model_file_is_a_finding(tmp_path: Path) -> None:
    expected = make_hostile_repository(tmp_path / "models")
    done = subprocess.run(
        [sys.executable, "-c", MEASURED, "models", "--format", "json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert "Traceback" not in done.stderr
    assert done.returncode == 1, done.stderr
    findings = json.loads(done.stdout)
    for code, path, fragment in expected:
        assert any(
            f["code"] == code and f["path"] == path and fragment in f["message"] for f in findings
        ), (code, path, [(f["code"], f["path"], f["message"]) for f in findings])
    peak = int(done.stderr.split("peak ")[-1])
    assert peak < 600, f"the run took {peak} MiB"


def run_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[dict]]:
    status = main([*argv, "--format", "json"])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return status, json.loads(captured.out)


def two_models(root: Path) -> None:
    """``bad`` (a python model) and ``good`` (whose one finding is TL201)."""
    make_tree(
        root,
        {
            "bad/config.pbtxt": 'backend: "python"\n',
            "bad/1/model.py": "class TritonPythonModel:\n    def execute(self, r):\n        return r\n",
            "good/config.pbtxt": 'name: "other"\n' + str(ONNX_MODEL["config.pbtxt"]),
            "good/1/model.onnx": b"",
        },
    )


def test_a_reader_that_fails_makes_its_file_unreadable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def failing(path: Path) -> None:
        raise ValueError("boom")

    monkeypatch.chdir(tmp_path)
    two_models(tmp_path / "models")
    monkeypatch.setattr("tritonlint.repository.backend_model_file.read_python", failing)
    status, findings = run_json(["models"], capsys)
    assert status == 1
    assert sorted((f["code"], f["path"], f["message"]) for f in findings) == [
        (
            "TL201",
            "models/good/config.pbtxt",
            'name "other" differs from the model folder "good"; tritonserver refuses it: '
            "unexpected directory name 'good' for model 'other', directory name must equal "
            "model name",
        ),
        (
            "TL901",
            "models/bad/1/model.py",
            "the Python model could not be read: tritonlint's reader failed (ValueError: "
            "boom); this is a bug, please report it",
        ),
    ]


@pytest.mark.parametrize(
    ("error", "why"),
    [
        (RecursionError(), "something in it is too deeply nested to read"),
        (
            KeyError("x"),
            "tritonlint failed (KeyError: 'x'); this is a bug, please report it",
        ),
    ],
)
def test_a_model_whose_check_fails_gets_a_finding_and_the_others_theirs(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    error: Exception,
    why: str,
) -> None:
    from tritonlint.engine import model_check

    checked = model_check.model_diagnostics

    def failing_for_bad(repository: object, model: object, rules: object) -> object:
        if getattr(model, "name", None) == "bad":
            raise error
        return checked(repository, model, rules)  # type: ignore[arg-type]

    monkeypatch.chdir(tmp_path)
    two_models(tmp_path / "models")
    monkeypatch.setattr(model_check, "model_diagnostics", failing_for_bad)
    status, findings = run_json(["models"], capsys)
    assert status == 1
    assert sorted((f["code"], f["path"], f["message"]) for f in findings)[0] == (
        "TL004",
        "models/bad",
        f"this model could not be checked: {why}",
    )
    assert [f["code"] for f in findings if f["path"] == "models/good/config.pbtxt"] == ["TL201"]
