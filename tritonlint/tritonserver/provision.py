"""Find or fetch the Triton 2.51 server that ships inside the ``nvidia-pytriton`` wheel.

The wheel is downloaded with pip (never installed: installing it would pull numpy<2, grpcio and
more into the user's environment) and unpacked into a per-user cache::

    ${TRITONLINT_CACHE:-${XDG_CACHE_HOME:-~/.cache}/tritonlint}/tritonserver-2.51.0/
        server/                     the unpacked wheel (pytriton/, nvidia_pytriton.libs/)

Unpacking goes to a temporary folder beside ``server/`` that is renamed into place at the end, so
an interrupted run never leaves a half-unpacked server behind.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

TRITON_VERSION = "2.51.0"
PYTRITON_VERSION = "0.7.0"
PYTRITON_REQUIREMENT = f"nvidia-pytriton=={PYTRITON_VERSION}"

#: Point this at an already downloaded ``nvidia_pytriton-0.7.0-*.whl`` to skip the download.
WHEEL_ENV = "TRITONLINT_TRITONSERVER_WHEEL"
CACHE_ENV = "TRITONLINT_CACHE"

_SERVER_DIR = "server"
_BINARY = Path("pytriton", "tritonserver", "bin", "tritonserver")
_BACKENDS = Path("pytriton", "tritonserver", "backends")
_PYTHON_STUBS = Path("pytriton", "tritonserver", "python_backend_stubs")
_LIBS = Path("nvidia_pytriton.libs")
PYTHON_STUB_NAME = "triton_python_backend_stub"


class ProvisionError(RuntimeError):
    """The server could not be found or fetched."""


class DownloadError(ProvisionError):
    """pip could not download the wheel (offline, no index, no matching wheel)."""


@dataclass(frozen=True)
class TritonInstall:
    """Where the pieces of an unpacked Triton server are."""

    root: Path
    binary: Path
    lib_dir: Path
    backends_dir: Path
    version: str

    @property
    def python_backend_dir(self) -> Path:
        return self.backends_dir / "python"

    def python_stub(self, python_version: tuple[int, int] | None = None) -> Path:
        """The ``triton_python_backend_stub`` built for ``python_version`` (default: this one)."""
        major, minor = python_version or sys.version_info[:2]
        stub = self.root / _PYTHON_STUBS / f"{major}.{minor}" / PYTHON_STUB_NAME
        if not stub.is_file():
            raise ProvisionError(
                f"the Triton {self.version} python backend has no stub for Python {major}.{minor}"
            )
        return stub


def cache_root() -> Path:
    """The tritonlint cache folder (``$TRITONLINT_CACHE`` or ``$XDG_CACHE_HOME/tritonlint``),
    as an absolute path."""
    explicit = os.environ.get(CACHE_ENV)
    if explicit:
        return Path(os.path.abspath(Path(explicit).expanduser()))
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    # Absolute: the programs run on what is in it (pip, cc) run in other folders.
    return Path(os.path.abspath(base / "tritonlint"))


def server_cache_dir() -> Path:
    """The folder that holds everything cached for this Triton release."""
    return cache_root() / f"tritonserver-{TRITON_VERSION}"


def install_at(root: Path) -> TritonInstall:
    """Describe an unpacked wheel at ``root``; raise ProvisionError if it is incomplete."""
    install = TritonInstall(
        root=root,
        binary=root / _BINARY,
        lib_dir=root / _LIBS,
        backends_dir=root / _BACKENDS,
        version=TRITON_VERSION,
    )
    for required in (install.binary, install.lib_dir, install.python_backend_dir):
        if not required.exists():
            raise ProvisionError(f"incomplete Triton server at {root}: {required} is missing")
    return install


def find_cached() -> TritonInstall | None:
    """The cached server, or None when nothing (complete) is cached yet."""
    root = server_cache_dir() / _SERVER_DIR
    if not root.is_dir():
        return None
    try:
        return install_at(root)
    except ProvisionError:
        return None


def provision(wheel: Path | None = None, *, quiet: bool = True) -> TritonInstall:
    """Return the cached server, fetching and unpacking the wheel first when needed.

    ``wheel`` (or ``$TRITONLINT_TRITONSERVER_WHEEL``) names a local wheel to unpack instead of
    downloading one. The python backend stub that matches the running Python is copied into the
    python backend folder every time, so one cache serves several Python versions in turn.
    """
    cache = server_cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    with locked(cache / ".lock"):
        install = find_cached()
        if install is None:
            local = wheel or _wheel_from_env()
            if local is not None:
                _unpack(local, cache / _SERVER_DIR)
            else:
                with tempfile.TemporaryDirectory(dir=cache, prefix=".download-") as tmp:
                    _unpack(_download(Path(tmp), quiet=quiet), cache / _SERVER_DIR)
            install = install_at(cache / _SERVER_DIR)
        _install_python_stub(install)
    return install


def _wheel_from_env() -> Path | None:
    value = os.environ.get(WHEEL_ENV)
    if not value:
        return None
    path = Path(value).expanduser()
    if not path.is_file():
        raise ProvisionError(f"${WHEEL_ENV} names {path}, which is not a file")
    return path


def _download(dest: Path, *, quiet: bool) -> Path:
    args = ["download", "--no-deps", "--only-binary=:all:", "--dest", str(dest)]
    # Run in the download folder, which pip reads nothing from.
    result = run_pip([*args, PYTRITON_REQUIREMENT, *(["--quiet"] if quiet else [])], cwd=dest)
    wheels = sorted(dest.glob("nvidia_pytriton-*.whl"))
    if result.returncode != 0 or not wheels:
        raise DownloadError(
            f"pip could not download {PYTRITON_REQUIREMENT}: " + pip_complaint(result, lines=5)
        )
    return wheels[0]


def run_pip(args: list[str], *, cwd: Path) -> subprocess.CompletedProcess[str]:
    """This Python's pip with ``args``, its output captured. ``-I``: the pip of this Python,
    never a pip/ package of the working folder (the repository being checked)."""
    return subprocess.run(
        [sys.executable, "-I", "-m", "pip", *args],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
    )


def pip_complaint(result: subprocess.CompletedProcess[str], *, lines: int) -> str:
    """The last ``lines`` lines pip printed, on one line."""
    return " / ".join((result.stderr or result.stdout).strip().splitlines()[-lines:])


@contextmanager
def staged_folder(target: Path) -> Iterator[Path]:
    """A temporary folder beside ``target`` to fill, renamed into place (replacing ``target``)
    when the block ends, and removed if it fails: an interrupted fill leaves no half-made
    ``target`` behind."""
    staging = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}-"))
    try:
        yield staging
        if target.exists():
            shutil.rmtree(target)
        staging.rename(target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _unpack(wheel: Path, target: Path) -> None:
    """Unzip ``wheel`` next to ``target`` and rename it into place, keeping file modes."""
    if not zipfile.is_zipfile(wheel):
        raise ProvisionError(f"{wheel} is not a wheel (zip) file")
    with staged_folder(target) as staging, zipfile.ZipFile(wheel) as archive:
        for info in archive.infolist():
            extracted = Path(archive.extract(info, staging))
            mode = (info.external_attr >> 16) & 0o777
            if mode and not info.is_dir():
                extracted.chmod((mode & 0o755) | stat.S_IRUSR)
        binary = staging / _BINARY
        if not binary.is_file():
            raise ProvisionError(f"{wheel} holds no {_BINARY}")
        binary.chmod(binary.stat().st_mode | 0o755)
        for stub in (staging / _PYTHON_STUBS).glob(f"*/{PYTHON_STUB_NAME}"):
            stub.chmod(stub.stat().st_mode | 0o755)


def _install_python_stub(install: TritonInstall) -> None:
    """Copy the stub for the running Python into the python backend folder (atomically).

    Without a stub for this Python (the wheel has 3.8 to 3.13) python models cannot load, but
    every other model can still be judged, so that is no reason to fail here.
    """
    try:
        source = install.python_stub()
    except ProvisionError:
        return
    target = install.python_backend_dir / PYTHON_STUB_NAME
    if target.is_file() and _same_bytes(source, target):
        return
    fd, tmp_name = tempfile.mkstemp(dir=target.parent, prefix=f".{PYTHON_STUB_NAME}-")
    os.close(fd)
    try:
        shutil.copyfile(source, tmp_name)
        os.chmod(tmp_name, 0o755)
        os.replace(tmp_name, target)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise


def _same_bytes(a: Path, b: Path) -> bool:
    if a.stat().st_size != b.stat().st_size:
        return False
    return a.read_bytes() == b.read_bytes()


@contextmanager
def locked(lock_file: Path) -> Iterator[None]:
    """Hold an exclusive advisory lock so that parallel runs provision only once."""
    with open(lock_file, "a+b") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
