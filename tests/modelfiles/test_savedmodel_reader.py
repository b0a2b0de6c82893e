"""The SavedModel reader: the serving signature of SavedModels TensorFlow wrote, of messages
built with protobuf for what TensorFlow does not write, and a clear problem for the rest."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from byte_tools import varint, with_peak_memory
from framework_files import DATA, generator
from savedmodel_messages import classes, saved_model

from tritonlint.modelfiles import savedmodel
from tritonlint.modelfiles.savedmodel import read_savedmodel
from tritonlint.modelfiles.signature import ModelFileProblem, ModelSignature, TensorSpec

FILES = DATA / "savedmodel"

# TensorFlow's DataType numbers (types.proto).
DT_FLOAT, DT_INT32, DT_STRING, DT_INT64, DT_BFLOAT16, DT_COMPLEX64 = 1, 3, 7, 9, 14, 8

View = dict[str, tuple[str | None, str | None, tuple[int, ...] | None]]


def view(tensors: tuple[TensorSpec, ...]) -> View:
    return {tensor.name: (tensor.source_type, tensor.data_type, tensor.dims) for tensor in tensors}


def read(path: Path, **options: Any) -> ModelSignature:
    result = read_savedmodel(path, **options)
    assert isinstance(result, ModelSignature), result
    return result


def problem(path: Path, **options: Any) -> str:
    result = read_savedmodel(path, **options)
    assert isinstance(result, ModelFileProblem), result
    assert result.path == path
    return result.message


def folder(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "model.savedmodel"
    path.mkdir()
    (path / "saved_model.pb").write_bytes(data)
    return path


def test_simple_in_full() -> None:
    path = FILES / "simple"
    assert read_savedmodel(path) == ModelSignature(
        format="savedmodel",
        path=path,
        inputs=(TensorSpec("features", "TYPE_FP32", "DT_FLOAT", (-1, 3)),),
        outputs=(TensorSpec("scores", "TYPE_FP32", "DT_FLOAT", (-1, 1)),),
    )


def test_the_file_itself_reads_as_its_folder() -> None:
    path = FILES / "simple" / "saved_model.pb"
    assert read(path).inputs == read(FILES / "simple").inputs


def test_types_names_and_shapes_of_the_serving_signature() -> None:
    result = read(FILES / "types")
    # The signature's keys, not the graph's tensor names (serving_default_token_ids:0).
    assert view(result.inputs) == {
        "anything": ("DT_DOUBLE", "TYPE_FP64", None),
        "brain": ("DT_BFLOAT16", None, (4,)),
        "flag": ("DT_BOOL", "TYPE_BOOL", ()),
        "half": ("DT_HALF", "TYPE_FP16", (2, 2)),
        "image": ("DT_UINT8", "TYPE_UINT8", (-1, -1, 3)),
        "text": ("DT_STRING", "TYPE_STRING", (-1,)),
        "token_ids": ("DT_INT64", "TYPE_INT64", (-1,)),
    }
    assert view(result.outputs) == {
        "count": ("DT_INT32", "TYPE_INT32", ()),
        "doubled": ("DT_HALF", "TYPE_FP16", (2, 2)),
        "negated": ("DT_BOOL", "TYPE_BOOL", ()),
        "pixels": ("DT_UINT16", "TYPE_UINT16", (-1, -1, 3)),
        "same": ("DT_DOUBLE", "TYPE_FP64", None),
        "upper": ("DT_STRING", "TYPE_STRING", (-1,)),
        "widened": ("DT_FLOAT", "TYPE_FP32", (4,)),
    }


def test_another_signature_by_name() -> None:
    result = read(FILES / "types", signature="encode")
    assert view(result.inputs) == {"values": ("DT_INT32", "TYPE_INT32", (-1,))}
    assert view(result.outputs) == {"output_0": ("DT_INT8", "TYPE_INT8", (-1,))}


def test_without_serving_default_the_only_other_signature_serves() -> None:
    # predict_only has "predict" and "__saved_model_init_op", which never serves.
    result = read(FILES / "predict_only")
    assert view(result.inputs) == {"features": ("DT_FLOAT", "TYPE_FP32", (-1, 3))}


def test_a_named_signature_that_is_missing() -> None:
    path = FILES / "predict_only"
    assert problem(path, signature="serving_default") == (
        "the SavedModel has no 'serving_default' signature (its signatures: "
        "'__saved_model_init_op', 'predict')"
    )


def test_a_tag_that_is_missing() -> None:
    path = FILES / "simple"
    assert problem(path, tag="train") == (
        "the SavedModel has no meta graph tagged 'train' (its meta graphs' tags: ['serve']); "
        "the model's TF_GRAPH_TAG parameter names the tag to load"
    )


def tf_view(tf: Any, path: Path, name: str) -> tuple[View, View]:
    """A signature's inputs and outputs as TensorFlow loads them."""
    from tensorflow.core.framework import types_pb2

    def tensors(specs: dict[str, Any]) -> View:
        found: View = {}
        for key, spec in specs.items():
            dtype = types_pb2.DataType.Name(spec.dtype.as_datatype_enum)
            dims = (
                None
                if spec.shape.rank is None
                else tuple(-1 if size is None else size for size in spec.shape.as_list())
            )
            found[key] = (dtype, savedmodel.TRITON_TYPES.get(dtype), dims)
        return found

    signature = tf.saved_model.load(str(path)).signatures[name]
    return tensors(signature.structured_input_signature[1]), tensors(signature.structured_outputs)


