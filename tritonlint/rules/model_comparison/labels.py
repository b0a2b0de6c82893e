"""A classification output's label file against the number of classes the output has."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from math import prod

from tritonlint.diagnostics import Severity
from tritonlint.rules.base import rule
from tritonlint.rules.context import Finding, ModelContext
from tritonlint.rules.model_comparison.view import model_view

WILDCARD = -1


def label_count(text: str) -> int:
    """The labels the server reads from a label file: one per line (``std::getline``), a last
    line without its line end included, no line after a last line end."""
    if not text:
        return 0
    return text.count("\n") + (0 if text.endswith("\n") else 1)


def _classes(ctx: ModelContext, index: int, dims: Sequence[int]) -> tuple[int, str] | None:
    """How many classes output ``index`` has, and whose dims say so: the config's where it
    fixes them, else the model file's (without the batch dimension) where it fixes them."""
    if dims and WILDCARD not in dims:
        return prod(dims), "dims"
    view = model_view(ctx)
    if view is None:
        return None
    spec = view.tensor("output", view.config.output[index].name)
    if spec is None or not spec.dims:
        return None
    shape = spec.dims[1:] if view.config.max_batch_size > 0 else spec.dims
    if not shape or WILDCARD in shape:
        return None
    return prod(shape), "the model's shape"


@rule(
    "TL909",
    "label-count-mismatch",
    Severity.WARNING,
    summary="a label file with more or fewer lines than its classification output has classes",
    explanation="""
    For a classification request the server names each class by the line of the output's
    `label_filename` at the class's index (`LabelProvider` in the server core's
    src/label_provider.cc reads one label per line). With fewer lines the last classes get
    no name; with more, the file is likely that of another model (or of another version of
    this one). The classes are the elements of the output's `dims`, or where they vary, of
    the model file's shape. An empty label file is taken for a placeholder, as an empty model
    file is, and left alone.
    """,
    bad="""
    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [ { name: "pixels" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
      output [ { name: "logits" data_type: TYPE_FP32 dims: [ 4 ] label_filename: "labels.txt" } ]
      dynamic_batching { }
    model_repository/resnet50/labels.txt:  # 3 labels for 4 classes
      cat
      dog
      bird
    model_repository/resnet50/1/model.onnx: <ONNX>
      input "pixels" FP32 [N, 3, 224, 224]
      output "logits" FP32 [N, 4]
    """,
    good="""
    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [ { name: "pixels" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
      output [ { name: "logits" data_type: TYPE_FP32 dims: [ 4 ] label_filename: "labels.txt" } ]
      dynamic_batching { }
    model_repository/resnet50/labels.txt:
      cat
      dog
      bird
      fish
    model_repository/resnet50/1/model.onnx: <ONNX>
      input "pixels" FP32 [N, 3, 224, 224]
      output "logits" FP32 [N, 4]
    """,
)
def label_count_mismatch(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is None:
        return
    for index, output in enumerate(config.output):
        if not output.label_filename:
            continue
        text = ctx.model.source(output.label_filename)
        classes = _classes(ctx, index, list(output.dims)) if text else None
        if not text or classes is None:
            continue  # no label file (TL218), an empty placeholder, or no size to compare with
        count, source = classes
        lines = label_count(text)
        if lines == count:
            continue
        yield ctx.at(
            ("output", index, "label_filename"),
            f"label file '{output.label_filename}' has {lines} labels for the {count} classes "
            f"of output '{output.name}' (by {source}): {_consequence(lines, count)}",
        )


def _consequence(lines: int, count: int) -> str:
    if count - lines == 1:
        return f"class {lines} gets no label"
    if lines < count:
        return f"classes {lines} to {count - 1} get no label"
    unused = "the last label is" if lines - count == 1 else f"the last {lines - count} labels are"
    return f"{unused} never used: is it the label file of another model?"
