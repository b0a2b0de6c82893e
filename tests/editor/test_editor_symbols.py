"""Document symbols: the outline of a config, with full and name spans."""

from __future__ import annotations

from editor_texts import PIPELINE

from tritonlint.editor.symbols import Symbol, SymbolKind, symbols
from tritonlint.schema.releases import Schema
from tritonlint.span import Span

Outline = list[tuple[int, str, str, str, tuple[int, ...], tuple[int, ...]]]


def _outline(found: list[Symbol], depth: int = 0) -> Outline:
    """Each symbol, parents first: depth, name, kind, detail, span and selection (line,
    column, end line, end column)."""
    rows: Outline = []
    for symbol in found:
        rows.append(
            (
                depth,
                symbol.name,
                symbol.kind.value,
                symbol.detail,
                tuple(symbol.span[:4]),
                tuple(symbol.selection[:4]),
            )
        )
        rows.extend(_outline(list(symbol.children), depth + 1))
    return rows


MODEL = """\
name: "resnet"
platform: "onnxruntime_onnx"
max_batch_size: 8
input [
  { name: "images" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] },
  { name: "mask" data_type: TYPE_BOOL dims: [ -1 ] }
]
output { name: "scores" data_type: TYPE_FP32 dims: [ 1000 ] }
instance_group [ { count: 2 kind: KIND_GPU }, { name: "cpu" kind: KIND_CPU } ]
dynamic_batching { max_queue_delay_microseconds: 100 }
parameters { key: "threads" value { string_value: "4" } }
"""


def test_a_models_outline(schema: Schema) -> None:
    assert _outline(symbols(MODEL, schema)) == [
        (0, "resnet", "model", "onnxruntime_onnx", (1, 1, 12, 1), (1, 7, 1, 15)),
        (1, "images", "tensor", "TYPE_FP32 [3, 224, 224]", (5, 3, 5, 64), (5, 11, 5, 19)),
        (1, "mask", "tensor", "TYPE_BOOL [-1]", (6, 3, 6, 53), (6, 11, 6, 17)),
        (1, "scores", "tensor", "TYPE_FP32 [1000]", (8, 1, 8, 62), (8, 16, 8, 24)),
        (
            1,
            "instance_group 0",
            "instance group",
            "KIND_GPU, count 2",
            (9, 18, 9, 45),
            (9, 18, 9, 18),
        ),
        (1, "cpu", "instance group", "KIND_CPU", (9, 47, 9, 77), (9, 55, 9, 60)),
        (1, "dynamic_batching", "section", "", (10, 1, 10, 55), (10, 1, 10, 17)),
        (1, "threads", "parameter", "4", (11, 1, 11, 58), (11, 19, 11, 28)),
    ]


def test_an_ensembles_steps_are_named_by_their_model(schema: Schema) -> None:
    assert _outline(symbols(PIPELINE.lstrip("\n"), schema)) == [
        (0, "pipeline", "model", "ensemble", (1, 1, 22, 1), (1, 7, 1, 17)),
        (1, "IMAGE", "tensor", "TYPE_UINT8 [-1]", (4, 9, 4, 61), (4, 17, 4, 24)),
        (1, "SCORES", "tensor", "TYPE_FP32 [1000]", (5, 10, 5, 64), (5, 18, 5, 26)),
        (1, "preprocess", "step", "step 0", (8, 5, 13, 6), (9, 19, 9, 31)),
        (1, "classifier", "step", "step 1", (14, 5, 19, 6), (15, 19, 15, 31)),
    ]


def test_a_half_typed_file_has_what_is_written(schema: Schema) -> None:
    text = (
        'name: "half"\n'
        "input [\n"
        '  { name: "a" data_type: TYPE_FP32 dims: [ 3 ] },\n'
        '  { name: "b" data_ty\n'
    )
    assert _outline(symbols(text, schema)) == [
        (0, "half", "model", "", (1, 1, 5, 1), (1, 7, 1, 13)),
        (1, "a", "tensor", "TYPE_FP32 [3]", (3, 3, 3, 49), (3, 11, 3, 14)),
        (1, "b", "tensor", "TYPE_INVALID []", (4, 3, 5, 1), (4, 11, 4, 14)),
    ]


def test_a_model_without_a_name(schema: Schema) -> None:
    assert symbols('backend: "python"\n', schema) == [
        Symbol("model", SymbolKind.MODEL, "python", Span(1, 1, 2, 1, 0, 18), Span(1, 1, 1, 1, 0, 0))
    ]
