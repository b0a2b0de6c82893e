"""Each step of an ensemble against the config of the model it runs: the model exists, its
tensors, data types, shapes, batch size and versions match the step, no ensemble runs itself,
and none runs a model that the server refuses."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, NamedTuple

from tritonlint.diagnostics import Applicability, Diagnostic, RelatedLocation, Severity
from tritonlint.repository.model import ModelFolder, Repository
from tritonlint.repository.versions import numbered, selected_versions
from tritonlint.rules.base import FixAvailability, declare, fixable, rule
from tritonlint.rules.completed import added_by, max_batch_size_note
from tritonlint.rules.context import Finding, ModelContext
from tritonlint.rules.ensemble.steps import STEP, ensemble_config, latest_version, steps_of
from tritonlint.rules.tensor_lists import tensors_of
from tritonlint.schema.datatypes import data_types
from tritonlint.stage_rules import StageRule

if TYPE_CHECKING:
    from tritonlint.rules.tensor_lists import Tensor
    from tritonlint.schema.config_types import ModelConfig, ModelEnsembling


@rule(
    "TL708",
    "ensemble-unknown-model",
    Severity.ERROR,
    summary="an ensemble step names a model that is not in the repository",
    explanation="""
    Every step's `model_name` must be a model folder of the same repository. A typo, or a
    composing model that was not copied along, makes the ensemble fail to load.
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
          { model_name: "resnet" model_version: -1  # the folder is resnet50
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
    server_message="ensemble {model} contains models that are not available or ambiguous: {names}",
)
def ensemble_unknown_model(ctx: ModelContext) -> Iterator[Finding]:
    if not ctx.in_repository:
        return
    for index, step in enumerate(steps_of(ctx)):
        if step.model_name and step.model_name not in ctx.repository.folder_names:
            yield ctx.at(
                (*STEP, index, "model_name"),
                f"ensemble {ctx.name} contains models that are not available or ambiguous: "
                f"{step.model_name} (no folder '{step.model_name}' in the model repository)",
            )


@dataclass(frozen=True)
class _Composing:
    """A step's model, when its config can be read."""

    index: int
    step: ModelEnsembling.Step
    context: ModelContext
    #: The config as the server loads it: with what the model's backend completes from the
    #: model file (the server checks the ensemble against the completed configs).
    config: ModelConfig

    def added_by(self, kind: str, name: str) -> str | None:
        """Who added the model's tensor ``name`` to its config (None: the config declares it)."""
        return added_by(self.context, kind, name)

    def declared(
        self, kind: str, name: str, message: str, index: int | None = None
    ) -> RelatedLocation:
        """Where the model declares its tensor ``name`` (``message`` there): its config, or the
        model file where the backend adds the tensor; ``index``: the first of the config's
        ``kind`` entries with that name, where the caller knows it (else it is looked for)."""
        adder = self.added_by(kind, name)
        completion = self.context.auto_completion
        if adder is not None and completion is not None:
            return RelatedLocation(
                completion.path,
                f"{kind} {name} of {self.step.model_name}, which {adder} adds to its config",
            )
        path = (kind, index, "name") if index is not None else _tensor_path(kind, self.config, name)
        return self.context.related_at(path, message)

    def defined_here(self) -> RelatedLocation:
        completion = self.context.auto_completion
        model = self.step.model_name
        if self.context.model.config is None and completion is not None:
            return RelatedLocation(
                completion.path, f"model '{model}' has no config; {completion.by} writes one"
            )
        return self.context.related_at(("name",), f"model '{model}' is defined here")

    def listing(self, kind: str, names: Iterable[str]) -> str:
        """``its inputs: a, b``, saying who completed them where the backend did."""
        listed = ", ".join(sorted(names))
        completion = self.context.auto_completion
        if completion is not None and any(k == kind for k, _ in completion.added):
            return f"its {kind}s, completed by {completion.by}: {listed}"
        return f"its {kind}s: {listed}"


def _composing(ctx: ModelContext) -> Iterator[_Composing]:
    for index, step in enumerate(steps_of(ctx)):
        model = ctx.repository.model(step.model_name)
        if model is None:
            continue
        other = ctx.context_for(model)
        config = other.loaded_config
        if config is not None:
            yield _Composing(index, step, other, config)


def _tensor_path(kind: str, config: ModelConfig, name: str) -> tuple[str | int, ...]:
    names = [t.name for t in tensors_of(config, kind)]
    return (kind, names.index(name), "name") if name in names else (kind,)


