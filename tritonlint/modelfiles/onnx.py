"""ONNX models: the graph's inputs and outputs, read from the model file's metadata alone.

Triton's ONNX Runtime backend loads ``model.onnx``, a file, or a folder of that name holding a
``model.onnx`` next to the files its external data lives in. What the runtime reports as the
model's inputs are the graph's ``input`` entries that no initializer names; its outputs are the
graph's ``output`` entries. An initializer listed as an input is a weight the caller may
override, not an input the caller must give: the runtime lists it apart, as an overridable
initializer (from IR version 4 on; before, such an input is a constant no request can give),
and so does this reader, as an optional input.

Those entries are a few kilobytes in a file that may be gigabytes of weights, so the file is
walked with :mod:`tritonlint.modelfiles.wire`: ModelProto.graph, in it the inputs, outputs and
the names of the initializers (which many exporters write before the inputs); the weights, the
nodes and everything else are stepped over unread, and external-data files are never opened.
The field numbers are those of ``onnx.proto`` (https://github.com/onnx/onnx/blob/main/onnx/onnx.proto).

The types are written the way ONNX Runtime names them (``tensor(float)``, ``seq(tensor(int64))``,
``map(string,tensor(float))``, ``optional(tensor(float))``), which is also how the runtime's
errors name them. Shapes are those the file declares: where it leaves an output's dimension
open, ONNX Runtime may report the size its shape inference finds, which no static read can.

What a walk keeps is bounded (names, dimensions, tensors: the ``MAX_*`` limits below) and so is
what it walks (:data:`tritonlint.modelfiles.wire.MAX_FIELDS`); a file past a limit is a
ModelFileProblem that says which, as is one that is not protobuf, or is protobuf with no graph.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

from tritonlint.modelfiles.files import UnreadableFile, regular_size
from tritonlint.modelfiles.signature import ModelFileProblem, ModelSignature, TensorSpec
from tritonlint.modelfiles.wire import (
    LEN,
    VARINT,
    LimitError,
    Span,
    WireError,
    WireReader,
    payload_span,
)

#: The model file inside a ``model.onnx`` folder (one with external data).
MODEL_FILE = "model.onnx"

#: Bytes of one name (tensor names and symbolic dimensions are short; a longer one is garbage).
MAX_NAME_BYTES = 64 * 1024
#: Bytes of all names kept while reading one file (tensors, dimensions and initializers).
MAX_TEXT_BYTES = 16 * 1024 * 1024
#: Inputs, outputs and initializers of one file together (a large model has thousands).
MAX_TENSORS = 100_000
#: Dimensions of all the shapes in one file.
MAX_DIMS = 100_000
#: Types inside types (``seq(seq(...))``); protobuf's own parsers stop at 100 messages deep.
MAX_TYPE_DEPTH = 32

# ModelProto
_IR_VERSION = 1
_GRAPH = 7
# GraphProto
_INITIALIZER = 5
_INPUT = 11
_OUTPUT = 12
_SPARSE_INITIALIZER = 15
_GRAPH_TENSORS = frozenset({_INITIALIZER, _INPUT, _OUTPUT, _SPARSE_INITIALIZER})
# TensorProto
_TENSOR_NAME = 8
# SparseTensorProto
_SPARSE_VALUES = 1
# ValueInfoProto
_VALUE_NAME = 1
_VALUE_TYPE = 2
# TypeProto: the cases of its ``value`` oneof
_TENSOR_TYPE = 1
_SEQUENCE_TYPE = 4
_MAP_TYPE = 5
_OPAQUE_TYPE = 7
_SPARSE_TENSOR_TYPE = 8
_OPTIONAL_TYPE = 9
_TYPE_CASES = frozenset(
    {_TENSOR_TYPE, _SEQUENCE_TYPE, _MAP_TYPE, _OPAQUE_TYPE, _SPARSE_TENSOR_TYPE, _OPTIONAL_TYPE}
)
# TypeProto.Tensor and TypeProto.SparseTensor
_ELEM_TYPE = 1
_SHAPE = 2
# TypeProto.Sequence and TypeProto.Optional
_INNER_TYPE = 1
# TypeProto.Map
_KEY_TYPE = 1
_VALUE_TYPE_OF_MAP = 2
# TypeProto.Opaque
_OPAQUE_DOMAIN = 1
_OPAQUE_NAME = 2
# TensorShapeProto
_DIM = 1
# TensorShapeProto.Dimension: the cases of its ``value`` oneof
_DIM_VALUE = 1
_DIM_PARAM = 2

#: TensorProto.DataType numbers: ONNX's name of the type, and Triton's where it has one.
ELEMENT_TYPES: dict[int, tuple[str, str | None]] = {
    1: ("float", "TYPE_FP32"),
    2: ("uint8", "TYPE_UINT8"),
    3: ("int8", "TYPE_INT8"),
    4: ("uint16", "TYPE_UINT16"),
    5: ("int16", "TYPE_INT16"),
    6: ("int32", "TYPE_INT32"),
    7: ("int64", "TYPE_INT64"),
    8: ("string", "TYPE_STRING"),
    9: ("bool", "TYPE_BOOL"),
    10: ("float16", "TYPE_FP16"),
    11: ("double", "TYPE_FP64"),
    12: ("uint32", "TYPE_UINT32"),
    13: ("uint64", "TYPE_UINT64"),
    14: ("complex64", None),
    15: ("complex128", None),
    16: ("bfloat16", "TYPE_BF16"),
    17: ("float8e4m3fn", None),
    18: ("float8e4m3fnuz", None),
    19: ("float8e5m2", None),
    20: ("float8e5m2fnuz", None),
    21: ("uint4", None),
    22: ("int4", None),
    23: ("float4e2m1", None),
    24: ("float8e8m0", None),
    25: ("uint2", None),
    26: ("int2", None),
    27: ("float6e2m3", None),
    28: ("float6e3m2", None),
}

#: What the first bytes of files often found under the name ``model.onnx`` say they are.
_OTHER_FORMATS = (
    (b"version https://git-lfs", "a Git LFS pointer, not the model it points to"),
    (b"PK\x03\x04", "a zip archive (a PyTorch or TorchScript file?)"),
    (b"\x89HDF", "an HDF5 file (a Keras model?)"),
    (b"<?xml", "an XML file (an OpenVINO model?)"),
)


class _Type(NamedTuple):
    """What a TypeProto says, in the terms of a TensorSpec."""

    source_type: str | None
    data_type: str | None = None
    dims: tuple[int, ...] | None = None
    dim_names: tuple[str | None, ...] = ()


_NO_TYPE = _Type(None)

#: The inputs, the outputs and the overridable initializers of a graph.
_Tensors = tuple[tuple[TensorSpec, ...], tuple[TensorSpec, ...], tuple[TensorSpec, ...]]

#: The IR version from which ONNX Runtime lets a request override an initializer listed as an
#: input (``Graph::CanOverrideInitializer``).
_OVERRIDABLE_FROM = 4


def read_onnx(path: Path) -> ModelSignature | ModelFileProblem:
    """The inputs and outputs of the ONNX model at ``path``: a ``model.onnx`` file, or a folder
    holding one (and its external data, which is not read)."""
    try:
        folder = path.is_dir()
    except OSError as error:
        return ModelFileProblem(path, f"the ONNX model cannot be read: {error.strerror or error}")
    file = path / MODEL_FILE if folder else path
    if folder and not os.path.lexists(file):
        return ModelFileProblem(path, f"the ONNX model folder has no {MODEL_FILE} in it")
    try:
        size = regular_size(file)
        if size == 0:
            return ModelFileProblem(path, "the ONNX model is empty")
        with file.open("rb") as stream:
            reader = WireReader(stream, size)
            try:
                inputs, outputs, optional = _Walk(reader).model()
            except LimitError as error:
                return ModelFileProblem(
                    path, f"the ONNX model is past a limit of the reader: {error}"
                )
            except WireError as error:
                return ModelFileProblem(path, _not_onnx(reader, str(error)))
    except UnreadableFile as error:
        return ModelFileProblem(path, f"the ONNX model {error}")
    except OSError as error:
        return ModelFileProblem(path, f"the ONNX model cannot be read: {error.strerror or error}")
    return ModelSignature("onnx", path, inputs, outputs, optional)


def _not_onnx(reader: WireReader, detail: str) -> str:
    """Why the file is not an ONNX model: what it is instead, where its first bytes say."""
    try:
        head = reader.head(64)
    except OSError:
        head = b""
    for magic, what in _OTHER_FORMATS:
        if head.startswith(magic):
            return f"the ONNX model is {what}"
    if head.isascii() and all(byte >= 0x20 or byte in b"\t\n\r" for byte in head):
        return "the ONNX model is a text file, not in ONNX's format"
    return f"the ONNX model is not in ONNX's format: {detail}"


class _Walk:
    """One walk over one model file, keeping count of what it has kept."""

    def __init__(self, reader: WireReader) -> None:
        self._reader = reader
        self._text_left = MAX_TEXT_BYTES
        self._dims_left = MAX_DIMS
        self._tensors_left = MAX_TENSORS

    def model(self) -> _Tensors:
        """The graph's inputs that are not initializers, its outputs, and its inputs that are
        initializers a request may override."""
        graph: list[Span] = []
        ir_version: int | None = None
        for number, wire_type, value, start in self._reader.fields([self._reader.whole()]):
            if number == _GRAPH and wire_type == LEN:
                graph.append(payload_span(start, value))
            elif number == _IR_VERSION and wire_type == VARINT:
                ir_version = value
        if ir_version is None:
            raise WireError("no ir_version")
        if not graph:
            raise WireError("no graph")
        inputs, outputs, overridable = self._graph(graph)
        return inputs, outputs, overridable if ir_version >= _OVERRIDABLE_FROM else ()

    def _graph(self, spans: list[Span]) -> _Tensors:
        inputs: list[TensorSpec] = []
        outputs: list[TensorSpec] = []
        initializers: set[str] = set()
        for number, wire_type, value, start in self._reader.fields(spans):
            if wire_type != LEN or number not in _GRAPH_TENSORS:
                continue
            self._tensors_left -= 1
            if self._tensors_left < 0:
                raise LimitError(f"more than {MAX_TENSORS:,} inputs, outputs and initializers")
            if number == _INPUT:
                inputs.append(self._value_info(payload_span(start, value)))
            elif number == _OUTPUT:
                outputs.append(self._value_info(payload_span(start, value)))
            elif number == _INITIALIZER:
                initializers.add(self._tensor_name([payload_span(start, value)]))
            elif number == _SPARSE_INITIALIZER:
                values = self._messages([payload_span(start, value)], _SPARSE_VALUES)
                initializers.add(self._tensor_name(values))
        kept = tuple(tensor for tensor in inputs if tensor.name not in initializers)
        overridable = tuple(tensor for tensor in inputs if tensor.name in initializers)
        return kept, tuple(outputs), overridable

    def _messages(self, spans: list[Span], wanted: int) -> list[Span]:
        """The spans of message field ``wanted`` in the message made of ``spans``."""
        return [
            payload_span(start, value)
            for number, wire_type, value, start in self._reader.fields(spans)
            if number == wanted and wire_type == LEN
        ]

    def _tensor_name(self, spans: list[Span]) -> str:
        """The name of a TensorProto, stepping over its data."""
        name = ""
        for number, wire_type, value, start in self._reader.fields(spans):
            if number == _TENSOR_NAME and wire_type == LEN:
                name = self._text(start, value)
        return name

    def _value_info(self, span: Span) -> TensorSpec:
        name = ""
        type_spans: list[Span] = []
        for number, wire_type, value, start in self._reader.fields([span]):
            if wire_type != LEN:
                continue
            if number == _VALUE_NAME:
                name = self._text(start, value)
            elif number == _VALUE_TYPE:
                type_spans.append(payload_span(start, value))
        found = self._type(type_spans, 1) if type_spans else _NO_TYPE
        return TensorSpec(name, found.data_type, found.source_type, found.dims, found.dim_names)

    def _type(self, spans: list[Span], depth: int) -> _Type:
        """A TypeProto; the last case of its oneof written is the one that holds."""
        if depth > MAX_TYPE_DEPTH:
            raise LimitError(f"types nested more than {MAX_TYPE_DEPTH} deep")
        case = 0
        parts: list[Span] = []
        for number, wire_type, value, start in self._reader.fields(spans):
            if number in _TYPE_CASES and wire_type == LEN:
                if number != case:
                    case, parts = number, []
                parts.append(payload_span(start, value))
        if case == _TENSOR_TYPE:
            return self._tensor_type(parts, "tensor")
        if case == _SPARSE_TENSOR_TYPE:
            return self._tensor_type(parts, "sparse_tensor")
        if case == _SEQUENCE_TYPE:
            return _Type(f"seq({self._inner_type(parts, _INNER_TYPE, depth)})")
        if case == _OPTIONAL_TYPE:
            return _Type(f"optional({self._inner_type(parts, _INNER_TYPE, depth)})")
        if case == _MAP_TYPE:
            key = 0
            for number, wire_type, value, _ in self._reader.fields(parts):
                if number == _KEY_TYPE and wire_type == VARINT:
                    key = _int32(value)
            mapped = self._inner_type(parts, _VALUE_TYPE_OF_MAP, depth)
            return _Type(f"map({_element_name(key)},{mapped})")
        if case == _OPAQUE_TYPE:
            names = {_OPAQUE_DOMAIN: "", _OPAQUE_NAME: ""}
            for number, wire_type, value, start in self._reader.fields(parts):
                if number in names and wire_type == LEN:
                    names[number] = self._text(start, value)
            return _Type(f"opaque({names[_OPAQUE_DOMAIN]},{names[_OPAQUE_NAME]})")
        return _NO_TYPE

    def _inner_type(self, spans: list[Span], wanted: int, depth: int) -> str:
        """The name of the type in field ``wanted`` of a sequence, optional or map type."""
        inner = self._messages(spans, wanted)
        found = self._type(inner, depth + 1) if inner else _NO_TYPE
        return found.source_type or "undefined"

    def _tensor_type(self, spans: list[Span], kind: str) -> _Type:
        element = 0
        shape: list[Span] = []
        for number, wire_type, value, start in self._reader.fields(spans):
            if number == _ELEM_TYPE and wire_type == VARINT:
                element = _int32(value)
            elif number == _SHAPE and wire_type == LEN:
                shape.append(payload_span(start, value))
        source = f"{kind}({_element_name(element)})"
        # A sparse tensor has no Triton equivalent, whatever its elements.
        triton = ELEMENT_TYPES.get(element, ("", None))[1] if kind == "tensor" else None
        if not shape:
            return _Type(source, triton)
        dims, names = self._shape(shape)
        return _Type(source, triton, dims, names if any(names) else ())

    def _shape(self, spans: list[Span]) -> tuple[tuple[int, ...], tuple[str | None, ...]]:
        """Each dimension's size (-1 where it is not fixed) and name (where it has one)."""
        dims: list[int] = []
        names: list[str | None] = []
        for dimension in self._messages(spans, _DIM):
            self._dims_left -= 1
            if self._dims_left < 0:
                raise LimitError(f"more than {MAX_DIMS:,} dimensions")
            size, name = -1, None
            for number, wire_type, value, start in self._reader.fields([dimension]):
                if number == _DIM_VALUE and wire_type == VARINT:
                    size, name = _int64(value), None
                elif number == _DIM_PARAM and wire_type == LEN:
                    size, name = -1, self._text(start, value) or None
            dims.append(size)
            names.append(name)
        return tuple(dims), tuple(names)

    def _text(self, start: int, length: int) -> str:
        """A string field's text, counted against what one walk may keep."""
        self._text_left -= length
        if self._text_left < 0:
            raise LimitError(f"more than {MAX_TEXT_BYTES:,} bytes of names")
        text = self._reader.payload(start, length, MAX_NAME_BYTES)
        return text.decode("utf-8", "backslashreplace")


def _element_name(number: int) -> str:
    """ONNX's name of TensorProto.DataType ``number``."""
    if number == 0:
        return "undefined"
    known = ELEMENT_TYPES.get(number)
    return known[0] if known else f"unknown type {number}"


def _int32(value: int) -> int:
    """An int32 field's value from its varint (negative numbers are written sign-extended)."""
    value &= 0xFFFF_FFFF
    return value - (1 << 32) if value >= 1 << 31 else value


def _int64(value: int) -> int:
    return value - (1 << 64) if value >= 1 << 63 else value
