"""One tritonserver process in explicit model-control mode, and loading models into it.

The server listens on free loopback ports only. Its stdout and stderr (Triton's log and the
libprotobuf parser errors) go to one log file, so that every line a load produced can be read
back in order. Loads never overlap. Stopping terminates the whole process group (the server and
its python stub processes), then kills what is left.

The server runs under a small supervisor process (:mod:`tritonlint.tritonserver.supervisor`), so
that nothing of it outlives tritonlint: when tritonlint dies, even by SIGKILL, the supervisor kills
the server, its python stubs and whatever else they started, and removes the paths it was given
(``cleanup_paths``: the temporary copy of the repository) and the server's shared memory.
"""

from __future__ import annotations

import contextlib
import enum
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from tritonlint.programs import NEUTRAL_FOLDER
from tritonlint.tritonserver.client import Answer, ServerUnreachable, TritonClient
from tritonlint.tritonserver.logs import LogFile, hang_reason
from tritonlint.tritonserver.ports import LOOPBACK, free_ports
from tritonlint.tritonserver.provision import TritonInstall
from tritonlint.tritonserver.supervisor import process_table

_POLL_S = 0.02
#: How often an unload's progress is asked for (the index lists every model).
_UNLOAD_POLL_S = 0.1
#: The server is live about 0.1 s after it starts; a fine poll saves a good part of that per
#: repository when many small repositories are judged in turn.
_START_POLL_S = 0.01
_SHM_DIR = Path("/dev/shm")
#: How long stopping waits for the supervisor to have reaped every process under it.
_STOP_WAIT_S = 30.0
#: Run as a script (it imports nothing of tritonlint's).
_SUPERVISOR = Path(__file__).with_name("supervisor.py")


class ServerError(RuntimeError):
    """The server could not be started, or stopped answering."""


class LoadStatus(str, enum.Enum):
    LOADED = "loaded"
    REFUSED = "refused"  # the server answered with an error
    HUNG = "hung"  # the log says the load will never finish
    TIMEOUT = "timeout"  # no answer within the per-load timeout
    CRASHED = "crashed"  # the server died during the load


@dataclass(frozen=True)
class LoadOutcome:
    model: str
    status: LoadStatus
    error: str = ""
    log_lines: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def loaded(self) -> bool:
        return self.status is LoadStatus.LOADED

    @property
    def server_unusable(self) -> bool:
        """After this outcome the server must be restarted before the next load."""
        return self.status in (LoadStatus.HUNG, LoadStatus.TIMEOUT, LoadStatus.CRASHED)


@dataclass(frozen=True)
class ServerPorts:
    http: int
    grpc: int
    metrics: int