@rule(
    "TL713",
    "ensemble-unknown-tensor-name",
    Severity.ERROR,
    summary="an input_map or output_map key that is not an input or output of the step's model",
    explanation="""
    In a step, `input_map` keys are *input names of the step's model* and values are ensemble
    tensors; `output_map` keys are *output names of the step's model*. A key that the model
    does not declare (often the two sides swapped, or a renamed tensor) is refused.

    The server compares the steps with the composing models' configs as their backends
    complete them: where a config leaves its inputs or outputs (or max_batch_size) to the
    ONNX Runtime or TensorFlow backend's auto-complete, the steps are checked against what
    that backend reads from the model file (the rules TL713 to TL716 all do so).
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
            # resnet50's input is "input", not "images"
            input_map { key: "images" value: "pixels" }
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
    server_message=(
        "in ensemble {ensemble}, ensemble tensor {tensor} is mapped from non-existing output "
        "{output} in model {model}\n"
        "in ensemble {ensemble}, ensemble tensor {tensor} is mapping to non-existing input "
        "{input} in model {model}"
    ),
)
def ensemble_unknown_tensor_name(ctx: ModelContext) -> Iterator[Finding]:
    names: dict[str, tuple[set[str], set[str]]] = {}  # read once per model, not per step
    for item in _composing(ctx):
        model = item.step.model_name
        if model not in names:
            names[model] = (
                {t.name for t in item.config.input},
                {t.name for t in item.config.output},
            )
        inputs, outputs = names[model]
        step_path = (*STEP, item.index)
        related = (item.defined_here(),)
        if item.config.input:
            for key, tensor in item.step.input_map.items():
                if key not in inputs:
                    yield ctx.at(
                        (*step_path, "input_map", key, "key"),
                        f"in ensemble {ctx.name}, ensemble tensor {tensor} is mapping to "
                        f"non-existing input {key} in model {model} "
                        f"({item.listing('input', inputs)})",
                        related=related,
                    )
        if item.config.output:
            for key, tensor in item.step.output_map.items():
                if key not in outputs:
                    yield ctx.at(
                        (*step_path, "output_map", key, "key"),
                        f"in ensemble {ctx.name}, ensemble tensor {tensor} is mapped from "
                        f"non-existing output {key} in model {model} "
                        f"({item.listing('output', outputs)})",
                        related=related,
                    )


@rule(
    "TL714",
    "ensemble-unmapped-input",
    Severity.ERROR,
    summary="a required input of a step's model that the step does not feed",
    explanation="""
    Every input of the step's model that is not `optional: true` must appear as a key of the
    step's `input_map`.
    """,
    bad="""
    model_repository/sentiment/config.pbtxt:
      platform: "ensemble"
      max_batch_size: 8
      input [ { name: "TEXT" data_type: TYPE_STRING dims: [ 1 ] } ]
      output [ { name: "SCORES" data_type: TYPE_FP32 dims: [ 2 ] } ]
      ensemble_scheduling {
        step [
          { model_name: "tokenizer" model_version: -1
            input_map { key: "TEXT" value: "TEXT" }
            output_map { key: "input_ids" value: "ids" }
            output_map { key: "attention_mask" value: "mask" } },
          { model_name: "bert" model_version: -1
            # bert needs attention_mask too
            input_map { key: "input_ids" value: "ids" }
            output_map { key: "logits" value: "SCORES" } }
        ]
      }
    model_repository/sentiment/1/

    model_repository/tokenizer/config.pbtxt:
      backend: "python"
      max_batch_size: 8
      input [ { name: "TEXT" data_type: TYPE_STRING dims: [ 1 ] } ]
      output [
        { name: "input_ids" data_type: TYPE_INT64 dims: [ 128 ] },
        { name: "attention_mask" data_type: TYPE_INT64 dims: [ 128 ] }
      ]
    model_repository/tokenizer/1/model.py

    model_repository/bert/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [
        { name: "input_ids" data_type: TYPE_INT64 dims: [ 128 ] },
        { name: "attention_mask" data_type: TYPE_INT64 dims: [ 128 ] }
      ]
      output [ { name: "logits" data_type: TYPE_FP32 dims: [ 2 ] } ]
    model_repository/bert/1/model.onnx
    """,
    good="""
    model_repository/sentiment/config.pbtxt:
      platform: "ensemble"
      max_batch_size: 8
      input [ { name: "TEXT" data_type: TYPE_STRING dims: [ 1 ] } ]
      output [ { name: "SCORES" data_type: TYPE_FP32 dims: [ 2 ] } ]
      ensemble_scheduling {
        step [
          { model_name: "tokenizer" model_version: -1
            input_map { key: "TEXT" value: "TEXT" }
            output_map { key: "input_ids" value: "ids" }
            output_map { key: "attention_mask" value: "mask" } },
          { model_name: "bert" model_version: -1
            input_map { key: "input_ids" value: "ids" }
            input_map { key: "attention_mask" value: "mask" }
            output_map { key: "logits" value: "SCORES" } }
        ]
      }
    model_repository/sentiment/1/

    model_repository/tokenizer/config.pbtxt:
      backend: "python"
      max_batch_size: 8
      input [ { name: "TEXT" data_type: TYPE_STRING dims: [ 1 ] } ]
      output [
        { name: "input_ids" data_type: TYPE_INT64 dims: [ 128 ] },
        { name: "attention_mask" data_type: TYPE_INT64 dims: [ 128 ] }
      ]
    model_repository/tokenizer/1/model.py

    model_repository/bert/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [
        { name: "input_ids" data_type: TYPE_INT64 dims: [ 128 ] },
        { name: "attention_mask" data_type: TYPE_INT64 dims: [ 128 ] }
      ]
      output [ { name: "logits" data_type: TYPE_FP32 dims: [ 2 ] } ]
    model_repository/bert/1/model.onnx
    """,
    server_message=(
        "in ensemble {ensemble}, input {input} in model {model} is not mapped to any ensemble "
        "tensors"
    ),
)
def ensemble_unmapped_input(ctx: ModelContext) -> Iterator[Finding]:
    for item in _composing(ctx):
        for tensor in item.config.input:
            if tensor.optional or tensor.name in item.step.input_map:
                continue
            adder = item.added_by("input", tensor.name)
            note = f" (the input is added by {adder})" if adder else ""
            yield ctx.at(
                (*STEP, item.index, "model_name"),
                f"in ensemble {ctx.name}, input {tensor.name} in model {item.step.model_name} is "
                f"not mapped to any ensemble tensors{note}",
                related=(item.declared("input", tensor.name, "the input is declared here"),),
            )


def _full_shape(dims: list[int], max_batch_size: int) -> list[int]:
    return [-1, *dims] if max_batch_size > 0 else dims


def _shapes_match(first: list[int], second: list[int]) -> bool:
    return len(first) == len(second) and all(
        a == b or a == -1 or b == -1 for a, b in zip(first, second, strict=True)
    )


def _show(shape: list[int]) -> str:
    return "[" + ",".join(str(d) for d in shape) + "]"


class _Use(NamedTuple):
    """One place that says what an ensemble tensor looks like."""

    model: str
    data_type: int
    dims: list[int]
    max_batch_size: int
    #: Where the ensemble config refers to the tensor.
    reference: tuple[str | int, ...]
    #: Where the tensor is declared (the ensemble's own IO, or the step's model's): worked out
    #: for the few uses a finding names, not for each of the hundreds of tensors checked.
    declaration: Callable[[], RelatedLocation]
    #: Who added the tensor to the step's model's config (None: the config declares it).
    added_by: str | None = None


#: A config's ``input`` or ``output`` entries by name (the last of a name, as a map of them
#: keeps it), and the index of the first entry of each name (where its name is).
_Declared = tuple[dict[str, "Tensor"], dict[str, int]]


def _declared(config: ModelConfig, kind: str) -> _Declared:
    declared: dict[str, Tensor] = {}
    first: dict[str, int] = {}
    for index, tensor in enumerate(tensors_of(config, kind)):
        declared[tensor.name] = tensor
        first.setdefault(tensor.name, index)
    return declared, first


def _uses(ctx: ModelContext, config: ModelConfig) -> dict[str, list[_Use]]:
    uses: dict[str, list[_Use]] = {}
    for kind in ("input", "output"):
        for index, tensor in enumerate(tensors_of(config, kind)):
            dims = list(tensor.reshape.shape) if tensor.HasField("reshape") else list(tensor.dims)
            path = (kind, index, "name")
            uses.setdefault(tensor.name, []).append(
                _Use(
                    ctx.name,
                    tensor.data_type,
                    dims,
                    config.max_batch_size,
                    path,
                    partial(ctx.related_at, path, f"ensemble {kind} of {ctx.name}"),
                )
            )
    # Each composing model's tensors by name, read once for all the steps running it (a
    # config of 600 outputs that 20 steps run is not read 20 times, nor searched per tensor).
    tables: dict[tuple[str, str], _Declared] = {}
    for item in _composing(ctx):
        for kind, mapping in (("input", item.step.input_map), ("output", item.step.output_map)):
            table = tables.get((item.step.model_name, kind))
            if table is None:
                table = tables[item.step.model_name, kind] = _declared(item.config, kind)
            declared, first = table
            for key, tensor_name in mapping.items():
                entry = declared.get(key)
                if entry is None:
                    continue
                uses.setdefault(tensor_name, []).append(
                    _Use(
                        item.step.model_name,
                        entry.data_type,
                        list(entry.dims),
                        item.config.max_batch_size,
                        (*STEP, item.index, f"{kind}_map", key, "value"),
                        partial(
                            item.declared,
                            kind,
                            key,
                            f"{kind} {key} of {item.step.model_name}",
                            first[key],
                        ),
                        item.added_by(kind, key),
                    )
                )
    return uses


@rule(
    "TL715",
    "ensemble-tensor-mismatch",
    Severity.ERROR,
    summary="an ensemble tensor whose data type or shape differs between the models that use it",
    explanation="""
    An ensemble tensor connects the ensemble's own inputs and outputs and the inputs and
    outputs of its steps' models: all of them must agree on the data type, and on the shape,
    where `-1` matches any size and a batching model's shape has the batch dimension in
    front (`[16]` with max_batch_size 8 matches `[-1, 16]` of a non-batching model).
    """,
    bad="""
    model_repository/classify/config.pbtxt:
      platform: "ensemble"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      # resnet50 writes probs as TYPE_FP32
      output [ { name: "PROBS" data_type: TYPE_FP16 dims: [ 1000 ] } ]
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
        "in ensemble {ensemble}, ensemble tensor {tensor}: inconsistent shape: {shape_a} is "
        "inferred from model {model_a} while {shape_b} is inferred from model {model_b}\n"
        "in ensemble {ensemble}, ensemble tensor {tensor}: inconsistent data type: {type_a} is "
        "inferred from model {model_a} while {type_b} is inferred from model {model_b}"
    ),
)
def ensemble_tensor_mismatch(ctx: ModelContext) -> Iterator[Finding]:
    config = ensemble_config(ctx)
    if config is None or not steps_of(ctx):
        return
    types = data_types(config)
    for tensor, uses in _uses(ctx, config).items():
        first = uses[0]
        for other in uses[1:]:
            if other.data_type != first.data_type:
                problem = (
                    f"inconsistent data type: {types.name(first.data_type)} is inferred from "
                    f"model {first.model} while {types.name(other.data_type)} is inferred from "
                    f"model {other.model}"
                )
            elif not (
                _shapes_match(first.dims, other.dims)
                or _shapes_match(
                    _full_shape(first.dims, first.max_batch_size),
                    _full_shape(other.dims, other.max_batch_size),
                )
            ):
                problem = (
                    "inconsistent shape: "
                    f"{_show(_full_shape(first.dims, first.max_batch_size))} is inferred from "
                    f"model {first.model} while "
                    f"{_show(_full_shape(other.dims, other.max_batch_size))} is inferred from "
                    f"model {other.model}"
                )
            else:
                continue
            notes = "".join(
                f" ({use.model}'s tensor is added by {use.added_by})"
                for use in (first, other)
                if use.added_by
            )
            yield ctx.at(
                other.reference,
                f"in ensemble {ctx.name}, ensemble tensor {tensor}: {problem}{notes}",
                related=(first.declaration(), other.declaration()),
            )
            break


