"""The smoke stage's temporary folder, and what killed runs left of theirs.

Each run works in ``$TMPDIR/tritonlint-smoke-XXXXXXXX/`` (the staged copy of the repository,
the server's log), removed when the run ends. The folder holds a marker naming its owner (the
process id and its start time, so that a reused process id is not taken for the owner) and the
prefix of the server's shared-memory regions. While the server runs, its supervisor removes the
folder if tritonlint dies (see :mod:`tritonlint.tritonserver.supervisor`); a run killed at another
moment (while it copies the repository, say) leaves it behind. So each run first removes the
folders whose owner is gone, with the tritonserver and python stub processes still running on
them and their shared memory.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

PREFIX = "tritonlint-smoke-"
MARKER = "tritonlint-owner.json"
#: The processes a run starts on its folder: they are killed with an abandoned folder.
_SERVER_PROCESSES = ("tritonserver", "triton_python_backend_stub")
_PROC = Path("/proc")
_KILL_SCANS = 5
_SHM_DIR = Path("/dev/shm")


@dataclass(frozen=True)
class WorkFolder:
    path: Path
    #: The prefix of the server's shared-memory regions (python backend).
    shm_prefix: str


@contextlib.contextmanager
def work_folder() -> Iterator[WorkFolder]:
    """A fresh temporary folder with its owner's marker (leftovers of killed runs removed
    first); removed at the end."""
    remove_abandoned()
    with tempfile.TemporaryDirectory(prefix=PREFIX) as name:
        path = Path(name)
        shm_prefix = f"tritonlint_{path.name[len(PREFIX) :]}_"
        owner = {"pid": os.getpid(), "start": process_start(os.getpid()), "shm": shm_prefix}
        (path / MARKER).write_text(json.dumps(owner) + "\n", encoding="utf-8")
        yield WorkFolder(path, shm_prefix)


def remove_abandoned(root: Path | None = None) -> list[Path]:
    """Remove this user's work folders (under ``root``, the temporary folder) whose owner is
    no longer running, with the server processes on them; the folders removed."""
    root = Path(tempfile.gettempdir()) if root is None else root
    removed = []
    for folder in sorted(root.glob(f"{PREFIX}*")):
        owner = _owner(folder)
        if owner is None or _running(owner.get("pid"), owner.get("start")):
            continue
        _kill_server_processes(folder)
        shm = owner.get("shm")
        if isinstance(shm, str) and shm.startswith("tritonlint_") and _SHM_DIR.is_dir():
            for region in _SHM_DIR.glob(f"{shm}*"):
                with contextlib.suppress(OSError):
                    region.unlink()
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder)
    return removed


def process_start(pid: int) -> int | None:
    """When process ``pid`` started (clock ticks after boot; Linux), None if unknown."""
    try:
        stat = (_PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rfind(")") + 2 :].split()
    return int(fields[19]) if len(fields) > 19 and fields[19].isdigit() else None


def _owner(folder: Path) -> dict[str, object] | None:
    """The marker of a folder of this user's (None: not one of ours, or no marker)."""
    try:
        info = folder.lstat()
        if not folder.is_dir() or folder.is_symlink() or info.st_uid != os.getuid():
            return None
        owner = json.loads((folder / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return owner if isinstance(owner, dict) else None


def _running(pid: object, start: object) -> bool:
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return start is None or process_start(pid) in (None, start)


def _kill_server_processes(folder: Path) -> None:
    """SIGKILL this user's tritonserver and python stub processes whose arguments name a
    path in ``folder``, scanning again until a scan finds none: a server killed while it
    was starting a stub may leave one that appeared after the scan had passed its number."""
    if not _PROC.is_dir():
        return
    inside = f"{folder}{os.sep}".encode()
    for _ in range(_KILL_SCANS):
        if not _kill_matching(inside):
            return


def _kill_matching(inside: bytes) -> bool:
    """One scan of /proc; whether it found a process to kill."""
    found = False
    for entry in _PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if entry.stat().st_uid != os.getuid():
                continue
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        program = os.path.basename(argv[0].decode(errors="replace"))
        if program in _SERVER_PROCESSES and any(inside in arg for arg in argv[1:]):
            found = True
            with contextlib.suppress(OSError):
                os.kill(int(entry.name), signal.SIGKILL)
    return found
