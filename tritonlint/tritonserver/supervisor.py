"""Runs one tritonserver for tritonlint, so that nothing of it outlives tritonlint.

tritonlint starts this file as a script (``python -I -S supervisor.py ...``; it imports nothing
but the standard library) in a session of its own, with a pipe on its standard input::

    supervisor.py [--remove PATH]... [--shm-prefix PREFIX] [--orphan-command JSON] -- SERVER...

It starts ``SERVER...`` in a new session (the server's python backend stubs join its process
group), with the standard output and error it was given itself, and writes ``pid N`` (or
``error MESSAGE``) on its standard output. The server gets SIGKILL if this process dies
(``PR_SET_PDEATHSIG``, set in the server's process before exec), and this process is the
"child subreaper" of everything the server starts (``PR_SET_CHILD_SUBREAPER``): a process whose
parent dies is handed to it, not to init, wherever its process group or session is.

It ends when one of these happens, and first kills the server's process group and every process
left under it, and waits until they are all gone:

* tritonlint writes ``stop`` on the pipe (the server is being stopped; nothing else is done);
* the server exits (a crash);
* the pipe reaches its end without ``stop``, or this process gets a new parent, SIGTERM or
  SIGHUP: tritonlint is gone (killed with SIGKILL, say). Then it also removes the ``--remove``
  paths (the temporary copy of the repository), the shared-memory regions under
  ``/dev/shm/PREFIX*`` and runs the ``--orphan-command`` (``docker rm --force NAME``).

Its last line on standard output is ``exit STATUS``, the server's exit status as
:attr:`subprocess.Popen.returncode` gives it (negative: killed by that signal).

Outside Linux the two ``prctl`` settings are not available; the rest works the same.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import json
import os
import select
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
#: How often the parent is checked when no pipe event or server exit wakes this process.
_CHECK_S = 0.5
_SHM_DIR = Path("/dev/shm")


def _prctl() -> Callable[[int, int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        function = libc.prctl
    except (OSError, AttributeError):
        return None
    function.argtypes = [ctypes.c_int, ctypes.c_ulong]
    function.restype = ctypes.c_int

    def call(option: int, value: int) -> int:
        return int(function(option, value))

    return call


def _dies_with(parent: int, prctl: Callable[[int, int], int] | None) -> Callable[[], None]:
    """What runs in the server's process between fork and exec (this process has no threads,
    so that is safe): SIGKILL when this process dies, and no exec if it already has."""

    def run() -> None:
        if prctl is not None:
            prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent:
            os._exit(1)

    return run


def _children(pid: int) -> list[int]:
    """The children of ``pid`` (zombies included)."""
    path = Path(f"/proc/{pid}/task/{pid}/children")
    try:
        return [int(child) for child in path.read_text().split()]
    except OSError:
        pass
    return [child for child, fields in process_table() if len(fields) > 1 and fields[1] == str(pid)]


def process_table() -> Iterator[tuple[int, list[str]]]:
    """Each process's id and the fields of its ``/proc/<pid>/stat`` after the command (state,
    parent, group, ...); nothing where there is no /proc."""
    proc = Path("/proc")
    if not proc.is_dir():
        return
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        yield int(entry.name), stat[stat.rfind(")") + 2 :].split()


def _kill_all(server: int) -> int | None:
    """Kill the server's group and every process left under this one, and reap them all;
    the server's wait status if it was reaped here."""
    status: int | None = None
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(server, signal.SIGKILL)
    me = os.getpid()
    while True:
        for child in _children(me):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(child, signal.SIGKILL)
        try:
            pid, wait_status = os.waitpid(-1, 0)
        except ChildProcessError:
            return status
        if pid == server:
            status = wait_status
            # The group may hold processes that are not (yet) this process's children.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(server, signal.SIGKILL)


def _wait(server: subprocess.Popen[bytes], parent: int, control: int, wakeup: int) -> bool:
    """Wait for the end; True when tritonlint is gone (or SIGTERM or SIGHUP came)."""
    try:
        watch = [control, wakeup, os.pidfd_open(server.pid)]
        timeout = _CHECK_S
    except (AttributeError, OSError):  # no pidfd: poll the server
        watch, timeout = [control, wakeup], 0.05
    while True:
        ready, _, _ = select.select(watch, [], [], timeout)
        if wakeup in ready:
            signals = os.read(wakeup, 64)
            if signal.SIGTERM in signals or signal.SIGHUP in signals:
                return True
        if control in ready:
            data = os.read(control, 64)
            if not data:
                return True
            if b"stop" in data:
                return False
        if server.poll() is not None:
            return False
        if os.getppid() != parent:
            return True


def _clean_up(remove: Sequence[str], shm_prefix: str | None, orphan: list[str] | None) -> None:
    for path in remove:
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
        else:
            with contextlib.suppress(OSError):
                os.unlink(path)
    if shm_prefix and _SHM_DIR.is_dir():
        for region in _SHM_DIR.glob(f"{shm_prefix}*"):
            with contextlib.suppress(OSError):
                region.unlink()
    if orphan:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            subprocess.run(
                orphan,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                timeout=60,
                check=False,
            )


def _say(line: str) -> None:
    """A line to tritonlint, which may be gone (the pipe is broken then)."""
    with contextlib.suppress(OSError):
        os.write(1, f"{line}\n".encode())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="supervisor.py")
    parser.add_argument("--remove", action="append", default=[])
    parser.add_argument("--shm-prefix")
    parser.add_argument("--orphan-command")
    parser.add_argument("server", nargs="+")
    args = parser.parse_args(argv)
    orphan = json.loads(args.orphan_command) if args.orphan_command else None
    parent = os.getppid()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is tritonlint's to handle
    prctl = _prctl()
    if prctl is not None:
        prctl(PR_SET_CHILD_SUBREAPER, 1)
    # SIGTERM and SIGHUP only wake the wait below (by the byte of the signal's number).
    wakeup, wakeup_write = os.pipe()
    os.set_blocking(wakeup_write, False)
    signal.set_wakeup_fd(wakeup_write, warn_on_full_buffer=False)
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, lambda signum, frame: None)
    try:
        server = subprocess.Popen(
            args.server,
            stdin=subprocess.DEVNULL,
            stdout=2,  # both to this process's standard error (the server's log)
            stderr=2,
            start_new_session=True,
            preexec_fn=_dies_with(os.getpid(), prctl),
        )
    except OSError as error:
        _say(f"error {error}")
        return 1
    _say(f"pid {server.pid}")
    gone = _wait(server, parent, sys.stdin.fileno(), wakeup)
    status = _kill_all(server.pid)
    if server.returncode is None and status is not None:
        server.returncode = os.waitstatus_to_exitcode(status)
    if gone:
        _clean_up(args.remove, args.shm_prefix, orphan)
    _say(f"exit {server.returncode}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