def agrees_with_tensorflow(tf: Any, path: Path) -> None:
    from tensorflow.core.protobuf import saved_model_pb2

    parsed = saved_model_pb2.SavedModel.FromString((path / "saved_model.pb").read_bytes())
    (meta_graph,) = parsed.meta_graphs
    assert list(meta_graph.meta_info_def.tags) == ["serve"]
    for name in meta_graph.signature_def:
        if name.startswith("__saved_model"):
            continue
        result = read(path, signature=name)
        assert (view(result.inputs), view(result.outputs)) == tf_view(tf, path, name), name


def test_checked_in_savedmodels_agree_with_tensorflow() -> None:
    tf = pytest.importorskip(
        "tensorflow", reason="TensorFlow is not installed (CI does not install it)"
    )
    for path in sorted(FILES.iterdir()):
        agrees_with_tensorflow(tf, path)


def test_fresh_savedmodels_agree_with_tensorflow(tmp_path: Path) -> None:
    tf = pytest.importorskip(
        "tensorflow", reason="TensorFlow is not installed (CI does not install it)"
    )
    generator().make_savedmodel(tmp_path)
    paths = sorted(tmp_path.iterdir())
    assert [path.name for path in paths] == ["predict_only", "simple", "types"]
    for path in paths:
        agrees_with_tensorflow(tf, path)


def test_messages_built_here_are_savedmodels_to_tensorflow() -> None:
    pytest.importorskip("tensorflow", reason="TensorFlow is not installed (CI does not install it)")
    from tensorflow.core.protobuf import saved_model_pb2

    data = saved_model({"serving_default": ({"x": (DT_FLOAT, [2, -1])}, {"y": (DT_INT64, None)})})
    parsed = saved_model_pb2.SavedModel.FromString(data)
    signature = parsed.meta_graphs[0].signature_def["serving_default"]
    assert signature.inputs["x"].dtype == DT_FLOAT
    assert [dim.size for dim in signature.inputs["x"].tensor_shape.dim] == [2, -1]
    assert signature.outputs["y"].tensor_shape.unknown_rank


def test_built_message(tmp_path: Path) -> None:
    data = saved_model(
        {
            "serving_default": (
                {"ids": (DT_INT64, [-1, 128]), "scalar": (DT_INT32, [])},
                {"logits": (DT_FLOAT, None), "pairs": (DT_COMPLEX64, [2])},
            )
        }
    )
    result = read(folder(tmp_path, data))
    assert view(result.inputs) == {
        "ids": ("DT_INT64", "TYPE_INT64", (-1, 128)),
        "scalar": ("DT_INT32", "TYPE_INT32", ()),
    }
    assert view(result.outputs) == {
        "logits": ("DT_FLOAT", "TYPE_FP32", None),
        "pairs": ("DT_COMPLEX64", None, (2,)),
    }


