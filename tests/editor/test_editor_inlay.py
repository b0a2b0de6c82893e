"""Inlay hints: the full shape after the dims of a batching model's tensors."""

from __future__ import annotations

from tritonlint.editor.inlay import InlayHint, inlay_hints
from tritonlint.schema.releases import Schema
from tritonlint.span import Span

MODEL = """\
max_batch_size: 8
input [
  { name: "images" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] },
  { name: "mask" data_type: TYPE_BOOL dims: [ -1 ] }
]
output { name: "scores" data_type: TYPE_FP32 dims: [ 1000 ] }
output { name: "no_dims" data_type: TYPE_FP32 }
"""


def test_each_tensor_gets_its_shape_with_the_batch_dimension(schema: Schema) -> None:
    assert inlay_hints(MODEL, schema) == [
        InlayHint(Span.point(3, 62, 87), "→ [-1, 3, 224, 224]"),
        InlayHint(Span.point(4, 51, 141), "→ [-1, -1]"),
        InlayHint(Span.point(6, 60, 205), "→ [-1, 1000]"),
    ]


def test_dims_over_lines_or_as_repeated_fields(schema: Schema) -> None:
    text = (
        "max_batch_size: 4\n"
        'input { name: "x" dims: 3 dims: 224 }\n'
        'output { name: "y" dims: [ 2,\n 5 ] data_type: TYPE_FP32 }\n'
    )
    assert inlay_hints(text, schema) == [
        InlayHint(Span.point(2, 36, 53), "→ [-1, 3, 224]"),
        InlayHint(Span.point(4, 5, 90), "→ [-1, 2, 5]"),
    ]


def test_no_hints_without_batching(schema: Schema) -> None:
    assert inlay_hints(MODEL.replace("max_batch_size: 8", "max_batch_size: 0"), schema) == []
    assert inlay_hints('input { name: "x" dims: [ 3 ] }', schema) == []


def test_a_half_typed_tensor(schema: Schema) -> None:
    text = 'max_batch_size: 2\ninput { dims: [ 3 ] }\ninput { name: "b" dims: [ 4'
    assert inlay_hints(text, schema) == [
        InlayHint(Span.point(2, 20, 37), "→ [-1, 3]"),
        InlayHint(Span.point(3, 28, 67), "→ [-1, 4]"),
    ]
