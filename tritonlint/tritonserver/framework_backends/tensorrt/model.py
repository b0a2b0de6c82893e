"""A Python-based backend named ``tensorrt``, served by Triton's python backend.

It stands in for Triton's TensorRT backend where the server lacks it: it deserializes the plan
with the ``tensorrt`` package of the python backend's interpreter on the instance's GPU and,
as the real backend does at load, refuses an instance that is not on a GPU, chooses the plan
(``cc_model_filenames`` for the GPU's compute capability, else ``default_model_filename``,
else ``model.plan``), deserializes it (a plan TensorRT cannot read is refused with the errors
TensorRT logged) and compares the config's inputs and outputs with the engine's I/O tensors:
names, data types and ranks, refusing the model with that backend's messages
(tensorrt_backend ``src/instance_state.cc``, release r24.10). ``execute()`` runs the engine on
the requests through an execution context, with device buffers from torch (or CuPy).

TensorRT needs a GPU: the smoke stage uses this backend only where the server has one, and
leaves TensorRT models to the config-only stand-in elsewhere.

It runs inside the python backend's stub process, never in tritonlint: its imports
(``triton_python_backend_utils`` above all) exist only there.
"""

from __future__ import annotations

import json
import os
from typing import Any

import numpy as np
import tensorrt as trt  # type: ignore[import-not-found,unused-ignore]
import triton_python_backend_utils as pb_utils  # type: ignore[import-not-found]

from tritonlint.tritonserver.framework_backends.serving import respond

BACKEND = "tensorrt"
DEFAULT_MODEL_FILENAME = "model.plan"

#: TensorRT's data types (``trt.DataType`` member names), by the server's names.
SERVER_TYPES = {
    "BOOL": "BOOL",
    "UINT8": "UINT8",
    "INT8": "INT8",
    "INT32": "INT32",
    "INT64": "INT64",
    "HALF": "FP16",
    "FLOAT": "FP32",
    "BF16": "BF16",
}
NUMPY_TYPES = {
    "BOOL": np.bool_,
    "UINT8": np.uint8,
    "INT8": np.int8,
    "INT32": np.int32,
    "INT64": np.int64,
    "FP16": np.float16,
    "FP32": np.float32,
}


class ErrorLogger(trt.ILogger):  # type: ignore[misc,unused-ignore]
    """Keeps the errors TensorRT logs: its message for a plan it cannot deserialize."""

    def __init__(self) -> None:
        trt.ILogger.__init__(self)
        self.errors: list[str] = []

    def log(self, severity: Any, msg: str) -> None:
        if severity in (trt.ILogger.Severity.ERROR, trt.ILogger.Severity.INTERNAL_ERROR):
            self.errors.append(msg.strip())


