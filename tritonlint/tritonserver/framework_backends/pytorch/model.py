"""A Python-based backend named ``pytorch``, served by Triton's python backend.

It stands in for Triton's PyTorch (libtorch) backend where the server lacks it: it loads the
TorchScript file with the ``torch`` package of the python backend's interpreter and, as the
real backend does at load, finds the model file (``default_model_filename``, else
``model.pt``), checks the config (at least one output, data types the backend supports),
loads the file with ``torch.jit.load`` on the instance's device and matches the config's
inputs to ``forward``'s arguments, refusing the model with that backend's messages
(pytorch_backend ``src/libtorch.cc`` ``LoadModel``/``ValidateInputs``/``ValidateOutputs`` and
``src/pt/model_instance_state.cc``, release r24.10; the ones rules TL872, TL874 and TL908
quote). ``execute()`` runs ``forward`` on the requests under ``torch.inference_mode()``.

Inputs go to ``forward``'s arguments as the backend sends them: one ``Dict[str, Tensor]``
argument takes every input by its name; otherwise by the argument's name where every input
is named after one, else by the ``<name>__<index>`` convention where every name follows it,
else in the config's order. Outputs take the tensor at their ``<name>__<index>`` index where
every output name follows the convention, else at their position in the config.

It runs inside the python backend's stub process, never in tritonlint: its imports
(``triton_python_backend_utils`` above all) exist only there.
"""

from __future__ import annotations

import json
import os
import warnings
from typing import Any

import numpy as np
import torch  # type: ignore[import-not-found,unused-ignore]
import triton_python_backend_utils as pb_utils  # type: ignore[import-not-found]

from tritonlint.modelfiles.torchscript_names import convention_index
from tritonlint.tritonserver.framework_backends.serving import respond

BACKEND = "pytorch"
DEFAULT_MODEL_FILENAME = "model.pt"

#: Triton's types the backend supports, as torch and numpy types.
TORCH_TYPES: dict[str, Any] = {
    "TYPE_BOOL": torch.bool,
    "TYPE_UINT8": torch.uint8,
    "TYPE_INT8": torch.int8,
    "TYPE_INT16": torch.int16,
    "TYPE_INT32": torch.int32,
    "TYPE_INT64": torch.int64,
    "TYPE_FP16": torch.float16,
    "TYPE_FP32": torch.float32,
    "TYPE_FP64": torch.float64,
}
TRITON_TYPES = {dtype: name for name, dtype in TORCH_TYPES.items()}
NUMPY_TYPES = {
    "TYPE_BOOL": np.bool_,
    "TYPE_UINT8": np.uint8,
    "TYPE_INT8": np.int8,
    "TYPE_INT16": np.int16,
    "TYPE_INT32": np.int32,
    "TYPE_INT64": np.int64,
    "TYPE_FP16": np.float16,
    "TYPE_FP32": np.float32,
    "TYPE_FP64": np.float64,
    "TYPE_STRING": np.object_,
}
#: Types the backend refuses in a config (``unsupported datatype ...``).
UNSUPPORTED = ("TYPE_UINT16", "TYPE_UINT32", "TYPE_UINT64", "TYPE_BF16")

#: The sequence controls the backend feeds as inputs, each kind once.
COUNTED_CONTROLS = (
    "CONTROL_SEQUENCE_START",
    "CONTROL_SEQUENCE_END",
    "CONTROL_SEQUENCE_READY",
    "CONTROL_SEQUENCE_CORRID",
)


