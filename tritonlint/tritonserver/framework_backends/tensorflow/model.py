"""A Python-based backend named ``tensorflow``, served by Triton's python backend.

It stands in for Triton's TensorFlow backend, for SavedModels, where the server lacks it: it
loads the model with the ``tensorflow`` package of the python backend's interpreter and, as
the real backend does at load, finds the SavedModel folder (``default_model_filename``, else
``model.savedmodel``), loads the meta graph tagged ``serve`` (the ``TF_GRAPH_TAG`` parameter
names another), takes the ``serving_default`` signature (the ``TF_SIGNATURE_DEF`` parameter
names another; without either, the one other signature there is) and compares the config's
inputs and outputs with the signature's keys, refusing the model with that backend's messages
(tensorflow_backend ``src/tensorflow.cc`` ``ValidateTRITONTFModel`` and ``AutoCompleteConfig``,
``CompareDims`` in ``src/tensorflow_utils.cc``, backend ``CheckAllowedModelInput``/
``CheckAllowedModelOutput``, release r24.10). The shapes are compared by tritonlint's own
emulation of the backend (``tritonlint.rules.model_comparison.shapes``), the one the static rules
use. ``execute()`` calls the signature's concrete function on the requests.

A GraphDef (``tensorflow_graphdef``) is not loaded: TensorFlow 2 runs a frozen graph only
through its v1 session API, not as the backend feeds it. The smoke stage leaves such models
to the config-only stand-in; one that reaches this backend is refused saying so.

It runs inside the python backend's stub process, never in tritonlint: its imports
(``triton_python_backend_utils`` above all) exist only there.
"""

from __future__ import annotations

import contextlib
import json
import os
from typing import Any

import numpy as np
import tensorflow as tf  # type: ignore[import-not-found,unused-ignore]
import triton_python_backend_utils as pb_utils  # type: ignore[import-not-found]

from tritonlint.rules.model_comparison.shapes import shape_problem
from tritonlint.tritonserver.framework_backends.serving import respond

BACKEND = "tensorflow"
DEFAULT_MODEL_FILENAME = "model.savedmodel"
DEFAULT_TAG = "serve"
DEFAULT_SIGNATURE = "serving_default"
NOT_SERVING = ("__saved_model_init_op", "__saved_model_train_op")

#: TensorFlow's types, by the server's names (``TYPE_`` and this is the config's name, but
#: for strings: the config's TYPE_STRING is the server's BYTES).
SERVER_TYPES = {
    "bool": "BOOL",
    "uint8": "UINT8",
    "uint16": "UINT16",
    "uint32": "UINT32",
    "uint64": "UINT64",
    "int8": "INT8",
    "int16": "INT16",
    "int32": "INT32",
    "int64": "INT64",
    "float16": "FP16",
    "float32": "FP32",
    "float64": "FP64",
    "string": "BYTES",
}


class TritonPythonModel:
    def initialize(self, args: dict[str, str]) -> None:
        config = json.loads(args["model_config"])
        self.name = args["model_name"]
        if config.get("platform") == "tensorflow_graphdef":
            raise pb_utils.TritonModelException(
                f"unable to load model '{self.name}': a tensorflow_graphdef model is not "
                "loaded by tritonlint's tensorflow stand-in (SavedModels only)"
            )
        filename = config.get("default_model_filename") or DEFAULT_MODEL_FILENAME
        path = os.path.join(args["model_repository"], args["model_version"], filename)
        if not os.path.exists(path):
            raise pb_utils.TritonModelException(
                f"unable to find '{path}' for model instance '{args['model_instance_name']}'"
            )
        parameters = config.get("parameters", {})
        tag = parameter(parameters, "TF_GRAPH_TAG") or DEFAULT_TAG
        self.device = device_name(args)
        try:
            with tf.device(self.device):
                self.loaded = tf.saved_model.load(path, tags=[tag])
        except Exception as error:
            raise pb_utils.TritonModelException(
                f"unable to auto-complete model configuration for '{self.name}', failed to "
                f"load model: {str(error).strip()}"
            ) from None
        signatures = dict(self.loaded.signatures)
        wanted = parameter(parameters, "TF_SIGNATURE_DEF")
        key = choose_signature(list(signatures), wanted)
        if key is None:
            raise pb_utils.TritonModelException(
                f"unable to load model '{self.name}', no serving signature "
                f"'{wanted or DEFAULT_SIGNATURE}' in the SavedModel (it has: "
                f"{', '.join(sorted(signatures)) or 'none'})"
            )
        self.function = signatures[key]
        inputs = signature_inputs(self.function)
        outputs = signature_outputs(self.function)
        problem = check(self.name, config, inputs, outputs)
        if problem is not None:
            raise pb_utils.TritonModelException(problem)
        self.inputs = list(inputs)
        self.outputs = [output["name"] for output in config.get("output", [])] or list(outputs)

    def execute(self, requests: list[Any]) -> list[Any]:
        return respond(requests, self.run)

    def run(self, request: Any) -> list[Any]:
        """The model on one request's inputs; its outputs as the server's tensors."""
        feed = {}
        for name in self.inputs:
            found = pb_utils.get_input_tensor_by_name(request, name)
            if found is None:
                raise ValueError(f"input '{name}' is missing from the request")
            feed[name] = tf.constant(found.as_numpy())
        with tf.device(self.device):
            results = self.function(**feed)
        return [
            pb_utils.Tensor(name, np.ascontiguousarray(results[name].numpy()))
            for name in self.outputs
        ]

    def finalize(self) -> None:
        self.function = None
        self.loaded = None


