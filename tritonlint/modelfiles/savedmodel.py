"""The serving signature of a TensorFlow SavedModel (``model.savedmodel/saved_model.pb``).

Triton's TensorFlow backend loads the meta graph tagged ``serve`` (the ``TF_GRAPH_TAG`` model
parameter names another tag) and takes the model's inputs and outputs from one of its
signatures: ``serving_default``, or the one the ``TF_SIGNATURE_DEF`` parameter names; where no
parameter names one and there is no ``serving_default``, it takes another signature that is not
``__saved_model_init_op`` or ``__saved_model_train_op`` (this reader does so when exactly one
is left: with several, which one the server takes is up to its hash map, and that is reported).
The names Triton matches the config against are the signature's map keys, not the graph tensor
names (``TensorInfo.name``, ``serving_default_x:0``) they stand for.

The file is a ``SavedModel`` protobuf message. Its meta graphs hold the whole graph and its
constants, up to gigabytes, around a few kilobytes of signatures: this reader maps the file
into memory and walks only the fields on the way to the signature (``SavedModel.meta_graphs``
= 2; ``MetaGraphDef``: ``meta_info_def`` = 1 with ``tags`` = 4, ``signature_def`` = 5;
``SignatureDef``: ``inputs`` = 1, ``outputs`` = 2; ``TensorInfo``: ``dtype`` = 2,
``tensor_shape`` = 3; ``TensorShapeProto``: ``dim`` = 2 with ``size`` = 1 and ``name`` = 2,
``unknown_rank`` = 3), stepping over every other field without reading it. Nothing of
TensorFlow is imported. A dimension of size -1 is not fixed; a shape of unknown rank reads as
unknown dims.

Types map to Triton's as the TensorFlow backend maps them; the types it refuses
(``DT_BFLOAT16``, complex and quantized types, ...) have no Triton type.
"""

from __future__ import annotations

import contextlib
import mmap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tritonlint.modelfiles.files import UnreadableFile, regular_size
from tritonlint.modelfiles.signature import ModelFileProblem, ModelSignature, TensorSpec

#: The file a SavedModel folder holds its graph and signatures in.
SAVED_MODEL_FILE = "saved_model.pb"

#: The meta graph tag and signature Triton's TensorFlow backend uses unless the model's
#: ``TF_GRAPH_TAG`` / ``TF_SIGNATURE_DEF`` parameters say otherwise.
DEFAULT_TAG = "serve"
DEFAULT_SIGNATURE = "serving_default"

#: Signatures the backend never falls back to.
_NOT_SERVING = ("__saved_model_init_op", "__saved_model_train_op")

#: Fields walked in one file before giving up: a real SavedModel's walk takes a few thousand.
MAX_FIELDS = 2_000_000

#: Levels of (deprecated) groups skipped inside one another; protobuf itself stops at 100.
_MAX_GROUP_DEPTH = 64

#: TensorFlow's DataType enum (tensorflow/core/framework/types.proto), by number.
_DATA_TYPES = {
    0: "DT_INVALID",
    1: "DT_FLOAT",
    2: "DT_DOUBLE",
    3: "DT_INT32",
    4: "DT_UINT8",
    5: "DT_INT16",
    6: "DT_INT8",
    7: "DT_STRING",
    8: "DT_COMPLEX64",
    9: "DT_INT64",
    10: "DT_BOOL",
    11: "DT_QINT8",
    12: "DT_QUINT8",
    13: "DT_QINT32",
    14: "DT_BFLOAT16",
    15: "DT_QINT16",
    16: "DT_QUINT16",
    17: "DT_UINT16",
    18: "DT_COMPLEX128",
    19: "DT_HALF",
    20: "DT_RESOURCE",
    21: "DT_VARIANT",
    22: "DT_UINT32",
    23: "DT_UINT64",
    24: "DT_FLOAT8_E5M2",
    25: "DT_FLOAT8_E4M3FN",
    26: "DT_FLOAT8_E4M3FNUZ",
    27: "DT_FLOAT8_E4M3B11FNUZ",
    28: "DT_FLOAT8_E5M2FNUZ",
    29: "DT_INT4",
    30: "DT_UINT4",
    31: "DT_INT2",
    32: "DT_UINT2",
    33: "DT_FLOAT4_E2M1FN",
}

#: The TensorFlow types Triton's TensorFlow backend serves, and the Triton type of each.
TRITON_TYPES = {
    "DT_BOOL": "TYPE_BOOL",
    "DT_UINT8": "TYPE_UINT8",
    "DT_UINT16": "TYPE_UINT16",
    "DT_UINT32": "TYPE_UINT32",
    "DT_UINT64": "TYPE_UINT64",
    "DT_INT8": "TYPE_INT8",
    "DT_INT16": "TYPE_INT16",
    "DT_INT32": "TYPE_INT32",
    "DT_INT64": "TYPE_INT64",
    "DT_HALF": "TYPE_FP16",
    "DT_FLOAT": "TYPE_FP32",
    "DT_DOUBLE": "TYPE_FP64",
    "DT_STRING": "TYPE_STRING",
}

