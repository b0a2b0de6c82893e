"""numpy<2 for the python backend's stub of the embedded server, outside the user's environment.

Triton 2.51's python backend stub loads models with numpy 2 but answers requests wrongly with
it (a binary answer with no data, a JSON one refused, a BYTES model's stub dying). The stub ignores
``PYTHONPATH``: it takes its packages from the environment of the ``python`` first on the
server's ``PATH``. So the server is given a virtual environment of its own, in the run's
temporary folder (:func:`stub_environment`): this Python, with a ``.pth`` file that puts a
folder holding numpy<2 first and then this environment's site-packages (onnxruntime, openvino
and whatever python models import run with numpy 1.x there)::

    <cache>/tritonserver-2.51.0/stub-packages-py3.11/     pip install --target ... 'numpy<2'

The folder is made once, by this Python's pip, in a temporary folder renamed into place. On a
machine without an index, ``$TRITONLINT_STUB_PACKAGES`` names a folder prepared the same way.
Where no numpy<2 can be had (offline, a Python with no numpy<2 wheel), python-backend models are not
inferred, with :class:`StubPackagesError`'s reason.
"""

from __future__ import annotations

import os
import site
import sys
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path

from tritonlint.programs import NEUTRAL_FOLDER
from tritonlint.tritonserver.provision import (
    locked,
    pip_complaint,
    run_pip,
    server_cache_dir,
    staged_folder,
)

STUB_PACKAGES_ENV = "TRITONLINT_STUB_PACKAGES"
NUMPY_REQUIREMENT = "numpy<2"
#: How to make the folder by hand, for the reason given where it cannot be made.
_FIX = (
    f"make one with `python{sys.version_info[0]}.{sys.version_info[1]} -m pip install --target "
    f"DIR '{NUMPY_REQUIREMENT}'` and point ${STUB_PACKAGES_ENV} at DIR"
)


class StubPackagesError(RuntimeError):
    """No numpy<2 for the stub: python-backend models answer wrongly, so none is inferred."""


def stub_packages_dir(
    environ: Mapping[str, str] | None = None,
    busy: Callable[[str], AbstractContextManager[object]] | None = None,
) -> Path:
    """The folder with numpy<2 for the stub (``$TRITONLINT_STUB_PACKAGES``, else the cache's,
    made on first use, with ``busy`` shown meanwhile)."""
    env = os.environ if environ is None else environ
    given = env.get(STUB_PACKAGES_ENV)
    if given:
        folder = Path(os.path.abspath(Path(given).expanduser()))
        if not _has_numpy1(folder):
            raise StubPackagesError(
                f"${STUB_PACKAGES_ENV} names {folder}, which holds no numpy<2 ({_FIX})"
            )
        return folder
    minor = f"{sys.version_info[0]}.{sys.version_info[1]}"
    cache = server_cache_dir()
    target = cache / f"stub-packages-py{minor}"
    if _has_numpy1(target):
        return target
    cache.mkdir(parents=True, exist_ok=True)
    with locked(cache / ".lock"):
        if not _has_numpy1(target):
            shown = busy or (lambda _text: nullcontext())
            with shown(f"Installing {NUMPY_REQUIREMENT} for the python backend's stub"):
                _install(target)
    return target


def stub_environment(folder: Path, packages: Path) -> Path:
    """Make at ``folder`` a virtual environment of this Python whose imports find ``packages``
    first, then this environment's site-packages; its ``python`` executable."""
    minor = f"{sys.version_info[0]}.{sys.version_info[1]}"
    base = Path(getattr(sys, "_base_executable", sys.executable))
    bin_dir = folder / "bin"
    site_dir = folder / "lib" / f"python{minor}" / "site-packages"
    bin_dir.mkdir(parents=True, exist_ok=True)
    site_dir.mkdir(parents=True, exist_ok=True)
    (folder / "pyvenv.cfg").write_text(
        f"home = {base.parent}\ninclude-system-site-packages = false\nversion = {minor}\n",
        encoding="utf-8",
    )
    for name in ("python", "python3", f"python{minor}"):
        link = bin_dir / name
        if not link.exists():
            link.symlink_to(base)
    # A .pth line is a folder to add, or an import statement to run: addsitedir also reads
    # the .pth files of this environment (editable installs, for instance).
    lines = [str(packages)]
    lines += [f"import site; site.addsitedir({path!r})" for path in _site_folders()]
    (site_dir / "tritonlint-stub.pth").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return bin_dir / "python"


def _site_folders() -> list[str]:
    """The site-packages folders of the Python running tritonlint (its user site included)."""
    folders = [p for p in site.getsitepackages() if os.path.isdir(p)]
    user = site.getusersitepackages() if site.ENABLE_USER_SITE else None
    if user and os.path.isdir(user):
        folders.append(user)
    return folders


def _has_numpy1(folder: Path) -> bool:
    """Whether ``folder`` holds a numpy 1.x package (by its dist-info: nothing is imported)."""
    return any(folder.glob("numpy-1.*.dist-info")) and (folder / "numpy").is_dir()


def _install(target: Path) -> None:
    quiet = ["--quiet", "--disable-pip-version-check", "--no-warn-script-location"]
    with staged_folder(target) as staging:
        # Binary wheels only (no compiler runs), for this Python's version.
        wheels = ["--only-binary=:all:", "--target", str(staging), NUMPY_REQUIREMENT]
        result = run_pip(["install", *quiet, *wheels], cwd=Path(NEUTRAL_FOLDER))
        if result.returncode != 0 or not _has_numpy1(staging):
            detail = pip_complaint(result, lines=3) or "no numpy 1.x installed"
            raise StubPackagesError(
                f"pip could not install '{NUMPY_REQUIREMENT}' for the python backend's stub "
                f"({detail}); {_FIX}"
            )
