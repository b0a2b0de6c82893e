"""The config's tensor names against the model's: names the model lacks, inputs the config
lacks."""

from __future__ import annotations

from collections.abc import Iterator

from tritonlint.diagnostics import Applicability, Severity
from tritonlint.edits import quote
from tritonlint.modelfiles.signature import TensorSpec
from tritonlint.rules.base import FixAvailability, fixable, rule
from tritonlint.rules.context import Finding, ModelContext
from tritonlint.rules.fixes import fix, set_value
from tritonlint.rules.model_comparison.shapes import shape_text
from tritonlint.rules.model_comparison.view import Declared, ModelView, fed_inputs, model_view

#: Backends that match the config's names against the model's (PyTorch goes by position:
#: TL908).
_BY_NAME = frozenset({"onnxruntime", "tensorflow", "openvino"})


def describe(spec: TensorSpec) -> str:
    """A model tensor's type and shape for a message: ``TYPE_INT64 [-1,128]``."""
    kind = spec.data_type or spec.source_type or "of no type"
    return kind if spec.dims is None else f"{kind} {shape_text(spec.dims)}"


@rule(
    "TL902",
    "tensor-not-in-model",
    Severity.ERROR,
    fix=fixable(FixAvailability.SOMETIMES, Applicability.UNSAFE),
    summary="an input or output the model file does not have",
    explanation="""
    ONNX Runtime, TensorFlow and OpenVINO look up each input and output of the config in the
    model by name and refuse the model when one is not there, listing the names the model
    has (`CheckAllowedModelInput` and `CheckAllowedModelOutput` in the backend repository's
    src/backend_common.cc, called from each backend's `ValidateInputs`/`ValidateOutputs`).
    The names are those of the model file: an ONNX graph's inputs and outputs (an
    initializer listed as an input counts), a SavedModel signature's keys (not the graph's
    tensor names such as `serving_default_x:0`), an OpenVINO IR tensor's names. Where a
    model name is close to the one written, an unsafe fix writes it.
    """,
    bad="""
    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      # the model's input is "pixels"
      input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
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
        "unexpected inference input '{input}', allowed inputs are: {inputs}\n"
        "unexpected inference output '{output}', allowed outputs are: {outputs}"
    ),
    backend_check=True,
)
def tensor_not_in_model(ctx: ModelContext) -> Iterator[Finding]:
    view = model_view(ctx)
    if view is None or view.backend not in _BY_NAME:
        return
    for declared in view.declared():
        if view.tensor(declared.kind, declared.name) is not None:
            continue
        allowed = sorted({spec.name for spec in view.tensors(declared.kind)})
        message = (
            f"unexpected inference {declared.kind} '{declared.name}', allowed "
            f"{declared.kind}s are: {', '.join(allowed)}"
        )
        guess = _guess(view, declared, allowed)
        literal = quote(guess) if guess is not None else None
        if guess is None or literal is None:
            yield ctx.at((*declared.path, "name"), message)
            continue
        yield ctx.at(
            (*declared.path, "name"),
            f"{message}; did you mean '{guess}'?",
            fixes=fix(
                f"Write name: {literal}",
                Applicability.UNSAFE,
                set_value(ctx, (*declared.path, "name"), literal),
            ),
        )


def _guess(view: ModelView, declared: Declared, allowed: list[str]) -> str | None:
    """The model's name closest to the one written, among those no other tensor declares."""
    taken = {other.name for other in view.declared() if other.kind == declared.kind}
    free = [name for name in allowed if name not in taken]
    import difflib  # only a name the model lacks needs it

    close = difflib.get_close_matches(declared.name, free, n=1, cutoff=0.6)
    return close[0] if close else None


@rule(
    "TL903",
    "model-input-not-declared",
    Severity.ERROR,
    summary="a model input that the config does not declare",
    explanation="""
    ONNX Runtime and OpenVINO count the model's inputs and refuse a config that feeds fewer
    (`ValidateInputs` in onnxruntime_backend's src/onnxruntime.cc and openvino_backend's
    src/openvino.cc): every input the model requires must be declared (for ONNX Runtime it
    may also be a sequence control, a sequence state or a batch input). An ONNX input that
    has an initializer is optional: the model holds a value for it. TensorFlow completes the
    inputs a config leaves out from the SavedModel, and PyTorch counts forward()'s arguments
    (TL908). The message names the inputs missing, with the model's type and shape for each.
    Where the config declares as many inputs as the model has, one of another name in place
    of one missing, the backend reports the name it does not know (TL902).
    """,
    bad="""
    model_repository/sentiment/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [ { name: "input_ids" data_type: TYPE_INT64 dims: [ 128 ] } ]
      output [ { name: "logits" data_type: TYPE_FP32 dims: [ 2 ] } ]
      dynamic_batching { }
    model_repository/sentiment/1/model.onnx: <ONNX>
      input "input_ids" INT64 [N, 128]
      input "attention_mask" INT64 [N, 128]
      output "logits" FP32 [N, 2]
    """,
    good="""
    model_repository/sentiment/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [
        { name: "input_ids" data_type: TYPE_INT64 dims: [ 128 ] },
        { name: "attention_mask" data_type: TYPE_INT64 dims: [ 128 ] }
      ]
      output [ { name: "logits" data_type: TYPE_FP32 dims: [ 2 ] } ]
      dynamic_batching { }
    model_repository/sentiment/1/model.onnx: <ONNX>
      input "input_ids" INT64 [N, 128]
      input "attention_mask" INT64 [N, 128]
      output "logits" FP32 [N, 2]
    """,
    server_message=(
        "unable to load model '{model}', configuration expects {n} inputs, model provides {m}"
    ),
    backend_check=True,
)
def model_input_not_declared(ctx: ModelContext) -> Iterator[Finding]:
    view = model_view(ctx)
    if view is None or view.backend not in ("onnxruntime", "openvino"):
        return
    fed, counted = fed_inputs(view.config, view.backend)
    provided = len(view.signature.inputs)
    missing = [spec for spec in view.signature.inputs if spec.name not in fed]
    if not missing or counted == provided:
        return  # as many as the model has: a name the model lacks is TL902's
    listed = ", ".join(f"'{spec.name}' ({describe(spec)})" for spec in missing)
    several = len(missing) > 1
    yield ctx.at(
        ("input",),
        f"unable to load model '{view.model}', configuration expects {counted} inputs, model "
        f"provides {provided}: the model's input{'s' if several else ''} {listed} "
        f"{'are' if several else 'is'} not in the configuration",
        part="name",
    )
