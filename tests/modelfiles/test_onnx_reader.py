"""read_onnx on models built with onnx.helper: what it finds, and that onnx and ONNX Runtime
find the same."""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import onnx
import pytest
from byte_tools import varint
from onnx import TensorProto, helper, numpy_helper
from onnx_reference import TRITON_TYPES, agrees, by_onnx, by_onnxruntime

from tritonlint.modelfiles.onnx import ELEMENT_TYPES, read_onnx
from tritonlint.modelfiles.signature import ModelSignature, TensorSpec

FLOAT = "tensor(float)"


def model(
    inputs: Sequence[onnx.ValueInfoProto],
    outputs: Sequence[onnx.ValueInfoProto],
    nodes: Sequence[onnx.NodeProto] = (),
    initializers: Sequence[onnx.TensorProto] = (),
    **graph: Any,
) -> onnx.ModelProto:
    built = helper.make_graph(list(nodes), "g", list(inputs), list(outputs), list(initializers))
    for field, value in graph.items():
        getattr(built, field).extend(value)
    return helper.make_model(built, opset_imports=[helper.make_opsetid("", 21)])


def identity(inputs: Sequence[onnx.ValueInfoProto], outputs: Sequence[onnx.ValueInfoProto]):
    """A model whose outputs are its inputs."""
    nodes = [
        helper.make_node("Identity", [i.name], [o.name])
        for i, o in zip(inputs, outputs, strict=True)
    ]
    return model(inputs, outputs, nodes)


def read(path: Path, data: bytes | onnx.ModelProto, *, runtime: bool = True) -> ModelSignature:
    """Write ``data`` to ``path``, read it, and check that onnx parses the same signature and,
    with ``runtime``, that ONNX Runtime loads the file and reports it too."""
    path.write_bytes(data if isinstance(data, bytes) else data.SerializeToString())
    found = read_onnx(path)
    assert isinstance(found, ModelSignature), found
    assert (found.inputs, found.outputs) == by_onnx(onnx.load(path, load_external_data=False))
    if runtime:
        reported = by_onnxruntime(path)
        assert reported is not None
        assert agrees(found.inputs, reported[0]) and agrees(found.outputs, reported[1])
    return found


def test_fixed_named_and_unknown_dimensions(tmp_path: Path) -> None:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 3, None])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 3, None])
    found = read(tmp_path / "model.onnx", identity([x], [y]))
    spec = TensorSpec("x", "TYPE_FP32", FLOAT, (-1, 3, -1), ("batch", None, None))
    assert found == ModelSignature(
        "onnx", tmp_path / "model.onnx", (spec,), (dataclasses.replace(spec, name="y"),)
    )


def test_fully_fixed_dimensions_have_no_names(tmp_path: Path) -> None:
    x = helper.make_tensor_value_info("x", TensorProto.INT64, [4, 0, 7])
    found = read(
        tmp_path / "model.onnx", identity([x], [onnx.ValueInfoProto(name="y", type=x.type)])
    )
    assert found.inputs == (TensorSpec("x", "TYPE_INT64", "tensor(int64)", (4, 0, 7)),)


def test_initializers_listed_as_inputs_are_not_inputs(tmp_path: Path) -> None:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])
    w = helper.make_tensor_value_info("w", TensorProto.FLOAT, [2])
    b = helper.make_tensor_value_info("b", TensorProto.FLOAT, [2])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])
    weights = [numpy_helper.from_array(numpy_array([1.0, 2.0]), name) for name in ("w", "b")]
    nodes = [helper.make_node("Add", ["x", "w"], ["t"]), helper.make_node("Add", ["t", "b"], ["y"])]
    built = model([w, x, b], [y], nodes, weights)
    data = built.SerializeToString()
    # protobuf writes fields in number order: the initializers (5) come before the inputs (11).
    assert data.index(b"\x2a") < data.index(b"\x5a")
    found = read(tmp_path / "model.onnx", data)
    assert found.inputs == (TensorSpec("x", "TYPE_FP32", FLOAT, (2,)),)
    assert [o.name for o in found.outputs] == ["y"]


