"""Many repositories are linted in worker processes; the findings are the same as in one."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import ONNX_MODEL, lint, make_tree, model


def _repositories(root: Path, count: int) -> list[Path]:
    repositories = []
    for index in range(count):
        files = dict(model("good", ONNX_MODEL))
        files.update(model("bad", {**ONNX_MODEL, "config.pbtxt": f'name: "other{index}"\n'}))
        repositories.append(make_tree(root / f"repo{index}", files))
    return repositories


def test_worker_processes_find_what_one_process_finds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repositories = _repositories(tmp_path, 24)
    monkeypatch.setenv("TRITONLINT_JOBS", "2")
    parallel = lint(*repositories)
    monkeypatch.setenv("TRITONLINT_JOBS", "1")
    serial = lint(*repositories)
    assert parallel.diagnostics == serial.diagnostics
    assert parallel.checked == serial.checked
    assert len(parallel.checked) == 48
    assert sum(d.code == "TL201" for d in parallel.diagnostics) == 24