_UINT64 = (1 << 64) - 1

# Wire types.
_VARINT, _I64, _LEN, _SGROUP, _EGROUP, _I32 = range(6)


class _Malformed(Exception):
    """The bytes are not the message they should be; the message says why."""


class _NoSignature(Exception):
    """The file is a SavedModel, but not one the backend can serve as asked."""


def read_savedmodel(
    path: Path, *, tag: str | None = None, signature: str | None = None
) -> ModelSignature | ModelFileProblem:
    """The serving signature of the SavedModel at ``path`` (its folder or its saved_model.pb).

    ``tag`` and ``signature`` are the model's ``TF_GRAPH_TAG`` and ``TF_SIGNATURE_DEF``
    parameters where it sets them.
    """
    file = path / SAVED_MODEL_FILE if path.is_dir() else path
    try:
        size = regular_size(file)
        if size == 0:
            return ModelFileProblem(path, f"the SavedModel's {file.name} is empty")
        with file.open("rb") as handle:
            data = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
            try:
                result = _read(memoryview(data), path, tag or DEFAULT_TAG, signature)
            finally:
                _close(data)
    except UnreadableFile as error:
        if path.is_dir() and (path / "saved_model.pbtxt").exists():
            return ModelFileProblem(
                path, "the SavedModel has only a saved_model.pbtxt; only saved_model.pb is read"
            )
        return ModelFileProblem(path, f"the SavedModel's {file.name} {error}")
    except (OSError, ValueError) as error:
        return ModelFileProblem(path, f"the SavedModel's {file.name} cannot be read: {error}")
    return result


def _close(data: mmap.mmap) -> None:
    """Unmap the file, unless a view into it is still alive: then it goes with the view."""
    with contextlib.suppress(BufferError):
        data.close()


def _read(
    data: memoryview, path: Path, tag: str, signature: str | None
) -> ModelSignature | ModelFileProblem:
    """The signature's tensors, or the problem."""
    try:
        walk = _Walk()
        chosen = _signature(walk, _meta_graph(walk, data, tag), signature)
        inputs = tuple(_tensor(walk, key, value) for key, value in _map(walk, chosen, 1))
        outputs = tuple(_tensor(walk, key, value) for key, value in _map(walk, chosen, 2))
    except _Malformed as error:
        return ModelFileProblem(
            path, f"the SavedModel's {SAVED_MODEL_FILE} is not readable: {error}"
        )
    except _NoSignature as error:
        return ModelFileProblem(path, f"the SavedModel {error}")
    return ModelSignature(format="savedmodel", path=path, inputs=inputs, outputs=outputs)


@dataclass
class _Walk:
    """The fields walked so far in one file, against :data:`MAX_FIELDS`."""

    fields: int = 0

    def fields_of(self, message: memoryview) -> Iterator[tuple[int, int, int | memoryview]]:
        """Each field of ``message``: number, wire type, and the varint's value or the bytes of
        a length-delimited field (fixed-size fields and groups are stepped over, value 0)."""
        position, end = 0, len(message)
        while position < end:
            self.fields += 1
            if self.fields > MAX_FIELDS:
                raise _Malformed(
                    f"it has more than {MAX_FIELDS} fields on the way to the signature"
                )
            key, position = _varint(message, position)
            number, wire_type = key >> 3, key & 7
            if number == 0:
                raise _Malformed("a field has number 0")
            value: int | memoryview = 0
            if wire_type == _VARINT:
                value, position = _varint(message, position)
            elif wire_type == _LEN:
                length, position = _varint(message, position)
                if length > end - position:
                    raise _Malformed("a field runs past the end of its message")
                value = message[position : position + length]
                position += length
            elif wire_type == _I64:
                position += 8
            elif wire_type == _I32:
                position += 4
            elif wire_type == _SGROUP:
                position = self._skip_group(message, position, number)
            else:
                raise _Malformed(f"a field has wire type {wire_type}")
            if position > end:
                raise _Malformed("a field runs past the end of its message")
            yield number, wire_type, value

    def _skip_group(self, message: memoryview, position: int, number: int) -> int:
        """The position after the group ``number`` that starts at ``position``."""
        open_groups = [number]
        end = len(message)
        while open_groups:
            if position >= end:
                raise _Malformed("a group is not closed")
            self.fields += 1
            if self.fields > MAX_FIELDS:
                raise _Malformed(
                    f"it has more than {MAX_FIELDS} fields on the way to the signature"
                )
            key, position = _varint(message, position)
            inner, wire_type = key >> 3, key & 7
            if wire_type == _VARINT:
                _, position = _varint(message, position)
            elif wire_type == _LEN:
                length, position = _varint(message, position)
                position += length
            elif wire_type == _I64:
                position += 8
            elif wire_type == _I32:
                position += 4
            elif wire_type == _SGROUP:
                open_groups.append(inner)
                if len(open_groups) > _MAX_GROUP_DEPTH:
                    raise _Malformed("groups nest too deeply")
            elif wire_type == _EGROUP:
                if open_groups.pop() != inner:
                    raise _Malformed("a group ends with the wrong field number")
            else:
                raise _Malformed(f"a field has wire type {wire_type}")
        return position


