"""What the VS Code end-to-end tests run: the installs of scripts/vscode_e2e/setup.sh, a
code-server with the extension installed, isolated from the user's own VS Code and home, and
e2e.mjs driving it in Chromium; then what the workbench showed, read back."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SETUP = ROOT / "scripts" / "vscode_e2e" / "setup.sh"
SCRIPT = Path(__file__).with_name("e2e.mjs")
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

    def environment(self, run: Path, path: str | None = None) -> dict[str, str]:
        """This process's environment with Node 24 first on PATH, and code-server's own
        folders (it writes its config and state to XDG folders) inside ``run``.

        ``path``, where given, replaces the rest of PATH, and no virtual environment is
        active (``$VIRTUAL_ENV``, which the extension would run): VS Code as started from a
        desktop that knows nothing of the test's Python."""
        environment = dict(os.environ)
        if path is not None:
            environment.pop("VIRTUAL_ENV", None)
        rest = os.environ.get("PATH", "") if path is None else path
        return {
            **environment,
            "PATH": f"{self.node.parent}{os.pathsep}{rest}",
            "XDG_CONFIG_HOME": str(run / "xdg" / "config"),
            "XDG_DATA_HOME": str(run / "xdg" / "data"),
            "XDG_CACHE_HOME": str(run / "xdg" / "cache"),
        }


def cache_dir() -> Path:
    default = Path.home() / ".cache" / "tritonlint-vscode-e2e"
    return Path(os.environ.get("TRITONLINT_E2E_CACHE", default))


def browser_tools() -> dict[str, str]:
    """Chromium, Node and tools/graph-render's npm packages, installed (once, into
    :func:`cache_dir`) by scripts/graph_render/setup.sh: their paths (``node``, ``chromium``,
    ``modules``). The test skips, with the script's reason, where this machine lacks
    something the script cannot install."""
    setup = subprocess.run(
        ["bash", str(ROOT / "scripts" / "graph_render" / "setup.sh")],
        capture_output=True,
        text=True,
        env={**os.environ, "TRITONLINT_E2E_CACHE": str(cache_dir())},
        timeout=30 * 60,
        check=False,
    )
    if setup.returncode == UNAVAILABLE:
        pytest.skip(setup.stderr.strip().splitlines()[-1])
    assert setup.returncode == 0, f"scripts/graph_render/setup.sh failed:\n{setup.stderr}"
    tools: dict[str, str] = json.loads((cache_dir() / "graph-render.json").read_text())
    return tools


def run_setup() -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(SETUP)],
        capture_output=True,
        text=True,
        env={**os.environ, "TRITONLINT_E2E_CACHE": str(cache_dir())},
        timeout=30 * 60,
        check=False,
    )


