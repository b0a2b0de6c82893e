"""The installs the VS Code end-to-end tests run (scripts/vscode_e2e/setup.sh), made once."""

from __future__ import annotations

import pytest
from vscode_session import UNAVAILABLE, Tools, cache_dir, run_setup


@pytest.fixture(scope="session")
def tools() -> Tools:
    """What setup.sh installed and built; the test is skipped only where the machine cannot
    install it."""
    setup = run_setup()
    if setup.returncode == UNAVAILABLE:
        pytest.skip(setup.stderr.strip().splitlines()[-1])
    assert setup.returncode == 0, f"scripts/vscode_e2e/setup.sh failed:\n{setup.stderr}"
    return Tools.read(cache_dir() / "setup.json")
