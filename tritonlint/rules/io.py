"""Inputs/outputs pack: name, data type, dims and reshape of every tensor."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from tritonlint.diagnostics import Severity
from tritonlint.modelfiles.python import PythonModel
from tritonlint.rules.base import rule
from tritonlint.rules.completed import at_completed
from tritonlint.rules.context import Finding, ModelContext
from tritonlint.rules.tensor_lists import tensors_of

if TYPE_CHECKING:
    from tritonlint.rules.tensor_lists import Tensor
    from tritonlint.schema.config_types import ModelConfig

WILDCARD = -1


def _tensors(config: ModelConfig) -> Iterator[tuple[str, int, Tensor]]:
    """(``input``/``output``, index, tensor) for every declared tensor."""
    for index, tensor in enumerate(config.input):
        yield "input", index, tensor
    for index, output in enumerate(config.output):
        yield "output", index, output


def backend_completes_io(ctx: ModelContext) -> bool | None:
    """Whether the model's backend fills in missing data types and dims from the model file.

    TensorRT, DALI and TensorFlow SavedModel complete each declared tensor from the model; a
    Python model does when the ``TritonPythonModel`` class of its model.py defines
    ``auto_complete_config`` (as :mod:`tritonlint.modelfiles.python` reads it). ONNX Runtime
    and OpenVINO only add tensors when none are declared, so they do not count here. None
    where it cannot be told: a model.py that does not compile (TL910 reports it), or whose
    class comes from another module.
    """
    completed = ctx.completed
    if completed.backend in ("tensorrt", "dali"):
        return True
    if completed.platform == "tensorflow_savedmodel":
        return True
    if completed.backend == "python":
        found = ctx.model_file
        if found is None or not isinstance(found.read, PythonModel):
            return False
        model = found.read
        if model.syntax_error is not None or model.model_class_elsewhere:
            return None
        return model.model_class is not None and model.model_class.auto_complete_config is not None
    return False


def _label(kind: str, tensor: Tensor) -> str:
    return f"model {kind} '{tensor.name}'"


@rule(
    "TL401",
    "io-missing-name",
    Severity.ERROR,
    summary="an input or output without `name`",
    explanation="""
    Every input and output is addressed by its name; one without a name cannot be used.
    """,
    bad="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    input [ { data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]  # no name
    output [ { name: "logits" data_type: TYPE_FP32 dims: [ 1000 ] } ]
    """,
    good="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    input [ { name: "image" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    output [ { name: "logits" data_type: TYPE_FP32 dims: [ 1000 ] } ]
    """,
    server_message="model input must specify 'name' for {model}",
)
def io_missing_name(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is None:
        return
    for kind, index, tensor in _tensors(config):
        if not tensor.name:
            yield ctx.at((kind, index), f"model {kind} must specify 'name' for {ctx.name}")


@rule(
    "TL402",
    "io-missing-data-type",
    Severity.ERROR,
    summary="an input or output without `data_type`",
    explanation="""
    Every tensor needs a `data_type` (`TYPE_FP32`, `TYPE_INT64`, `TYPE_STRING` ...).
    Backends that complete declared tensors from the model file (TensorRT, TensorFlow
    SavedModel, Python models with `auto_complete_config`) fill it in themselves; for them
    this is the warning TL406 instead.
    """,
    bad="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    input [ { name: "image" dims: [ 3, 224, 224 ] } ]  # no data_type
    output [ { name: "logits" data_type: TYPE_FP32 dims: [ 1000 ] } ]
    """,
    good="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    input [ { name: "image" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    output [ { name: "logits" data_type: TYPE_FP32 dims: [ 1000 ] } ]
    """,
    server_message="model input '{name}' must specify 'data_type' for {model}",
)
def io_missing_data_type(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is None or backend_completes_io(ctx) is not False:
        return
    for kind, index, tensor in _tensors(config):
        if tensor.name and tensor.data_type == 0:
            yield ctx.at(
                (kind, index, "name"),
                f"{_label(kind, tensor)} must specify 'data_type' for {ctx.name}",
            )


@rule(
    "TL403",
    "io-missing-dims",
    Severity.ERROR,
    summary="an input or output without `dims`",
    explanation="""
    Every tensor needs `dims`, its shape without the batch dimension. A scalar per batch
    entry is `dims: [ 1 ]` (with `reshape { shape: [ ] }` if the model wants a true scalar).
    `dims: [ ]` is the same as no dims at all. Backends that read the model file fill
    missing dims in themselves; for them this is the warning TL406 instead.
    """,
    bad="""
    name: "price_regressor"
    platform: "onnxruntime_onnx"
    input [ { name: "features" data_type: TYPE_FP32 dims: [ 16 ] } ]
    output [ { name: "price" data_type: TYPE_FP32 } ]  # one number, but no dims
    """,
    good="""
    name: "price_regressor"
    platform: "onnxruntime_onnx"
    input [ { name: "features" data_type: TYPE_FP32 dims: [ 16 ] } ]
    output [ { name: "price" data_type: TYPE_FP32 dims: [ 1 ] } ]
    """,
    server_message="model input '{name}' must specify 'dims' for {model}",
)
def io_missing_dims(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is None or backend_completes_io(ctx) is not False:
        return
    for kind, index, tensor in _tensors(config):
        if tensor.name and tensor.data_type != 0 and len(tensor.dims) == 0:
            yield ctx.at(
                (kind, index, "name"),
                f"{_label(kind, tensor)} must specify 'dims' for {ctx.name}",
            )


@rule(
    "TL404",
    "io-invalid-dim",
    Severity.ERROR,
    summary="a dimension that is 0 or below -1, in `dims` or `reshape`",
    explanation="""
    Each dimension is a positive size, or `-1` for a size that varies per request. `0` and
    other negative numbers are refused.
    """,
    bad="""
    name: "bert_encoder"
    platform: "onnxruntime_onnx"
    # 0 is refused: a length that varies is -1
    input [ { name: "input_ids" data_type: TYPE_INT64 dims: [ 0 ] } ]
    output [ { name: "hidden_states" data_type: TYPE_FP32 dims: [ -1, 768 ] } ]
    """,
    good="""
    name: "bert_encoder"
    platform: "onnxruntime_onnx"
    input [ { name: "input_ids" data_type: TYPE_INT64 dims: [ -1 ] } ]
    output [ { name: "hidden_states" data_type: TYPE_FP32 dims: [ -1, 768 ] } ]
    """,
    server_message=(
        "model input '{name}' dimension must be integer >= 1, or -1 to indicate a "
        "variable-size dimension for {model}"
    ),
)
def io_invalid_dim(ctx: ModelContext) -> Iterator[Finding]:
    yield from _completed_invalid_dims(ctx)
    config = ctx.config
    if config is None:
        return
    for kind, index, tensor in _tensors(config):
        for position, dim in enumerate(tensor.dims):
            if dim < 1 and dim != WILDCARD:
                yield ctx.at(
                    (kind, index, "dims", position),
                    f"{_label(kind, tensor)} dimension must be integer >= 1, or -1 to indicate "
                    f"a variable-size dimension for {ctx.name} (found {dim})",
                )
        for position, dim in enumerate(tensor.reshape.shape):
            if dim < 1 and dim != WILDCARD:
                yield ctx.at(
                    (kind, index, "reshape", "shape", position),
                    f"{_label(kind, tensor)} reshape dimensions must be integer >= 1, or -1 to "
                    f"indicate a variable-size dimension for {ctx.name} (found {dim})",
                )


def _completed_invalid_dims(ctx: ModelContext) -> Iterator[Finding]:
    """Dims the backend's auto-complete takes from the model file (ONNX allows a dimension of
    0) are validated like written ones."""
    completion = ctx.auto_completion
    if completion is None:
        return
    written = ctx.config
    for kind, index in sorted(completion.added | completion.filled):
        declared = tensors_of(written, kind) if written is not None else ()
        if index < len(declared) and declared[index].dims:
            continue  # the config's own dims, checked below
        tensor = tensors_of(completion.config, kind)[index]
        for dim in tensor.dims:
            if dim < 1 and dim != WILDCARD:
                yield at_completed(
                    ctx,
                    f"{_label(kind, tensor)} dimension must be integer >= 1, or -1 to indicate "
                    f"a variable-size dimension for {ctx.name} (found {dim}: {completion.by} "
                    "writes the model's dims into the config)",
                )
                break


def element_count(dims: Sequence[int]) -> int:
    """Elements in a shape: -1 when any dimension varies, 0 for an empty shape."""
    if not dims:
        return 0
    if any(d == WILDCARD for d in dims):
        return WILDCARD
    count = 1
    for dim in dims:
        count *= dim
    return count


def _chunks(dims: Sequence[int]) -> list[int]:
    """Products of the fixed runs between variable dimensions."""
    chunks, current = [], 1
    for dim in dims:
        if dim == WILDCARD:
            chunks.append(current)
            current = 1
        else:
            current *= dim
    chunks.append(current)
    return chunks


def reshape_problem(dims: Sequence[int], shape: Sequence[int]) -> str | None:
    """Why a reshape does not fit its dims, in the server's words, or None."""
    dims_size, shape_size = element_count(dims), element_count(shape)
    if dims_size != shape_size and not (shape_size == 0 and dims_size == 1):
        return "has different size for dims and reshape"
    if dims_size == WILDCARD:
        dims_chunks, shape_chunks = _chunks(dims), _chunks(shape)
        if len(dims_chunks) != len(shape_chunks):
            return "has different number of variable-size dimensions for dims and reshape"
        if dims_chunks != shape_chunks:
            return "has different size for dims and reshape"
    return None