def user_settings(interpreter: str | None) -> dict[str, object]:
    """The user settings of the test's VS Code: nothing that opens on its own or reaches the
    network, and ``tritonlint.interpreter`` where given (else no tritonlint setting at all)."""
    chosen = {"tritonlint.interpreter": interpreter} if interpreter else {}
    return {
        **chosen,
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
def code_server(
    tools: Tools,
    run: Path,
    workspace: Path,
    interpreter: str | None = sys.executable,
    path: str | None = None,
) -> Iterator[CodeServer]:
    """A code-server on a free local port with the .vsix installed and ``workspace`` open;
    it and everything it started (extension host, language server) end with the block.

    ``interpreter`` is the user setting ``tritonlint.interpreter`` (the server of this
    checkout by default; None: no setting), ``path`` the PATH (see `Tools.environment`)."""
    user_data = run / "user-data"
    (user_data / "User").mkdir(parents=True)
    settings = user_settings(interpreter)
    (user_data / "User" / "settings.json").write_text(json.dumps(settings, indent=2))
    config = run / "code-server.yaml"
    config.write_text("")  # else it writes ~/.config/code-server/config.yaml
    common = [
        str(tools.code_server),
        f"--config={config}",
        f"--user-data-dir={user_data}",
        f"--extensions-dir={run / 'extensions'}",
    ]
    env = tools.environment(run, path)
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


@dataclass(frozen=True)
class Run:
    """What one VS Code session showed, and what is needed to explain a failure."""

    status: int | None  # e2e.mjs's exit status: 0 when every step went through
    seen: dict[str, Any]
    findings: list[dict[str, Any]]  # `tritonlint check --output-format json` of the workspace
    output: str
    extension_log: str
    artefacts: Path

    def get(self, step: str, key: str) -> Any:
        """An observation; a failure with the step's error and the logs where it is missing."""
        if key not in self.seen:
            pytest.fail(
                f"step {step!r} did not get as far as {key!r}: "
                f"{self.seen['errors'].get(step, 'an earlier step failed')}\n"
                f"--- e2e.mjs\n{self.output}\n{self.extension_log}\n"
                f"screenshots in {self.artefacts}",
                pytrace=False,
            )
        return self.seen[key]


def findings_of(workspace: Path) -> list[dict[str, Any]]:
    """What `tritonlint check` reports for the repository in ``workspace``."""
    check = subprocess.run(
        [sys.executable, "-m", "tritonlint", "check", "--output-format", "json"],
        cwd=workspace,
        capture_output=True,
        text=True,
        check=False,
    )
    found: list[dict[str, Any]] = json.loads(check.stdout)
    return found


def play(
    tools: Tools,
    folder: Path,
    workspace: Path,
    plan: dict[str, Any],
    artefacts: Path,
    interpreter: str | None = sys.executable,
    path: str | None = None,
) -> Run:
    """Runs e2e.mjs with ``plan`` in a code-server that has ``workspace`` open (the files of
    the session in ``folder``; see `code_server` for ``interpreter`` and ``path``); its
    screenshots, observations and logs go to ``artefacts``."""
    findings = findings_of(workspace)
    print(f"VS Code end-to-end screenshots and logs: {artefacts}")
    artefacts.mkdir(parents=True, exist_ok=True)
    for stale in [artefacts / "observations.json", *artefacts.glob("*.png")]:
        stale.unlink(missing_ok=True)  # an earlier run's, in a folder named by the user
    with code_server(tools, folder, workspace, interpreter, path) as server:
        status, output = run_script(
            [str(tools.node), str(SCRIPT)],
            env={
                **os.environ,
                "CS_URL": server.url,
                "PLAN": json.dumps(plan),
                "WORKSPACE": str(workspace),
                "OUT_DIR": str(artefacts),
                "PLAYWRIGHT_CORE": str(tools.playwright_core),
                "CHROMIUM": str(tools.chromium),
            },
            timeout=10 * 60,
        )
        extension_log = server.extension_log()
    (artefacts / "e2e.log").write_text(output)
    (artefacts / "extension.log").write_text(extension_log)
    print(output)
    observations = artefacts / "observations.json"
    seen = json.loads(observations.read_text()) if observations.exists() else {"errors": {}}
    return Run(status, seen, findings, output, extension_log, artefacts)


def update_images(run: Run, names: list[str], images: Path) -> None:
    """With TRITONLINT_E2E_UPDATE_IMAGES set, copies the screenshots ``names`` of a session
    where every step went through into ``images`` (the extension README's pictures)."""
    if os.environ.get("TRITONLINT_E2E_UPDATE_IMAGES") and run.status == 0:
        images.mkdir(parents=True, exist_ok=True)
        for name in names:
            shutil.copyfile(run.artefacts / f"{name}.png", images / f"{name}.png")


@dataclass(frozen=True, order=True)
class Problem:
    """A row of the Problems panel, and the rows of its related places under it."""

    folder: str  # the file's folder, as the file's row shows it
    severity: str
    code: str
    message: str
    line: int
    column: int
    related: tuple[str, ...] = ()


PLACE = re.compile(r"\[Ln (\d+), Col (\d+)\]")


def problems(rows: list[dict[str, str]]) -> list[Problem]:
    """The Problems panel's rows, read back into findings.

    A file's row is labelled "2 problems in file config.pbtxt of folder model_repository/x";
    a finding's text is its message, source, code and place, a line each; the place of a
    related location comes first in its text."""
    found: list[Problem] = []
    folder = ""
    for row in rows:
        label, lines = row["label"], row["text"].split("\n")
        if " in file " in label:
            folder = label.rpartition(" of folder ")[2]
        elif label.startswith(("Error: ", "Warning: ", "Info: ")):
            message, source, code, place = lines
            assert source == "tritonlint", row
            line, column = PLACE.fullmatch(place).groups()  # type: ignore[union-attr]
            severity = label.partition(":")[0].lower()
            found.append(Problem(folder, severity, code, message, int(line), int(column)))
        else:
            last = found[-1]
            found[-1] = replace(last, related=(*last.related, "".join(lines)))
    return sorted(found)


def places(shown: list[Problem]) -> set[tuple[str, str, int, int]]:
    return {(p.folder, p.code, p.line, p.column) for p in shown}
