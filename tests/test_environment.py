"""Settings from the environment: a value tritonlint cannot use is a one-line usage error
(exit status 2) naming the variable and the values accepted, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import ONNX_MODEL, make_tree, model, run_cli

JOBS_ACCEPTED = (
    "accepted values are whole numbers of worker processes from 0 to 1024 (1: one process; "
    "0, empty or unset: one per core)"
)


@pytest.fixture
def lint_with_jobs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Callable[[str], tuple[int, str, str]]:
    """Lints a repository of one clean model with ``TRITONLINT_JOBS`` set to a value: the exit
    status, stdout and stderr."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "400")  # keep messages on one line
    make_tree(tmp_path / "models", model("m", ONNX_MODEL))

    def lint(value: str) -> tuple[int, str, str]:
        monkeypatch.setenv("TRITONLINT_JOBS", value)
        return run_cli(["models"], capsys)

    return lint


@pytest.mark.parametrize("value", ["abc", "-1", "1.5", "2000", "٣"])
def test_a_bad_jobs_value_is_a_usage_error(
    lint_with_jobs: Callable[[str], tuple[int, str, str]], value: str
) -> None:
    status, out, err = lint_with_jobs(value)
    assert (status, out) == (2, "")
    assert err == f"tritonlint: error: TRITONLINT_JOBS={value!r}: {JOBS_ACCEPTED}\n"


@pytest.mark.parametrize("value", ["", "0", "1", " 2 ", "1024"])
def test_jobs_values_that_are_accepted(
    lint_with_jobs: Callable[[str], tuple[int, str, str]], value: str
) -> None:
    status, _, err = lint_with_jobs(value)
    assert status == 0
    assert err == ""


@pytest.mark.parametrize("value", ["nan", "inf", "-5", "soon", "100000"])
def test_a_bad_debounce_stops_the_language_server_at_start(value: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tritonlint", "lsp"],
        env={**os.environ, "TRITONLINT_LSP_DEBOUNCE_MS": value, "COLUMNS": "400"},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        f"tritonlint: error: TRITONLINT_LSP_DEBOUNCE_MS={value!r}: accepted values are numbers "
        "of milliseconds from 0 to 60000 (empty or unset: no delay)\n"
    )
