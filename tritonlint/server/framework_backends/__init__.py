"""Framework-backed stand-ins: Python-based backends that load model files with the real
framework where the server lacks Triton's backend for it.

Triton's python backend serves any backend whose folder in the backend directory holds a
``model.py`` (a *Python-based backend*). tritonlint ships one per framework it can stand in
for, next to this module (``onnxruntime/model.py``, ``openvino/model.py``);
:func:`build_framework_backend_dir` lays out a backend directory for one run, holding a copy
of the real python backend (with the stub for the running Python) and those backends.
The backend's ``model.py`` runs in the python backend's stub process, whose interpreter is
the one running tritonlint (see
:meth:`tritonlint.server.process.TritonServer.environment`): a framework is usable when its
package is importable here.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from tritonlint.repository.autofill import KNOWN_BACKENDS
from tritonlint.server.provision import TritonInstall
from tritonlint.server.stubs import copy_python_backend


@dataclass(frozen=True)
class Framework:
    """A framework that stands in for one of Triton's backends."""

    #: The Triton backend it stands in for, and the module the backend imports.
    backend: str
    module: str
    #: The distributions that provide the module (the first one is the one to install).
    distributions: tuple[str, ...]
    #: Where the framework runs a model, in the status line: ``{provider}`` is CPU or CUDA.
    device: str = "{provider} execution provider"
    #: Whether the framework runs a KIND_GPU model with CUDA where it can.
    cuda: bool = False
    #: The platform names that select the backend.
    platforms: tuple[str, ...] = ()

    @property
    def model_filename(self) -> str:
        """The model file the backend loads where the config names none
        (``default_model_filename``)."""
        filename = KNOWN_BACKENDS[self.backend]
        assert filename is not None
        return filename

    @property
    def install_hint(self) -> str:
        return f"pip install {self.distributions[0]}"


FRAMEWORKS: dict[str, Framework] = {
    "onnxruntime": Framework(
        backend="onnxruntime",
        module="onnxruntime",
        distributions=("onnxruntime", "onnxruntime-gpu", "onnxruntime-openvino"),
        cuda=True,
        platforms=("onnxruntime_onnx",),
    ),
    "openvino": Framework(
        backend="openvino",
        module="openvino",
        distributions=("openvino",),
        device="CPU",
    ),
}


def framework_for(backend: str | None, platform: str | None) -> Framework | None:
    """The framework that can stand in for a model's backend (named, or by its platform)."""
    for framework in FRAMEWORKS.values():
        if backend == framework.backend or (backend is None and platform in framework.platforms):
            return framework
    return None


def framework_version(framework: Framework) -> str | None:
    """The version of the framework's package importable here, or None when it is not."""
    try:
        if importlib.util.find_spec(framework.module) is None:
            return None
    except (ImportError, ValueError):
        return None
    for distribution in framework.distributions:
        try:
            return importlib.metadata.version(distribution)
        except importlib.metadata.PackageNotFoundError:
            continue
    return "(version unknown)"


def backend_source(framework: Framework) -> str:
    """The text of the Python-based backend shipped for ``framework``."""
    folder = resources.files("tritonlint.server.framework_backends").joinpath(framework.backend)
    return folder.joinpath("model.py").read_text(encoding="utf-8")


def build_framework_backend_dir(
    install: TritonInstall, target: Path, frameworks: Iterable[Framework]
) -> Path:
    """A backend directory at ``target`` (which must not exist): the real python backend and
    the Python-based backend of each framework."""
    target.mkdir(parents=True)
    copy_python_backend(install, target / "python")
    for framework in frameworks:
        folder = target / framework.backend
        folder.mkdir()
        (folder / "model.py").write_text(backend_source(framework), encoding="utf-8")
    return target


__all__ = [
    "FRAMEWORKS",
    "Framework",
    "backend_source",
    "build_framework_backend_dir",
    "framework_for",
    "framework_version",
]
