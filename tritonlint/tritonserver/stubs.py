"""Stand-in backends for the backends the pytriton wheel does not ship.

The wheel holds only the python backend. Every other backend a config names (onnxruntime,
pytorch, tensorrt, tensorflow, openvino, or a custom one such as ``lightseq``) gets a stub, so
that the real server still runs its whole config validation for the model. A stub answers every
request, warmup requests included, with an empty successful response. For the backends Triton
ships it also refuses a model whose model file is missing from a version folder, with the
message those backends use (``unable to find '<path>' for model instance '<instance>'``). What a
stub cannot check: the real backend's own auto-complete and the contents of the model file.

Two kinds of stub:

* native (preferred): a tiny C shared library, compiled once per cache with ``cc`` and copied
  as ``<backend_dir>/<name>/libtriton_<name>.so``. Loading a model costs a few milliseconds.
* python: ``<backend_dir>/<name>/model.py`` with a trivial ``TritonPythonModel`` (a Python-based
  backend). Needs no compiler but starts one Python process per model instance (about 1.4 s).

:func:`build_backend_dir` lays out a temporary backend folder holding the stubs next to (a copy
of) the real python backend.
"""

from __future__ import annotations

import contextlib
import enum
import hashlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterable
from importlib import resources
from pathlib import Path

from tritonlint.programs import find_program
from tritonlint.repository.server_fill_in import ENSEMBLE, PLATFORMS
from tritonlint.tritonserver.provision import (
    PYTHON_STUB_NAME,
    ProvisionError,
    TritonInstall,
    server_cache_dir,
)

#: Backends that Triton knows by name but the wheel does not ship.
KNOWN_MISSING_BACKENDS = ("onnxruntime", "pytorch", "tensorrt", "tensorflow", "openvino")

#: Platform names are never backend names: ``backend: "tensorrt_plan"`` gets no stub, so the
#: server refuses it as a full Triton installation would (no such backend library).
PLATFORM_NAMES = frozenset({*PLATFORMS, ENSEMBLE})


#: The native stub's C source, shipped next to this module.
NATIVE_STUB_SOURCE = resources.files("tritonlint.tritonserver").joinpath("stub_backend.c")

PYTHON_STUB_SOURCE = '''\
"""Stand-in for a backend that is not installed (a Python-based backend).

Like the native stub: refuses a model whose model file is missing, as the backends Triton ships
do, and answers every request with an empty success.
"""

import json
import os

import triton_python_backend_utils as pb_utils

DEFAULT_FILES = {
    "onnxruntime": "model.onnx",
    "pytorch": "model.pt",
    "tensorrt": "model.plan",
    "openvino": "model.xml",
    "tensorflow": "model.savedmodel",
}


class TritonPythonModel:
    def initialize(self, args):
        config = json.loads(args["model_config"])
        backend = config.get("backend", "")
        if backend not in DEFAULT_FILES or config.get("cc_model_filenames"):
            return
        default = DEFAULT_FILES[backend]
        if config.get("platform") == "tensorflow_graphdef":
            default = "model.graphdef"
        wanted = config.get("default_model_filename") or default
        path = os.path.join(args["model_repository"], args["model_version"], wanted)
        if backend == "onnxruntime" and os.path.isdir(path):
            path = os.path.join(path, "model.onnx")
        if not os.path.exists(path):
            if backend == "openvino":
                raise pb_utils.TritonModelException(
                    f"unable to find '{path}' for model '{args['model_name']}'"
                )
            raise pb_utils.TritonModelException(
                f"unable to find '{path}' for model instance '{args['model_instance_name']}'"
            )

    def execute(self, requests):
        return [pb_utils.InferenceResponse(output_tensors=[]) for _ in requests]

    def finalize(self):
        pass
'''


class StubKind(str, enum.Enum):
    NATIVE = "native"
    PYTHON = "python"


class StubError(RuntimeError):
    """A stub backend could not be built."""


