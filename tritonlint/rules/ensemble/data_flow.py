"""The data flow between an ensemble's steps: each tensor written once, read by a step or
returned, and every output computable from the inputs."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tritonlint.diagnostics import Severity
from tritonlint.rules.base import rule
from tritonlint.rules.context import Finding, ModelContext
from tritonlint.rules.ensemble.steps import STEP, ensemble_config, steps_of

if TYPE_CHECKING:
    from tritonlint.schema.config_types import ModelConfig, ModelEnsembling


@rule(
    "TL709",
    "ensemble-tensor-produced-twice",
    Severity.ERROR,
    summary="two output_map entries write the same ensemble tensor",
    explanation="""
    Each ensemble tensor has exactly one producer: one output_map entry of one step.
    """,
    bad="""
    model_repository/classify/config.pbtxt:
      platform: "ensemble"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 1000 ] } ]
      ensemble_scheduling {
        step [
          { model_name: "preprocess" model_version: -1
            input_map { key: "IMAGE" value: "IMAGE" }
            output_map { key: "PIXELS" value: "pixels" } },
          { model_name: "resnet50" model_version: -1
            input_map { key: "input" value: "pixels" }
            # pixels is written by preprocess already
            output_map { key: "probs" value: "pixels" } }
        ]
      }
    model_repository/classify/1/

    model_repository/preprocess/config.pbtxt:
      backend: "python"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    model_repository/preprocess/1/model.py

    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
      output [ { name: "probs" data_type: TYPE_FP32 dims: [ 1000 ] } ]
    model_repository/resnet50/1/model.onnx
    """,
    good="""
    model_repository/classify/config.pbtxt:
      platform: "ensemble"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 1000 ] } ]
      ensemble_scheduling {
        step [
          { model_name: "preprocess" model_version: -1
            input_map { key: "IMAGE" value: "IMAGE" }
            output_map { key: "PIXELS" value: "pixels" } },
          { model_name: "resnet50" model_version: -1
            input_map { key: "input" value: "pixels" }
            output_map { key: "probs" value: "PROBS" } }
        ]
      }
    model_repository/classify/1/

    model_repository/preprocess/config.pbtxt:
      backend: "python"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    model_repository/preprocess/1/model.py

    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
      output [ { name: "probs" data_type: TYPE_FP32 dims: [ 1000 ] } ]
    model_repository/resnet50/1/model.onnx
    """,
    server_message=(
        "ensemble tensor '{tensor}' can appear in an output map only once for ensemble '{model}' "
        "step {index}"
    ),
)
def ensemble_tensor_produced_twice(ctx: ModelContext) -> Iterator[Finding]:
    seen: set[str] = set()
    for index, step in enumerate(steps_of(ctx)):
        for key, tensor in step.output_map.items():
            if tensor in seen:
                yield ctx.at(
                    (*STEP, index, "output_map", key, "value"),
                    f"ensemble tensor '{tensor}' can appear in an output map only once for "
                    f"ensemble '{ctx.name}' step {index}",
                )
            seen.add(tensor)


@dataclass
class _Flow:
    """The data flow of an ensemble: which tensors become ready from its inputs."""

    inputs: list[str]
    outputs: list[str]
    consumed: set[str] = field(default_factory=set)
    produced: set[str] = field(default_factory=set)
    ready: set[str] = field(default_factory=set)


def _flow(config: ModelConfig, steps: list[ModelEnsembling.Step]) -> _Flow:
    flow = _Flow([i.name for i in config.input], [o.name for o in config.output])
    for step in steps:
        flow.consumed.update(step.input_map.values())
        flow.produced.update(step.output_map.values())
    flow.ready = set(flow.inputs)
    pending = list(steps)
    progress = True
    while progress:
        progress = False
        for step in list(pending):
            if set(step.input_map.values()) <= flow.ready:
                flow.ready.update(step.output_map.values())
                pending.remove(step)
                progress = True
    return flow


def _flow_of(ctx: ModelContext) -> _Flow | None:
    """The data flow of an ensemble with steps (None for any other model)."""
    config = ensemble_config(ctx)
    steps = steps_of(ctx)
    return _flow(config, steps) if config is not None and steps else None


@rule(
    "TL710",
    "ensemble-input-unused",
    Severity.ERROR,
    summary="an ensemble input that no step reads",
    explanation="""
    Every ensemble input must be the value of some step's `input_map`. An unused input is
    usually a misspelt tensor name in the input_map.
    """,
    bad="""
    model_repository/classify/config.pbtxt:
      platform: "ensemble"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 1000 ] } ]
      ensemble_scheduling {
        step [
          { model_name: "preprocess" model_version: -1
            # IMAGES: the ensemble input is IMAGE
            input_map { key: "IMAGE" value: "IMAGES" }
            output_map { key: "PIXELS" value: "pixels" } },
          { model_name: "resnet50" model_version: -1
            input_map { key: "input" value: "pixels" }
            output_map { key: "probs" value: "PROBS" } }
        ]
      }
    model_repository/classify/1/

    model_repository/preprocess/config.pbtxt:
      backend: "python"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    model_repository/preprocess/1/model.py

    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
      output [ { name: "probs" data_type: TYPE_FP32 dims: [ 1000 ] } ]
    model_repository/resnet50/1/model.onnx
    """,
    good="""
    model_repository/classify/config.pbtxt:
      platform: "ensemble"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 1000 ] } ]
      ensemble_scheduling {
        step [
          { model_name: "preprocess" model_version: -1
            input_map { key: "IMAGE" value: "IMAGE" }
            output_map { key: "PIXELS" value: "pixels" } },
          { model_name: "resnet50" model_version: -1
            input_map { key: "input" value: "pixels" }
            output_map { key: "probs" value: "PROBS" } }
        ]
      }
    model_repository/classify/1/

    model_repository/preprocess/config.pbtxt:
      backend: "python"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    model_repository/preprocess/1/model.py

    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
      output [ { name: "probs" data_type: TYPE_FP32 dims: [ 1000 ] } ]
    model_repository/resnet50/1/model.onnx
    """,
    server_message="ensemble input '{input}' for ensemble {model}' is not used",
)
def ensemble_input_unused(ctx: ModelContext) -> Iterator[Finding]:
    flow = _flow_of(ctx)
    if flow is None:
        return
    for index, name in enumerate(flow.inputs):
        if name not in flow.consumed and name not in flow.produced:
            yield ctx.at(
                ("input", index, "name"),
                f"ensemble input '{name}' for ensemble {ctx.name}' is not used: no step's "
                "input_map reads it",
            )


@rule(
    "TL711",
    "ensemble-output-not-produced",
    Severity.ERROR,
    summary="an ensemble output that no step writes, or that cannot be computed from the inputs",
    explanation="""
    Every ensemble output must be the value of some step's `output_map`, and that step must
    be able to run: all the tensors it reads come from the ensemble's inputs or from steps
    that can run themselves. A typo in an output_map value, or a step reading a tensor
    nobody writes, leaves the output unwritten.
    """,
    bad="""
    model_repository/classify/config.pbtxt:
      platform: "ensemble"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 1000 ] } ]
      ensemble_scheduling {
        step [
          { model_name: "preprocess" model_version: -1
            input_map { key: "IMAGE" value: "IMAGE" }
            output_map { key: "PIXELS" value: "pixels" } },
          { model_name: "resnet50" model_version: -1
            input_map { key: "input" value: "pixels" }
            # probs: the ensemble output is PROBS
            output_map { key: "probs" value: "probs" } }
        ]
      }
    model_repository/classify/1/

    model_repository/preprocess/config.pbtxt:
      backend: "python"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    model_repository/preprocess/1/model.py

    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
      output [ { name: "probs" data_type: TYPE_FP32 dims: [ 1000 ] } ]
    model_repository/resnet50/1/model.onnx
    """,
    good="""
    model_repository/classify/config.pbtxt:
      platform: "ensemble"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 1000 ] } ]
      ensemble_scheduling {
        step [
          { model_name: "preprocess" model_version: -1
            input_map { key: "IMAGE" value: "IMAGE" }
            output_map { key: "PIXELS" value: "pixels" } },
          { model_name: "resnet50" model_version: -1
            input_map { key: "input" value: "pixels" }
            output_map { key: "probs" value: "PROBS" } }
        ]
      }
    model_repository/classify/1/

    model_repository/preprocess/config.pbtxt:
      backend: "python"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    model_repository/preprocess/1/model.py

    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
      output [ { name: "probs" data_type: TYPE_FP32 dims: [ 1000 ] } ]
    model_repository/resnet50/1/model.onnx
    """,
    server_message=(
        "ensemble output '{output}' for ensemble {model}' is not used\n"
        "output '{output}' for ensemble '{model}' is not written"
    ),
)
def ensemble_output_not_produced(ctx: ModelContext) -> Iterator[Finding]:
    flow = _flow_of(ctx)
    if flow is None:
        return
    for index, name in enumerate(flow.outputs):
        if name not in flow.produced and name not in flow.consumed:
            yield ctx.at(
                ("output", index, "name"),
                f"ensemble output '{name}' for ensemble {ctx.name}' is not used: no step's "
                "output_map writes it",
            )
        elif name not in flow.ready:
            yield ctx.at(
                ("output", index, "name"),
                f"output '{name}' for ensemble '{ctx.name}' is not written: the step that "
                "writes it reads a tensor that is never produced",
            )


@rule(
    "TL712",
    "ensemble-tensor-unused",
    Severity.ERROR,
    summary="an intermediate tensor that is never produced, or never consumed",
    explanation="""
    Each tensor a step reads must come from the ensemble's inputs or from another step's
    output_map, and each tensor a step writes must be read by a later step or be an
    ensemble output. Steps may be listed in any order; what matters is that the data can
    flow from the inputs to the outputs without a cycle.
    """,
    bad="""
    model_repository/classify/config.pbtxt:
      platform: "ensemble"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 1000 ] } ]
      ensemble_scheduling {
        step [
          { model_name: "preprocess" model_version: -1
            input_map { key: "IMAGE" value: "IMAGE" }
            output_map { key: "PIXELS" value: "pixels" } },
          { model_name: "resnet50" model_version: -1
            # pixel: preprocess writes pixels
            input_map { key: "input" value: "pixel" }
            output_map { key: "probs" value: "PROBS" } }
        ]
      }
    model_repository/classify/1/

    model_repository/preprocess/config.pbtxt:
      backend: "python"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    model_repository/preprocess/1/model.py

    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
      output [ { name: "probs" data_type: TYPE_FP32 dims: [ 1000 ] } ]
    model_repository/resnet50/1/model.onnx
    """,
    good="""
    model_repository/classify/config.pbtxt:
      platform: "ensemble"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 1000 ] } ]
      ensemble_scheduling {
        step [
          { model_name: "preprocess" model_version: -1
            input_map { key: "IMAGE" value: "IMAGE" }
            output_map { key: "PIXELS" value: "pixels" } },
          { model_name: "resnet50" model_version: -1
            input_map { key: "input" value: "pixels" }
            output_map { key: "probs" value: "PROBS" } }
        ]
      }
    model_repository/classify/1/

    model_repository/preprocess/config.pbtxt:
      backend: "python"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    model_repository/preprocess/1/model.py

    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
      output [ { name: "probs" data_type: TYPE_FP32 dims: [ 1000 ] } ]
    model_repository/resnet50/1/model.onnx
    """,
    server_message="ensemble tensor '{tensor}' is unused in ensemble '{model}'",
)
def ensemble_tensor_unused(ctx: ModelContext) -> Iterator[Finding]:
    flow = _flow_of(ctx)
    if flow is None:
        return
    outputs = set(flow.outputs)
    inputs = set(flow.inputs)
    reported: set[str] = set()
    for index, step in enumerate(steps_of(ctx)):
        for key, tensor in step.input_map.items():
            if tensor in inputs or tensor in flow.produced or tensor in reported:
                continue
            reported.add(tensor)
            yield ctx.at(
                (*STEP, index, "input_map", key, "value"),
                f"ensemble tensor '{tensor}' is unused in ensemble '{ctx.name}': step {index} "
                "reads it but no step writes it and it is not an ensemble input",
            )
        for key, tensor in step.output_map.items():
            if tensor in outputs or tensor in flow.consumed or tensor in reported:
                continue
            reported.add(tensor)
            yield ctx.at(
                (*STEP, index, "output_map", key, "value"),
                f"ensemble tensor '{tensor}' is unused in ensemble '{ctx.name}': step {index} "
                "writes it but no step reads it and it is not an ensemble output",
            )
