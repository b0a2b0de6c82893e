"""The pre-commit hooks (.pre-commit-hooks.yaml), run by the real ``pre-commit``.

``pre-commit try-repo`` installs this project (with pip, from the package index) into an
environment under ``$PRE_COMMIT_HOME`` (a temporary folder here) and runs a hook in a temporary
git repository that holds a model repository. try-repo takes a repository's committed files plus
its uncommitted changes to tracked files, but not untracked files; so the hooks repository is a
temporary git repository with a commit of this checkout's working tree (tracked and untracked
files that git does not ignore): the hooks are tested as they are on disk.

The first run installs the environment (about 10 s with pip's cache warm): these tests are
marked slow. Without access to the package index they are skipped.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import run_process

pytest.importorskip("pre_commit")
yaml = pytest.importorskip("yaml")

ROOT = Path(__file__).resolve().parents[1]
HOOKS = ROOT / ".pre-commit-hooks.yaml"
BROKEN = ROOT / "fixtures" / "broken" / "unknown_field_dim" / "classifier"
CONFIG = "model_repository/classifier/config.pbtxt"

#: What pip says when it cannot reach the package index.
_OFFLINE = re.compile(
    r"Could not find a version that satisfies|No matching distribution found|"
    r"Failed to establish a new connection|Temporary failure in name resolution|"
    r"Network is unreachable|ProxyError|ConnectionError"
)

_GIT_ENV = {
    "GIT_AUTHOR_NAME": "tests",
    "GIT_AUTHOR_EMAIL": "tests@example.invalid",
    "GIT_COMMITTER_NAME": "tests",
    "GIT_COMMITTER_EMAIL": "tests@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def _git(*args: str, cwd: Path) -> None:
    subprocess.run(
        ["git", *args],
        cwd=cwd,
        env={**os.environ, **_GIT_ENV},
        check=True,
        capture_output=True,
    )


def test_hooks_file_declares_the_four_hooks() -> None:
    hooks = {hook["id"]: hook for hook in yaml.safe_load(HOOKS.read_text())}
    assert set(hooks) == {"tritonlint", "tritonlint-format", "tritonlint-repo", "tritonlint-smoke"}
    assert all(hook["language"] == "python" for hook in hooks.values())
    files = re.compile(hooks["tritonlint"]["files"])
    assert files.search("config.pbtxt") and files.search("models/resnet/config.pbtxt")
    assert not files.search("models/resnet/myconfig.pbtxt")
    assert not files.search("models/resnet/config.pbtxt.bak")
    assert files.search("models/resnet/configs/h100.pbtxt")
    assert not files.search("models/resnet/configs/old/h100.pbtxt")
    assert hooks["tritonlint-format"]["files"] == hooks["tritonlint"]["files"]
    assert hooks["tritonlint-format"]["entry"] == "tritonlint format"
    assert hooks["tritonlint-repo"]["pass_filenames"] is False
    assert hooks["tritonlint-repo"]["args"] == ["model_repository"]
    assert hooks["tritonlint-smoke"]["stages"] == ["manual"]
    assert hooks["tritonlint-smoke"]["entry"] == "tritonlint smoke"


@pytest.fixture(scope="module")
def hooks_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A git repository with one commit: this checkout's working tree."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    target = tmp_path_factory.mktemp("hooks-repo")
    for name in filter(None, listed):
        source = ROOT / os.fsdecode(name)
        if source.is_file():
            (target / os.fsdecode(name)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / os.fsdecode(name))
    _git("init", "-q", cwd=target)
    _git("add", "-A", cwd=target)
    _git("commit", "-q", "-m", "working tree", cwd=target)
    return target


@pytest.fixture(scope="module")
def pre_commit_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One environment for all the runs (installed by the first)."""
    return tmp_path_factory.mktemp("pre-commit-home")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A git repository with a model repository holding one broken config (added, not
    committed: pre-commit runs on what is staged)."""
    work = tmp_path / "project"
    (work / "model_repository").mkdir(parents=True)
    shutil.copytree(BROKEN, work / "model_repository" / "classifier")
    _git("init", "-q", cwd=work)
    _git("add", "-A", cwd=work)
    return work


def _try_repo(
    hooks_repo: Path, home: Path, project: Path, *args: str
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **_GIT_ENV, "PRE_COMMIT_HOME": str(home), "PRE_COMMIT_COLOR": "never"}
    env.pop("GITHUB_ACTIONS", None)
    completed = run_process(
        [sys.executable, "-m", "pre_commit", "try-repo", str(hooks_repo), *args],
        cwd=project,
        env=env,
        timeout=600,
    )
    output = completed.stdout + completed.stderr
    if completed.returncode not in (0, 1) or "An unexpected error has occurred" in output:
        if _OFFLINE.search(output) or _OFFLINE.search(_pre_commit_log(home)):
            pytest.skip("pre-commit cannot install the hook: the package index is unreachable")
        pytest.fail(f"pre-commit failed (exit status {completed.returncode}):\n{output}")
    return completed


def _pre_commit_log(home: Path) -> str:
    log = home / "pre-commit.log"
    return log.read_text(errors="replace") if log.is_file() else ""


#: ``run_hook(status, *args)``: see :func:`run_hook`.
RunHook = Callable[..., "subprocess.CompletedProcess[str]"]


@pytest.fixture
def run_hook(hooks_repo: Path, pre_commit_home: Path, project: Path) -> RunHook:
    """Runs ``pre-commit try-repo`` of this checkout in ``project`` with ``args``, everything
    staged first, and asserts its exit ``status``: ``run_hook(1, "tritonlint-repo",
    "--all-files")``."""

    def run(status: int, *args: str) -> subprocess.CompletedProcess[str]:
        _git("add", "-A", cwd=project)
        completed = _try_repo(hooks_repo, pre_commit_home, project, *args)
        assert completed.returncode == status, completed.stdout + completed.stderr
        return completed

    return run


@pytest.mark.slow
def test_hook_fails_on_a_broken_config_and_passes_on_the_fixed_one(
    run_hook: RunHook, project: Path
) -> None:
    broken = run_hook(1, "tritonlint", "--files", CONFIG)
    output = broken.stdout + broken.stderr
    assert "tritonlint" in output and "Failed" in output
    assert f"{CONFIG}:8:5: TL101 [error]" in output
    assert 'has no field named "dim"' in output

    config = project / CONFIG
    config.write_text(config.read_text().replace("dim:", "dims:"))
    assert "Passed" in run_hook(0, "tritonlint", "--files", CONFIG).stdout


@pytest.mark.slow
def test_format_hook_rewrites_a_config_and_fails_then_passes(
    run_hook: RunHook, project: Path
) -> None:
    config = project / CONFIG
    config.write_text('name:"classifier" backend:"onnxruntime"  # the model\n')
    changed = run_hook(1, "tritonlint-format", "--files", CONFIG)
    output = changed.stdout + changed.stderr
    assert "tritonlint format" in output and "files were modified by this hook" in output
    assert config.read_text() == 'name: "classifier"\nbackend: "onnxruntime"  # the model\n'

    assert "Passed" in run_hook(0, "tritonlint-format", "--files", CONFIG).stdout


@pytest.mark.slow
def test_repository_hook_lints_the_whole_repository(run_hook: RunHook, project: Path) -> None:
    # A file that is not a config changed: the repository hook still lints the repository.
    (project / "model_repository" / "classifier" / "labels.txt").write_text("cat\ndog\n")
    completed = run_hook(1, "tritonlint-repo", "--all-files")
    output = completed.stdout + completed.stderr
    assert f"{CONFIG}:8:5: TL101 [error]" in output