class TritonPythonModel:
    def initialize(self, args: dict[str, str]) -> None:
        config = json.loads(args["model_config"])
        self.name = args["model_name"]
        if args.get("model_instance_kind") != "GPU":
            raise pb_utils.TritonModelException(
                f"unable to load model '{self.name}', TensorRT backend supports only GPU device"
            )
        self.gpu = int(args.get("model_instance_device_id") or 0)
        self.buffers = device_buffers()
        self.buffers.set_device(self.gpu)
        filename = plan_filename(config, self.buffers.capability(self.gpu))
        path = os.path.join(args["model_repository"], args["model_version"], filename)
        if not os.path.exists(path):
            raise pb_utils.TritonModelException(
                f"unable to find '{path}' for model instance '{args['model_instance_name']}'"
            )
        with open(path, "rb") as file:
            plan = file.read()
        self.logger = ErrorLogger()
        self.runtime = trt.Runtime(self.logger)
        self.engine = deserialize(self.runtime, plan, self.logger)
        tensors = engine_tensors(self.engine)
        problem = check(self.name, config, tensors)
        if problem is not None:
            raise pb_utils.TritonModelException(problem)
        self.context = self.engine.create_execution_context()
        self.inputs = [name for name, (mode, _, _) in tensors.items() if mode == "INPUT"]
        self.outputs = [output["name"] for output in config.get("output", [])]
        self.types = {name: server_type for name, (_, server_type, _) in tensors.items()}

    def execute(self, requests: list[Any]) -> list[Any]:
        return respond(requests, self.run)

    def run(self, request: Any) -> list[Any]:
        """The engine on one request: inputs copied to the GPU, outputs copied back."""
        keep = []
        for name in self.inputs:
            found = pb_utils.get_input_tensor_by_name(request, name)
            if found is None:
                raise ValueError(f"input '{name}' is missing from the request")
            array = np.ascontiguousarray(found.as_numpy())
            self.context.set_input_shape(name, tuple(array.shape))
            buffer, address = self.buffers.upload(array, self.gpu)
            keep.append(buffer)
            self.context.set_tensor_address(name, address)
        outputs = {}
        for name in self.outputs:
            shape = tuple(self.context.get_tensor_shape(name))
            buffer, address = self.buffers.empty(shape, NUMPY_TYPES[self.types[name]], self.gpu)
            outputs[name] = buffer
            self.context.set_tensor_address(name, address)
        stream = self.buffers.stream(self.gpu)
        if not self.context.execute_async_v3(stream.handle):
            raise RuntimeError("TensorRT failed to execute the engine")
        stream.synchronize()
        del keep
        return [
            pb_utils.Tensor(name, np.ascontiguousarray(self.buffers.download(buffer)))
            for name, buffer in outputs.items()
        ]

    def finalize(self) -> None:
        self.context = None
        self.engine = None
        self.runtime = None


def plan_filename(config: dict[str, Any], capability: tuple[int, int]) -> str:
    """The plan the backend loads on a GPU of this compute capability: the one
    ``cc_model_filenames`` names for ``<major>.<minor>``, else the default."""
    by_capability = config.get("cc_model_filenames", {})
    named = by_capability.get(f"{capability[0]}.{capability[1]}")
    return named or config.get("default_model_filename") or DEFAULT_MODEL_FILENAME


def deserialize(runtime: Any, plan: bytes, logger: ErrorLogger) -> Any:
    """The engine of the plan; a plan TensorRT cannot read is refused with what it logged."""
    try:
        engine = runtime.deserialize_cuda_engine(plan)
    except Exception as error:
        logger.errors.append(str(error).strip())
        engine = None
    if engine is None:
        logged = "; ".join(message for message in logger.errors if message)
        raise pb_utils.TritonModelException(
            "unable to create TensorRT engine" + (f": {logged}" if logged else "")
        )
    return engine


def engine_tensors(engine: Any) -> dict[str, tuple[str, str, list[int]]]:
    """Each I/O tensor of the engine: INPUT or OUTPUT, the server's type, its shape."""
    tensors = {}
    for index in range(engine.num_io_tensors):
        name = engine.get_tensor_name(index)
        mode = "INPUT" if engine.get_tensor_mode(name) == trt.TensorIOMode.INPUT else "OUTPUT"
        dtype = engine.get_tensor_dtype(name).name
        shape = [int(d) for d in engine.get_tensor_shape(name)]
        tensors[name] = (mode, SERVER_TYPES.get(dtype, dtype), shape)
    return tensors