class TritonPythonModel:
    def initialize(self, args: dict[str, str]) -> None:
        config = json.loads(args["model_config"])
        self.name = args["model_name"]
        problem = config_problem(self.name, config)
        if problem is not None:
            raise pb_utils.TritonModelException(problem)
        path = model_path(config, args)
        if not os.path.exists(path):
            raise pb_utils.TritonModelException(
                f"unable to find '{path}' for model instance '{args['model_instance_name']}'"
            )
        self.device = torch.device(device_name(args))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # torch.jit.load's deprecation notice
                self.model = torch.jit.load(path, map_location=self.device)
        except Exception as error:
            raise pb_utils.TritonModelException(
                f"failed to load model '{self.name}': {str(error).strip()}"
            ) from None
        self.model.eval()
        arguments = forward_arguments(self.model)
        problem = input_problem(self.name, config, arguments)
        if problem is not None:
            raise pb_utils.TritonModelException(problem)
        inputs = [tensor["name"] for tensor in config.get("input", [])]
        self.dict_input = takes_dictionary(arguments)
        self.input_order = input_positions(inputs, [name for name, _ in arguments])
        outputs = config.get("output", [])
        self.outputs = [(tensor["name"], tensor.get("data_type", "")) for tensor in outputs]
        self.output_index = output_positions([name for name, _ in self.outputs])

    def execute(self, requests: list[Any]) -> list[Any]:
        return respond(requests, self.run)

    def run(self, request: Any) -> list[Any]:
        """``forward`` on one request's inputs; its results as the config's outputs."""
        fed: dict[str, Any] = {}
        for name in self.input_order:
            found = pb_utils.get_input_tensor_by_name(request, name)
            if found is None:
                raise ValueError(f"input '{name}' is missing from the request")
            fed[name] = to_torch(found.as_numpy(), self.device)
        with torch.inference_mode():
            if self.dict_input:
                result = self.model(fed)
            else:
                arguments: list[Any] = [None] * len(self.input_order)
                for name, position in self.input_order.items():
                    arguments[position] = fed[name]
                result = self.model(*arguments)
        results = list(result) if isinstance(result, (tuple, list)) else [result]
        tensors = []
        for name, data_type in self.outputs:
            index = self.output_index[name]
            if index >= len(results):
                raise ValueError(
                    f"The output {name} in the model configuration refers to an output index "
                    f"which doesn't exist. This model has {len(results)} outputs"
                )
            tensors.append(pb_utils.Tensor(name, to_numpy(results[index], name, data_type)))
        return tensors

    def finalize(self) -> None:
        self.model = None


def model_path(config: dict[str, Any], args: dict[str, str]) -> str:
    filename = config.get("default_model_filename") or DEFAULT_MODEL_FILENAME
    return os.path.join(args["model_repository"], args["model_version"], filename)


def device_name(args: dict[str, str]) -> str:
    """``cuda:<id>`` for a KIND_GPU instance where torch has CUDA, else ``cpu``."""
    if args.get("model_instance_kind") == "GPU" and torch.cuda.is_available():
        return f"cuda:{int(args.get('model_instance_device_id') or 0)}"
    return "cpu"


def config_problem(model: str, config: dict[str, Any]) -> str | None:
    """The backend's complaints about the config alone (TL872, TL874)."""
    outputs = config.get("output", [])
    if not outputs:
        return "model configuration must contain at least one output, none were specified."
    max_batch_size = int(config.get("max_batch_size", 0))
    states = config.get("sequence_batching", {}).get("state", [])
    for kind, tensors in (("input", config.get("input", [])), ("output", outputs)):
        for tensor in tensors:
            data_type = tensor.get("data_type", "")
            if data_type in UNSUPPORTED:
                return (
                    f"unsupported datatype {data_type} for {kind} '{tensor['name']}' for model "
                    f"'{model}'"
                )
            if data_type == "TYPE_STRING":
                reshape = tensor.get("reshape")
                dims = reshape["shape"] if reshape else tensor.get("dims", [])
                if len(dims) + (1 if max_batch_size > 0 else 0) > 1:
                    return (
                        f"Triton only supports 1 dimensional List of String as {kind} for "
                        f"'{tensor['name']}' for model '{model}'"
                    )
    if states:
        names = [t["name"] for t in (*config.get("input", []), *outputs)]
        names += [s.get("input_name", "") for s in states]
        names += [s.get("output_name", "") for s in states]
        if any(convention_index(name) is None for name in names):
            return (
                f"PyTorch model '{model}' is using sequence batching with state but not all "
                "inputs and outputs follow the <name>__<index> naming convention. "
            )
    return None