@rule(
    "TL405",
    "reshape-mismatch",
    Severity.ERROR,
    summary="`reshape` does not hold the same elements as `dims`",
    explanation="""
    `reshape` gives the shape the model sees; it must hold the same number of elements as
    `dims` (an empty reshape is allowed for `dims: [ 1 ]`). With variable dimensions both
    must have as many `-1`s, and the fixed sizes between them must match.
    A non-batching model cannot have an empty reshape: scalar tensors are not supported.
    """,
    bad="""
    name: "mnist"
    platform: "onnxruntime_onnx"
    input [
      {
        name: "pixels"
        data_type: TYPE_FP32
        dims: [ 784 ]
        reshape { shape: [ 3, 28, 28 ] }  # 2352 elements, not 784
      }
    ]
    output [ { name: "digits" data_type: TYPE_FP32 dims: [ 10 ] } ]
    """,
    good="""
    name: "mnist"
    platform: "onnxruntime_onnx"
    input [
      {
        name: "pixels"
        data_type: TYPE_FP32
        dims: [ 784 ]
        reshape { shape: [ 1, 28, 28 ] }
      }
    ]
    output [ { name: "digits" data_type: TYPE_FP32 dims: [ 10 ] } ]
    """,
    server_message="model input '{name}' has different size for dims and reshape for {model}",
)
def reshape_mismatch(ctx: ModelContext) -> Iterator[Finding]:
    config, loaded = ctx.config, ctx.loaded_config
    if config is None or loaded is None:
        return
    for kind, index, tensor in _tensors(config):
        if not tensor.HasField("reshape") or not tensor.dims:
            continue
        shape = list(tensor.reshape.shape)
        if not shape and loaded.max_batch_size == 0:
            yield ctx.at(
                (kind, index, "reshape"),
                f"{_label(kind, tensor)} cannot have empty reshape for non-batching model as "
                f"scalar tensors are not supported for {ctx.name}",
            )
            continue
        if any(d < 1 and d != WILDCARD for d in [*tensor.dims, *shape]):
            continue  # io-invalid-dim reports it
        problem = reshape_problem(list(tensor.dims), shape)
        if problem:
            yield ctx.at(
                (kind, index, "reshape"),
                f"{_label(kind, tensor)} {problem} for {ctx.name} "
                f"(dims {list(tensor.dims)}, reshape {shape})",
            )