def _with_weights_as_inputs(ir_version: int, opset: int) -> onnx.ModelProto:
    """``y = x + w + b`` where the weights ``w`` and ``b`` are listed as inputs too."""
    values = {name: helper.make_tensor_value_info(name, TensorProto.FLOAT, [2]) for name in "xwby"}
    weights = [numpy_helper.from_array(numpy_array([1.0, 2.0]), name) for name in ("w", "b")]
    nodes = [helper.make_node("Add", ["x", "w"], ["t"]), helper.make_node("Add", ["t", "b"], ["y"])]
    graph = helper.make_graph(nodes, "g", [values[n] for n in "wxb"], [values["y"]], weights)
    return helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=ir_version
    )


def test_initializers_listed_as_inputs_are_the_inputs_a_request_may_override(
    tmp_path: Path,
) -> None:
    found = read(tmp_path / "model.onnx", _with_weights_as_inputs(ir_version=8, opset=17))
    assert [i.name for i in found.optional_inputs] == ["w", "b"]
    assert found.optional_inputs[0] == TensorSpec("w", "TYPE_FP32", FLOAT, (2,))
    onnxruntime = pytest.importorskip("onnxruntime")
    session = onnxruntime.InferenceSession(
        str(tmp_path / "model.onnx"), providers=["CPUExecutionProvider"]
    )
    assert [i.name for i in session.get_overridable_initializers()] == ["w", "b"]


def test_before_ir_version_4_an_initializer_listed_as_an_input_is_a_constant(
    tmp_path: Path,
) -> None:
    found = read(tmp_path / "model.onnx", _with_weights_as_inputs(ir_version=3, opset=7))
    assert [i.name for i in found.inputs] == ["x"]
    assert found.optional_inputs == ()
    onnxruntime = pytest.importorskip("onnxruntime")
    session = onnxruntime.InferenceSession(
        str(tmp_path / "model.onnx"), providers=["CPUExecutionProvider"]
    )
    assert session.get_overridable_initializers() == []


def test_a_sparse_initializer_listed_as_an_input_is_not_an_input(tmp_path: Path) -> None:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])
    s = helper.make_tensor_value_info("s", TensorProto.FLOAT, [3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])
    sparse = helper.make_sparse_tensor(
        helper.make_tensor("s", TensorProto.FLOAT, [1], [5.0]),
        helper.make_tensor("s_indices", TensorProto.INT64, [1], [1]),
        [3],
    )
    built = model(
        [x, s], [y], [helper.make_node("Add", ["x", "s"], ["y"])], sparse_initializer=[sparse]
    )
    found = read(tmp_path / "model.onnx", built)
    assert [i.name for i in found.inputs] == ["x"]


def test_no_shape_and_a_scalar(tmp_path: Path) -> None:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, None)
    s = helper.make_tensor_value_info("s", TensorProto.FLOAT, [])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    t = helper.make_tensor_value_info("t", TensorProto.FLOAT, [])
    found = read(tmp_path / "model.onnx", identity([x, s], [y, t]))
    assert found.inputs == (
        TensorSpec("x", "TYPE_FP32", FLOAT, None),
        TensorSpec("s", "TYPE_FP32", FLOAT, ()),
    )


