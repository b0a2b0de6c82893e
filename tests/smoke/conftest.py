"""Fixtures for the smoke stage's tests: fake servers, a fake docker, faked GPU detection,
and the embedded Triton server for the tests that start a real one (``@pytest.mark.server``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import python_launcher
from smoke_helpers import FakeDocker, FakeServer

from tritonlint.tritonserver import DownloadError, TritonInstall, devices, provision

HERE = Path(__file__).resolve().parent
FIXTURES = HERE.parents[1] / "fixtures"


@pytest.fixture
def fake_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakeServer:
    """An executable fake tritonserver (``--server PATH``), recording into a log."""
    bin_dir = tmp_path / "fake-bin"
    bin_dir.mkdir(exist_ok=True)
    log = tmp_path / "fake-server.jsonl"
    monkeypatch.setenv("FAKE_TRITON_LOG", str(log))
    for name in ("FAKE_TRITON_HANG", "FAKE_TRITON_CRASH", "FAKE_TRITON_EXIT", "FAKE_TRITON_GPUS"):
        monkeypatch.delenv(name, raising=False)
    return FakeServer(
        python_launcher(bin_dir / "fake-triton-server", HERE / "fake_triton_server.py"), log
    )


@pytest.fixture
def fake_docker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fake_server: FakeServer
) -> FakeDocker:
    """A fake ``docker`` first on PATH: records its arguments; ``run`` runs the fake server."""
    bin_dir = tmp_path / "docker-bin"
    bin_dir.mkdir()
    python_launcher(bin_dir / "docker", HERE / "fake_docker.py")
    state = tmp_path / "docker-state"
    state.mkdir()
    log = tmp_path / "docker.jsonl"
    monkeypatch.setenv("FAKE_DOCKER_LOG", str(log))
    monkeypatch.setenv("FAKE_DOCKER_DIR", str(state))
    monkeypatch.setenv("PATH", f"{bin_dir}:{_path_without_tritonserver()}")
    return FakeDocker(log)


def _path_without_tritonserver() -> str:
    import os

    folders = os.environ.get("PATH", "").split(os.pathsep)
    return os.pathsep.join(f for f in folders if not (Path(f) / "tritonserver").exists())


@pytest.fixture
def gpu(monkeypatch: pytest.MonkeyPatch) -> Callable[[bool], None]:
    """Fake the GPU detection (``tritonlint.tritonserver.devices.has_gpu``): ``gpu(True)``."""

    def fake(present: bool) -> None:
        monkeypatch.setattr(devices, "has_gpu", lambda: present)

    fake(False)
    return fake


@pytest.fixture
def no_tritonserver_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """The embedded server is chosen even where a tritonserver is installed."""
    monkeypatch.setenv("PATH", _path_without_tritonserver())


@pytest.fixture(scope="session")
def triton_install() -> TritonInstall:
    """The cached embedded server, downloaded with pip on first use (about 55 MB)."""
    try:
        return provision()
    except DownloadError as err:
        pytest.skip(f"the Triton server wheel cannot be fetched with pip: {err}")