@rule(
    "TL406",
    "io-completed-by-backend",
    Severity.WARNING,
    summary="an input or output whose data type or dims only the backend's auto-complete supplies",
    explanation="""
    TensorRT, TensorFlow SavedModel and Python models with `auto_complete_config` complete a
    tensor's missing `data_type` and `dims` from the model file, so the server accepts the
    config, but only while auto-complete is on (`--disable-auto-complete-config` makes it
    refuse the model), and the shapes clients must send cannot be read from the config.
    Write them down.
    """,
    bad="""
    platform: "tensorrt_plan"
    input [ { name: "INPUT0" } ]
    """,
    good="""
    platform: "tensorrt_plan"
    input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    """,
)
def io_completed_by_backend(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is None or not backend_completes_io(ctx):
        return
    for kind, index, tensor in _tensors(config):
        missing = [
            field
            for field, absent in (("data_type", tensor.data_type == 0), ("dims", not tensor.dims))
            if absent
        ]
        if tensor.name and missing:
            yield ctx.at(
                (kind, index, "name"),
                f"{_label(kind, tensor)} has no {' and no '.join(missing)}: only the "
                f"{ctx.completed.backend} backend's auto-complete supplies "
                f"{'them' if len(missing) > 1 else 'it'}; write "
                f"{'them' if len(missing) > 1 else 'it'} down",
            )


_LAYOUT_FORMATS = {1: "FORMAT_NHWC", 2: "FORMAT_NCHW"}


@rule(
    "TL407",
    "image-format-needs-three-dims",
    Severity.ERROR,
    summary="an input with `format: FORMAT_NHWC` or `FORMAT_NCHW` and not exactly 3 dims",
    explanation="""
    The legacy image formats describe a 3-dimensional tensor (height, width, channels in
    some order, without the batch dimension).
    """,
    bad="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    input [
      {
        name: "image"
        data_type: TYPE_FP32
        format: FORMAT_NCHW
        dims: [ 224, 224 ]  # the channels are missing
      }
    ]
    output [ { name: "logits" data_type: TYPE_FP32 dims: [ 1000 ] } ]
    """,
    good="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    input [
      {
        name: "image"
        data_type: TYPE_FP32
        format: FORMAT_NCHW
        dims: [ 3, 224, 224 ]
      }
    ]
    output [ { name: "logits" data_type: TYPE_FP32 dims: [ 1000 ] } ]
    """,
    server_message="model input NHWC/NCHW require 3 dims for {model}",
)
def image_format_needs_three_dims(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is None:
        return
    for index, tensor in enumerate(config.input):
        if tensor.format in _LAYOUT_FORMATS and tensor.dims and len(tensor.dims) != 3:
            yield ctx.at(
                ("input", index, "format"),
                f"model input NHWC/NCHW require 3 dims for {ctx.name} (input '{tensor.name}' "
                f"has {len(tensor.dims)})",
            )


@rule(
    "TL408",
    "tensorrt-only-io-feature",
    Severity.ERROR,
    summary="`is_shape_tensor` or `is_non_linear_format_io` on a non-TensorRT model",
    explanation="""
    Shape tensors and non-linear I/O formats are TensorRT features; other platforms refuse
    them. A non-linear format tensor also needs exactly 3 dims.
    """,
    bad="""
    platform: "onnxruntime_onnx"
    input [ { name: "shape" data_type: TYPE_INT32 dims: [ 2 ] is_shape_tensor: true } ]
    """,
    good="""
    platform: "tensorrt_plan"
    input [ { name: "shape" data_type: TYPE_INT32 dims: [ 2 ] is_shape_tensor: true } ]
    """,
    server_message=(
        "shape tensors are only supported for TensorRT platform for {model}\n"
        "Non-linear IO format is only supported for the TensorRT platform\n"
        "Non-linear IO format {io} requires 3 dims for {model}"
    ),
)
def tensorrt_only_io_feature(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is None:
        return
    tensorrt = ctx.completed.platform == "tensorrt_plan"
    for kind, index, tensor in _tensors(config):
        if tensor.is_shape_tensor and not tensorrt:
            yield ctx.at(
                (kind, index, "is_shape_tensor"),
                f"shape tensors are only supported for TensorRT platform for {ctx.name}",
            )
        if tensor.is_non_linear_format_io:
            if not tensorrt:
                yield ctx.at(
                    (kind, index, "is_non_linear_format_io"),
                    "Non-linear IO format is only supported for the TensorRT platform for "
                    f"{ctx.name}",
                )
            elif len(tensor.dims) != 3:
                yield ctx.at(
                    (kind, index, "is_non_linear_format_io"),
                    f"Non-linear IO format {kind} requires 3 dims for {ctx.name}",
                )


@rule(
    "TL409",
    "duplicate-tensor-name",
    Severity.WARNING,
    summary="two inputs or two outputs with the same name",
    explanation="""
    The server keeps tensors in maps by name: a repeated name silently replaces the earlier
    declaration. (One name for an input and an output is not reported: the server accepts
    it, and models that pass a value through, such as Triton's own TensorRT-LLM
    preprocessing model, do it on purpose.)
    """,
    bad="""
    name: "bert_encoder"
    platform: "onnxruntime_onnx"
    input [
      { name: "input_ids" data_type: TYPE_INT64 dims: [ -1 ] },
      { name: "input_ids" data_type: TYPE_INT64 dims: [ -1 ] }  # not renamed
    ]
    output [ { name: "hidden_states" data_type: TYPE_FP32 dims: [ -1, 768 ] } ]
    """,
    good="""
    name: "bert_encoder"
    platform: "onnxruntime_onnx"
    input [
      { name: "input_ids" data_type: TYPE_INT64 dims: [ -1 ] },
      { name: "attention_mask" data_type: TYPE_INT64 dims: [ -1 ] }
    ]
    output [ { name: "hidden_states" data_type: TYPE_FP32 dims: [ -1, 768 ] } ]
    """,
)
def duplicate_tensor_name(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is None:
        return
    seen: set[tuple[str, str]] = set()
    for kind, index, tensor in _tensors(config):
        if not tensor.name:
            continue
        if (kind, tensor.name) in seen:
            yield ctx.at(
                (kind, index, "name"), f"{kind} name '{tensor.name}' is declared more than once"
            )
        seen.add((kind, tensor.name))


@rule(
    "TL410",
    "numeric-tensor-name",
    Severity.WARNING,
    opt_in=True,
    summary="a tensor named only by digits",
    explanation="""
    ONNX exporters number unnamed tensors (`"308"`), and the numbers change when the model is
    exported again: the config then names tensors the model no longer has. Give the tensors
    names at export (`input_names=` / `output_names=`).

    Not in the default set: the names must match the model file as it is, and a config that
    names its tensors `"308"` is right for the model it was written for. Enable it with
    `--extend-select TL410`.
    """,
    bad="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    input [ { name: "image" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    # "308": the number the exporter gave an unnamed tensor
    output [ { name: "308" data_type: TYPE_FP32 dims: [ 1000 ] } ]
    """,
    good="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    input [ { name: "image" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    output [ { name: "logits" data_type: TYPE_FP32 dims: [ 1000 ] } ]
    """,
)
def numeric_tensor_name(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is None:
        return
    for kind, index, tensor in _tensors(config):
        if tensor.name.isdigit():
            yield ctx.at(
                (kind, index, "name"),
                f"{kind} '{tensor.name}' is named by a number the exporter picked; it changes "
                "when the model is exported again",
            )


@rule(
    "TL411",
    "batch-dimension-in-dims",
    Severity.WARNING,
    opt_in=True,
    summary="`dims` that seem to repeat the batch dimension of a batching model",
    explanation="""
    With `max_batch_size` above 0 the server prepends the batch dimension itself: `dims`
    describe one batch entry. A leading `-1` (or a leading size equal to max_batch_size)
    usually means the batch dimension was written twice, and the model then sees one
    dimension too many ("the model expects 2 dimensions but the model configuration
    specifies 3").

    Not in the default set: a config alone cannot tell a repeated batch dimension from a
    variable first dimension of each entry (`[ -1, 768 ]` for a sequence of 768-wide
    vectors is right for most language models), so the rule fires on many correct configs.
    Enable it with `--extend-select TL411` and compare with the model file.
    """,
    bad="""
    name: "sentiment"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    # the leading -1 repeats the batch dimension
    input [ { name: "input_ids" data_type: TYPE_INT64 dims: [ -1, 128 ] } ]
    output [ { name: "logits" data_type: TYPE_FP32 dims: [ 2 ] } ]
    """,
    good="""
    name: "sentiment"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    input [ { name: "input_ids" data_type: TYPE_INT64 dims: [ 128 ] } ]
    output [ { name: "logits" data_type: TYPE_FP32 dims: [ 2 ] } ]
    """,
)
def batch_dimension_in_dims(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is None or config.max_batch_size <= 0 or config.platform == "ensemble":
        return
    for kind, index, tensor in _tensors(config):
        if len(tensor.dims) < 2:
            continue
        first, rest = tensor.dims[0], list(tensor.dims[1:])
        # Several variable dimensions ([-1, -1, 3]) describe a variable-size image or
        # sequence, not a repeated batch dimension.
        if (first == WILDCARD and WILDCARD not in rest) or first == config.max_batch_size:
            yield ctx.at(
                (kind, index, "dims", 0),
                f"{kind} '{tensor.name}' starts with {first} while max_batch_size is "
                f"{config.max_batch_size}: the server adds the batch dimension itself, so the "
                f"full shape is [-1, {', '.join(str(d) for d in tensor.dims)}]",
            )