def test_dimension_names_are_kept(tmp_path: Path) -> None:
    model = classes()["SavedModel"].FromString(
        saved_model({"serving_default": ({"x": (DT_FLOAT, [-1, 3])}, {})})
    )
    dims = model.meta_graphs[0].signature_def["serving_default"].inputs["x"].tensor_shape.dim
    dims[0].name = "batch"
    (result,) = read(folder(tmp_path, model.SerializeToString())).inputs
    assert result.dim_names == ("batch", None)


def test_an_unknown_data_type_number(tmp_path: Path) -> None:
    data = saved_model({"serving_default": ({"x": (999, [1])}, {})})
    (result,) = read(folder(tmp_path, data)).inputs
    assert (result.source_type, result.data_type) == ("DataType(999)", None)


def test_the_meta_graph_tagged_exactly_serve(tmp_path: Path) -> None:
    # TensorFlow's loader wants the tag set to be {"serve"}, not to contain it.
    data = saved_model(
        {"serving_default": ({"x": (DT_FLOAT, [1])}, {})},
        extra_meta_graphs=[["serve", "gpu"], ["train"]],
    )
    assert view(read(folder(tmp_path, data)).inputs) == {"x": ("DT_FLOAT", "TYPE_FP32", (1,))}


def test_no_meta_graph_tagged_serve(tmp_path: Path) -> None:
    data = saved_model(
        {"serving_default": ({}, {})}, tags=["serve", "gpu"], extra_meta_graphs=[["train"]]
    )
    path = folder(tmp_path, data)
    assert problem(path) == (
        "the SavedModel has no meta graph tagged 'serve' (its meta graphs' tags: "
        "['gpu', 'serve'], ['train']); the model's TF_GRAPH_TAG parameter names the tag to load"
    )
    assert problem(path, tag="train") == (
        "the SavedModel has no 'serving_default' signature (its signatures: none)"
    )


def test_several_signatures_and_none_the_default(tmp_path: Path) -> None:
    data = saved_model({"a": ({}, {}), "b": ({}, {}), "__saved_model_init_op": ({}, {})})
    assert problem(folder(tmp_path, data)) == (
        "the SavedModel has no 'serving_default' signature and several others "
        "('__saved_model_init_op', 'a', 'b'): the server takes any one of them; the model's "
        "TF_SIGNATURE_DEF parameter names one"
    )


def test_no_signature_at_all(tmp_path: Path) -> None:
    data = saved_model({"__saved_model_init_op": ({}, {})})
    assert problem(folder(tmp_path, data)) == (
        "the SavedModel has no 'serving_default' signature (its signatures: "
        "'__saved_model_init_op')"
    )


def test_a_protobuf_that_is_no_savedmodel(tmp_path: Path) -> None:
    # A valid message, field 1 only: no meta graph.
    assert problem(folder(tmp_path, b"\x08\x01")) == (
        "the SavedModel has no meta graph (is this a SavedModel's saved_model.pb?)"
    )


def key(number: int, wire_type: int) -> bytes:
    return varint(number << 3 | wire_type)


SIMPLE = saved_model({"serving_default": ({"x": (DT_FLOAT, [1])}, {"y": (DT_FLOAT, [1])})})


def test_unknown_groups_are_stepped_over(tmp_path: Path) -> None:
    group = key(15, 3) + key(1, 0) + varint(7) + key(2, 3) + key(2, 4) + key(15, 4)
    assert read(folder(tmp_path, group + SIMPLE)).inputs[0].name == "x"


def test_a_group_closed_by_another_field_number(tmp_path: Path) -> None:
    group = key(15, 3) + key(16, 4)
    assert problem(folder(tmp_path, group + SIMPLE)) == (
        "the SavedModel's saved_model.pb is not readable: a group ends with the wrong field number"
    )


def test_groups_nested_without_end(tmp_path: Path) -> None:
    assert problem(folder(tmp_path, key(15, 3) * 1000)) == (
        "the SavedModel's saved_model.pb is not readable: groups nest too deeply"
    )


