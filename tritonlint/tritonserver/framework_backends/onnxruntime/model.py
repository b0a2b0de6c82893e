"""A Python-based backend named ``onnxruntime``, served by Triton's python backend.

It stands in for Triton's onnxruntime backend where the server lacks it: it loads the model
file with the ``onnxruntime`` package of the python backend's interpreter and, as the real
backend does at load, finds the model file, loads it and compares the model's inputs and
outputs with the config, refusing the model with that backend's messages
(onnxruntime_backend ``src/onnxruntime.cc`` and ``CompareDimsSupported``, backend
``CheckAllowedModelInput``/``CheckAllowedModelOutput``, release r24.10). ``execute()`` runs
the model on the requests.

It runs inside the python backend's stub process, never in tritonlint: its imports
(``triton_python_backend_utils`` above all) exist only there.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

import numpy as np
import onnxruntime as ort  # type: ignore[import-untyped,import-not-found,unused-ignore]
import triton_python_backend_utils as pb_utils  # type: ignore[import-not-found]

from tritonlint.tritonserver.framework_backends.serving import respond

BACKEND = "onnxruntime"
DEFAULT_MODEL_FILENAME = "model.onnx"

#: ONNX Runtime's tensor types, by Triton's names.
TRITON_TYPES = {
    "tensor(bool)": "TYPE_BOOL",
    "tensor(uint8)": "TYPE_UINT8",
    "tensor(uint16)": "TYPE_UINT16",
    "tensor(uint32)": "TYPE_UINT32",
    "tensor(uint64)": "TYPE_UINT64",
    "tensor(int8)": "TYPE_INT8",
    "tensor(int16)": "TYPE_INT16",
    "tensor(int32)": "TYPE_INT32",
    "tensor(int64)": "TYPE_INT64",
    "tensor(float16)": "TYPE_FP16",
    "tensor(float)": "TYPE_FP32",
    "tensor(double)": "TYPE_FP64",
    "tensor(string)": "TYPE_STRING",
    "tensor(bfloat16)": "TYPE_BF16",
}

_ORT_ERROR = re.compile(r"^\[ONNXRuntimeError\] : (\d+) : \w+ : (.*)$", re.DOTALL)


class TritonPythonModel:
    def initialize(self, args: dict[str, str]) -> None:
        config = json.loads(args["model_config"])
        self.name = args["model_name"]
        path = model_path(config, args)
        if not os.path.exists(path):
            raise pb_utils.TritonModelException(
                f"unable to find '{path}' for model instance '{args['model_instance_name']}'"
            )
        options = ort.SessionOptions()
        options.log_severity_level = 3
        try:
            self.session = ort.InferenceSession(
                path, sess_options=options, providers=providers(args)
            )
        except Exception as error:
            raise pb_utils.TritonModelException(runtime_error(error)) from None
        problem = self.check(config)
        if problem is not None:
            raise pb_utils.TritonModelException(problem)
        self.outputs = [output["name"] for output in config.get("output", [])]

    def check(self, config: dict[str, Any]) -> str | None:
        """The real backend's first complaint about the config's inputs and outputs."""
        max_batch_size = int(config.get("max_batch_size", 0))
        inputs = {arg.name: arg for arg in self.session.get_inputs()}
        overridable = {arg.name: arg for arg in self.session.get_overridable_initializers()}
        declared = config.get("input", [])
        if declared:  # none declared: the real backend would have completed them
            expected = len(declared)
            if expected < len(inputs) or expected > len(inputs) + len(overridable):
                return (
                    f"unable to load model '{self.name}', configuration expects {expected} "
                    f"inputs, model provides {len(inputs)}"
                )
            allowed = {**inputs, **overridable}
            for tensor in declared:
                problem = self.compare("input", tensor, allowed, max_batch_size)
                if problem is not None:
                    return problem
        outputs = {arg.name: arg for arg in self.session.get_outputs()}
        for tensor in config.get("output", []):
            problem = self.compare("output", tensor, outputs, max_batch_size)
            if problem is not None:
                return problem
        return None

    def compare(
        self, kind: str, tensor: dict[str, Any], model: dict[str, Any], max_batch_size: int
    ) -> str | None:
        name = tensor["name"]
        arg = model.get(name)
        if arg is None:
            allowed = ", ".join(sorted(model))
            return f"unexpected inference {kind} '{name}', allowed {kind}s are: {allowed}"
        provided = TRITON_TYPES.get(arg.type, arg.type)
        wanted = tensor.get("data_type", "TYPE_INVALID")
        if wanted != provided:
            return (
                f"unable to load model '{self.name}', configuration expects datatype {wanted} "
                f"for {kind} '{name}', model provides {provided}"
            )
        reshape = tensor.get("reshape")
        dims = [int(d) for d in (reshape["shape"] if reshape else tensor.get("dims", []))]
        shape = [d if isinstance(d, int) and d >= 0 else -1 for d in (arg.shape or [])]
        return compare_dims(self.name, name, shape, dims, max_batch_size)

    def execute(self, requests: list[Any]) -> list[Any]:
        return respond(requests, self.run)

    def run(self, request: Any) -> list[Any]:
        """The model on one request's inputs; its outputs as the server's tensors."""
        feed = {
            arg.name: pb_utils.get_input_tensor_by_name(request, arg.name).as_numpy()
            for arg in self.session.get_inputs()
            if pb_utils.get_input_tensor_by_name(request, arg.name) is not None
        }
        results = self.session.run(self.outputs or None, feed)
        names = self.outputs or [arg.name for arg in self.session.get_outputs()]
        return [
            pb_utils.Tensor(name, np.ascontiguousarray(value))
            for name, value in zip(names, results, strict=True)
        ]

    def finalize(self) -> None:
        self.session = None


def model_path(config: dict[str, Any], args: dict[str, str]) -> str:
    """The model file, found by the real backend's rules: ``default_model_filename``, else
    model.onnx; a folder of that name holds model.onnx (a model with external data)."""
    filename = config.get("default_model_filename") or DEFAULT_MODEL_FILENAME
    path = os.path.join(args["model_repository"], args["model_version"], filename)
    if os.path.isdir(path):
        path = os.path.join(path, DEFAULT_MODEL_FILENAME)
    return path


def providers(args: dict[str, str]) -> list[Any]:
    """CPU; the CUDA execution provider first for a KIND_GPU instance, where it is available."""
    if args.get("model_instance_kind") == "GPU" and (
        "CUDAExecutionProvider" in ort.get_available_providers()
    ):
        device = int(args.get("model_instance_device_id") or 0)
        return [("CUDAExecutionProvider", {"device_id": device}), "CPUExecutionProvider"]
    return ["CPUExecutionProvider"]


def runtime_error(error: Exception) -> str:
    """ONNX Runtime's message as the real backend words it (``onnx runtime error 7: ...``)."""
    text = str(error).strip()
    match = _ORT_ERROR.match(text)
    if match:
        return f"onnx runtime error {match.group(1)}: {match.group(2)}"
    return f"onnx runtime error: {text}"


