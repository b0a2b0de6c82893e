"""scripts/gpu_smoke.sh, run here as a dry run: without a GPU it loads its models as KIND_CPU
(and each one answers), so the script itself is known to work before it meets a GPU."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.server


def test_the_gpu_script_runs_every_model_it_could_build_as_expected(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHON": sys.executable, "GPU_SMOKE_WORK": str(tmp_path)}
    done = subprocess.run(
        ["bash", str(ROOT / "scripts" / "gpu_smoke.sh")],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    expected = json.loads((tmp_path / "repo.expected.json").read_text())
    if expected["gpus"]:
        pytest.skip("a GPU is visible: this is the dry run of a machine without one")
    assert "NOT AS EXPECTED" not in done.stdout, done.stdout
    for name in expected["expected"]:
        assert f"expected {expected['expected'][name]}, got " in done.stdout
    report = json.loads((tmp_path / "report.json").read_text())
    for model in report["models"]:
        assert model["inference"]["state"] == "answered", model
        if model["name"] != "gpu_ensemble":
            assert [i["device"] for i in model["instances"]] == ["CPU"], model
    assert {m["name"] for m in report["models"]} == set(expected["expected"])