def parameter(parameters: dict[str, Any], key: str) -> str:
    value = parameters.get(key, {})
    return str(value.get("string_value", "")) if isinstance(value, dict) else ""


def device_name(args: dict[str, str]) -> str:
    """``/GPU:<id>`` for a KIND_GPU instance where TensorFlow sees a GPU, else the CPU."""
    if args.get("model_instance_kind") == "GPU":
        gpus = tf.config.list_physical_devices("GPU")
        for gpu in gpus:
            # Not all of the GPU's memory, as the backend's default.
            with contextlib.suppress(RuntimeError, ValueError):
                tf.config.experimental.set_memory_growth(gpu, True)
        if gpus:
            return f"/GPU:{int(args.get('model_instance_device_id') or 0)}"
    return "/CPU:0"


def choose_signature(keys: list[str], wanted: str) -> str | None:
    """The signature the backend serves: the one named, else serving_default, else the one
    other serving signature."""
    if wanted:
        return wanted if wanted in keys else None
    if DEFAULT_SIGNATURE in keys:
        return DEFAULT_SIGNATURE
    others = [key for key in keys if key not in NOT_SERVING]
    return others[0] if others else None


def _spec(spec: Any) -> tuple[str, list[int] | None]:
    """A tensor spec's server type and dims (-1 where open; None: unknown rank)."""
    server_type = SERVER_TYPES.get(spec.dtype.name, spec.dtype.name.upper())
    if spec.shape.rank is None:
        return server_type, None
    return server_type, [-1 if d is None else int(d) for d in spec.shape.as_list()]


def signature_inputs(function: Any) -> dict[str, tuple[str, list[int] | None]]:
    _, keyword = function.structured_input_signature
    return {key: _spec(spec) for key, spec in keyword.items()}


def signature_outputs(function: Any) -> dict[str, tuple[str, list[int] | None]]:
    return {key: _spec(spec) for key, spec in function.structured_outputs.items()}


def _counted_controls(config: dict[str, Any]) -> int:
    sequence = config.get("sequence_batching", {})
    kinds = {
        control.get("kind")
        for control_input in sequence.get("control_input", [])
        for control in control_input.get("control", [])
    }
    return len(
        kinds
        & {
            "CONTROL_SEQUENCE_START",
            "CONTROL_SEQUENCE_END",
            "CONTROL_SEQUENCE_READY",
            "CONTROL_SEQUENCE_CORRID",
        }
    )


def check(
    model: str,
    config: dict[str, Any],
    inputs: dict[str, tuple[str, list[int] | None]],
    outputs: dict[str, tuple[str, list[int] | None]],
) -> str | None:
    """The backend's ``ValidateTRITONTFModel`` for a SavedModel: its first complaint."""
    max_batch_size = int(config.get("max_batch_size", 0))
    declared = config.get("input", [])
    expected = len(declared) + len(config.get("batch_input", [])) + _counted_controls(config)
    # Inputs (or outputs) the config leaves out are the backend's auto-complete's to fill in
    # from the signature: none declared is not compared.
    if declared and expected != len(inputs):
        # The backend counts batch inputs and controls but names the config's inputs only.
        return (
            f"unable to load model '{model}', configuration expects {len(declared)} inputs, "
            f"model provides {len(inputs)}"
        )
    batch_outputs = {
        target
        for output in config.get("batch_output", [])
        for target in output.get("target_name", [])
    }
    for kind, tensors, model_tensors in (
        ("input", declared, inputs),
        ("output", config.get("output", []), outputs),
    ):
        for tensor in tensors:
            name = tensor["name"]
            if name not in model_tensors:
                allowed = ", ".join(sorted(model_tensors))
                return f"unexpected inference {kind} '{name}', allowed {kind}s are: {allowed}"
            server_type, model_dims = model_tensors[name]
            reshape = tensor.get("reshape")
            dims = [int(d) for d in (reshape["shape"] if reshape else tensor.get("dims", []))]
            compared = model_dims and not (kind == "output" and name in batch_outputs)
            ragged = kind == "input" and tensor.get("allow_ragged_batch", False)
            if compared and not ragged:
                assert model_dims is not None
                problem = shape_problem(
                    BACKEND, model, name, model_dims, dims, max_batch_size, kind == "output"
                )
                if problem is not None:
                    return problem.message
            wanted = tensor.get("data_type", "TYPE_INVALID")
            matches = wanted == f"TYPE_{server_type}" or (
                wanted == "TYPE_STRING" and server_type == "BYTES"
            )
            if not matches:
                return (
                    f"unable to load model '{model}', configuration expects datatype {wanted} "
                    f"for {kind} '{name}', model provides TYPE_{server_type}"
                )
    return None