def _varint(data: memoryview, position: int) -> tuple[int, int]:
    """The varint at ``position`` and the position after it."""
    value = shift = 0
    end = len(data)
    while True:
        if position >= end:
            raise _Malformed("it ends inside a number")
        byte = data[position]
        position += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value & _UINT64, position
        shift += 7
        if shift >= 70:
            raise _Malformed("a number is longer than 10 bytes")


def _bytes_fields(walk: _Walk, message: memoryview, number: int) -> Iterator[memoryview]:
    """The values of length-delimited field ``number`` of ``message``, in order (a field of
    that number with another wire type is an unknown field to protobuf, and skipped here)."""
    for field, _, value in walk.fields_of(message):
        if field == number and isinstance(value, memoryview):
            yield value


def _text(value: memoryview) -> str:
    try:
        return bytes(value).decode("utf-8")
    except UnicodeDecodeError:
        raise _Malformed("a name is not UTF-8") from None


def _meta_graph(walk: _Walk, saved_model: memoryview, tag: str) -> memoryview:
    """The meta graph whose tags are exactly ``{tag}``, as TensorFlow's loader picks it."""
    found: list[set[str]] = []
    for meta_graph in _bytes_fields(walk, saved_model, 2):
        tags: set[str] = set()
        for info in _bytes_fields(walk, meta_graph, 1):
            tags.update(_text(value) for value in _bytes_fields(walk, info, 4))
        if tags == {tag}:
            return meta_graph
        found.append(tags)
    if not found:
        raise _NoSignature("has no meta graph (is this a SavedModel's saved_model.pb?)")
    available = ", ".join(sorted(repr(sorted(tags)) for tags in found))
    raise _NoSignature(
        f"has no meta graph tagged {tag!r} (its meta graphs' tags: {available}); "
        "the model's TF_GRAPH_TAG parameter names the tag to load"
    )


def _signature(walk: _Walk, meta_graph: memoryview, wanted: str | None) -> memoryview:
    """The signature the backend serves: ``wanted``, or the default and its fallback."""
    signatures = dict(_map(walk, meta_graph, 5))
    name = wanted or DEFAULT_SIGNATURE
    if name in signatures:
        return signatures[name]
    listed = ", ".join(repr(key) for key in sorted(signatures)) or "none"
    if wanted is None:
        serving = [key for key in signatures if key not in _NOT_SERVING]
        if len(serving) == 1:
            return signatures[serving[0]]
        if serving:
            raise _NoSignature(
                f"has no {DEFAULT_SIGNATURE!r} signature and several others ({listed}): the "
                "server takes any one of them; the model's TF_SIGNATURE_DEF parameter names one"
            )
    raise _NoSignature(f"has no {name!r} signature (its signatures: {listed})")


def _map(walk: _Walk, message: memoryview, number: int) -> Iterator[tuple[str, memoryview]]:
    """The entries of the ``map<string, message>`` field ``number``, in the file's order."""
    for entry in _bytes_fields(walk, message, number):
        key, value = "", memoryview(b"")
        for field, wire_type, content in walk.fields_of(entry):
            if wire_type != _LEN or not isinstance(content, memoryview):
                continue
            if field == 1:
                key = _text(content)
            elif field == 2:
                value = content
        yield key, value


def _tensor(walk: _Walk, name: str, info: memoryview) -> TensorSpec:
    """The TensorSpec of a TensorInfo that the signature calls ``name``."""
    number = 0
    dims: list[int] = []
    dim_names: list[str | None] = []
    unknown_rank = False
    for field, wire_type, value in walk.fields_of(info):
        if field == 2 and wire_type == _VARINT and isinstance(value, int):
            number = value
        elif field == 3 and isinstance(value, memoryview):
            for shape_field, shape_type, shape_value in walk.fields_of(value):
                if shape_field == 2 and isinstance(shape_value, memoryview):
                    size, dim_name = _dim(walk, shape_value)
                    dims.append(size)
                    dim_names.append(dim_name)
                elif shape_field == 3 and shape_type == _VARINT:
                    unknown_rank = bool(shape_value)
    type_name = _DATA_TYPES.get(number, f"DataType({number})")
    return TensorSpec(
        name=name,
        data_type=TRITON_TYPES.get(type_name),
        source_type=type_name,
        dims=None if unknown_rank else tuple(dims),
        dim_names=() if unknown_rank or not any(dim_names) else tuple(dim_names),
    )


def _dim(walk: _Walk, dim: memoryview) -> tuple[int, str | None]:
    """A TensorShapeProto.Dim's size (-1 where not fixed) and name."""
    size, name = 0, None
    for field, wire_type, value in walk.fields_of(dim):
        if field == 1 and wire_type == _VARINT and isinstance(value, int):
            size = value - (1 << 64) if value >= 1 << 63 else value
        elif field == 2 and isinstance(value, memoryview):
            name = _text(value) or None
    return (size if size >= 0 else -1), name
