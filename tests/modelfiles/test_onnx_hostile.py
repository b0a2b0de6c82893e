"""read_onnx on files that are not ONNX models, or are broken or hostile ones: always a
ModelFileProblem that says what is wrong, never an exception or a hang."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import onnx
import pytest
from byte_tools import varint
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from onnx import TensorProto, helper
from onnx_reference import by_onnx

from tritonlint.modelfiles import onnx as onnx_reader
from tritonlint.modelfiles import wire
from tritonlint.modelfiles.onnx import read_onnx
from tritonlint.modelfiles.signature import ModelFileProblem, ModelSignature


def small_model() -> bytes:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 3])
    w = helper.make_tensor_value_info("w", TensorProto.FLOAT, [3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 3])
    weight = helper.make_tensor("w", TensorProto.FLOAT, [3], [1.0, 2.0, 3.0])
    graph = helper.make_graph(
        [helper.make_node("Add", ["x", "w"], ["y"])], "g", [x, w], [y], [weight]
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)]).SerializeToString()


def rich_model() -> bytes:
    """Inputs of every kind of type, some of them outputs too."""
    tensor = helper.make_tensor_type_proto(TensorProto.INT64, ["k", 2])
    kinds = {
        "seq": helper.make_sequence_type_proto(tensor),
        "optional": helper.make_optional_type_proto(tensor),
        "map": helper.make_map_type_proto(TensorProto.STRING, tensor),
        "sparse": helper.make_sparse_tensor_type_proto(TensorProto.FLOAT, [2, "n"]),
        "tensor": tensor,
    }
    values = [helper.make_value_info(name, kind) for name, kind in kinds.items()]
    return helper.make_model(helper.make_graph([], "g", values, values[:2])).SerializeToString()


def problem(path: Path, data: bytes) -> str:
    path.write_bytes(data)
    found = read_onnx(path)
    assert isinstance(found, ModelFileProblem), found
    assert found.path == path
    return found.message


def agrees_with_protobuf(path: Path, data: bytes) -> None:
    """What read_onnx makes of ``data``: a problem where protobuf cannot parse it or it has no
    graph; where both read it, the signature onnx reads."""
    path.write_bytes(data)
    found = read_onnx(path)
    try:
        parsed = onnx.ModelProto.FromString(data)
    except Exception:  # protobuf's DecodeError, whatever module it comes from
        parsed = None
    if parsed is None or not parsed.HasField("graph") or not parsed.HasField("ir_version"):
        # The reader skips the nodes protobuf parses: it may read a file protobuf rejects.
        assert isinstance(found, ModelFileProblem) or parsed is None
    else:
        assert isinstance(found, ModelSignature), found
        assert (found.inputs, found.outputs) == by_onnx(parsed)


def test_an_empty_file(tmp_path: Path) -> None:
    assert problem(tmp_path / "model.onnx", b"") == "the ONNX model is empty"


def test_truncated_at_every_byte(tmp_path: Path) -> None:
    data = small_model()
    for length in range(1, len(data)):
        agrees_with_protobuf(tmp_path / "model.onnx", data[:length])
    # The graph (field 7) follows ir_version (8), a tag and a length: three bytes.
    assert data[2] == 7 << 3 | 2
    assert problem(tmp_path / "model.onnx", data[: len(data) // 2]) == (
        f"the ONNX model is not in ONNX's format: a field of {data[3]} bytes at byte 2 runs past the "
        "end of the file"
    )


FUZZ = settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)


@FUZZ
@given(data=st.binary(max_size=512))
def test_random_bytes(tmp_path: Path, data: bytes) -> None:
    agrees_with_protobuf(tmp_path / "model.onnx", data)


@FUZZ
@given(
    base=st.sampled_from(["small", "rich"]),
    edits=st.lists(
        st.tuples(
            st.sampled_from(["set", "delete", "insert"]),
            st.integers(0, 10_000),
            st.integers(0, 255),
        ),
        min_size=1,
        max_size=4,
    ),
)
def test_corrupted_models(tmp_path: Path, base: str, edits: list[tuple[str, int, int]]) -> None:
    data = bytearray(small_model() if base == "small" else rich_model())
    for edit, position, value in edits:
        position %= len(data)
        if edit == "set":
            data[position] = value
        elif edit == "delete":
            del data[position]
        else:
            data.insert(position, value)
    agrees_with_protobuf(tmp_path / "model.onnx", bytes(data))


def test_a_huge_declared_length(tmp_path: Path) -> None:
    # ir_version 8, then a graph of 2**62 bytes in a file of 14.
    data = b"\x08\x08\x3a" + b"\x80\x80\x80\x80\x80\x80\x80\x80\x40" + b"\x00\x00"
    assert problem(tmp_path / "model.onnx", data) == (
        "the ONNX model is not in ONNX's format: "
        "a field of 4,611,686,018,427,387,904 bytes at byte 2 runs past the end of the file"
    )


def test_a_number_of_more_than_ten_bytes(tmp_path: Path) -> None:
    data = b"\x08" + b"\xff" * 11 + b"\x01"
    assert problem(tmp_path / "model.onnx", data) == (
        "the ONNX model is not in ONNX's format: a number of more than ten bytes at byte 1"
    )


def test_a_name_longer_than_any_name(tmp_path: Path) -> None:
    x = helper.make_tensor_value_info("x" * 70_000, TensorProto.FLOAT, [1])
    graph = helper.make_graph([], "g", [x], [])
    data = helper.make_model(graph).SerializeToString()
    assert problem(tmp_path / "model.onnx", data).startswith(
        "the ONNX model is past a limit of the reader: a string of 70,000 bytes at byte "
    )


def test_more_names_than_a_model_has(tmp_path: Path) -> None:
    """Names are kept (to tell initializers from inputs): their bytes are counted."""
    weights = [
        helper.make_tensor(f"{index:05}" + "w" * 60_000, TensorProto.FLOAT, [0], [])
        for index in range(280)
    ]
    graph = helper.make_graph([], "g", [], [], weights)
    data = helper.make_model(graph).SerializeToString()
    assert problem(tmp_path / "model.onnx", data) == (
        "the ONNX model is past a limit of the reader: more than 16,777,216 bytes of names"
    )


def test_more_tensors_than_a_model_has(tmp_path: Path) -> None:
    empty_input = b"\x5a\x00"
    data = b"\x08\x08\x3a" + varint(200_002) + empty_input * 100_001
    assert problem(tmp_path / "model.onnx", data) == (
        "the ONNX model is past a limit of the reader: more than 100,000 inputs, outputs and initializers"
    )


def test_more_dimensions_than_a_model_has(tmp_path: Path) -> None:
    dims = b"\x0a\x02\x08\x01" * 100_001
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, None)
    x.type.tensor_type.shape.ParseFromString(dims)
    data = helper.make_model(helper.make_graph([], "g", [x], [])).SerializeToString()
    assert problem(tmp_path / "model.onnx", data) == (
        "the ONNX model is past a limit of the reader: more than 100,000 dimensions"
    )


def test_more_fields_than_a_model_has(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """At the real limit this file is 4 MB walked in seconds; the count is what is tested."""
    monkeypatch.setattr(wire, "MAX_FIELDS", 1000)
    data = helper.make_model(helper.make_graph([], "g", [], [])).SerializeToString()
    assert problem(tmp_path / "model.onnx", data + b"\x18\x00" * 1000) == (
        "the ONNX model is past a limit of the reader: more than 1,000 fields to walk"
    )


def test_types_nested_deeper_than_any_model_s(tmp_path: Path) -> None:
    kind = helper.make_tensor_type_proto(TensorProto.FLOAT, [1])
    for _ in range(onnx_reader.MAX_TYPE_DEPTH):
        kind = helper.make_sequence_type_proto(kind)
    graph = helper.make_graph([], "g", [helper.make_value_info("x", kind)], [])
    data = helper.make_model(graph).SerializeToString()
    assert problem(tmp_path / "model.onnx", data) == (
        "the ONNX model is past a limit of the reader: types nested more than 32 deep"
    )


def test_groups_nested_deeper_than_protobuf_allows(tmp_path: Path) -> None:
    data = b"\x08\x08" + b"\xa3\x06" * 65 + b"\xa4\x06" * 65
    assert problem(tmp_path / "model.onnx", data) == (
        "the ONNX model is past a limit of the reader: groups nested more than 64 deep"
    )


def test_a_group_that_never_ends_or_never_started(tmp_path: Path) -> None:
    assert problem(tmp_path / "model.onnx", b"\x08\x08\xa3\x06\x08\x01") == (
        "the ONNX model is not in ONNX's format: a group runs past the end of the file"
    )
    assert problem(tmp_path / "model.onnx", b"\x08\x08\xa4\x06") == (
        "the ONNX model is not in ONNX's format: the end of a group that never started, at byte 2"
    )


def test_protobuf_that_is_not_an_onnx_model(tmp_path: Path) -> None:
    assert problem(tmp_path / "model.onnx", b"\x08\x08") == (
        "the ONNX model is not in ONNX's format: no graph"
    )
    assert problem(tmp_path / "model.onnx", b"\x3a\x00") == (
        "the ONNX model is not in ONNX's format: no ir_version"
    )


def test_other_files_named_model_onnx(tmp_path: Path) -> None:
    path = tmp_path / "model.onnx"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("archive/data.pkl", b"\x80\x02}q\x00.")
    assert problem(path, path.read_bytes()) == (
        "the ONNX model is a zip archive (a PyTorch or TorchScript file?)"
    )
    pointer = b"version https://git-lfs.github.com/spec/v1\noid sha256:0123\nsize 1234\n"
    assert (
        problem(path, pointer) == "the ONNX model is a Git LFS pointer, not the model it points to"
    )
    assert problem(
        path, b'<ir_version: 8, opset_import: ["" : 21]>\ng (float[N] x) => (y) {\n'
    ) == ("the ONNX model is a text file, not in ONNX's format")
    assert problem(path, b"\x89HDF\r\n\x1a\n" + bytes(100)) == (
        "the ONNX model is an HDF5 file (a Keras model?)"
    )


def test_a_folder_without_the_model(tmp_path: Path) -> None:
    folder = tmp_path / "model.onnx"
    folder.mkdir()
    (folder / "weights.bin").write_bytes(bytes(16))
    assert read_onnx(folder) == ModelFileProblem(
        folder, "the ONNX model folder has no model.onnx in it"
    )
    missing = tmp_path / "other.onnx"
    assert read_onnx(missing) == ModelFileProblem(
        missing, "the ONNX model cannot be read: No such file or directory"
    )


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_a_file_that_cannot_be_read(tmp_path: Path) -> None:
    path = tmp_path / "model.onnx"
    path.write_bytes(small_model())
    path.chmod(0)
    assert read_onnx(path) == ModelFileProblem(
        path, "the ONNX model cannot be read: Permission denied"
    )


def test_a_path_through_a_file(tmp_path: Path) -> None:
    (tmp_path / "model").write_bytes(b"")
    path = tmp_path / "model" / "model.onnx"
    assert read_onnx(path) == ModelFileProblem(
        path, "the ONNX model cannot be read: Not a directory"
    )
