"""The programs tritonlint starts are never chosen by the folder it runs in: a repository that
holds a ``tritonserver``, a ``cc``, a ``nvidia-smi`` or a ``pip`` package, checked from its own
folder (as CI does), gets none of them run."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from helpers import make_tree

from tritonlint.programs import NEUTRAL_FOLDER, find_program
from tritonlint.smoke.servers import ServerKind, choose_server
from tritonlint.tritonserver import devices
from tritonlint.tritonserver.process import ServerError, TritonServer
from tritonlint.tritonserver.provision import DownloadError, TritonInstall, _download, cache_root
from tritonlint.tritonserver.stubs import find_compiler


def _program(path: Path, body: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
    path.chmod(0o755)
    return path


@pytest.fixture
def hostile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The working folder: a repository holding programs that leave a marker when run, with
    ``PATH`` naming the working folder (``.`` and an empty entry) before the system's."""
    repository = tmp_path / "repository"
    marker = tmp_path / "ran"
    for name in ("tritonserver", "cc", "gcc", "clang", "nvidia-smi", "docker"):
        _program(repository / name, f"touch {marker}; echo 'GPU 0: hostile'")
    monkeypatch.chdir(repository)
    monkeypatch.setenv("PATH", os.pathsep.join([".", "", "/usr/bin", "/bin"]))
    monkeypatch.delenv("CC", raising=False)
    return repository


def test_relative_path_entries_are_not_searched(hostile: Path) -> None:
    # shutil.which would take the repository's program: the danger is real.
    assert shutil.which("tritonserver") is not None
    assert find_program("tritonserver") is None
    assert choose_server(None, None).kind is ServerKind.EMBEDDED
    assert find_program("sh") in ("/usr/bin/sh", "/bin/sh")
    assert find_program("./tritonserver") is None
    assert find_program(str(hostile / "tritonserver")) == str(hostile / "tritonserver")


def test_the_compiler_is_an_absolute_path_never_the_repositorys(
    hostile: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    compiler = find_compiler()
    assert compiler is None or (os.path.isabs(compiler) and not compiler.startswith(str(hostile)))
    monkeypatch.setenv("CC", "./cc")
    again = find_compiler()
    assert again is None or not again.startswith(str(hostile))


def test_gpu_detection_does_not_run_the_repositorys_nvidia_smi(hostile: Path) -> None:
    devices.has_gpu.cache_clear()
    try:
        devices.has_gpu()
    finally:
        devices.has_gpu.cache_clear()
    assert not (hostile.parent / "ran").exists()


def test_pip_is_not_imported_from_the_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = tmp_path / "ran"
    repository = make_tree(
        tmp_path / "repository",
        {
            "pip/__init__.py": f"open({str(marker)!r}, 'w').close()\n",
            "pip/__main__.py": "raise SystemExit(1)\n",
        },
    )
    monkeypatch.chdir(repository)
    # No index: pip fails at once, without the network.
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(tmp_path / "no-wheels"))
    dest = tmp_path / "download"
    dest.mkdir()
    with pytest.raises(DownloadError, match="could not download"):
        _download(dest, quiet=True)
    assert not marker.exists()


def test_the_server_runs_outside_the_working_folder_with_absolute_paths(
    hostile: Path, tmp_path: Path
) -> None:
    """The server process (and the python stubs it starts) find no library or program of an
    empty LD_LIBRARY_PATH or PATH entry in the repository."""
    seen = tmp_path / "seen"
    binary = _program(
        tmp_path / "install" / "bin" / "tritonserver", f'pwd > {seen}; echo "$@" >> {seen}'
    )
    install = TritonInstall(
        root=tmp_path / "install",
        binary=binary,
        lib_dir=tmp_path / "install" / "lib",
        backends_dir=tmp_path / "install" / "backends",
        version="",
    )
    server = TritonServer(install, Path("models"), startup_timeout=10)
    with pytest.raises(ServerError, match="exited while starting"):
        server.start(attempts=1)
    where, arguments = seen.read_text(encoding="utf-8").splitlines()
    assert where == NEUTRAL_FOLDER
    assert f"--model-repository={hostile / 'models'}" in arguments.split()
    server.log.path.unlink(missing_ok=True)


def test_a_relative_cache_folder_is_taken_from_the_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pip and cc run in other folders than this one: the paths they are given are absolute."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TRITONLINT_CACHE", "cache")
    assert cache_root() == tmp_path / "cache"
