"""What the VS Code end-to-end test runs: the installs of scripts/vscode_e2e/setup.sh, and a
code-server with the extension installed, isolated from the user's own VS Code and home."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SETUP = ROOT / "scripts" / "vscode_e2e" / "setup.sh"
#: setup.sh's exit status when the machine lacks what it cannot install.
UNAVAILABLE = 77


@dataclass(frozen=True)
class Tools:
    """Where setup.sh put things (its setup.json)."""

    node: Path
    code_server: Path
    playwright_core: Path
    chromium: Path
    vsix: Path

    @classmethod
    def read(cls, path: Path) -> Tools:
        return cls(**{key: Path(value) for key, value in json.loads(path.read_text()).items()})

    def environment(self, run: Path) -> dict[str, str]:
        """This process's environment with Node 24 first on PATH, and code-server's own
        folders (it writes its config and state to XDG folders) inside ``run``."""
        return {
            **os.environ,
            "PATH": f"{self.node.parent}{os.pathsep}{os.environ.get('PATH', '')}",
            "XDG_CONFIG_HOME": str(run / "xdg" / "config"),
            "XDG_DATA_HOME": str(run / "xdg" / "data"),
            "XDG_CACHE_HOME": str(run / "xdg" / "cache"),
        }


def cache_dir() -> Path:
    default = Path.home() / ".cache" / "tritonlint-vscode-e2e"
    return Path(os.environ.get("TRITONLINT_E2E_CACHE", default))


def run_setup() -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(SETUP)],
        capture_output=True,
        text=True,
        env={**os.environ, "TRITONLINT_E2E_CACHE": str(cache_dir())},
        timeout=30 * 60,
        check=False,
    )


#: The user settings of the test's VS Code: the server from this checkout, and nothing that
#: opens on its own or reaches the network.
def user_settings() -> dict[str, object]:
    return {
        "tritonlint.interpreter": sys.executable,
        "workbench.startupEditor": "none",
        "workbench.tips.enabled": False,
        "workbench.secondarySideBar.defaultVisibility": "hidden",
        "workbench.welcomePage.walkthroughs.openOnInstall": False,
        "security.workspace.trust.enabled": False,
        "telemetry.telemetryLevel": "off",
        "extensions.autoCheckUpdates": False,
        "extensions.autoUpdate": False,
        "extensions.ignoreRecommendations": True,
        "update.mode": "none",
        "chat.disableAIFeatures": True,
        "git.enabled": False,
        "editor.minimap.enabled": False,
        "files.autoSave": "off",
    }


@dataclass(frozen=True)
class CodeServer:
    url: str
    user_data: Path

    def extension_log(self) -> str:
        """The extension's output channel (and the extension host's log), for failures."""
        logs = self.user_data / "logs"
        parts = [
            f"--- {log.relative_to(self.user_data)}\n{log.read_text()}"
            for pattern in ("*/exthost*/tritonlint.tritonlint/*.log", "*/exthost*/*exthost.log")
            for log in sorted(logs.glob(pattern))
        ]
        return "\n".join(parts) or "(no extension logs)"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _wait_healthy(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"code-server exited with {process.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(f"{url}healthz", timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"code-server did not answer at {url} in 60 s:\n{log.read_text()}")


@contextmanager
def code_server(tools: Tools, run: Path, workspace: Path) -> Iterator[CodeServer]:
    """A code-server on a free local port with the .vsix installed and ``workspace`` open;
    it and everything it started (extension host, language server) end with the block."""
    user_data = run / "user-data"
    (user_data / "User").mkdir(parents=True)
    (user_data / "User" / "settings.json").write_text(json.dumps(user_settings(), indent=2))
    config = run / "code-server.yaml"
    config.write_text("")  # else it writes ~/.config/code-server/config.yaml
    common = [
        str(tools.code_server),
        f"--config={config}",
        f"--user-data-dir={user_data}",
        f"--extensions-dir={run / 'extensions'}",
    ]
    env = tools.environment(run)
    subprocess.run(
        [*common, f"--install-extension={tools.vsix}"],
        env=env,
        check=True,
        capture_output=True,
        timeout=120,
    )
    url = f"http://127.0.0.1:{_free_port()}/"
    log = run / "code-server.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [
                *common,
                f"--bind-addr={url[len('http://') : -1]}",
                "--auth=none",
                "--disable-telemetry",
                "--disable-update-check",
                "--disable-workspace-trust",
                str(workspace),
            ],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: all of it is stopped together
        )
    try:
        _wait_healthy(url, process, log)
        yield CodeServer(url, user_data)
    finally:
        _stop_group(process)


def run_script(command: list[str], env: dict[str, str], timeout: float) -> tuple[int | None, str]:
    """Run ``command`` (the Playwright script, which starts Chromium) in its own process
    group: its exit status (None when it ran out of time) and its output. At the end, the
    group is stopped, browser included."""
    process = subprocess.Popen(
        command,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        output, _ = process.communicate(timeout=timeout)
        return process.returncode, output
    except subprocess.TimeoutExpired:
        _stop_group(process)
        output, _ = process.communicate()
        return None, f"{output}\n(stopped after {timeout:.0f} s)"
    finally:
        _stop_group(process)


def _stop_group(process: subprocess.Popen[Any]) -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        if _group_gone(process, 5.0):
            return


def _group_gone(process: subprocess.Popen[Any], seconds: float) -> bool:
    """Whether the whole group ended within ``seconds`` (the file watcher and the language
    server may outlive code-server itself)."""
    deadline = time.monotonic() + seconds
    while True:
        process.poll()  # reaps code-server, which would otherwise stay in the group
        try:
            os.killpg(process.pid, 0)
        except ProcessLookupError:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