def test_an_output_shape_the_file_leaves_open_is_left_open(tmp_path: Path) -> None:
    """ONNX Runtime infers the shape of an output from the graph and reports that; the file
    (and onnx) leave it open, and so does the reader, which runs no shape inference."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["rows", None])
    path = tmp_path / "model.onnx"
    path.write_bytes(identity([x], [y]).SerializeToString())
    found = read_onnx(path)
    assert isinstance(found, ModelSignature)
    assert found.outputs == (TensorSpec("y", "TYPE_FP32", FLOAT, (-1, -1), ("rows", None)),)
    reported = by_onnxruntime(path)
    assert reported is not None and reported[1][0].shape == [2, 3]


@pytest.mark.parametrize(
    "name", [name for name, _ in TensorProto.DataType.items() if name != "UNDEFINED"]
)
def test_every_element_type(tmp_path: Path, name: str) -> None:
    number = TensorProto.DataType.Value(name)
    x = helper.make_tensor_value_info("x", number, [1])
    y = helper.make_tensor_value_info("y", number, [1])
    built = identity([x], [y])
    path = tmp_path / "model.onnx"
    found = read(path, built, runtime=False)
    assert found.inputs == (
        TensorSpec("x", TRITON_TYPES.get(name), f"tensor({name.lower()})", (1,)),
    )
    reported = by_onnxruntime(path)
    if reported is not None:  # its CPU build has no Identity for some types (complex64, int4...)
        assert agrees(found.inputs, reported[0]) and agrees(found.outputs, reported[1])


def test_the_element_type_names_are_onnx_s() -> None:
    assert {number: name for number, (name, _) in ELEMENT_TYPES.items()} == {
        number: name.lower() for name, number in TensorProto.DataType.items() if name != "UNDEFINED"
    }


def test_strings_bools_and_halves_in_a_runnable_model(tmp_path: Path) -> None:
    inputs = [
        helper.make_tensor_value_info("text", TensorProto.STRING, ["n"]),
        helper.make_tensor_value_info("mask", TensorProto.BOOL, ["n", 4]),
        helper.make_tensor_value_info("half", TensorProto.FLOAT16, [8]),
        helper.make_tensor_value_info("brain", TensorProto.BFLOAT16, [8]),
    ]
    outputs = [onnx.ValueInfoProto(name=f"{i.name}_out", type=i.type) for i in inputs]
    found = read(tmp_path / "model.onnx", identity(inputs, outputs))
    assert [(i.name, i.data_type, i.source_type) for i in found.inputs] == [
        ("text", "TYPE_STRING", "tensor(string)"),
        ("mask", "TYPE_BOOL", "tensor(bool)"),
        ("half", "TYPE_FP16", "tensor(float16)"),
        ("brain", "TYPE_BF16", "tensor(bfloat16)"),
    ]
    assert found.inputs[1].dims == (-1, 4) and found.inputs[1].dim_names == ("n", None)


def test_many_inputs_keep_their_order(tmp_path: Path) -> None:
    names = [f"in_{(index * 37) % 301}" for index in range(301)]
    inputs = [helper.make_tensor_value_info(name, TensorProto.FLOAT, [1, 2]) for name in names]
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [301, 2])
    built = model(inputs, [y], [helper.make_node("Concat", names, ["y"], axis=0)])
    found = read(tmp_path / "model.onnx", built)
    assert [i.name for i in found.inputs] == names
    assert found.outputs == (TensorSpec("y", "TYPE_FP32", FLOAT, (301, 2)),)


def test_sequences_optionals_maps_sparse_and_opaque_types(tmp_path: Path) -> None:
    tensor = helper.make_tensor_type_proto(TensorProto.INT64, ["k"])
    types = {
        "seq": helper.make_sequence_type_proto(tensor),
        "optional": helper.make_optional_type_proto(tensor),
        "optional_seq": helper.make_optional_type_proto(helper.make_sequence_type_proto(tensor)),
        "map": helper.make_map_type_proto(TensorProto.STRING, tensor),
        "sparse": helper.make_sparse_tensor_type_proto(TensorProto.FLOAT, [2, "n"]),
        "opaque": onnx.TypeProto(opaque_type=onnx.TypeProto.Opaque(domain="ai.x", name="Blob")),
    }
    values = [helper.make_value_info(name, kind) for name, kind in types.items()]
    found = read(tmp_path / "model.onnx", model(values, values), runtime=False)
    assert found.inputs == (
        TensorSpec("seq", None, "seq(tensor(int64))", None),
        TensorSpec("optional", None, "optional(tensor(int64))", None),
        TensorSpec("optional_seq", None, "optional(seq(tensor(int64)))", None),
        TensorSpec("map", None, "map(string,tensor(int64))", None),
        TensorSpec("sparse", None, "sparse_tensor(float)", (2, -1), (None, "n")),
        TensorSpec("opaque", None, "opaque(ai.x,Blob)", None),
    )


def test_sequence_and_optional_types_a_runtime_loads(tmp_path: Path) -> None:
    seq = helper.make_tensor_sequence_value_info("s", TensorProto.FLOAT, ["a"])
    seq_out = helper.make_tensor_sequence_value_info("s_out", TensorProto.FLOAT, ["a"])
    kind = helper.make_optional_type_proto(helper.make_tensor_type_proto(TensorProto.INT32, [2]))
    optional = helper.make_value_info("o", kind)
    found = read(
        tmp_path / "model.onnx",
        identity([seq, optional], [seq_out, helper.make_value_info("o_out", kind)]),
    )
    assert [(i.name, i.source_type) for i in found.inputs] == [
        ("s", "seq(tensor(float))"),
        ("o", "optional(tensor(int32))"),
    ]


def test_a_value_without_a_type(tmp_path: Path) -> None:
    found = read(tmp_path / "model.onnx", model([onnx.ValueInfoProto(name="x")], []), runtime=False)
    assert found.inputs == (TensorSpec("x", None, None, None),)


def test_elem_types_without_a_name(tmp_path: Path) -> None:
    x = helper.make_tensor_value_info("x", 0, [1])
    y = helper.make_tensor_value_info("y", 99, [1])
    z = helper.make_tensor_value_info("z", -5, [1])
    found = read(tmp_path / "model.onnx", model([x, y, z], []), runtime=False)
    assert [(i.data_type, i.source_type) for i in found.inputs] == [
        (None, "tensor(undefined)"),
        (None, "tensor(unknown type 99)"),
        (None, "tensor(unknown type -5)"),
    ]


def test_repeated_messages_merge_as_protobuf_merges_them(tmp_path: Path) -> None:
    """A singular message written twice is one message; of a oneof, the last case written
    holds. Bytes no exporter writes, but a protobuf parser reads them so."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n"])
    first = model([x], [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])])
    # w: a tensor type written in two parts, the second with more of its shape.
    w = helper.make_tensor_value_info("w", TensorProto.BOOL, ["a"]).SerializeToString()
    more = onnx.TypeProto()
    more.tensor_type.shape.dim.add(dim_value=5)
    w += _field(2, more.SerializeToString())
    # v: a tensor, then a sequence, then a tensor again: only the last tensor holds.
    tensor = helper.make_tensor_type_proto(TensorProto.INT8, [3]).SerializeToString()
    sequence = helper.make_sequence_type_proto(helper.make_tensor_type_proto(TensorProto.INT64, []))
    v = _field(1, b"v") + _field(2, tensor) + _field(2, sequence.SerializeToString())
    v += _field(2, helper.make_tensor_type_proto(TensorProto.INT16, None).SerializeToString())
    # A second graph: its inputs follow the first graph's.
    data = first.SerializeToString() + _field(7, _field(11, w) + _field(11, v))
    found = read(tmp_path / "model.onnx", data, runtime=False)
    assert found.inputs == (
        TensorSpec("x", "TYPE_FP32", FLOAT, (-1,), ("n",)),
        TensorSpec("w", "TYPE_BOOL", "tensor(bool)", (-1, 5), ("a", None)),
        TensorSpec("v", "TYPE_INT16", "tensor(int16)", None),
    )


