"""The server harness itself: start, stop, crashes, hangs, and the user's files."""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import port_in_use

from tritonlint.tritonserver import (
    LoadStatus,
    StubKind,
    TritonInstall,
    TritonServer,
    judge_repository,
    provision,
)
from tritonlint.tritonserver.process import live_group_members
from tritonlint.tritonserver.stubs import build_backend_dir

pytestmark = pytest.mark.server

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.fixture
def backend_dir(triton_install: TritonInstall, tmp_path: Path) -> Path:
    return build_backend_dir(triton_install, tmp_path / "backends")


@pytest.fixture
def echo_repository(tmp_path: Path) -> Path:
    """A repository holding only the python echo model (a load takes over a second)."""
    repository = tmp_path / "models"
    shutil.copytree(FIXTURES / "model_repository" / "echo_python", repository / "echo_python")
    return repository


@pytest.fixture
def server(
    triton_install: TritonInstall, echo_repository: Path, backend_dir: Path
) -> Iterator[TritonServer]:
    with TritonServer(triton_install, echo_repository, backend_dir) as running:
        yield running


def _shared_memory(prefix: str) -> list[Path]:
    shm = Path("/dev/shm")
    return sorted(shm.glob(f"{prefix}*")) if shm.is_dir() else []


def _snapshot(folder: Path) -> dict[str, str]:
    return {
        str(path.relative_to(folder)): (
            hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "dir"
        )
        for path in sorted(folder.rglob("*"))
    }


def test_provision_uses_the_cache(triton_install: TritonInstall) -> None:
    again = provision()
    assert again == triton_install
    assert os.access(again.binary, os.X_OK)
    assert (again.python_backend_dir / "triton_python_backend_stub").is_file()
    assert again.version == "2.51.0"


def test_stop_releases_ports_and_processes(server: TritonServer) -> None:
    assert server.ports is not None and server.client is not None and server.pid is not None
    assert server.client.is_live()
    assert server.load("echo_python").loaded  # a python stub process runs beside the server
    ports, pid, prefix = server.ports, server.pid, server.shm_prefix
    assert len(live_group_members(pid)) >= 2
    assert _shared_memory(prefix)

    server.stop()

    assert not server.alive
    assert live_group_members(pid) == []
    assert not any(port_in_use(port) for port in (ports.http, ports.grpc, ports.metrics))
    assert _shared_memory(prefix) == []


def test_stop_after_the_server_died(server: TritonServer) -> None:
    assert server.load("echo_python").loaded
    pid, prefix = server.pid, server.shm_prefix
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while server.alive and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not server.alive

    server.stop()  # no error, and nothing left behind: the orphaned python stub is gone too

    assert live_group_members(pid) == []
    assert _shared_memory(prefix) == []


def test_a_crash_during_a_load_is_seen_restarted_and_retried(
    triton_install: TritonInstall, echo_repository: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    original_load = TritonServer.load
    killed: list[int] = []

    def load_and_crash_once(self: TritonServer, model: str, timeout: float = 120.0) -> object:
        if not killed and self.pid is not None:
            killed.append(self.pid)
            threading.Timer(0.3, os.kill, (self.pid, signal.SIGKILL)).start()
        return original_load(self, model, timeout)

    monkeypatch.setattr(TritonServer, "load", load_and_crash_once)
    verdict = judge_repository(echo_repository, install=triton_install)["echo_python"]

    assert killed
    assert verdict.loaded, verdict.message
    assert verdict.attempts == 2
    assert live_group_members(killed[0]) == []


def test_a_python_model_without_model_py_is_refused_at_once(
    triton_install: TritonInstall,
) -> None:
    # The server would wait forever; the log line tells the harness at once.
    started = time.monotonic()
    verdict = judge_repository(
        FIXTURES / "broken" / "python_model_file_missing", install=triton_install
    )["echo"]
    assert verdict.status is LoadStatus.HUNG
    assert not verdict.loaded
    assert "Python model file not found" in verdict.message
    assert time.monotonic() - started < 30


def test_the_users_files_are_never_changed(triton_install: TritonInstall, tmp_path: Path) -> None:
    repository = tmp_path / "model_repository"
    shutil.copytree(FIXTURES / "model_repository", repository)
    before = _snapshot(repository)
    verdicts = judge_repository(repository, install=triton_install, gpu=False)
    assert verdicts["resnet_trt"].adjustments  # rewritten in the temporary copy only
    assert _snapshot(repository) == before


def test_python_stub_backends_judge_like_the_native_ones(
    triton_install: TritonInstall, tmp_path: Path
) -> None:
    # The fallback for machines without a C compiler (a Python process per model: slower).
    repository = tmp_path / "models"
    shutil.copytree(FIXTURES / "model_repository" / "classifier_onnx", repository / "present")
    shutil.copytree(FIXTURES / "model_repository" / "classifier_onnx", repository / "absent")
    for name in ("present", "absent"):
        config = repository / name / "config.pbtxt"
        config.write_text(config.read_text().replace('"classifier_onnx"', f'"{name}"'))
    (repository / "absent" / "1" / "model.onnx").unlink()

    verdicts = judge_repository(repository, install=triton_install, stub_kind=StubKind.PYTHON)

    assert verdicts["present"].loaded, verdicts["present"].message
    assert not verdicts["absent"].loaded
    assert f"unable to find '{repository.resolve()}/absent/1/model.onnx'" in (
        verdicts["absent"].message
    )
