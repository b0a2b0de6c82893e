"""Framework-backed stand-ins: Python-based backends that load model files with the real
framework where the server lacks Triton's backend for it.

Triton's python backend serves any backend whose folder in the backend directory holds a
``model.py`` (a *Python-based backend*). tritonlint ships one per framework it can stand in
for, next to this module (``onnxruntime/model.py``, ``openvino/model.py``);
:func:`build_framework_backend_dir` lays out a backend directory for one run, holding a copy
of the real python backend (with the stub for the running Python) and those backends.
The backend's ``model.py`` runs in the python backend's stub process, whose interpreter is
the one running tritonlint (see
:meth:`tritonlint.tritonserver.process.TritonServer.environment`): a framework is usable when its
package is importable here. Nothing here imports a framework: whether one is installed, and
whether its build has CUDA, is read from its package's files and metadata (importing torch or
tensorflow takes seconds and hundreds of megabytes; the stand-in imports it in its own
process).
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import re
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from tritonlint.repository.server_fill_in import KNOWN_BACKENDS, PLATFORMS
from tritonlint.tritonserver.provision import TritonInstall
from tritonlint.tritonserver.stubs import copy_python_backend


@dataclass(frozen=True)
class Framework:
    """A framework that stands in for one of Triton's backends."""

    #: The Triton backend it stands in for, and the module the backend imports.
    backend: str
    module: str
    #: The distributions that provide the module, in the order their version is looked up.
    distributions: tuple[str, ...]
    #: tritonlint's extras that install what the stand-in needs: for the CPU, and with CUDA.
    extra: str
    gpu_extra: str | None = None
    #: Where the framework runs a model, in the status line: on the CPU, and on GPU ``{gpu}``
    #: (None: never on a GPU).
    cpu_words: str = "CPU execution provider"
    gpu_words: str | None = None
    #: How to tell, without importing it, that the installed build runs on CUDA: a file of the
    #: package and a pattern its text matches (an empty pattern: the file exists). None with
    #: ``gpu_words``: every build does.
    cuda_build: tuple[str, str] | None = None
    #: The stand-in loads models only on a GPU (TensorRT's plans are built for one).
    gpu_only: bool = False
    #: The platform names that select the backend.
    platforms: tuple[str, ...] = ()
    #: Platforms of the backend that the stand-in does not load, and why.
    not_stood_in: tuple[tuple[str, str], ...] = ()
    #: The default model file where the backend's depends on the platform.
    default_filename: str | None = None
    #: Where the model file may be a folder: the file in it that makes it a model.
    folder_file: str | None = None
    #: The install command the summary suggests where the framework is missing.
    install: str | None = None

    @property
    def model_filename(self) -> str:
        """The model file the backend loads where the config names none
        (``default_model_filename``)."""
        filename = self.default_filename or KNOWN_BACKENDS[self.backend]
        assert filename is not None
        return filename

    @property
    def install_hint(self) -> str:
        return self.install or f"pip install {self.distributions[0]}"

    def device_words(self, gpu: int | None) -> str:
        """Where the model runs, in the status line: ``CPU execution provider``, ``on
        cuda:0``."""
        if gpu is None or self.gpu_words is None:
            return self.cpu_words
        return self.gpu_words.format(gpu=gpu)

    def not_stood_in_for(self, platform: str | None, filename: str | None) -> str | None:
        """Why the stand-in does not load a model of this platform (or whose model file is the
        one of such a platform), or None where it does."""
        for name, reason in self.not_stood_in:
            if platform == name or (
                platform is None and filename == PLATFORMS.get(name, ("", ""))[1]
            ):
                return reason
        return None


FRAMEWORKS: dict[str, Framework] = {
    "onnxruntime": Framework(
        backend="onnxruntime",
        module="onnxruntime",
        distributions=("onnxruntime", "onnxruntime-gpu", "onnxruntime-openvino"),
        extra="smoke-onnx",
        gpu_extra="smoke-onnx-gpu",
        gpu_words="CUDA execution provider",
        cuda_build=("capi/libonnxruntime_providers_cuda.so", ""),
        platforms=("onnxruntime_onnx",),
        folder_file="model.onnx",
    ),
    "openvino": Framework(
        backend="openvino",
        module="openvino",
        distributions=("openvino",),
        extra="smoke-openvino",
        cpu_words="CPU",
    ),
    "pytorch": Framework(
        backend="pytorch",
        module="torch",
        distributions=("torch",),
        extra="smoke-torch",
        gpu_extra="smoke-torch",
        cpu_words="on CPU",
        gpu_words="on cuda:{gpu}",
        # torch/version.py: ``cuda: Optional[str] = '12.8'`` in a CUDA build, ``= None`` else.
        cuda_build=("version.py", r"(?m)^cuda\b[^=\n]*=\s*['\"]"),
        platforms=("pytorch_libtorch",),
    ),
    "tensorflow": Framework(
        backend="tensorflow",
        module="tensorflow",
        distributions=("tensorflow", "tensorflow-cpu", "tensorflow-gpu", "tf-nightly"),
        extra="smoke-tf",
        gpu_extra="smoke-tf-gpu",
        cpu_words="on CPU",
        gpu_words="on GPU:{gpu}",
        cuda_build=("python/platform/build_info.py", r"['\"]is_cuda_build['\"]:\s*True"),
        platforms=("tensorflow_savedmodel",),
        not_stood_in=(
            (
                "tensorflow_graphdef",
                "a GraphDef is not loaded by the tensorflow stand-in (TensorFlow 2 has no "
                "session API to run one as the backend does): config validated only",
            ),
        ),
        default_filename="model.savedmodel",
        folder_file="saved_model.pb",
        install="pip install tensorflow-cpu",
    ),
    "tensorrt": Framework(
        backend="tensorrt",
        module="tensorrt",
        distributions=("tensorrt", "tensorrt-cu12", "tensorrt-cu13", "tensorrt-cu11"),
        extra="smoke-tensorrt",
        gpu_extra="smoke-tensorrt",
        cpu_words="on CPU",
        gpu_words="on cuda:{gpu}",
        gpu_only=True,
        platforms=("tensorrt_plan",),
        install="pip install tensorrt-cu12 cupy-cuda12x",
    ),
}


def framework_for(backend: str | None, platform: str | None) -> Framework | None:
    """The framework that can stand in for a model's backend (named, or by its platform)."""
    for framework in FRAMEWORKS.values():
        platforms = (*framework.platforms, *(name for name, _ in framework.not_stood_in))
        if backend == framework.backend or (backend is None and platform in platforms):
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


def framework_has_cuda(framework: Framework) -> bool:
    """Whether the installed build of the framework runs models on CUDA, read from its
    package's files (nothing is imported)."""
    if framework.gpu_words is None:
        return False
    if framework.cuda_build is None:
        return True
    try:
        spec = importlib.util.find_spec(framework.module)
    except (ImportError, ValueError):
        return False
    if spec is None or not spec.submodule_search_locations:
        return False
    relative, pattern = framework.cuda_build
    for folder in spec.submodule_search_locations:
        path = Path(folder) / relative
        if not path.is_file():
            continue
        if not pattern:
            return True
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return False
        return re.search(pattern, text) is not None
    return False


def backend_source(framework: Framework) -> str:
    """The text of the Python-based backend shipped for ``framework``."""
    folder = resources.files("tritonlint.tritonserver.framework_backends").joinpath(
        framework.backend
    )
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
    "framework_has_cuda",
    "framework_version",
]
