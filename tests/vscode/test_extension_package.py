"""The .vsix that scripts/vscode_e2e/setup.sh builds (``npm run package``): what it holds, and
its bundled tritonlint run by a plain system Python that has no tritonlint of its own."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import run_process
from vscode_session import ROOT, UNAVAILABLE, Tools, cache_dir, run_setup

from tritonlint import __version__

pytestmark = pytest.mark.slow

#: Files of the extension's sources that must not reach the package.
DEV_FILES = (
    "src/",
    "test/",
    "scripts/",
    "node_modules/",
    "tsconfig.json",
    "vitest.config.mts",
    "eslint.config.mjs",
    ".vscode/",
    "package-lock.json",
    ".vscodeignore",
    ".gitignore",
    ".prettierrc.json",
    ".prettierignore",
)
#: A plain system Python, as Debian and Ubuntu have it (externally managed, PEP 668).
SYSTEM_PYTHON = Path("/usr/bin/python3")
MODEL_REPOSITORY = ROOT / "tests" / "vscode" / "model_repository"


@pytest.fixture(scope="module")
def tools() -> Tools:
    setup = run_setup()
    if setup.returncode == UNAVAILABLE:
        pytest.skip(setup.stderr.strip().splitlines()[-1])
    assert setup.returncode == 0, f"scripts/vscode_e2e/setup.sh failed:\n{setup.stderr}"
    return Tools.read(cache_dir() / "setup.json")


def dev_files(paths: list[str]) -> list[str]:
    return [
        path
        for path in paths
        if path.startswith(DEV_FILES)
        or path.endswith((".map", ".ts", ".pyc"))
        or "/__pycache__/" in path
    ]


def test_vsce_ls_lists_no_dev_files_and_the_bundled_tritonlint(tools: Tools) -> None:
    npx = tools.node.parent / "npx"
    listed = subprocess.run(
        [str(tools.node), str(npx), "vsce", "ls", "--no-dependencies"],
        cwd=cache_dir() / "extension",
        capture_output=True,
        text=True,
        env={**os.environ, "PATH": f"{tools.node.parent}{os.pathsep}{os.environ.get('PATH', '')}"},
        timeout=120,
        check=True,
    )
    paths = listed.stdout.split()
    assert dev_files(paths) == []
    for needed in (
        "dist/extension.js",
        "dist/graphView.js",
        "bundled/tool/launch.py",
        "bundled/libs/tritonlint/__init__.py",
    ):
        assert needed in paths


def test_the_vsix_holds_pure_python_only(tools: Tools) -> None:
    with zipfile.ZipFile(tools.vsix) as vsix:
        names = [name.removeprefix("extension/") for name in vsix.namelist()]
    assert dev_files(names) == []
    assert "bundled/libs/tritonlint/__init__.py" in names
    assert "bundled/libs/google/protobuf/__init__.py" in names
    assert [n for n in names if n.endswith((".so", ".pyd", ".dylib", ".dll"))] == []


@pytest.fixture(scope="module")
def installed(tools: Tools, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The .vsix unpacked as VS Code installs it: its extension/ folder."""
    folder = tmp_path_factory.mktemp("installed")
    with zipfile.ZipFile(tools.vsix) as vsix:
        vsix.extractall(folder)
    yield folder / "extension"
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def system_python() -> Path:
    if not SYSTEM_PYTHON.exists():
        pytest.skip(f"no {SYSTEM_PYTHON}")
    has = subprocess.run(
        [str(SYSTEM_PYTHON), "-I", "-c", "import sys; assert sys.version_info >= (3, 10)"],
        capture_output=True,
        check=False,
    )
    if has.returncode != 0:
        pytest.skip(f"{SYSTEM_PYTHON} is older than 3.10")
    own = subprocess.run(
        [str(SYSTEM_PYTHON), "-I", "-c", "import tritonlint"], capture_output=True, check=False
    )
    if own.returncode == 0:
        pytest.skip(f"{SYSTEM_PYTHON} has a tritonlint of its own")
    return SYSTEM_PYTHON


def bundled(
    python: Path, extension: Path, *args: str, cwd: Path, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """Runs the bundled copy as the extension does: ``python -I <ext>/bundled/tool/launch.py``."""
    return run_process(
        [str(python), "-I", str(extension / "bundled" / "tool" / "launch.py"), *args],
        cwd=cwd,
        stdin=stdin,
        timeout=120,
    )


def test_the_bundled_copy_says_its_version(
    system_python: Path, installed: Path, tmp_path: Path
) -> None:
    completed = bundled(system_python, installed, "--version", cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip() == f"tritonlint {__version__}"


def test_the_bundled_copy_checks_a_repository(
    system_python: Path, installed: Path, tmp_path: Path
) -> None:
    completed = bundled(
        system_python,
        installed,
        "check",
        "--format",
        "concise",
        "--color",
        "never",
        str(MODEL_REPOSITORY),
        cwd=tmp_path,
    )
    assert completed.returncode == 1, completed.stderr
    detector = MODEL_REPOSITORY / "detector" / "config.pbtxt"
    assert (
        f"{detector}:12:31: TL105 [error] TYPE_FLOAT32 is not a value of inference.DataType"
        in completed.stdout
    )
    assert "Found 4 errors (4 models checked)." in completed.stdout


def responses(output: str) -> dict[int, dict[str, object]]:
    """The server's responses on its standard output, by request id."""
    found: dict[int, dict[str, object]] = {}
    # Read as text, each header line ends in "\n" (universal newlines).
    for part in output.split("Content-Length: ")[1:]:
        message = json.loads(part.split("\n\n", 1)[1])
        if "id" in message and "method" not in message:
            found[message["id"]] = message
    return found


def test_the_bundled_language_server_answers(
    system_python: Path, installed: Path, tmp_path: Path
) -> None:
    initialize = {"processId": None, "rootUri": None, "capabilities": {}}
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": initialize},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ]
    stdin = "".join(
        f"Content-Length: {len(body.encode())}\r\n\r\n{body}"
        for body in (json.dumps(message) for message in messages)
    )
    completed = bundled(system_python, installed, "lsp", cwd=tmp_path, stdin=stdin)
    answered = responses(completed.stdout)
    assert 1 in answered, completed.stdout + completed.stderr
    result = answered[1]["result"]
    assert isinstance(result, dict)
    assert result["serverInfo"] == {"name": "tritonlint", "version": __version__}
    assert answered[2]["result"] is None
