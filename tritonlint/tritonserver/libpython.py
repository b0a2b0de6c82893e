"""This Python's shared library, which the python backend's stub is linked against.

The stub of Triton's python backend (one per Python version) loads ``libpython3.X.so.1.0`` by
its name alone. A Python installed outside the system's library folders (pyenv, conda, a
build of one's own) keeps that library in its own ``lib/``; without it on the loader's path
the stub never starts and the server waits on it until the load times out. That ``lib/`` is
not put on the path itself (a conda one holds its own libstdc++, which would shadow the
system's for the server): a folder holding only a link to the library is.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sysconfig
from collections.abc import Mapping
from pathlib import Path


def link_library(folder: Path) -> Path | None:
    """Make ``folder`` hold a link to this Python's shared library; the folder, or None when
    this Python has no shared library where its build says."""
    name = sysconfig.get_config_var("INSTSONAME")
    library_dir = sysconfig.get_config_var("LIBDIR")
    if not isinstance(name, str) or not isinstance(library_dir, str) or ".so" not in name:
        return None
    library = Path(library_dir, name)
    if not library.is_file():
        return None
    folder.mkdir(parents=True, exist_ok=True)
    link = folder / name
    with contextlib.suppress(FileNotFoundError):
        link.unlink()
    os.symlink(library, link)
    return folder


def unresolved_libraries(binary: Path, environment: Mapping[str, str]) -> list[str]:
    """The shared libraries of ``binary`` the loader does not find with ``environment``
    (by ``ldd``; an empty list where ``ldd`` is missing or cannot tell)."""
    ldd = shutil.which("ldd")
    if ldd is None or not binary.is_file():
        return []
    try:
        listing = subprocess.run(
            [ldd, str(binary)],
            env=dict(environment),
            capture_output=True,
            text=True,
            errors="replace",
            timeout=30,
            check=False,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    return [
        line.split("=>", 1)[0].strip()
        for line in listing.splitlines()
        if line.rstrip().endswith("=> not found")
    ]
