"""tritonserver's own completion of platform, backend and default model file name.

Before validating a config the server fills in ``platform``, ``backend`` and
``default_model_filename`` from each other and from the files of the *first* subfolder (in
byte order) of the model folder. Rules judge the completed values, so that a config the
server accepts is never flagged.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from tritonlint.repository.graph import ENSEMBLE
from tritonlint.repository.model import ModelFolder

__all__ = ["ENSEMBLE", "KNOWN_BACKENDS", "PLATFORMS", "PLATFORM_BACKENDS", "Completed", "complete"]

#: platform → (backend, default model file name)
PLATFORMS: dict[str, tuple[str, str]] = {
    "tensorrt_plan": ("tensorrt", "model.plan"),
    "onnxruntime_onnx": ("onnxruntime", "model.onnx"),
    "pytorch_libtorch": ("pytorch", "model.pt"),
    "tensorflow_savedmodel": ("tensorflow", "model.savedmodel"),
    "tensorflow_graphdef": ("tensorflow", "model.graphdef"),
}

#: Backends whose platform must match (the server checks the pair).
PLATFORM_BACKENDS = frozenset({"tensorrt", "onnxruntime", "pytorch", "tensorflow"})

#: Backends tritonserver releases ship or document, and their default model file.
KNOWN_BACKENDS: dict[str, str | None] = {
    "tensorrt": "model.plan",
    "onnxruntime": "model.onnx",
    "pytorch": "model.pt",
    "tensorflow": None,  # model.savedmodel or model.graphdef, chosen by the platform
    "openvino": "model.xml",
    "python": "model.py",
    "dali": "model.dali",
    "fil": None,
    "identity": None,
    "repeat": None,
    "square": None,
    "tensorrtllm": None,
    "vllm": None,
}


class Completed(NamedTuple):
    platform: str
    backend: str
    default_model_filename: str
    #: True when the server could not determine any backend (the name has no '.').
    undeterminable: bool = False


def _first_subfolder_has(model: ModelFolder, name: str, *, directory: bool | None) -> bool:
    if not model.subfolders:
        return False
    entry = model.subfolders[0].entry(name)
    if entry is None:
        return False
    return directory is None or entry.is_dir == directory


def complete(model: ModelFolder, config: Any | None) -> Completed:
    """The platform, backend and default model file name the server will use."""
    platform = config.platform if config is not None else ""
    backend = config.backend if config is not None else ""
    filename = config.default_model_filename if config is not None else ""
    runtime = config.runtime if config is not None else ""
    nothing_given = not platform and not filename

    def has(name: str, *, directory: bool | None) -> bool:
        return _first_subfolder_has(model, name, directory=directory)

    if not platform and backend in ("", "tensorflow"):
        if filename == "model.savedmodel":
            platform = "tensorflow_savedmodel"
        elif filename == "model.graphdef":
            platform = "tensorflow_graphdef"
        elif not filename:
            if has("model.savedmodel", directory=True):
                platform = "tensorflow_savedmodel"
            if has("model.graphdef", directory=False):
                platform = "tensorflow_graphdef"
    if platform in ("tensorflow_savedmodel", "tensorflow_graphdef"):
        return Completed(platform, backend or "tensorflow", filename or PLATFORMS[platform][1])

    # TensorRT, ONNX Runtime and PyTorch: the platform or file name names the backend, or,
    # when neither is given, the model file found in the first subfolder does.
    for own_platform, own_backend, own_file, file_may_be_dir in (
        ("tensorrt_plan", "tensorrt", "model.plan", False),
        ("onnxruntime_onnx", "onnxruntime", "model.onnx", None),
    ):
        if not backend and (
            platform == own_platform
            or filename == own_file
            or (nothing_given and has(own_file, directory=file_may_be_dir))
        ):
            backend = own_backend
        if backend == own_backend:
            return Completed(platform or own_platform, backend, filename or own_file)

    if not backend and (
        filename == "model.xml" or (nothing_given and has("model.xml", directory=None))
    ):
        backend = "openvino"
    if backend == "openvino":
        return Completed(platform, backend, filename or "model.xml")

    if not backend and (
        platform == "pytorch_libtorch"
        or filename == "model.pt"
        or (nothing_given and has("model.pt", directory=False))
    ):
        backend = "pytorch"
    if backend == "pytorch":
        default = "" if runtime == "model.py" else "model.pt"
        return Completed(platform or "pytorch_libtorch", backend, filename or default)

    if not backend and (
        filename == "model.py" or (nothing_given and has("model.py", directory=None))
    ):
        backend = "python"
    if backend == "python":
        return Completed(platform, backend, filename or "model.py")

    if not backend and nothing_given:
        # The server takes the backend from the folder's name, `model.<backend>`.
        if "." not in model.name:
            return Completed("", "", "", undeterminable=True)
        custom = model.name.split(".", 1)[1]
        return Completed("", custom, f"model.{custom}")
    return Completed(platform, backend, filename)