def forward_arguments(model: Any) -> list[tuple[str, str]]:
    """``forward``'s arguments after ``self``: name and type kind (``TensorType``, ...)."""
    schema = model.forward.schema
    arguments = [(a.name, a.type.kind(), str(a.type)) for a in schema.arguments]
    if arguments and arguments[0][1] == "ClassType":
        arguments = arguments[1:]
    return [(name, f"{kind}:{text}") for name, kind, text in arguments]


def _kind(argument: tuple[str, str]) -> str:
    return argument[1].split(":", 1)[0]


def takes_dictionary(arguments: list[tuple[str, str]]) -> bool:
    return len(arguments) == 1 and _kind(arguments[0]) == "DictType"


def fed_count(config: dict[str, Any]) -> int:
    """The inputs the backend counts the config to feed: inputs, batch inputs, one per
    sequence control kind, and the sequence states."""
    count = len(config.get("input", [])) + len(config.get("batch_input", []))
    sequence = config.get("sequence_batching", {})
    kinds = {
        control.get("kind")
        for control_input in sequence.get("control_input", [])
        for control in control_input.get("control", [])
    }
    count += sum(1 for kind in COUNTED_CONTROLS if kind in kinds)
    return count + len(sequence.get("state", []))


def input_problem(
    model: str, config: dict[str, Any], arguments: list[tuple[str, str]]
) -> str | None:
    """The backend's ``ValidateInputs``: forward's argument types, and their count."""
    if takes_dictionary(arguments):
        return None
    if any(_kind(argument) == "DictType" for argument in arguments[1:]):
        return (
            "Multiple inputs of kind DictType were detected. Only a single input of type "
            "Dict(str, Tensor) is supported."
        )
    for _, kind in arguments:
        if kind.split(":", 1)[0] not in ("TensorType", "ListType"):
            return (
                f"An input of type '{kind.split(':', 1)[1]}' was detected in the model. Only a "
                "single input of type Dict(str, Tensor) or input(s) of type Tensor are "
                "supported."
            )
    expected = fed_count(config)
    if expected != len(arguments):
        return (
            f"unable to load model '{model}', configuration expects {expected} inputs, model "
            f"provides {len(arguments)}"
        )
    return None


def input_positions(names: list[str], arguments: list[str]) -> dict[str, int]:
    """The argument each config input goes to, by the backend's naming rules."""
    if arguments and all(name in arguments for name in names):
        return {name: arguments.index(name) for name in names}
    indexes = [convention_index(name) for name in names]
    if all(index is not None for index in indexes):
        return {
            name: index for name, index in zip(names, indexes, strict=True) if index is not None
        }
    return {name: position for position, name in enumerate(names)}


def output_positions(names: list[str]) -> dict[str, int]:
    """The position in forward's results each config output takes."""
    indexes = [convention_index(name) for name in names]
    if all(index is not None for index in indexes):
        return {
            name: index for name, index in zip(names, indexes, strict=True) if index is not None
        }
    return {name: position for position, name in enumerate(names)}


def to_torch(array: Any, device: Any) -> Any:
    """A request's input as forward takes it: a tensor, or a list of str for strings."""
    if array.dtype == np.object_:
        return [v.decode("utf-8") if isinstance(v, bytes) else str(v) for v in array.ravel()]
    return torch.from_numpy(np.ascontiguousarray(array)).to(device)


def to_numpy(value: Any, name: str, data_type: str) -> Any:
    """One of forward's results as the config's output: of the configured type (the backend
    fails the request otherwise)."""
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        if data_type != "TYPE_STRING":
            raise ValueError(
                f"configuration expects datatype {data_type} for output '{name}', model "
                "provides TYPE_STRING"
            )
        return np.array([v.encode("utf-8") for v in value], dtype=np.object_)
    if not isinstance(value, torch.Tensor):
        raise ValueError(f"output '{name}': forward returned {type(value).__name__}, not a tensor")
    provided = TRITON_TYPES.get(value.dtype, str(value.dtype))
    if provided != data_type:
        raise ValueError(
            f"configuration expects datatype {data_type} for output '{name}', model provides "
            f"{provided}"
        )
    return np.ascontiguousarray(value.detach().cpu().numpy().astype(NUMPY_TYPES[data_type]))
