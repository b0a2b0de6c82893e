"""What the playground tests run: the page built by ``npm run build`` in playground/, served
from loopback, and play.mjs driving it in the headless Chromium of the VS Code end-to-end
tests (scripts/vscode_e2e/setup.sh installs Node, playwright-core and Chromium)."""

from __future__ import annotations

import functools
import http.server
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

# The helpers of the VS Code end-to-end tests (setup.sh's tools, running a script in Chromium).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "vscode"))

from vscode_session import UNAVAILABLE, Tools, cache_dir, run_setup

ROOT = Path(__file__).resolve().parents[2]
PLAYGROUND = ROOT / "playground"


@pytest.fixture(scope="session")
def browser_tools() -> Tools:
    """Node, playwright-core and Chromium as setup.sh installed them; setup.sh runs only when
    one of them is missing (it also builds the extension, which the playground does not use)."""
    ready = cache_dir() / "setup.json"
    if ready.exists():
        tools = Tools.read(ready)
        if all(p.exists() for p in (tools.node, tools.playwright_core, tools.chromium)):
            return tools
    setup = run_setup()
    if setup.returncode == UNAVAILABLE:
        pytest.skip(setup.stderr.strip().splitlines()[-1])
    assert setup.returncode == 0, f"scripts/vscode_e2e/setup.sh failed:\n{setup.stderr}"
    return Tools.read(ready)


def _npm(tools: Tools, *args: str) -> subprocess.CompletedProcess[str]:
    npm = tools.node.parent / "npm"
    return subprocess.run(
        [str(npm), *args],
        cwd=PLAYGROUND,
        capture_output=True,
        text=True,
        env={**tools.environment(PLAYGROUND / ".cache"), "PYTHON": sys.executable},
        timeout=10 * 60,
        check=False,
    )


@pytest.fixture(scope="session")
def dist(browser_tools: Tools) -> Path:
    """playground/dist/, built as a user builds it (``npm ci`` once, then ``npm run build``)."""
    if not (PLAYGROUND / "node_modules" / "pyodide").exists():
        installed = _npm(browser_tools, "ci", "--no-audit", "--no-fund")
        if installed.returncode != 0:
            pytest.skip(f"npm ci in playground/ failed (no registry?): {installed.stderr[-500:]}")
    built = _npm(browser_tools, "run", "build")
    assert built.returncode == 0, f"npm run build failed:\n{built.stdout}\n{built.stderr}"
    return PLAYGROUND / "dist"


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="session")
def page_url(dist: Path) -> Iterator[str]:
    """The built page, served by Python's http.server on a free loopback port."""
    handler = functools.partial(_QuietHandler, directory=str(dist))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
