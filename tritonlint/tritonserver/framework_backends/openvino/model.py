"""A Python-based backend named ``openvino``, served by Triton's python backend.

It stands in for Triton's openvino backend where the server lacks it: it reads the model with
the ``openvino`` package of the python backend's interpreter and, as the real backend does at
load, finds the IR (``default_model_filename``, else ``model.xml``, its weights beside it),
reads it, compares the model's inputs and outputs with the config and compiles it for the CPU,
refusing the model with that backend's messages (openvino_backend ``src/openvino.cc``
``ReadModel``/``ValidateInputs``/``ValidateOutputs``/``LoadModel`` and ``CompareDimsSupported``,
backend ``CheckAllowedModelInput``/``CheckAllowedModelOutput``, release r24.10). The shapes are
compared by tritonlint's own emulation of the backend
(``tritonlint.rules.model_comparison.shapes``), the one the static rules use.
``execute()`` runs the model on the requests.

It runs inside the python backend's stub process, never in tritonlint: its imports
(``triton_python_backend_utils`` above all) exist only there.
"""

from __future__ import annotations

import json
import os
from typing import Any

import numpy as np
import openvino as ov  # type: ignore[import-untyped,import-not-found,unused-ignore]
import triton_python_backend_utils as pb_utils  # type: ignore[import-not-found]

from tritonlint.rules.model_comparison.shapes import shape_problem
from tritonlint.tritonserver.framework_backends.serving import respond

BACKEND = "openvino"
DEFAULT_MODEL_FILENAME = "model.xml"


class TritonPythonModel:
    def initialize(self, args: dict[str, str]) -> None:
        config = json.loads(args["model_config"])
        self.name = args["model_name"]
        filename = config.get("default_model_filename") or DEFAULT_MODEL_FILENAME
        path = os.path.join(args["model_repository"], args["model_version"], filename)
        if not os.path.exists(path):
            raise pb_utils.TritonModelException(f"unable to find '{path}' for model '{self.name}'")
        core = ov.Core()
        model = openvino_call(lambda: core.read_model(path), "reading model")
        problem = self.check(config, model)
        if problem is not None:
            raise pb_utils.TritonModelException(problem)
        self.compiled = openvino_call(lambda: core.compile_model(model, "CPU"), "loading model")
        self.outputs = [output["name"] for output in config.get("output", [])]

    def check(self, config: dict[str, Any], model: Any) -> str | None:
        """The real backend's first complaint about the config's inputs and outputs."""
        max_batch_size = int(config.get("max_batch_size", 0))
        declared = config.get("input", [])
        inputs = {port.get_any_name(): port for port in model.inputs}
        if len(model.inputs) != len(declared):
            return (
                f"unable to load model '{self.name}', configuration expects {len(declared)} "
                f"inputs, model provides {len(model.inputs)}"
            )
        parameters = config.get("parameters", {})
        reshaped = parameters.get("RESHAPE_IO_LAYERS", {}).get("string_value", "").lower()
        for tensor in declared:
            # With RESHAPE_IO_LAYERS the backend reshapes the inputs instead of comparing.
            problem = self.compare("input", tensor, inputs, max_batch_size, reshaped != "yes")
            if problem is not None:
                return problem
        outputs = {port.get_any_name(): port for port in model.outputs}
        for tensor in config.get("output", []):
            problem = self.compare("output", tensor, outputs, max_batch_size, True)
            if problem is not None:
                return problem
        return None

    def compare(
        self,
        kind: str,
        tensor: dict[str, Any],
        model: dict[str, Any],
        max_batch_size: int,
        shapes: bool,
    ) -> str | None:
        name = tensor["name"]
        port = model.get(name)
        if port is None:
            allowed = ", ".join(sorted(model))
            return f"unexpected inference {kind} '{name}', allowed {kind}s are: {allowed}"
        if not shapes:
            return None
        reshape = tensor.get("reshape")
        dims = [int(d) for d in (reshape["shape"] if reshape else tensor.get("dims", []))]
        shape = port.get_partial_shape()
        if shape.rank.is_dynamic:
            return None
        model_dims = [d.get_length() if d.is_static else -1 for d in shape]
        problem = shape_problem(
            BACKEND, self.name, name, model_dims, dims, max_batch_size, kind == "output"
        )
        return None if problem is None else problem.message

    def execute(self, requests: list[Any]) -> list[Any]:
        return respond(requests, self.run)

    def run(self, request: Any) -> list[Any]:
        """The model on one request's inputs; its outputs as the server's tensors."""
        feed = {}
        for port in self.compiled.inputs:
            found = pb_utils.get_input_tensor_by_name(request, port.get_any_name())
            if found is not None:
                feed[port.get_any_name()] = found.as_numpy()
        results = self.compiled(feed)
        names = self.outputs or [port.get_any_name() for port in self.compiled.outputs]
        tensors = [pb_utils.Tensor(name, np.ascontiguousarray(results[name])) for name in names]
        return tensors

    def finalize(self) -> None:
        self.compiled = None


def openvino_call(call: Any, what: str) -> Any:
    """``call()``, its exception worded as the real backend words OpenVINO's
    (``openvino error in reading model : ...``)."""
    try:
        return call()
    except Exception as error:
        raise pb_utils.TritonModelException(
            f"openvino error in {what} : {str(error).strip()}"
        ) from None