def test_a_field_longer_than_the_file(tmp_path: Path) -> None:
    assert problem(folder(tmp_path, key(2, 2) + varint(1000) + b"\x00" * 10)) == (
        "the SavedModel's saved_model.pb is not readable: a field runs past the end of its message"
    )


def test_wire_types_six_and_seven(tmp_path: Path) -> None:
    assert problem(folder(tmp_path, key(3, 6))) == (
        "the SavedModel's saved_model.pb is not readable: a field has wire type 6"
    )


def test_field_number_zero(tmp_path: Path) -> None:
    assert problem(folder(tmp_path, b"\x02\x00")) == (
        "the SavedModel's saved_model.pb is not readable: a field has number 0"
    )


def test_an_endless_number(tmp_path: Path) -> None:
    assert problem(folder(tmp_path, b"\x08" + b"\xff" * 20)) == (
        "the SavedModel's saved_model.pb is not readable: a number is longer than 10 bytes"
    )


def test_fields_past_the_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(savedmodel, "MAX_FIELDS", 100)
    padding = (key(1, 0) + varint(1)) * 101
    assert problem(folder(tmp_path, padding + SIMPLE)) == (
        "the SavedModel's saved_model.pb is not readable: it has more than 100 fields on the way "
        "to the signature"
    )


def test_a_gigabytes_graph_is_stepped_over_unread(tmp_path: Path) -> None:
    # The meta graph's signatures come first and its graph_def field claims 3 GiB, which the
    # file holds as a hole: reading those bytes would take seconds and gigabytes.
    meta_graph = classes()["SavedModel"].FromString(SIMPLE).meta_graphs[0].SerializeToString()
    graph_size = 3 << 30
    graph_header = key(2, 2) + varint(graph_size)
    body = meta_graph + graph_header
    head = key(2, 2) + varint(len(body) + graph_size) + body
    path = folder(tmp_path, head)
    with (path / "saved_model.pb").open("r+b") as file:
        file.truncate(len(head) + graph_size)
    result, peak = with_peak_memory(lambda: read(path))
    assert view(result.inputs) == {"x": ("DT_FLOAT", "TYPE_FP32", (1,))}
    assert peak < 1024 * 1024


def test_empty_file(tmp_path: Path) -> None:
    assert problem(folder(tmp_path, b"")) == "the SavedModel's saved_model.pb is empty"


def test_random_bytes(tmp_path: Path) -> None:
    path = folder(tmp_path, os.urandom(4096))
    assert problem(path).startswith("the SavedModel")


def test_a_folder_without_saved_model_pb(tmp_path: Path) -> None:
    path = tmp_path / "model.savedmodel"
    path.mkdir()
    assert problem(path).startswith("the SavedModel's saved_model.pb cannot be read: ")


def test_a_folder_with_saved_model_pbtxt_only(tmp_path: Path) -> None:
    path = tmp_path / "model.savedmodel"
    path.mkdir()
    (path / "saved_model.pbtxt").write_text("saved_model_schema_version: 1\n")
    assert problem(path) == (
        "the SavedModel has only a saved_model.pbtxt; only saved_model.pb is read"
    )


def test_saved_model_pb_that_is_a_folder(tmp_path: Path) -> None:
    path = tmp_path / "model.savedmodel"
    (path / "saved_model.pb").mkdir(parents=True)
    assert problem(path) == "the SavedModel's saved_model.pb is not a regular file"


def test_every_truncation_of_a_real_file_is_a_problem(tmp_path: Path) -> None:
    data = (FILES / "types" / "saved_model.pb").read_bytes()
    path = folder(tmp_path, b"")
    for size in range(1, len(data), 53):
        (path / "saved_model.pb").write_bytes(data[:size])
        assert problem(path).startswith("the SavedModel"), size


def test_every_damaged_byte_of_a_real_file_reads_or_is_a_problem(tmp_path: Path) -> None:
    data = (FILES / "simple" / "saved_model.pb").read_bytes()
    path = folder(tmp_path, b"")
    for at in range(0, len(data), 7):
        damaged = bytearray(data)
        damaged[at] ^= 0xFF
        (path / "saved_model.pb").write_bytes(bytes(damaged))
        assert isinstance(read_savedmodel(path), (ModelSignature, ModelFileProblem)), at