def test_the_last_dimension_value_or_name_written_holds(tmp_path: Path) -> None:
    dims = _field(1, b"\x08\x04" + _field(2, b"n")) + _field(1, _field(2, b"m") + b"\x08\x06")
    tensor = b"\x08\x01" + _field(2, dims)
    value = _field(1, b"x") + _field(2, _field(1, tensor))
    data = b"\x08\x08" + _field(7, _field(11, value))
    found = read(tmp_path / "model.onnx", data, runtime=False)
    assert found.inputs == (TensorSpec("x", "TYPE_FP32", FLOAT, (-1, 6), ("n", None)),)


def test_fields_of_the_wrong_wire_type_and_unknown_fields_are_skipped(tmp_path: Path) -> None:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])
    data = model([x], [x]).SerializeToString()
    # graph (7) as a number, an unknown field holding a group, fixed-size fields, a large
    # unknown field number.
    data += b"\x38\x05" + b"\xa3\x06" + b"\x08\x01" + b"\xa4\x06" + b"\x0d\x00\x00\x00\x00"
    data += b"\x11" + bytes(8) + b"\xfa\xff\xff\xff\x0f\x01z"
    found = read(tmp_path / "model.onnx", data, runtime=False)
    assert [i.name for i in found.inputs] == ["x"]