@rule(
    "TL716",
    "ensemble-batch-size-too-large",
    Severity.ERROR,
    summary="an ensemble's max_batch_size above that of a batching model it runs",
    explanation="""
    A batch sent to the ensemble goes whole to each step, so the ensemble's `max_batch_size`
    may not exceed any composing model's (models with `max_batch_size: 0` do not batch and
    are exempt). A composing ONNX or SavedModel model whose config gives no max_batch_size
    may get one from its backend's auto-complete: the server's default, 4.
    """,
    bad="""
    model_repository/classify/config.pbtxt:
      platform: "ensemble"
      max_batch_size: 32  # preprocess and resnet50 allow 8
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
        "ensemble {ensemble} allows maximum batch size {size}, but it contains model {model} "
        "which only allows maximum batch size to be {model_size}"
    ),
)
def ensemble_batch_size_too_large(ctx: ModelContext) -> Iterator[Finding]:
    config = ensemble_config(ctx)
    if config is None:
        return
    for item in _composing(ctx):
        limit = item.config.max_batch_size
        if limit != 0 and limit < config.max_batch_size:
            completion = item.context.auto_completion
            model = item.step.model_name
            note = max_batch_size_note(item.context, f"{model}'s config")
            if note and completion is not None:
                limit_at = RelatedLocation(
                    completion.path, f"{model}'s limit, set by {completion.by}"
                )
            else:
                limit_at = item.context.related_at(("max_batch_size",), f"{model}'s limit")
            yield ctx.at(
                ("max_batch_size",),
                f"ensemble {ctx.name} allows maximum batch size {config.max_batch_size}, but it "
                f"contains model {model} which only allows maximum batch size to be {limit}{note}",
                related=(limit_at,),
            )


@rule(
    "TL717",
    "ensemble-version-not-served",
    Severity.ERROR,
    fix=fixable(FixAvailability.SOMETIMES, Applicability.SAFE),
    summary="a step asks for a version its model does not serve (an omitted version means 0)",
    explanation="""
    `model_version: -1` runs the latest served version; any other number must be a version
    the composing model serves under its version policy. An omitted `model_version` is `0`,
    not "latest", so it fails unless the model has a version folder `0/`. Where it is
    omitted, a safe fix writes `model_version: -1`: version 0 cannot have been meant.
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
          { model_name: "resnet50"  # no model_version: version 0, no 0/ folder
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
    server_message=(
        "ensemble '{ensemble}' depends on '{model}' whose required version {version} is not loaded."
    ),
)
def ensemble_version_not_served(ctx: ModelContext) -> Iterator[Finding]:
    for index, step in enumerate(steps_of(ctx)):
        if step.model_version == -1 or not step.model_name:
            continue
        model = ctx.repository.model(step.model_name)
        if model is None:
            continue
        other = ctx.context_for(model)
        if model.config is not None and other.config is None:
            continue  # its config has syntax errors of its own
        if not numbered(model):
            continue  # no-version-folder reports the composing model itself
        served = {v.number for v in selected_versions(model, other.config)}
        if step.model_version in served:
            continue
        omitted = not ctx.located((*STEP, index, "model_version"))
        hint = (
            " (model_version is omitted, which means 0; use -1 for the latest)" if omitted else ""
        )
        yield ctx.at(
            (*STEP, index, "model_version") if not omitted else (*STEP, index, "model_name"),
            f"ensemble '{ctx.name}' depends on '{step.model_name}' whose required version "
            f"{step.model_version} is not loaded.{hint}",
            fixes=latest_version(
                ctx,
                index,
                "Write model_version: -1 (the latest version; omitted, it is version 0, which "
                "the model does not serve)",
                Applicability.SAFE,
            )
            if omitted
            else (),
        )


@rule(
    "TL718",
    "ensemble-cycle",
    Severity.ERROR,
    summary="ensembles that contain each other",
    explanation="""
    An ensemble may run other ensembles, but never, directly or through others, itself.
    """,
    bad="""
    model_repository/resnet50/config.pbtxt:
      platform: "ensemble"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 1000 ] } ]
      ensemble_scheduling {
        step [
          { model_name: "preprocess" model_version: -1
            input_map { key: "IMAGE" value: "IMAGE" }
            output_map { key: "PIXELS" value: "pixels" } },
          # this ensemble itself: the ONNX model is resnet50_onnx
          { model_name: "resnet50" model_version: -1
            input_map { key: "input" value: "pixels" }
            output_map { key: "probs" value: "PROBS" } }
        ]
      }
    model_repository/resnet50/1/

    model_repository/preprocess/config.pbtxt:
      backend: "python"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    model_repository/preprocess/1/model.py

    model_repository/resnet50_onnx/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
      output [ { name: "probs" data_type: TYPE_FP32 dims: [ 1000 ] } ]
    model_repository/resnet50_onnx/1/model.onnx
    """,
    good="""
    model_repository/resnet50/config.pbtxt:
      platform: "ensemble"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 1000 ] } ]
      ensemble_scheduling {
        step [
          { model_name: "preprocess" model_version: -1
            input_map { key: "IMAGE" value: "IMAGE" }
            output_map { key: "PIXELS" value: "pixels" } },
          { model_name: "resnet50_onnx" model_version: -1
            input_map { key: "input" value: "pixels" }
            output_map { key: "probs" value: "PROBS" } }
        ]
      }
    model_repository/resnet50/1/

    model_repository/preprocess/config.pbtxt:
      backend: "python"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    model_repository/preprocess/1/model.py

    model_repository/resnet50_onnx/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
      output [ { name: "probs" data_type: TYPE_FP32 dims: [ 1000 ] } ]
    model_repository/resnet50_onnx/1/model.onnx
    """,
    server_message=(
        "circular dependency between ensembles: {start} -> ... -> {current} -> {start}\n"
        "failed to load '{model}', no version is available"
    ),
)
def ensemble_cycle(ctx: ModelContext) -> Iterator[Finding]:
    start = ctx.model.name
    for index, step in enumerate(steps_of(ctx)):
        if step.model_name == start:
            trail: list[str] | None = [start, start]
        else:
            trail = _cycle_via(ctx, step.model_name, start)
        if trail is not None:
            yield ctx.at(
                (*STEP, index, "model_name"),
                f"circular dependency between ensembles: {' -> '.join(trail)}",
            )


def _cycle_via(ctx: ModelContext, name: str, start: str) -> list[str] | None:
    """The chain ``start -> name -> ... -> start``, if ``name`` leads back to ``start``."""
    trail = ctx.graph.path_between(name, start)
    return None if trail is None else [start, *trail]


ENSEMBLE_COMPOSING_MODEL_REFUSED = declare(
    "TL720",
    StageRule.ENSEMBLE_COMPOSING_MODEL_REFUSED,
    Severity.ERROR,
    summary="an ensemble step runs a model that tritonserver refuses",
    explanation="""
    An ensemble loads only when every model it runs loads. When a composing model has an
    error of its own (a missing version folder or model file, a config mistake ...), the
    ensemble fails too; this points at the step, with the composing model's error as the
    related location. (Reported by the pipeline after the rules have looked at every model.)
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
    model_repository/resnet50/1/  # empty: model.onnx was not copied
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
        "ensemble '{ensemble}' depends on '{model}' which has no loaded version\n"
        "ensemble '{ensemble}' depends on '{model}' which is not valid\n"
        "ensemble {ensemble} contains models that are not available or ambiguous: {names}"
    ),
)


# TL720 is no check of one model: whether a composing model is refused is known only once every
# model's own findings are, so the engine calls this after checking them (and again whenever a
# composing model's findings change).


def composing_model_failures(
    repository: Repository, errors: Mapping[str, Diagnostic], ensembles: Iterable[str]
) -> dict[str, list[Diagnostic]]:
    """TL720 at every step of ``ensembles`` whose model is refused, up nested ensembles.

    ``errors`` holds the first error of each model's own findings (not counting TL720).
    Every ensemble that runs one of ``ensembles`` must be among them too. Returns the TL720
    findings of each of ``ensembles``.
    """
    failing = dict(errors)
    found: dict[str, list[Diagnostic]] = {}
    names = sorted(set(ensembles))
    # A refusal spreads one level of nesting per round, until no ensemble newly fails.
    while True:
        newly_failing = False
        for name in names:
            model = repository.model(name)
            findings = _steps_refused(repository, model, failing) if model else []
            found[name] = findings
            if findings and name not in failing:
                failing[name] = findings[0]
                newly_failing = True
        if not newly_failing:
            return found


def _steps_refused(
    repository: Repository, model: ModelFolder, failing: Mapping[str, Diagnostic]
) -> list[Diagnostic]:
    context = ModelContext(repository, model)
    found = []
    for index, step in enumerate(repository.graph.steps(model.name)):
        cause = failing.get(step)
        if cause is None or repository.model(step) is None:
            continue
        found.append(
            ENSEMBLE_COMPOSING_MODEL_REFUSED.diagnostic(
                f"ensemble '{context.name}' depends on '{step}' which has no "
                f"loaded version: tritonserver refuses '{step}' ({cause.code} {cause.name})",
                context.config_path,
                context.span((*STEP, index, "model_name")),
                (RelatedLocation(path=cause.path, span=cause.span, message=cause.message),),
            )
        )
    return found