def check(
    model: str, config: dict[str, Any], tensors: dict[str, tuple[str, str, list[int]]]
) -> str | None:
    """The backend's first complaint about the config's inputs and outputs."""
    max_batch_size = int(config.get("max_batch_size", 0))
    for kind, mode in (("input", "INPUT"), ("output", "OUTPUT")):
        for tensor in config.get(kind, []):
            name = tensor["name"]
            found = tensors.get(name)
            if found is None:
                return f"{kind} '{name}' not found for {model}"
            if found[0] != mode:
                other = "input" if mode == "OUTPUT" else "output"
                return f"{kind} '{name}' is expected to be an {other} in model for {model}"
            wanted = tensor.get("data_type", "TYPE_INVALID")
            if wanted != f"TYPE_{found[1]}":
                return (
                    f"unexpected datatype TYPE_{found[1]} for inference {kind} '{name}', "
                    f"expecting {wanted} for {model}"
                )
            reshape = tensor.get("reshape")
            dims = [int(d) for d in (reshape["shape"] if reshape else tensor.get("dims", []))]
            full = [-1, *dims] if max_batch_size > 0 else dims
            if len(found[2]) != len(full):
                return (
                    f"model '{model}', tensor '{name}': the model expects {len(found[2])} "
                    f"dimensions (shape {shape_text(found[2])}) but the model configuration "
                    f"specifies {len(full)} dimensions (shape {shape_text(full)})"
                )
    return None


def shape_text(shape: list[int]) -> str:
    return "[" + ",".join(str(d) for d in shape) + "]"


class TorchBuffers:
    """Device buffers, streams and the compute capability from torch."""

    def __init__(self, torch: Any) -> None:
        self.torch = torch

    def set_device(self, gpu: int) -> None:
        self.torch.cuda.set_device(gpu)

    def capability(self, gpu: int) -> tuple[int, int]:
        major, minor = self.torch.cuda.get_device_capability(gpu)
        return int(major), int(minor)

    def upload(self, array: Any, gpu: int) -> tuple[Any, int]:
        tensor = self.torch.from_numpy(array).to(f"cuda:{gpu}")
        return tensor, int(tensor.data_ptr())

    def empty(self, shape: tuple[int, ...], dtype: Any, gpu: int) -> tuple[Any, int]:
        tensor = self.torch.from_numpy(np.empty(shape, dtype=dtype)).to(f"cuda:{gpu}")
        return tensor, int(tensor.data_ptr())

    def stream(self, gpu: int) -> Any:
        stream = self.torch.cuda.current_stream(gpu)
        return _Stream(int(stream.cuda_stream), stream.synchronize)

    def download(self, buffer: Any) -> Any:
        return buffer.cpu().numpy()


class CupyBuffers:
    """Device buffers, streams and the compute capability from CuPy."""

    def __init__(self, cupy: Any) -> None:
        self.cupy = cupy

    def set_device(self, gpu: int) -> None:
        self.cupy.cuda.Device(gpu).use()

    def capability(self, gpu: int) -> tuple[int, int]:
        text = str(self.cupy.cuda.Device(gpu).compute_capability)  # "86"
        return int(text[:-1]), int(text[-1])

    def upload(self, array: Any, gpu: int) -> tuple[Any, int]:
        buffer = self.cupy.asarray(array)
        return buffer, int(buffer.data.ptr)

    def empty(self, shape: tuple[int, ...], dtype: Any, gpu: int) -> tuple[Any, int]:
        buffer = self.cupy.empty(shape, dtype=dtype)
        return buffer, int(buffer.data.ptr)

    def stream(self, gpu: int) -> Any:
        stream = self.cupy.cuda.get_current_stream()
        return _Stream(int(stream.ptr), stream.synchronize)

    def download(self, buffer: Any) -> Any:
        return self.cupy.asnumpy(buffer)


class _Stream:
    def __init__(self, handle: int, synchronize: Any) -> None:
        self.handle = handle
        self.synchronize = synchronize


def device_buffers() -> Any:
    """torch's buffers where torch has CUDA, else CuPy's; refused without either."""
    try:
        import torch  # type: ignore[import-not-found,unused-ignore]

        if torch.cuda.is_available():
            return TorchBuffers(torch)
    except ImportError:
        pass
    try:
        import cupy  # type: ignore[import-not-found,unused-ignore]

        return CupyBuffers(cupy)
    except ImportError:
        pass
    raise pb_utils.TritonModelException(
        "tritonlint's tensorrt stand-in needs torch with CUDA or cupy for device buffers: "
        "pip install 'tritonlint[smoke-tensorrt]'"
    )
