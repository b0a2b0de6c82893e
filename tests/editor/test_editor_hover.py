"""Hover: field descriptions, full shapes of dims, step models and ensemble tensors."""

from __future__ import annotations

from pathlib import Path

from editor_texts import at_cursor, marked_in, pipeline_repository

from tritonlint.editor.hover import Hover, hover
from tritonlint.repository.model import Repository
from tritonlint.schema.releases import Schema
from tritonlint.span import Span


def hover_at(marked: str, schema: Schema, repository: Repository | None = None) -> Hover | None:
    text, line, column = at_cursor(marked)
    return hover(text, line, column, schema, repository)


def hover_text(marked: str, schema: Schema, repository: Repository | None = None) -> str:
    """The text of the hover at the mark (there must be one)."""
    found = hover_at(marked, schema, repository)
    assert found is not None
    return found.text


def test_a_field_name(schema: Schema) -> None:
    assert hover_at("max_ba|tch_size: 8", schema) == Hover(
        Span(1, 1, 1, 15, 0, 14),
        "**max_batch_size**: `int32`\n\n"
        "The largest batch the model accepts. Above 0 the server adds a batch dimension in "
        "front of every input and output; 0 means the model does not batch.\n\n"
        "Default: `0`\n\n"
        "In every release covered (Triton 2.19.0 on)",
    )


def test_a_newer_field_without_a_description(schema: Schema) -> None:
    assert hover_text("model_met|rics { }", schema) == (
        "**model_metrics**: `inference.ModelMetrics`\n\n"
        "A field of `inference.ModelConfig`.\n\n"
        "Added in Triton 2.52.0"
    )


def test_an_enum_default(schema: Schema) -> None:
    found = hover_text("instance_group { ki|nd: KIND_CPU }", schema)
    assert "Default: `KIND_AUTO`" in found.split("\n\n")


def test_dims_shows_the_shape_with_the_batch_dimension(schema: Schema) -> None:
    text = 'max_batch_size: 4\ninput { name: "x" data_type: TYPE_FP32 di|ms: [ 3, 224 ] }'
    found = hover_at(text, schema)
    assert found is not None
    assert found.span == Span(2, 40, 2, 44, 57, 61)
    assert found.text.endswith("\n\nShape the server uses: `[-1, 3, 224]`")
    unbatched = hover_text('input { name: "x" dims: [ 3, 2|24 ] }', schema)
    assert unbatched.endswith("\n\nShape the server uses: `[3, 224]`")


def test_a_step_model_shows_its_inputs_and_outputs(tmp_path: Path, schema: Schema) -> None:
    repository = pipeline_repository(tmp_path)
    found = hover_at(marked_in('model_name: "prep|rocess"'), schema, repository)
    assert found == Hover(
        Span(9, 19, 9, 31, 240, 252),
        "Model **preprocess**\n"
        "Inputs:\n"
        "- `RAW` TYPE_UINT8 `[-1, -1]`\n"
        "Outputs:\n"
        "- `PIXELS` TYPE_FP32 `[-1, 3, 224, 224]`\n"
        "- `SIZE` TYPE_INT32 `[-1, 2]`",
    )


def test_an_ensemble_tensor_shows_who_produces_and_consumes_it(
    tmp_path: Path, schema: Schema
) -> None:
    repository = pipeline_repository(tmp_path)
    found = hover_text(marked_in('key: "images" value: "pix|els"'), schema, repository)
    assert found == (
        "Ensemble tensor **pixels**\n\n"
        "Produced by: step 0 (preprocess) output PIXELS\n\n"
        "Consumed by: step 1 (classifier) input images"
    )


def test_nothing_on_a_blank_or_an_unknown_field(schema: Schema) -> None:
    assert hover_at("name: 'x'\n|\n", schema) is None
    assert hover_at("no_su|ch_field: 1", schema) is None
