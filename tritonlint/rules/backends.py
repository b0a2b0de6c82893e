"""Backend pack: what Triton's own backends refuse in a config, before reading the model file.

These checks are made by the backends (PyTorch, ONNX Runtime, TensorRT, TensorFlow, OpenVINO,
Python), so a server running a stand-in backend cannot confirm them; the smoke stage with
the real backends does.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from tritonlint.diagnostics import Severity
from tritonlint.modelfiles.torchscript_names import convention_index
from tritonlint.rules.base import rule
from tritonlint.rules.completed import max_batch_size_note
from tritonlint.rules.context import Finding, ModelContext
from tritonlint.rules.tensor_lists import tensors_of
from tritonlint.schema.datatypes import data_types

if TYPE_CHECKING:
    from tritonlint.schema.config_types import ModelConfig, ModelOptimizationPolicy

_NO_OPTIONAL_INPUTS = frozenset({"tensorrt", "pytorch", "tensorflow", "openvino"})
#: The data types the PyTorch backend has no tensor type for.
_PYTORCH_UNSUPPORTED = frozenset({"TYPE_UINT16", "TYPE_UINT32", "TYPE_UINT64", "TYPE_BF16"})


@rule(
    "TL871",
    "optional-input-unsupported",
    Severity.ERROR,
    summary="an `optional` input on a backend (or a batching ONNX model) that does not allow it",
    explanation="""
    Only the Python backend, custom backends that allow it, and ONNX Runtime models that do
    not batch accept `optional: true` inputs. TensorRT, PyTorch, TensorFlow and OpenVINO
    refuse the model, and so does ONNX Runtime when `max_batch_size` is above 0.
    """,
    bad="""
    name: "text_classifier"
    platform: "pytorch_libtorch"
    input [
      { name: "TOKENS__0" data_type: TYPE_INT64 dims: [ -1 ] },
      # PyTorch models take no optional inputs
      { name: "MASK__1" data_type: TYPE_BOOL dims: [ -1 ] optional: true }
    ]
    output [ { name: "LOGITS__0" data_type: TYPE_FP32 dims: [ 2 ] } ]
    """,
    good="""
    name: "text_classifier"
    platform: "pytorch_libtorch"
    input [
      { name: "TOKENS__0" data_type: TYPE_INT64 dims: [ -1 ] },
      { name: "MASK__1" data_type: TYPE_BOOL dims: [ -1 ] }
    ]
    output [ { name: "LOGITS__0" data_type: TYPE_FP32 dims: [ 2 ] } ]
    """,
    server_message=(
        "'optional' is set to true for input '{input}' while the backend model doesn't support "
        "optional input"
    ),
    backend_check=True,
)
def optional_input_unsupported(ctx: ModelContext) -> Iterator[Finding]:
    config, loaded = ctx.config, ctx.loaded_config
    if config is None or loaded is None:
        return
    backend = ctx.completed.backend
    for index, tensor in enumerate(config.input):
        if not tensor.optional:
            continue
        path = ("input", index, "optional")
        if backend in _NO_OPTIONAL_INPUTS:
            yield ctx.at(
                path,
                f"'optional' is set to true for input '{tensor.name}' while the backend model "
                "doesn't support optional input",
            )
        elif backend == "onnxruntime" and loaded.max_batch_size != 0:
            yield ctx.at(
                path,
                f"unable to load model '{ctx.name}', optional input '{tensor.name}' is not "
                f"supported for models that support batching{max_batch_size_note(ctx)}",
            )


def _pytorch(ctx: ModelContext) -> ModelConfig | None:
    config = ctx.config
    return config if config is not None and ctx.completed.backend == "pytorch" else None


@rule(
    "TL872",
    "pytorch-config-unsupported",
    Severity.ERROR,
    summary="a PyTorch config without outputs, with an unsupported data type or string shape",
    explanation="""
    The PyTorch backend needs at least one `output` (it does not complete configs), supports
    no TYPE_UINT16, TYPE_UINT32, TYPE_UINT64 or TYPE_BF16 tensors, and takes strings only as
    a one-dimensional list (counting the batch dimension).
    """,
    bad="""
    platform: "pytorch_libtorch"
    input [ { name: "INPUT__0" data_type: TYPE_UINT32 dims: [ 4 ] } ]
    """,
    good="""
    platform: "pytorch_libtorch"
    input [ { name: "INPUT__0" data_type: TYPE_INT32 dims: [ 4 ] } ]
    output [ { name: "OUTPUT__0" data_type: TYPE_FP32 dims: [ 4 ] } ]
    """,
    server_message=("model configuration must contain at least one output, none were specified."),
    backend_check=True,
)
def pytorch_config_unsupported(ctx: ModelContext) -> Iterator[Finding]:
    config = _pytorch(ctx)
    if config is None:
        return
    if not config.output:
        yield Finding(
            "model configuration must contain at least one output, none were specified.",
            ctx.config_path,
            ctx.span(("platform",)) or ctx.span(("backend",)),
        )
    batch = 1 if config.max_batch_size > 0 else 0
    types = data_types(config)
    for kind in ("input", "output"):
        for index, tensor in enumerate(tensors_of(config, kind)):
            type_name = types.name(tensor.data_type)
            if type_name in _PYTORCH_UNSUPPORTED:
                yield ctx.at(
                    (kind, index, "data_type"),
                    f"unsupported datatype {type_name} for {kind} "
                    f"'{tensor.name}' for model '{ctx.name}'",
                )
            shape = tensor.reshape.shape if tensor.HasField("reshape") else tensor.dims
            if type_name == "TYPE_STRING" and len(shape) + batch > 1:
                yield ctx.at(
                    (kind, index, "dims"),
                    "Triton only supports 1 dimensional List of String as "
                    f"{kind} for '{tensor.name}' for model '{ctx.name}'",
                )


@rule(
    "TL873",
    "pytorch-tensor-naming",
    Severity.WARNING,
    opt_in=True,
    summary="PyTorch tensor names that do not follow `<name>__<index>`",
    explanation="""
    The PyTorch backend matches config tensors to the TorchScript model by the
    `<name>__<index>` convention (`INPUT__0`, `OUTPUT__1`), or, for inputs, by forward()
    argument names. Other names fall back to strict config order, which breaks silently when
    the order changes. With sequence-batching `state` the convention is required (an error).

    Not in the default set: the backend accepts such names and many working configs use
    them. Enable it with `--extend-select TL873`.
    """,
    bad="""
    platform: "pytorch_libtorch"
    output [ { name: "logits" data_type: TYPE_FP32 dims: [ 2 ] } ]
    """,
    good="""
    platform: "pytorch_libtorch"
    output [ { name: "logits__0" data_type: TYPE_FP32 dims: [ 2 ] } ]
    """,
    server_message=(
        "output '{output}' or previous output(s) are neither an output argument to the model "
        "'{model}' nor do they follow the <name>__<index> naming convention."
    ),
    backend_check=True,
)
def pytorch_tensor_naming(ctx: ModelContext) -> Iterator[Finding]:
    config = _pytorch(ctx)
    if config is None or config.sequence_batching.state:
        return
    for index, tensor in enumerate(config.output):
        if tensor.name and convention_index(tensor.name) is None:
            yield ctx.at(
                ("output", index, "name"),
                f"output '{tensor.name}' does not follow the <name>__<index> naming convention; "
                "the backend falls back to the order of the outputs in this config",
            )


@rule(
    "TL874",
    "pytorch-state-naming",
    Severity.ERROR,
    summary="a PyTorch model with sequence `state` whose tensors are not named `<name>__<index>`",
    explanation="""
    With implicit state, the PyTorch backend requires every input and output (state ones
    included) to follow the `<name>__<index>` convention.
    """,
    bad="""
    name: "streaming_asr"
    platform: "pytorch_libtorch"
    max_batch_size: 8
    # with state, every tensor name must be <name>__<index>
    input [ { name: "audio" data_type: TYPE_FP32 dims: [ 1600 ] } ]
    output [ { name: "LOGITS__0" data_type: TYPE_FP32 dims: [ 32 ] } ]
    sequence_batching {
      state [ {
        input_name: "STATE_IN__1"
        output_name: "STATE_OUT__1"
        data_type: TYPE_FP32
        dims: [ 512 ]
      } ]
    }
    """,
    good="""
    name: "streaming_asr"
    platform: "pytorch_libtorch"
    max_batch_size: 8
    input [ { name: "AUDIO__0" data_type: TYPE_FP32 dims: [ 1600 ] } ]
    output [ { name: "LOGITS__0" data_type: TYPE_FP32 dims: [ 32 ] } ]
    sequence_batching {
      state [ {
        input_name: "STATE_IN__1"
        output_name: "STATE_OUT__1"
        data_type: TYPE_FP32
        dims: [ 512 ]
      } ]
    }
    """,
    server_message=(
        "PyTorch model '{model}' is using sequence batching with state but not all inputs and "
        "outputs follow the <name>__<index> naming convention. "
    ),
    backend_check=True,
)
def pytorch_state_naming(ctx: ModelContext) -> Iterator[Finding]:
    config = _pytorch(ctx)
    if config is None or not config.sequence_batching.state:
        return
    names = [
        *(t.name for t in config.input),
        *(t.name for t in config.output),
        *(s.input_name for s in config.sequence_batching.state),
        *(s.output_name for s in config.sequence_batching.state),
    ]
    if any(convention_index(name) is None for name in names):
        yield ctx.at(
            ("sequence_batching", "state"),
            f"PyTorch model '{ctx.name}' is using sequence batching with state but not all "
            "inputs and outputs follow the <name>__<index> naming convention.",
            part="name",
        )


@rule(
    "TL875",
    "python-model-filename",
    Severity.ERROR,
    summary="a Python model file name that does not end in `.py`",
    explanation="""
    The Python backend imports the model file as a module, and refuses a
    `default_model_filename` whose last character is not one of `.`, `p`, `y` (it means to
    require `.py`).
    """,
    bad="""
    backend: "python"
    default_model_filename: "model.pyc"
    """,
    good="""
    backend: "python"
    default_model_filename: "classifier.py"
    """,
    server_message="Model name must end with '.py'. Model name is \"{file}\".",
    backend_check=True,
)
def python_model_filename(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is None or ctx.completed.backend != "python" or not config.default_model_filename:
        return
    name = config.default_model_filename
    if name[-1] not in ".py":
        yield ctx.at(
            ("default_model_filename",),
            f"Model name must end with '.py'. Model name is \"{name}\".",
        )


_ORT_GPU = frozenset({"tensorrt", "cuda"})
_ORT_CPU = frozenset({"openvino"})
_TF_GPU = frozenset({"tensorrt", "gpu_io", "auto_mixed_precision"})


@rule(
    "TL876",
    "unknown-execution-accelerator",
    Severity.ERROR,
    summary="an execution accelerator the backend does not know",
    explanation="""
    ONNX Runtime takes GPU accelerators `tensorrt` and `cuda` and the CPU accelerator
    `openvino`; TensorFlow takes GPU accelerators `tensorrt`, `gpu_io` and
    `auto_mixed_precision` (not TF-TRT and auto mixed precision together) and no CPU one.
    Any other name fails the load.
    """,
    bad="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    optimization { execution_accelerators {
      gpu_execution_accelerator [ { name: "trt" } ]  # the name is "tensorrt"
    } }
    """,
    good="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    optimization { execution_accelerators {
      gpu_execution_accelerator [ { name: "tensorrt" } ]
    } }
    """,
    server_message="unknown Execution Accelerator '{name}' is requested",
    backend_check=True,
)
def unknown_execution_accelerator(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    backend = ctx.completed.backend
    if config is None or backend not in ("onnxruntime", "tensorflow"):
        return
    accelerators = config.optimization.execution_accelerators
    gpu_known, cpu_known = (_ORT_GPU, _ORT_CPU) if backend == "onnxruntime" else (_TF_GPU, set())
    base = ("optimization", "execution_accelerators")
    for kind, known in (("gpu", gpu_known), ("cpu", cpu_known)):
        field = f"{kind}_execution_accelerator"
        listed = (
            accelerators.gpu_execution_accelerator
            if kind == "gpu"
            else accelerators.cpu_execution_accelerator
        )
        for index, accelerator in enumerate(listed):
            if accelerator.name not in known:
                yield ctx.at(
                    (*base, field, index, "name"),
                    f"unknown Execution Accelerator '{accelerator.name}' is requested",
                )
    names = {a.name for a in accelerators.gpu_execution_accelerator}
    if backend == "tensorflow" and {"tensorrt", "auto_mixed_precision"} <= names:
        yield ctx.at(
            (*base, "gpu_execution_accelerator"),
            "Auto mixed precision can not be set with TFTRT optimization",
            part="name",
        )


@rule(
    "TL877",
    "tensorrt-graph-spec",
    Severity.ERROR,
    summary="a TensorRT CUDA-graph spec whose batch sizes or shapes do not fit",
    explanation="""
    With `optimization { cuda { graphs: true graph_spec [...] } }`, each spec's `batch_size`
    is 0 for a model that does not batch and within 1..max_batch_size otherwise; a
    `graph_lower_bound` has a batch size no larger than the spec's, the same inputs, the same
    ranks and no larger dimensions; no dimension is negative.
    """,
    bad="""
    name: "resnet50"
    platform: "tensorrt_plan"
    max_batch_size: 8
    optimization { cuda {
      graphs: true
      graph_spec [ { batch_size: 16 } ]  # above max_batch_size
    } }
    """,
    good="""
    name: "resnet50"
    platform: "tensorrt_plan"
    max_batch_size: 8
    optimization { cuda {
      graphs: true
      graph_spec [ { batch_size: 8 } ]
    } }
    """,
    server_message="graph spec expects 'batch_size' to be >= 1 and <= {max_batch_size}",
    backend_check=True,
)
def tensorrt_graph_spec(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is None or ctx.completed.backend != "tensorrt":
        return
    cuda = config.optimization.cuda
    if not cuda.graphs:
        return
    limit = config.max_batch_size
    for index, spec in enumerate(cuda.graph_spec):
        path = ("optimization", "cuda", "graph_spec", index)
        sizes = [spec.batch_size]
        if spec.HasField("graph_lower_bound"):
            sizes.append(spec.graph_lower_bound.batch_size)
        for size in sizes:
            if limit == 0 and size != 0:
                yield ctx.at(
                    path, "graph spec expects 'batch_size' to be 0 if 'max_batch_size' is 0"
                )
                break
            if limit > 0 and not 1 <= size <= limit:
                yield ctx.at(path, f"graph spec expects 'batch_size' to be >= 1 and <= {limit}")
                break
        for message in _graph_shape_problems(spec):
            yield ctx.at(path, message)


def _graph_shape_problems(spec: ModelOptimizationPolicy.Cuda.GraphSpec) -> Iterator[str]:
    for name, shape in spec.input.items():
        if any(d < 0 for d in shape.dim):
            yield f"graph spec expects input '{name}' to have dimension >= 0"
    if not spec.HasField("graph_lower_bound"):
        return
    lower = spec.graph_lower_bound
    if lower.batch_size > spec.batch_size:
        yield "graph lower bound spec expects 'batch_size' to be <= graph spec 'batch_size'"
    for name, shape in spec.input.items():
        if name not in lower.input:
            yield f"graph lower bound spec expects shape for input '{name}'"
            continue
        bound = lower.input[name].dim
        if len(bound) != len(shape.dim):
            yield (
                f"graph lower bound spec expects to have '{len(shape.dim)} dimensions, got "
                f"{len(bound)}"
            )
            continue
        for low, high in zip(bound, shape.dim, strict=True):
            if low < 0:
                yield f"graph spec expects input '{name}' to have dimension >= 0"
            elif low > high:
                yield f"graph lower bound spec expects input '{name}' to have dimension <= {high}"
