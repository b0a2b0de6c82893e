"""The linters, run by the test suite so that the README's test command (and CI) fails when
they fail: ``ruff check .``, ``ruff format --check .`` and ``mypy`` (the files and the strict
settings of [tool.mypy] in pyproject.toml), each with this environment's own copy."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(["ruff", "check", "."], id="ruff-check"),
        pytest.param(["ruff", "format", "--check", "."], id="ruff-format"),
        pytest.param(["mypy"], id="mypy"),
    ],
)
def test_linter_passes(args: list[str]) -> None:
    result = subprocess.run(
        [sys.executable, "-m", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    output = f"$ {' '.join(args)} (exit status {result.returncode})\n{result.stdout}{result.stderr}"
    assert result.returncode == 0, output