def test_a_model_folder_with_external_data_is_read_without_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "model.onnx"
    folder.mkdir()
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 16])
    w = helper.make_tensor_value_info("w", TensorProto.FLOAT, [16])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n", 16])
    weight = numpy_helper.from_array(numpy_array([0.5] * 16), "w")
    built = model([x, w], [y], [helper.make_node("Add", ["x", "w"], ["y"])], [weight])
    onnx.save_model(
        built,
        folder / "model.onnx",
        save_as_external_data=True,
        location="weights.bin",
        size_threshold=0,
    )
    assert (folder / "weights.bin").stat().st_size == 64
    (folder / "weights.bin").unlink()
    opened = _record_opens(monkeypatch)
    found = read_onnx(folder)
    assert [file for file, _ in opened] == [folder / "model.onnx"]
    assert found == ModelSignature(
        "onnx",
        folder,
        (TensorSpec("x", "TYPE_FP32", FLOAT, (-1, 16), ("n", None)),),
        (TensorSpec("y", "TYPE_FP32", FLOAT, (-1, 16), ("n", None)),),
        (TensorSpec("w", "TYPE_FP32", FLOAT, (16,)),),
    )


def test_weights_are_stepped_over_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1024])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1024])
    weights = [
        numpy_helper.from_array(numpy_array([float(i)] * 1024 * 1024), f"w{i}") for i in range(4)
    ]
    nodes = [helper.make_node("Identity", ["x"], ["y"])]
    path = tmp_path / "model.onnx"
    path.write_bytes(model([x], [y], nodes, weights).SerializeToString())
    assert path.stat().st_size > 16 * 1024 * 1024
    opened = _record_opens(monkeypatch)
    found = read_onnx(path)
    assert isinstance(found, ModelSignature) and [i.name for i in found.inputs] == ["x"]
    [(_, bytes_read)] = opened
    # 16 KiB at the start twice (for the model's fields, then the graph's), then 1 KiB where
    # each weight after the first starts and where the fields after the last one start.
    assert bytes_read <= 2 * 16 * 1024 + (len(weights) + 1) * 1024


def numpy_array(values: list[float]) -> Any:
    import numpy

    return numpy.array(values, dtype=numpy.float32)


def _field(number: int, payload: bytes) -> bytes:
    """A length-delimited field, as protobuf writes one."""
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def _record_opens(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Path, int]]:
    """The files ``Path.open`` opens from here on, with the bytes read from each (filled in
    when each is closed)."""
    opened: list[tuple[Path, int]] = []
    real_open = Path.open

    class Counting(io.BufferedReader):
        path = Path()
        read_bytes = 0

        def read(self, size: int | None = -1) -> bytes:
            data = super().read(size)
            self.read_bytes += len(data)
            return data

        def close(self) -> None:
            opened.append((self.path, self.read_bytes))
            super().close()

    def recording_open(self: Path, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        stream = real_open(self, mode, *args, **kwargs)
        if "b" not in mode:
            return stream
        counting = Counting(stream.detach())
        counting.path = self
        return counting

    monkeypatch.setattr(Path, "open", recording_open)
    return opened
