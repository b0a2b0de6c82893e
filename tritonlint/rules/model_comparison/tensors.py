"""Each declared tensor against the model's declaration of it: data type, rank, dimensions, and
whether the model can batch at all."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, cast

from tritonlint.diagnostics import Severity
from tritonlint.rules.base import rule
from tritonlint.rules.context import Finding, ModelContext
from tritonlint.rules.model_comparison.shapes import (
    ShapeProblem,
    batching_problem,
    shape_problem,
    shape_text,
)
from tritonlint.rules.model_comparison.view import Declared, ModelView, model_view
from tritonlint.schema.datatypes import INVALID, data_types

if TYPE_CHECKING:
    from tritonlint.schema.config_types import ModelInput

#: Backends that compare data types (OpenVINO converts the model's to the config's; PyTorch
#: models declare none).
_TYPED = frozenset({"onnxruntime", "tensorflow"})
#: Backends that compare shapes.
_SHAPED = frozenset({"onnxruntime", "tensorflow", "openvino"})


@rule(
    "TL904",
    "model-data-type-mismatch",
    Severity.ERROR,
    summary="an input or output whose `data_type` is not the model's",
    explanation="""
    ONNX Runtime and TensorFlow refuse a config whose `data_type` for a tensor is not the
    model's own type (`ValidateInputs`/`ValidateOutputs` in onnxruntime_backend's
    src/onnxruntime.cc; `ValidateTRITONTFModel` in tensorflow_backend's src/tensorflow.cc).
    The server names a model's string type `TYPE_BYTES`; the config writes it `TYPE_STRING`.
    OpenVINO converts between types, and a TorchScript file declares none, so neither is
    checked here.
    """,
    bad="""
    model_repository/bert/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [ { name: "input_ids" data_type: TYPE_INT32 dims: [ 128 ] } ]  # the model's is INT64
      output [ { name: "hidden" data_type: TYPE_FP32 dims: [ 128, 768 ] } ]
      dynamic_batching { }
    model_repository/bert/1/model.onnx: <ONNX>
      input "input_ids" INT64 [N, 128]
      output "hidden" FP32 [N, 128, 768]
    """,
    good="""
    model_repository/bert/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [ { name: "input_ids" data_type: TYPE_INT64 dims: [ 128 ] } ]
      output [ { name: "hidden" data_type: TYPE_FP32 dims: [ 128, 768 ] } ]
      dynamic_batching { }
    model_repository/bert/1/model.onnx: <ONNX>
      input "input_ids" INT64 [N, 128]
      output "hidden" FP32 [N, 128, 768]
    """,
    server_message=(
        "unable to load model '{model}', configuration expects datatype {type} for {kind} "
        "'{name}', model provides {model_type}"
    ),
    backend_check=True,
)
def model_data_type_mismatch(ctx: ModelContext) -> Iterator[Finding]:
    view = model_view(ctx)
    if view is None or view.backend not in _TYPED:
        return
    types = data_types(view.config)
    for declared, spec in view.pairs():
        written = types.name(declared.tensor.data_type)
        if written == INVALID or spec.data_type is None or written == spec.data_type:
            continue  # no type written (completed, or TL402), or one Triton has no name for
        provided = "TYPE_BYTES" if spec.data_type == "TYPE_STRING" else spec.data_type
        yield ctx.at(
            (*declared.path, "data_type"),
            f"unable to load model '{view.model}', configuration expects datatype {written} "
            f"for {declared.kind} '{declared.name}', model provides {provided}",
        )


def _shape_problem(
    view: ModelView, declared: Declared, dims: tuple[int, ...]
) -> ShapeProblem | None:
    """The backend's complaint about the tensor's shape, where it has one whatever the
    max_batch_size its auto-complete settles on (the one the config writes is reported)."""
    problems = [
        shape_problem(
            view.backend,
            view.model,
            declared.name,
            dims,
            declared.shape,
            size,
            declared.kind == "output",
        )
        for size in view.batching_choices
    ]
    return problems[0] if all(problems) else None


def _shape_problems(view: ModelView) -> Iterator[tuple[Declared, ShapeProblem]]:
    """Each declared tensor whose shape the backend refuses, and why."""
    if view.backend not in _SHAPED:
        return
    batch_outputs = {target for output in view.config.batch_output for target in output.target_name}
    for declared, spec in view.pairs():
        tensor = declared.tensor
        if spec.dims is None or not (tensor.dims or tensor.HasField("reshape")):
            continue  # the model gives no rank; or the config no dims (completed, or TL403)
        ragged = declared.kind == "input" and cast("ModelInput", tensor).allow_ragged_batch
        if ragged or declared.name in batch_outputs:
            continue  # compared in other ways: see the backends' ragged-batching checks
        if declared.kind == "input" and not view.compares_input_shapes:
            continue
        problem = _shape_problem(view, declared, spec.dims)
        if problem is not None:
            yield declared, problem


@rule(
    "TL905",
    "model-rank-mismatch",
    Severity.ERROR,
    summary="an input or output with another number of dimensions than the model's",
    explanation="""
    The backends compare each tensor's `dims` (its `reshape`, where it has one: the model
    sees the reshaped tensor) with the model's shape. With `max_batch_size` above 0 the
    model's shape has the batch dimension in front: `dims` leave it out. ONNX Runtime
    (`CompareDimsSupported` in onnxruntime_backend's src/onnxruntime_utils.cc), TensorFlow
    (`CompareDims` in tensorflow_backend's src/tensorflow_utils.cc) and OpenVINO
    (`CompareDimsSupported` in openvino_backend's src/openvino_utils.cc) refuse a different
    number of dimensions; ONNX Runtime takes only dims of 1 for a model's scalar. The
    max_batch_size is the one the server ends up with: where the config leaves it at 0,
    ONNX Runtime's and TensorFlow's auto-complete may set it from the model, as
    tritonlint's emulation of them does; where that cannot be followed, and for an OpenVINO
    model whose layouts have a batch dimension, the shape is reported only when neither
    reading fits.
    """,
    bad="""
    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      # the batch dimension written twice
      input [ { name: "pixels" data_type: TYPE_FP32 dims: [ -1, 3, 224, 224 ] } ]
      output [ { name: "logits" data_type: TYPE_FP32 dims: [ 1000 ] } ]
      dynamic_batching { }
    model_repository/resnet50/1/model.onnx: <ONNX>
      input "pixels" FP32 [N, 3, 224, 224]
      output "logits" FP32 [N, 1000]
    """,
    good="""
    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [ { name: "pixels" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
      output [ { name: "logits" data_type: TYPE_FP32 dims: [ 1000 ] } ]
      dynamic_batching { }
    model_repository/resnet50/1/model.onnx: <ONNX>
      input "pixels" FP32 [N, 3, 224, 224]
      output "logits" FP32 [N, 1000]
    """,
    server_message=(
        "model '{model}', tensor '{tensor}': the model expects {n} dimensions (shape {shape}) "
        "but the model configuration specifies {m} dimensions ...\n"
        "unable to load model '{model}', scalar tensor '{tensor}', should only provide 1 in "
        "the model configuration when the model doesn't support batching. Model configuration "
        "provided: {dims}."
    ),
    backend_check=True,
)
def model_rank_mismatch(ctx: ModelContext) -> Iterator[Finding]:
    view = model_view(ctx)
    if view is None:
        return
    for declared, problem in _shape_problems(view):
        if problem.kind == "rank":
            yield ctx.at(declared.shape_path(), problem.message)


@rule(
    "TL906",
    "model-dim-mismatch",
    Severity.ERROR,
    summary="a dimension that differs from the size the model fixes",
    explanation="""
    Where the model fixes a dimension, the config must give that size (-1 is not taken
    for it); where the model leaves a dimension variable, any size is taken, except that
    TensorFlow wants a SavedModel's variable output dimension to be -1 in the config too.
    The comparison is that of TL905 (`reshape` where there is one; the batch dimension left
    out when max_batch_size is above 0; OpenVINO inputs not compared when the model's
    `RESHAPE_IO_LAYERS` parameter is `yes`). The finding is at the first dimension that
    differs.
    """,
    bad="""
    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      # the model takes 224x224 images
      input [ { name: "pixels" data_type: TYPE_FP32 dims: [ 3, 256, 256 ] } ]
      output [ { name: "logits" data_type: TYPE_FP32 dims: [ 1000 ] } ]
      dynamic_batching { }
    model_repository/resnet50/1/model.onnx: <ONNX>
      input "pixels" FP32 [N, 3, 224, 224]
      output "logits" FP32 [N, 1000]
    """,
    good="""
    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [ { name: "pixels" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
      output [ { name: "logits" data_type: TYPE_FP32 dims: [ 1000 ] } ]
      dynamic_batching { }
    model_repository/resnet50/1/model.onnx: <ONNX>
      input "pixels" FP32 [N, 3, 224, 224]
      output "logits" FP32 [N, 1000]
    """,
    server_message=(
        "model '{model}', tensor '{tensor}': the model expects {n} dimensions (shape {shape}) "
        "but the model configuration specifies {m} dimensions ..."
    ),
    backend_check=True,
)
def model_dim_mismatch(ctx: ModelContext) -> Iterator[Finding]:
    view = model_view(ctx)
    if view is None:
        return
    for declared, problem in _shape_problems(view):
        if problem.kind == "dim":
            yield ctx.at(declared.shape_path(problem.position), problem.message)


@rule(
    "TL907",
    "model-cannot-batch",
    Severity.ERROR,
    summary="`max_batch_size` above 0 for a model whose first dimension is fixed",
    explanation="""
    With `max_batch_size` above 0 the server sends the model whole batches: the model's
    first dimension is the batch, and must be variable. ONNX Runtime and TensorFlow refuse a
    model tensor whose first dimension is fixed (`CompareDimsSupported`, `CompareDims`);
    TensorFlow's auto-complete says so first, for any tensor of the signature
    (`AutoCompleteHelper::FixBatchingSupport` in tensorflow_backend's src/tensorflow.cc).
    OpenVINO sets the batch dimension itself, and refuses only a scalar. A model exported
    for one sample at a time (first dimension 1) is served with `max_batch_size: 0` and
    the model's full shape in `dims`, or exported again with a variable first dimension.
    """,
    bad="""
    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8  # the model takes one image at a time
      input [ { name: "pixels" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
      output [ { name: "logits" data_type: TYPE_FP32 dims: [ 1000 ] } ]
      dynamic_batching { }
    model_repository/resnet50/1/model.onnx: <ONNX>
      input "pixels" FP32 [1, 3, 224, 224]
      output "logits" FP32 [1, 1000]
    """,
    good="""
    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 0
      input [ { name: "pixels" data_type: TYPE_FP32 dims: [ 1, 3, 224, 224 ] } ]
      output [ { name: "logits" data_type: TYPE_FP32 dims: [ 1, 1000 ] } ]
    model_repository/resnet50/1/model.onnx: <ONNX>
      input "pixels" FP32 [1, 3, 224, 224]
      output "logits" FP32 [1, 1000]
    """,
    server_message=(
        "model '{model}', tensor '{tensor}': for the model to support batching the shape should "
        "have at least 1 dimension and the first dimension must be -1; but shape expected by "
        "the model is {shape}\n"
        "unable to autofill for '{model}', configuration specified max-batch {size} but model "
        "signature does not support batching\n"
        "model '{model}', tensor '{tensor}': for the model to support batching the shape should "
        "have at least 1 dimension"
    ),
    backend_check=True,
)
def model_cannot_batch(ctx: ModelContext) -> Iterator[Finding]:
    view = model_view(ctx)
    if view is None or view.config.max_batch_size <= 0 or view.backend not in _SHAPED:
        return
    message = _tensorflow_refusal(view) if view.backend == "tensorflow" else None
    if message is None:
        message = next(
            (
                problem.message
                for declared, problem in _shape_problems(view)
                if problem.kind == "batch"
            ),
            None,
        )
    if message is not None:
        yield ctx.at(("max_batch_size",), message)


def _tensorflow_refusal(view: ModelView) -> str | None:
    """TensorFlow's auto-complete refusal of a batching config for a signature with a tensor
    whose first dimension is fixed (any tensor of it, declared or not)."""
    signature = view.signature
    for spec in (*signature.inputs, *signature.outputs):
        if spec.dims:
            problem = batching_problem("tensorflow", view.model, spec.name, spec.dims)
            if problem is not None:
                return (
                    f"unable to autofill for '{view.model}', configuration specified max-batch "
                    f"{view.config.max_batch_size} but model signature does not support "
                    f"batching (its {_kind(view, spec.name)} '{spec.name}' has shape "
                    f"{shape_text(spec.dims)})"
                )
    return None


def _kind(view: ModelView, name: str) -> str:
    return "input" if any(spec.name == name for spec in view.signature.inputs) else "output"