def shape_text(shape: list[int]) -> str:
    return "[" + ",".join(str(d) for d in shape) + "]"


def compare_dims(
    model: str, tensor: str, model_shape: list[int], dims: list[int], max_batch_size: int
) -> str | None:
    """The real backend's ``CompareDimsSupported`` (a -1 in the model matches any size)."""
    if max_batch_size > 0:
        if not model_shape or model_shape[0] != -1:
            return (
                f"model '{model}', tensor '{tensor}': for the model to support batching the "
                "shape should have at least 1 dimension and the first dimension must be -1; "
                f"but shape expected by the model is {shape_text(model_shape)}"
            )
        full = [-1, *dims]
        what = (
            "an initial batch dimension because max_batch_size > 0 followed by the explicit "
            f"tensor shape, making complete shape {shape_text(full)}"
        )
    else:
        full = list(dims)
        what = f"shape {shape_text(full)}"
    same = len(model_shape) == len(full) and all(
        m == -1 or m == d for m, d in zip(model_shape, full, strict=True)
    )
    if same:
        return None
    return (
        f"model '{model}', tensor '{tensor}': the model expects {len(model_shape)} dimensions "
        f"(shape {shape_text(model_shape)}) but the model configuration specifies {len(full)} "
        f"dimensions ({what})"
    )