class TritonServer:
    """A tritonserver for one model repository; use it as a context manager."""

    def __init__(
        self,
        install: TritonInstall,
        model_repository: Path,
        backend_dir: Path | None = None,
        *,
        log_path: Path | None = None,
        startup_timeout: float = 60.0,
        extra_args: Sequence[str] = (),
        python_executable: Path | None = None,
        cleanup_paths: Sequence[Path] = (),
        shm_prefix: str | None = None,
        library_dirs: Sequence[Path] = (),
    ) -> None:
        self.install = install
        self.model_repository = model_repository
        self.backend_dir = backend_dir or install.backends_dir
        self.startup_timeout = startup_timeout
        self.extra_args = tuple(extra_args)
        self.python_executable = python_executable or Path(sys.executable)
        #: Searched by the loader after the server's own libraries.
        self.library_dirs = tuple(library_dirs)
        self._own_log = log_path is None
        if log_path is None:
            fd, name = tempfile.mkstemp(prefix="tritonserver-", suffix=".log")
            os.close(fd)
            log_path = Path(name)
        self.log = LogFile(log_path)
        #: Removed by the supervisor if tritonlint dies while the server runs.
        self.cleanup_paths = (*cleanup_paths, *([log_path] if self._own_log else []))
        self.ports: ServerPorts | None = None
        self.client: TritonClient | None = None
        self.starts = 0
        # The python backend names its shared-memory regions with this prefix; regions left by
        # killed stub processes are removed by it when the server stops.
        self.shm_prefix = shm_prefix or f"tritonlint_{uuid.uuid4().hex[:12]}_"
        #: The supervisor (see the module docstring), and the server it started.
        self._process: subprocess.Popen[bytes] | None = None
        self._server_pid: int | None = None
        self._exit_status: int | None = None
        self._lock = threading.Lock()

    # -- lifecycle ---------------------------------------------------------------------------

    def __enter__(self) -> TritonServer:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()
        if self._own_log:
            self.log.path.unlink(missing_ok=True)

    @property
    def pid(self) -> int | None:
        """The server's process id (also the id of its process group)."""
        return self._server_pid if self._process else None

    @property
    def alive(self) -> bool:
        """The server runs (its supervisor exits once the server and its processes are gone)."""
        return self._process is not None and self._process.poll() is None

    def exit_status(self) -> int | None:
        """The server's exit status once it has exited (negative: killed by that signal)."""
        process = self._process
        if self._exit_status is None and process is not None and process.poll() is not None:
            self._exit_status = _reported_exit(process)
        return self._exit_status

    def orphan_command(self) -> list[str] | None:
        """A command the supervisor runs if tritonlint dies while the server runs."""
        return None

    def command(self, ports: ServerPorts) -> list[str]:
        # Absolute paths: the server runs in NEUTRAL_FOLDER, not in this working folder.
        return [
            os.path.abspath(self.install.binary),
            f"--model-repository={os.path.abspath(self.model_repository)}",
            f"--backend-directory={os.path.abspath(self.backend_dir)}",
            "--model-control-mode=explicit",
            f"--http-address={LOOPBACK}",
            f"--http-port={ports.http}",
            f"--grpc-address={LOOPBACK}",
            f"--grpc-port={ports.grpc}",
            f"--metrics-address={LOOPBACK}",
            f"--metrics-port={ports.metrics}",
            "--exit-timeout-secs=5",
            "--exit-on-error=false",
            f"--backend-config=python,shm-region-prefix-name={self.shm_prefix}",
            *self.extra_args,
        ]

    def environment(self) -> dict[str, str]:
        env = dict(os.environ)
        libs = [str(self.install.lib_dir), *map(str, self.library_dirs)]
        if env.get("LD_LIBRARY_PATH"):
            libs.append(env["LD_LIBRARY_PATH"])
        env["LD_LIBRARY_PATH"] = os.pathsep.join(libs)
        # The python backend stub finds its packages through the python first on PATH (it
        # ignores PYTHONPATH). Triton 2.51's python backend loads models with numpy 2 but needs
        # numpy<2 to run inferences: see tritonlint.tritonserver.stub_packages.
        python_bin = str(self.python_executable.parent)
        env["PATH"] = os.pathsep.join([python_bin, env.get("PATH", os.defpath)])
        return env

    def start(self, attempts: int = 3) -> None:
        """Start the server and wait until it is live (new ports on each attempt)."""
        if self.alive:
            return
        last_error: ServerError | None = None
        for _ in range(attempts):
            try:
                self._start_once()
                return
            except ServerError as err:
                last_error = err
                self.stop()
        assert last_error is not None
        raise last_error

    def _start_once(self) -> None:
        self.ports = ServerPorts(*free_ports(3))
        self.client = TritonClient(LOOPBACK, self.ports.http)
        offset = self.log.size()
        command = self.command(self.ports)
        supervisor = [
            sys.executable,
            "-I",  # the standard library only: no user site, no PYTHON* variables
            "-S",
            str(_SUPERVISOR),
            f"--shm-prefix={self.shm_prefix}",
            *(f"--remove={path}" for path in self.cleanup_paths),
        ]
        orphan = self.orphan_command()
        if orphan is not None:
            supervisor.append(f"--orphan-command={json.dumps(orphan)}")
        self._server_pid = self._exit_status = None
        with open(self.log.path, "ab") as log_handle:
            self._process = subprocess.Popen(
                [*supervisor, "--", *command],
                # Not the working folder (the repository's, maybe): an empty entry of
                # LD_LIBRARY_PATH or PATH would find its libraries and programs there.
                cwd=NEUTRAL_FOLDER,
                stdin=subprocess.PIPE,  # its end tells the supervisor that tritonlint is gone
                stdout=subprocess.PIPE,
                stderr=log_handle,
                env=self.environment(),
                start_new_session=True,  # signals to tritonlint's process group spare it
            )
        assert self._process.stdout is not None
        first = self._process.stdout.readline().decode(errors="replace").strip()
        if not first.startswith("pid "):
            failed, self._process = self._process, None
            _close_control(failed)
            failed.wait()
            if failed.stdout is not None:
                failed.stdout.close()
            raise ServerError(f"tritonserver could not be started: {first[6:] or 'no answer'}")
        self._server_pid = int(first[4:])
        self.starts += 1
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            if not self.alive:
                tail = "\n".join(self.log.read_from(offset)[-20:])
                raise ServerError(f"tritonserver exited while starting:\n{tail}")
            if self.client.is_live(timeout=1.0):
                return
            time.sleep(_START_POLL_S)
        raise ServerError(f"tritonserver was not live after {self.startup_timeout:.0f} s")

    def stop(self, timeout: float = 10.0, *, graceful: bool = True) -> None:
        """Stop the server and its children (python stubs).

        Graceful: SIGTERM (the server unloads its models), then SIGKILL for whatever is left
        after ``timeout``. Not graceful: SIGKILL at once, the right thing after a hung load.
        Either way the process group is killed at the end and shared memory is cleaned up.
        """
        process, self._process = self._process, None
        if process is None:
            return
        pid = self._server_pid
        if graceful and pid is not None and process.poll() is None:
            _signal_group(pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=timeout)
        # The supervisor kills the whole group and whatever else is left under it (python
        # stubs, processes a model.py started), and exits once they are all gone. (Only a
        # process stuck in the kernel keeps it longer; then it finishes on its own.)
        _close_control(process, b"stop")
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=_STOP_WAIT_S)
        if self._exit_status is None and process.poll() is not None:
            self._exit_status = _reported_exit(process)
        if pid is not None:
            _wait_group_gone(pid)
        self._remove_shared_memory()

    def restart(self, *, graceful: bool = False) -> None:
        self.stop(graceful=graceful)
        self.start()

    def _remove_shared_memory(self) -> None:
        if not _SHM_DIR.is_dir():
            return
        for region in _SHM_DIR.glob(f"{self.shm_prefix}*"):
            region.unlink(missing_ok=True)

    # -- models ------------------------------------------------------------------------------

    def load(self, model: str, timeout: float = 120.0) -> LoadOutcome:
        """Load one model and wait for the verdict; never overlaps with another load."""
        with self._lock:
            return self._load(model, timeout)

    def _load(self, model: str, timeout: float) -> LoadOutcome:
        if not self.alive or self.client is None:
            raise ServerError("tritonserver is not running")
        client = self.client
        offset = self.log.size()
        started = time.monotonic()
        result: list[Answer | ServerUnreachable] = []

        def request() -> None:
            try:
                result.append(client.load(model, timeout=timeout + 5.0))
            except ServerUnreachable as err:
                result.append(err)

        worker = threading.Thread(target=request, name=f"load-{model}", daemon=True)
        worker.start()
        status: LoadStatus | None = None
        error = ""
        while worker.is_alive():
            worker.join(_POLL_S)
            if not worker.is_alive():
                break
            if not self.alive:
                status = LoadStatus.CRASHED
                break
            reason = hang_reason(self.log.read_from(offset))
            if reason is not None:
                status, error = LoadStatus.HUNG, reason
                break
            if time.monotonic() - started > timeout:
                status, error = LoadStatus.TIMEOUT, f"no answer within {timeout:.0f} s"
                break
        if status is None:
            answer = result[0] if result else ServerUnreachable("no answer")
            if isinstance(answer, Answer):
                status = LoadStatus.LOADED if answer.status == 200 else LoadStatus.REFUSED
                error = "" if answer.status == 200 else answer.error.strip()
            else:
                # The connection broke: a crash if the process is gone (or goes within 2 s).
                status = LoadStatus.CRASHED if self._dies_within(2.0) else LoadStatus.REFUSED
                error = str(answer)
        if status is LoadStatus.CRASHED:
            code = self.exit_status()
            error = f"tritonserver died while loading '{model}' (exit status {code})"
        return LoadOutcome(
            model=model,
            status=status,
            error=error,
            log_lines=self.log.read_from(offset),
            seconds=time.monotonic() - started,
        )

    def unload(self, models: Sequence[str], timeout: float = 60.0) -> bool:
        """Unload ``models`` and wait until the server has unloaded them all (never while a
        load runs); False when it did not within ``timeout`` or it died meanwhile."""
        with self._lock:
            if not self.alive or self.client is None:
                return False
            client = self.client
            deadline = time.monotonic() + timeout
            try:
                for model in models:
                    client.unload(model, timeout=timeout)
                waiting = set(models)
                while waiting:
                    if not self.alive or time.monotonic() > deadline:
                        return False
                    busy = {
                        entry.get("name")
                        for entry in client.index(timeout=max(1.0, deadline - time.monotonic()))
                        if entry.get("state") in ("READY", "UNLOADING")
                    }
                    waiting &= busy
                    if waiting:
                        time.sleep(_UNLOAD_POLL_S)
            except (ServerUnreachable, ValueError):
                return False
            return True

    def _dies_within(self, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if not self.alive:
                return True
            time.sleep(_POLL_S)
        return not self.alive


def _close_control(supervisor: subprocess.Popen[bytes], message: bytes = b"") -> None:
    """Send ``message`` to the supervisor and close its pipe (it may have exited already)."""
    if supervisor.stdin is None:
        return
    with contextlib.suppress(OSError):
        supervisor.stdin.write(message)
        supervisor.stdin.flush()
    with contextlib.suppress(OSError):
        supervisor.stdin.close()


def _reported_exit(supervisor: subprocess.Popen[bytes]) -> int | None:
    """The server's exit status, from the supervisor's last line (after it has exited)."""
    if supervisor.stdout is None or supervisor.stdout.closed:
        return None
    with supervisor.stdout:
        lines = supervisor.stdout.read().decode(errors="replace").splitlines()
    for line in lines:
        if line.startswith("exit ") and line[5:].lstrip("-").isdigit():
            return int(line[5:])
    return None


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def _wait_group_gone(pgid: int, timeout: float = 5.0) -> None:
    """Wait until every process of the group has exited (zombies left to init do not count)."""
    deadline = time.monotonic() + timeout
    while live_group_members(pgid) and time.monotonic() < deadline:
        time.sleep(_POLL_S)


def live_group_members(pgid: int) -> list[int]:
    """Processes of group ``pgid`` that are not zombies (Linux /proc; else by signal 0)."""
    proc = Path("/proc")
    if not (proc / "self" / "stat").exists():
        try:
            os.killpg(pgid, 0)
        except (ProcessLookupError, PermissionError):
            return []
        return [pgid]
    return [
        pid
        for pid, fields in process_table()
        if len(fields) > 2 and fields[2] == str(pgid) and fields[0] != "Z"
    ]
