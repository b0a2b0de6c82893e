"""What the real libraries say a model's inputs and outputs are, in the reader's terms.

``by_onnx`` reads a ModelProto that ``onnx`` parsed; ``by_onnxruntime`` asks an
``onnxruntime.InferenceSession``. The differential tests compare ``read_onnx`` with both.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

import onnx
import pytest

from tritonlint.modelfiles.signature import TensorSpec

#: Triton's name of each ONNX element type that has one (the rest have none).
TRITON_TYPES = {
    "FLOAT": "TYPE_FP32",
    "UINT8": "TYPE_UINT8",
    "INT8": "TYPE_INT8",
    "UINT16": "TYPE_UINT16",
    "INT16": "TYPE_INT16",
    "INT32": "TYPE_INT32",
    "INT64": "TYPE_INT64",
    "STRING": "TYPE_STRING",
    "BOOL": "TYPE_BOOL",
    "FLOAT16": "TYPE_FP16",
    "DOUBLE": "TYPE_FP64",
    "UINT32": "TYPE_UINT32",
    "UINT64": "TYPE_UINT64",
    "BFLOAT16": "TYPE_BF16",
}

Signature = tuple[tuple[TensorSpec, ...], tuple[TensorSpec, ...]]


def by_onnx(model: onnx.ModelProto) -> Signature:
    """The graph's inputs (less the initializers) and outputs, from onnx's parse of the file."""
    graph = model.graph
    weights = {text(tensor.name) for tensor in graph.initializer}
    weights |= {text(sparse.values.name) for sparse in graph.sparse_initializer}
    inputs = tuple(_spec(value) for value in graph.input if text(value.name) not in weights)
    return inputs, tuple(_spec(value) for value in graph.output)


def _spec(value: onnx.ValueInfoProto) -> TensorSpec:
    if not value.HasField("type") or value.type.WhichOneof("value") is None:
        return TensorSpec(text(value.name), None, None, None)
    kind = value.type.WhichOneof("value")
    data_type = None
    if kind == "tensor_type":
        data_type = TRITON_TYPES.get(_element_name(value.type.tensor_type.elem_type))
    dims: tuple[int, ...] | None = None
    names: tuple[str | None, ...] = ()
    if kind in ("tensor_type", "sparse_tensor_type"):
        tensor = getattr(value.type, kind)
        if tensor.HasField("shape"):
            dims = tuple(d.dim_value if d.HasField("dim_value") else -1 for d in tensor.shape.dim)
            names = tuple(text(d.dim_param) or None for d in tensor.shape.dim)
            names = names if any(names) else ()
    return TensorSpec(text(value.name), data_type, type_name(value.type), dims, names)


def text(value: str | bytes) -> str:
    """A string field as the reader gives it: protobuf gives the bytes of one that is not
    UTF-8, the reader their text with the bytes that are not escaped."""
    return value if isinstance(value, str) else value.decode("utf-8", "backslashreplace")


def type_name(proto: onnx.TypeProto) -> str:
    """The type as ONNX Runtime writes it: ``tensor(float)``, ``seq(tensor(int64))``
    (``undefined`` where none is set)."""
    kind = proto.WhichOneof("value")
    if kind == "tensor_type":
        return f"tensor({_element_name(proto.tensor_type.elem_type).lower()})"
    if kind == "sparse_tensor_type":
        return f"sparse_tensor({_element_name(proto.sparse_tensor_type.elem_type).lower()})"
    if kind == "sequence_type":
        return f"seq({_inner(proto.sequence_type)})"
    if kind == "optional_type":
        return f"optional({_inner(proto.optional_type)})"
    if kind == "map_type":
        key = _element_name(proto.map_type.key_type).lower()
        value = (
            type_name(proto.map_type.value_type)
            if proto.map_type.HasField("value_type")
            else "undefined"
        )
        return f"map({key},{value})"
    if kind == "opaque_type":
        return f"opaque({text(proto.opaque_type.domain)},{text(proto.opaque_type.name)})"
    return "undefined"


def _inner(holder: onnx.TypeProto.Sequence | onnx.TypeProto.Optional) -> str:
    return type_name(holder.elem_type) if holder.HasField("elem_type") else "undefined"


def _element_name(number: int) -> str:
    if number in onnx.TensorProto.DataType.values():
        return onnx.TensorProto.DataType.Name(number)
    return f"unknown type {number}"


class RuntimeTensor(NamedTuple):
    """One input or output as ``InferenceSession.get_inputs()`` / ``get_outputs()`` gives it."""

    name: str
    type: str
    shape: list[int | str | None]


def by_onnxruntime(path: Path) -> tuple[list[RuntimeTensor], list[RuntimeTensor]] | None:
    """The inputs and outputs ONNX Runtime reports; None where it cannot load the model.
    (Where onnxruntime is not installed, on Python 3.10, the test is skipped.)"""
    onnxruntime = pytest.importorskip("onnxruntime")
    onnxruntime.set_default_logger_severity(4)
    options = onnxruntime.SessionOptions()
    options.log_severity_level = 4
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL
    try:
        session = onnxruntime.InferenceSession(
            str(path), options, providers=["CPUExecutionProvider"]
        )
    except Exception:  # every load failure: an unsupported operator, type or opset
        return None

    def tensors(args: Sequence[Any]) -> list[RuntimeTensor]:
        return [RuntimeTensor(arg.name, arg.type, list(arg.shape)) for arg in args]

    return tensors(session.get_inputs()), tensors(session.get_outputs())


def runtime_shape(spec: TensorSpec) -> list[int | str | None] | None:
    """The shape ONNX Runtime would report for ``spec``: a size, a name or None for each
    dimension, ``[]`` where the rank is unknown; None for a type that is not a tensor."""
    if not (spec.source_type or "").startswith("tensor("):
        return None
    if spec.dims is None:
        return []
    names = spec.dim_names or (None,) * len(spec.dims)
    return [
        name if name else (size if size != -1 else None)
        for size, name in zip(spec.dims, names, strict=True)
    ]


def agrees(specs: Sequence[TensorSpec], tensors: Sequence[RuntimeTensor]) -> bool:
    """Whether ONNX Runtime reports ``specs``: the same names in the same order, the same types,
    and for tensors the same shapes (the runtime gives no shape of other types)."""
    if [(spec.name, spec.source_type) for spec in specs] != [(t.name, t.type) for t in tensors]:
        return False
    return all(
        runtime_shape(spec) in (None, t.shape) for spec, t in zip(specs, tensors, strict=True)
    )