def find_compiler() -> str | None:
    """The C compiler to build the native stub with (``$CC``, ``cc``, ``gcc`` or ``clang``),
    as an absolute path (see :func:`~tritonlint.programs.find_program`)."""
    candidates = [os.environ.get("CC", ""), "cc", "gcc", "clang"]
    for name in candidates:
        found = find_program(name)
        if found is not None:
            return found
    return None


def native_stub_library(compiler: str | None = None) -> Path:
    """Compile the native stub once per cache (keyed by source hash) and return the library."""
    source_text = NATIVE_STUB_SOURCE.read_text()
    digest = hashlib.sha256(source_text.encode()).hexdigest()[:16]
    library = server_cache_dir() / "stubs" / digest / "libtriton_stub.so"
    if library.is_file():
        return library
    compiler = compiler or find_compiler()
    if compiler is None:
        raise StubError("no C compiler found (set $CC or install cc)")
    library.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=library.parent, prefix=".build-") as tmp:
        source = Path(tmp, "stub.c")
        source.write_text(source_text)
        output = Path(tmp, library.name)
        # The TRITON* symbols stay undefined: the server process provides them at load time.
        command = [compiler, "-shared", "-fPIC", "-O2", "-std=c99", "-Wall", "-Wextra"]
        command += ["-o", str(output), str(source)]
        result = subprocess.run(
            command, cwd=tmp, stdin=subprocess.DEVNULL, capture_output=True, text=True, check=False
        )
        if result.returncode != 0:
            raise StubError(f"compiling the native stub failed: {result.stderr.strip()}")
        os.replace(output, library)
    return library


def default_stub_kind() -> StubKind:
    """Native when a C compiler is around (or the stub is already compiled), else python."""
    return StubKind.NATIVE if find_compiler() else StubKind.PYTHON


def build_backend_dir(
    install: TritonInstall,
    target: Path,
    backends: Iterable[str] = (),
    *,
    kind: StubKind | None = None,
    stub_python: bool = False,
) -> Path:
    """Lay out (or extend) a backend directory at ``target`` and return it.

    It holds ``python/`` (the real python backend with the stub for the running Python)
    and one stub per name in ``backends`` plus :data:`KNOWN_MISSING_BACKENDS` (except
    :data:`PLATFORM_NAMES`). Folders that
    already exist are left alone, so a running server's backend directory can be extended.
    With ``stub_python`` the python backend itself is replaced by the native stub: much faster,
    but ``model.py`` files are then never run nor checked.
    """
    kind = kind or default_stub_kind()
    target.mkdir(parents=True, exist_ok=True)
    names = {*KNOWN_MISSING_BACKENDS, *backends} - {"python"} - PLATFORM_NAMES
    names = {name for name in names if _is_plain_name(name)}
    if stub_python:
        names.add("python")
    elif not (target / "python").exists():
        copy_python_backend(install, target / "python")
    for name in sorted(names):
        folder = target / name
        if folder.exists():
            continue
        staging = Path(tempfile.mkdtemp(dir=target, prefix=f".{name}-"))
        if kind is StubKind.NATIVE or name == "python":
            shutil.copyfile(native_stub_library(), staging / f"libtriton_{name}.so")
        else:
            (staging / "model.py").write_text(PYTHON_STUB_SOURCE)
        staging.chmod(0o755)
        staging.rename(folder)
    return target


def copy_python_backend(install: TritonInstall, folder: Path) -> None:
    """The real python backend with the stub for the running Python.

    Copied, not linked: the server refuses a backend library whose real path lies outside the
    backend directory (``backend library name ... escapes backend directory``).
    """
    folder.mkdir()
    for entry in install.python_backend_dir.iterdir():
        if entry.name != PYTHON_STUB_NAME and entry.is_file() and not entry.name.startswith("."):
            shutil.copy2(entry, folder / entry.name)
    with contextlib.suppress(ProvisionError):  # no stub for this Python: python models fail
        shutil.copy2(install.python_stub(), folder / PYTHON_STUB_NAME)


def _is_plain_name(name: str) -> bool:
    return bool(name) and not name.startswith(".") and "/" not in name and "\0" not in name
