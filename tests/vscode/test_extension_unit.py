"""The extension's own unit tests (``npm test`` in vscode-extension/: type check, formatting,
ESLint and vitest: finding tritonlint, the server's command line, versions, the grammar,
workspace trust, and that a workspace's own tritonlint package or program is never started),
run with the Node and the dependencies scripts/vscode_e2e/setup.sh installs, on its copy of
the extension."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from vscode_session import ROOT, UNAVAILABLE, Tools, cache_dir, run_setup

pytestmark = pytest.mark.slow


def test_npm_test_passes() -> None:
    setup = run_setup()
    if setup.returncode == UNAVAILABLE:
        pytest.skip(setup.stderr.strip().splitlines()[-1])
    assert setup.returncode == 0, f"scripts/vscode_e2e/setup.sh failed:\n{setup.stderr}"
    tools = Tools.read(cache_dir() / "setup.json")
    build = cache_dir() / "extension"
    npm = tools.node.parent / "npm"
    completed = subprocess.run(
        [str(tools.node), str(npm), "test"],
        cwd=build,
        capture_output=True,
        text=True,
        env={
            **os.environ,
            "PATH": f"{tools.node.parent}{os.pathsep}{os.environ.get('PATH', '')}",
            "TRITONLINT_CHECKOUT": str(ROOT),
            # The Python the isolation tests start tritonlint with (it has this checkout's).
            "TRITONLINT_PYTHON": sys.executable,
            "CI": "true",
            "NO_COLOR": "1",
            "FORCE_COLOR": "0",
        },
        timeout=600,
        check=False,
    )
    output = completed.stdout + completed.stderr
    assert completed.returncode == 0, output
    assert re.search(r"Tests\s+\d+ passed", output), output
    # The isolation tests run with TRITONLINT_PYTHON; none is passed over.
    assert not re.search(r"\d+ skipped", output), output
