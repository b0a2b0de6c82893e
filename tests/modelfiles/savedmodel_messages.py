"""SavedModel messages built with protobuf itself, for cases TensorFlow does not write.

The message layout is TensorFlow's (tensorflow/core/protobuf/saved_model.proto,
meta_graph.proto, tensorflow/core/framework/tensor_shape.proto), cut down to the fields on the
way to a signature; the graph is a plain bytes field, as its wire form is. The classes live in
a pool of their own, so they never clash with TensorFlow's where it is installed too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

F = descriptor_pb2.FieldDescriptorProto

#: (name, number, type, label, message type) of each message's fields.
_LAYOUT: dict[str, list[tuple[str, int, int, int, str | None]]] = {
    "TensorShapeProto.Dim": [
        ("size", 1, F.TYPE_INT64, F.LABEL_OPTIONAL, None),
        ("name", 2, F.TYPE_STRING, F.LABEL_OPTIONAL, None),
    ],
    "TensorShapeProto": [
        ("dim", 2, F.TYPE_MESSAGE, F.LABEL_REPEATED, ".tensorflow.TensorShapeProto.Dim"),
        ("unknown_rank", 3, F.TYPE_BOOL, F.LABEL_OPTIONAL, None),
    ],
    "TensorInfo": [
        ("name", 1, F.TYPE_STRING, F.LABEL_OPTIONAL, None),
        ("dtype", 2, F.TYPE_INT32, F.LABEL_OPTIONAL, None),
        ("tensor_shape", 3, F.TYPE_MESSAGE, F.LABEL_OPTIONAL, ".tensorflow.TensorShapeProto"),
    ],
    "SignatureDef": [
        ("inputs", 1, F.TYPE_MESSAGE, F.LABEL_REPEATED, ".tensorflow.SignatureDef.InputsEntry"),
        ("outputs", 2, F.TYPE_MESSAGE, F.LABEL_REPEATED, ".tensorflow.SignatureDef.OutputsEntry"),
        ("method_name", 3, F.TYPE_STRING, F.LABEL_OPTIONAL, None),
    ],
    "MetaGraphDef.MetaInfoDef": [
        ("meta_graph_version", 1, F.TYPE_STRING, F.LABEL_OPTIONAL, None),
        ("tags", 4, F.TYPE_STRING, F.LABEL_REPEATED, None),
    ],
    "MetaGraphDef": [
        (
            "meta_info_def",
            1,
            F.TYPE_MESSAGE,
            F.LABEL_OPTIONAL,
            ".tensorflow.MetaGraphDef.MetaInfoDef",
        ),
        ("graph_def", 2, F.TYPE_BYTES, F.LABEL_OPTIONAL, None),
        (
            "signature_def",
            5,
            F.TYPE_MESSAGE,
            F.LABEL_REPEATED,
            ".tensorflow.MetaGraphDef.SignatureDefEntry",
        ),
    ],
    "SavedModel": [
        ("saved_model_schema_version", 1, F.TYPE_INT64, F.LABEL_OPTIONAL, None),
        ("meta_graphs", 2, F.TYPE_MESSAGE, F.LABEL_REPEATED, ".tensorflow.MetaGraphDef"),
    ],
}

#: Map fields: (message, entry name, value type).
_MAPS = [
    ("SignatureDef", "InputsEntry", ".tensorflow.TensorInfo"),
    ("SignatureDef", "OutputsEntry", ".tensorflow.TensorInfo"),
    ("MetaGraphDef", "SignatureDefEntry", ".tensorflow.SignatureDef"),
]

#: A tensor: (TensorFlow DataType number, dims or None for an unknown rank).
Tensor = tuple[int, Sequence[int] | None]


def _fields(message: descriptor_pb2.DescriptorProto, name: str) -> None:
    for field_name, number, kind, label, type_name in _LAYOUT[name]:
        field = message.field.add(name=field_name, number=number, type=kind, label=label)
        if type_name:
            field.type_name = type_name


@cache
def classes() -> dict[str, Any]:
    file = descriptor_pb2.FileDescriptorProto(
        name="tritonlint_tests/saved_model.proto", package="tensorflow", syntax="proto3"
    )
    messages: dict[str, descriptor_pb2.DescriptorProto] = {}
    for name in sorted(_LAYOUT, key=lambda name: name.count(".")):  # outer messages first
        outer, _, inner = name.partition(".")
        if inner:
            messages[name] = messages[outer].nested_type.add(name=inner)
        else:
            messages[name] = file.message_type.add(name=name)
        _fields(messages[name], name)
    for owner, entry_name, value_type in _MAPS:
        entry = messages[owner].nested_type.add(name=entry_name)
        entry.options.map_entry = True
        entry.field.add(name="key", number=1, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL)
        entry.field.add(
            name="value",
            number=2,
            type=F.TYPE_MESSAGE,
            label=F.LABEL_OPTIONAL,
            type_name=value_type,
        )
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file)
    return {
        name: message_factory.GetMessageClass(pool.FindMessageTypeByName(f"tensorflow.{name}"))
        for name in _LAYOUT
    }


def saved_model(
    signatures: Mapping[str, tuple[Mapping[str, Tensor], Mapping[str, Tensor]]],
    tags: Sequence[str] = ("serve",),
    graph: bytes = b"",
    extra_meta_graphs: Sequence[Sequence[str]] = (),
) -> bytes:
    """A serialized SavedModel with one meta graph of ``tags`` holding ``signatures``
    (name: (inputs, outputs)), after meta graphs tagged ``extra_meta_graphs`` with none."""
    made = classes()
    model = made["SavedModel"](saved_model_schema_version=1)
    for other in extra_meta_graphs:
        model.meta_graphs.add().meta_info_def.tags.extend(other)
    meta_graph = model.meta_graphs.add()
    meta_graph.meta_info_def.tags.extend(tags)
    meta_graph.graph_def = graph
    for name, (inputs, outputs) in signatures.items():
        signature = meta_graph.signature_def[name]
        signature.method_name = "tensorflow/serving/predict"
        for tensors, into in ((inputs, signature.inputs), (outputs, signature.outputs)):
            for key, (dtype, dims) in tensors.items():
                info = into[key]
                info.name = f"{name}_{key}:0"
                info.dtype = dtype
                if dims is None:
                    info.tensor_shape.unknown_rank = True
                else:
                    for size in dims:
                        info.tensor_shape.dim.add(size=size)
    data: bytes = model.SerializeToString(deterministic=True)
    return data
