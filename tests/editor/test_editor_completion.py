"""Completion: field names with snippets, enum values, backends, models and tensors."""

from __future__ import annotations

from pathlib import Path

from editor_texts import at_cursor, marked_in, pipeline_repository

from tritonlint.editor.completion import Completion, CompletionKind, completions
from tritonlint.repository.model import Repository
from tritonlint.schema.releases import Schema, load_schema
from tritonlint.span import Span


def complete(marked: str, schema: Schema, repository: Repository | None = None) -> list[Completion]:
    text, line, column = at_cursor(marked)
    return completions(text, line, column, schema, repository)


def labels(items: list[Completion]) -> list[str]:
    return [item.label for item in items]


def test_field_names_of_an_input_leave_out_those_written(schema: Schema) -> None:
    items = complete('input [ { name: "x" data_t|', schema)
    assert labels(items)[:4] == ["data_type", "format", "dims", "reshape"]
    assert "name" not in labels(items)
    first = items[0]
    assert first == Completion(
        "data_type",
        CompletionKind.FIELD,
        "inference.DataType",
        "data_type: $0",
        True,
        Span(1, 21, 1, 27, 20, 26),
    )
    dims = next(item for item in items if item.label == "dims")
    assert (dims.detail, dims.insert_text) == ("repeated int64", "dims: [ $0 ]")


def test_message_snippets(schema: Schema) -> None:
    items = {item.label: item for item in complete('name: "m"\n|', schema)}
    assert "name" not in items
    assert items["input"].insert_text == "input [\n  {\n    $0\n  }\n]"
    assert items["input"].detail == "repeated inference.ModelInput"
    assert items["dynamic_batching"].insert_text == "dynamic_batching {\n  $0\n}"
    assert items["parameters"].detail == "map<string, inference.ModelParameter>"
    assert items["max_batch_size"].insert_text == "max_batch_size: $0"


def test_only_the_fields_of_the_targeted_release() -> None:
    newest = labels(complete("|", load_schema()))
    old = labels(complete("|", load_schema("2.51")))
    assert "model_metrics" in newest
    assert "model_metrics" not in old


def test_a_oneof_member_written_hides_the_others(schema: Schema) -> None:
    items = labels(complete("sequence_batching { direct { } | }", schema))
    assert "direct" not in items
    assert "oldest" not in items
    assert "max_sequence_idle_microseconds" in items


def test_enum_values_of_the_field(schema: Schema) -> None:
    items = complete("instance_group [ { kind: KIND_| } ]", schema)
    assert labels(items) == ["KIND_AUTO", "KIND_GPU", "KIND_CPU", "KIND_MODEL"]
    assert items[1] == Completion(
        "KIND_GPU",
        CompletionKind.ENUM_VALUE,
        "inference.ModelInstanceGroup.Kind",
        "KIND_GPU",
        False,
        Span(1, 26, 1, 31, 25, 30),
    )


def test_data_types_of_an_older_release() -> None:
    assert "TYPE_BF16" not in labels(complete("input { data_type: | }", load_schema("2.21")))
    assert "TYPE_BF16" in labels(complete("input { data_type: | }", load_schema("2.22")))


def test_backends_and_platforms_are_quoted(schema: Schema) -> None:
    backends = complete('backend: "|"', schema)
    assert labels(backends)[:3] == ["tensorrt", "onnxruntime", "pytorch"]
    assert backends[0].insert_text == '"tensorrt"'
    assert backends[0].replace == Span(1, 10, 1, 12, 9, 11)
    platforms = complete("platform: |", schema)
    assert labels(platforms) == [
        "tensorrt_plan",
        "onnxruntime_onnx",
        "pytorch_libtorch",
        "tensorflow_savedmodel",
        "tensorflow_graphdef",
        "ensemble",
    ]
    assert platforms[1].detail == "platform (backend onnxruntime)"


def test_model_names_of_the_repository(tmp_path: Path, schema: Schema) -> None:
    repository = pipeline_repository(tmp_path)
    items = complete(marked_in('model_name: |"classifier"'), schema, repository)
    assert [(item.label, item.kind, item.insert_text) for item in items] == [
        ("classifier", CompletionKind.MODEL, '"classifier"'),
        ("preprocess", CompletionKind.MODEL, '"preprocess"'),
    ]


def test_input_map_keys_are_the_step_model_inputs(tmp_path: Path, schema: Schema) -> None:
    repository = pipeline_repository(tmp_path)
    items = complete(marked_in('input_map { key: |"RAW"'), schema, repository)
    assert [(item.label, item.detail) for item in items] == [("RAW", "TYPE_UINT8 [-1, -1]")]
    outputs = complete(marked_in('output_map { key: |"PIXELS"'), schema, repository)
    assert [(item.label, item.detail) for item in outputs] == [
        ("PIXELS", "TYPE_FP32 [-1, 3, 224, 224]"),
        ("SIZE", "TYPE_INT32 [-1, 2]"),
    ]


def test_map_values_are_ensemble_tensors(tmp_path: Path, schema: Schema) -> None:
    repository = pipeline_repository(tmp_path)
    # What step 1 may read: the ensemble input and what step 0 writes.
    reads = complete(marked_in('key: "images" value: |"pixels"'), schema, repository)
    assert [(item.label, item.detail) for item in reads] == [
        ("IMAGE", "ensemble input"),
        ("pixels", "step 0 (preprocess) output PIXELS"),
    ]
    # What step 0 may write: what the ensemble outputs or step 1 reads.
    writes = complete(marked_in('key: "PIXELS" value: |"pixels"'), schema, repository)
    assert [(item.label, item.detail) for item in writes] == [
        ("SCORES", "ensemble output"),
        ("pixels", "step 1 (classifier) input images"),
    ]


def test_nothing_inside_an_unknown_field(schema: Schema) -> None:
    assert complete("no_such_field { | }", schema) == []
