"""Ensemble pack: the shape of an ensemble config and its data flow between steps."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from tritonlint.diagnostics import Applicability, Fix, RelatedLocation, Severity
from tritonlint.repository.autofill import ENSEMBLE
from tritonlint.repository.versions import numbered, selected_versions
from tritonlint.rules.context import ModelContext
from tritonlint.rules.fixes import fix, insert_after, remove_top_level, rename
from tritonlint.rules.registry import Finding, FixAvailability, declare, fixable, rule
from tritonlint.schema.datatypes import data_types
from tritonlint.stage_rules import StageRule


def _ensemble(ctx: ModelContext) -> Any | None:
    """The config when it declares the ensemble platform."""
    config = ctx.config
    return config if config is not None and config.platform == ENSEMBLE else None


def _steps(ctx: ModelContext) -> list[Any]:
    config = _ensemble(ctx)
    if config is None or not config.HasField("ensemble_scheduling"):
        return []
    return list(config.ensemble_scheduling.step)


_STEP = ("ensemble_scheduling", "step")


@rule(
    "TL701",
    "ensemble-without-scheduling",
    Severity.ERROR,
    summary='`platform: "ensemble"` without `ensemble_scheduling`',
    explanation="""
    An ensemble is defined by its steps, in `ensemble_scheduling { step [ ... ] }`.
    """,
    bad="""
    platform: "ensemble"
    input [ ... ]
    output [ ... ]
    """,
    good="""
    platform: "ensemble"
    input [ ... ]
    output [ ... ]
    ensemble_scheduling { step [ { model_name: "classify" model_version: -1 ... } ] }
    """,
    server_message=(
        "ensemble scheduling must be set for ensemble {model} whose platform is ensemble"
    ),
)
def ensemble_without_scheduling(ctx: ModelContext) -> Iterator[Finding]:
    config = _ensemble(ctx)
    if config is not None and not config.HasField("ensemble_scheduling"):
        yield ctx.at(
            ("platform",),
            f"ensemble scheduling must be set for ensemble {ctx.name} whose platform is "
            "ensemble: add ensemble_scheduling { step [ ... ] }",
        )


@rule(
    "TL702",
    "scheduling-without-ensemble-platform",
    Severity.ERROR,
    fix=fixable(FixAvailability.SOMETIMES, Applicability.SAFE),
    summary="`ensemble_scheduling` in a model whose platform is not `ensemble`",
    explanation="""
    Only a model with `platform: "ensemble"` (and no `backend`) may have
    `ensemble_scheduling`. `backend: "ensemble"` is a common slip, which a safe fix writes as
    `platform: "ensemble"`.
    """,
    bad="""
    backend: "ensemble"
    ensemble_scheduling { step [ ... ] }
    """,
    good="""
    platform: "ensemble"
    ensemble_scheduling { step [ ... ] }
    """,
    server_message=(
        "ensemble scheduling cannot be set for model '{model}' whose platform is not ensemble"
    ),
)
def scheduling_without_ensemble_platform(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is None or not config.HasField("ensemble_scheduling"):
        return
    if config.platform == ENSEMBLE or ctx.completed.undeterminable:
        return
    slip = config.backend == ENSEMBLE and not config.platform
    yield ctx.at(
        ("ensemble_scheduling",),
        f"ensemble scheduling cannot be set for model '{ctx.name}' whose platform is not "
        'ensemble: set platform: "ensemble"',
        part="name",
        fixes=fix(
            'Write platform: "ensemble" instead of backend',
            Applicability.SAFE,
            rename(ctx, ("backend",), "platform"),
        )
        if slip
        else (),
    )


@rule(
    "TL703",
    "ensemble-has-backend",
    Severity.ERROR,
    fix=fixable(FixAvailability.SOMETIMES, Applicability.SAFE),
    summary="an ensemble with a `backend`",
    explanation="""
    Ensembles are run by the server itself, not by a backend: `backend` must be empty. A safe
    fix removes `backend`.
    """,
    bad="""
    platform: "ensemble"
    backend: "python"
    """,
    good="""
    platform: "ensemble"
    """,
    server_message=(
        "Ensemble model '{model}' must have platform type '{platform}' and empty backend type"
    ),
)
def ensemble_has_backend(ctx: ModelContext) -> Iterator[Finding]:
    config = _ensemble(ctx)
    if config is None or not ctx.completed.backend:
        return
    path = ("backend",) if config.backend else ("platform",)
    # With no default_model_filename to take one from, the backend field is its only source.
    removable = bool(config.backend) and not config.default_model_filename
    yield ctx.at(
        path,
        f"Ensemble model '{ctx.name}' must have platform type 'ensemble' and empty backend "
        f"type (it has backend '{ctx.completed.backend}')",
        fixes=_removal(ctx, "backend") if removable else (),
    )


def _removal(ctx: ModelContext, field_name: str) -> tuple[Fix, ...]:
    """Remove a field the server refuses on an ensemble (and ignores on its steps' models)."""
    edits = remove_top_level(ctx, field_name)
    return fix(f"Remove {field_name} from the ensemble", Applicability.SAFE, *edits)


def _forbidden(field_name: str, code: str, name: str, message: str, bad: str) -> None:
    def check(ctx: ModelContext) -> Iterator[Finding]:
        config = _ensemble(ctx)
        if config is None:
            return
        present = (
            len(getattr(config, field_name)) > 0
            if field_name != "optimization"
            else config.HasField(field_name)
        )
        if present:
            yield ctx.at(
                (field_name,),
                message.format(model=ctx.name),
                part="name",
                fixes=_removal(ctx, field_name),
            )

    check.__module__ = __name__
    rule(
        code,
        name,
        Severity.ERROR,
        summary=f"`{field_name}` on an ensemble",
        explanation=f"""
        The server schedules an ensemble's steps itself: each composing model has its own
        instances, optimization and warmup, and an ensemble may not set `{field_name}`.
        Move it to the composing models. A safe fix removes it from the ensemble.
        """,
        bad=bad,
        good="""
        platform: "ensemble"
        ensemble_scheduling { step [ ... ] }
        """,
        server_message=message,
        fix=fixable(FixAvailability.SOMETIMES, Applicability.SAFE),
    )(check)


_forbidden(
    "instance_group",
    "TL704",
    "ensemble-instance-group",
    "instance group should not be specified for ensemble '{model}'",
    """
    platform: "ensemble"
    instance_group [ { kind: KIND_CPU count: 2 } ]
    """,
)
_forbidden(
    "optimization",
    "TL705",
    "ensemble-optimization",
    "optimization should not be specified for ensemble '{model}'",
    """
    platform: "ensemble"
    optimization { input_pinned_memory { enable: true } }
    """,
)
_forbidden(
    "model_warmup",
    "TL706",
    "ensemble-warmup",
    "model_warmup can not be specified for ensemble '{model}'",
    """
    platform: "ensemble"
    model_warmup [ { name: "w" batch_size: 1 inputs { key: "IN" value { ... } } } ]
    """,
)


@rule(
    "TL707",
    "ensemble-step-incomplete",
    Severity.ERROR,
    summary="an ensemble without steps, or a step without model_name, input_map or output_map",
    explanation="""
    An ensemble needs at least one step, and every step names its model and maps at least
    one input and one output of it to ensemble tensors.
    """,
    bad="""
    ensemble_scheduling { step [ { model_name: "classify" input_map { key: "x" value: "IN" } } ] }
    """,
    good="""
    ensemble_scheduling {
      step [ {
        model_name: "classify"
        model_version: -1
        input_map { key: "x" value: "IN" }
        output_map { key: "y" value: "OUT" }
      } ]
    }
    """,
    server_message=(
        "must specify 'step' for ensemble '{model}'\n"
        "must specify 'model_name' in step {index} of ensemble '{model}'\n"
        "must specify 'input_map' in step {index} of ensemble '{model}'\n"
        "must specify 'output_map' in step {index} of ensemble '{model}'"
    ),
)
def ensemble_step_incomplete(ctx: ModelContext) -> Iterator[Finding]:
    config = _ensemble(ctx)
    if config is None or not config.HasField("ensemble_scheduling"):
        return
    steps = _steps(ctx)
    if not steps:
        yield ctx.at(
            ("ensemble_scheduling",),
            f"must specify 'step' for ensemble '{ctx.name}'",
            part="name",
        )
    for index, step in enumerate(steps):
        for missing, present in (
            ("model_name", bool(step.model_name)),
            ("input_map", len(step.input_map) > 0),
            ("output_map", len(step.output_map) > 0),
        ):
            if not present:
                yield ctx.at(
                    (*_STEP, index),
                    f"must specify '{missing}' in step {index} of ensemble '{ctx.name}'",
                )


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
    step [ { model_name: "resnet" ... } ]    # the folder is model_repository/resnet50
    """,
    good="""
    step [ { model_name: "resnet50" ... } ]
    """,
    server_message="ensemble {model} contains models that are not available or ambiguous: {names}",
)
def ensemble_unknown_model(ctx: ModelContext) -> Iterator[Finding]:
    root = ctx.repository.root
    if root is None:
        return
    for index, step in enumerate(_steps(ctx)):
        if step.model_name and step.model_name not in ctx.repository.folder_names:
            yield ctx.at(
                (*_STEP, index, "model_name"),
                f"ensemble {ctx.name} contains models that are not available or ambiguous: "
                f"{step.model_name} (no folder '{step.model_name}' in {root})",
            )


@rule(
    "TL709",
    "ensemble-tensor-produced-twice",
    Severity.ERROR,
    summary="two output_map entries write the same ensemble tensor",
    explanation="""
    Each ensemble tensor has exactly one producer: one output_map entry of one step.
    """,
    bad="""
    step [ { ... output_map { key: "y" value: "feat" } },
           { ... output_map { key: "z" value: "feat" } } ]
    """,
    good="""
    step [ { ... output_map { key: "y" value: "feat_a" } },
           { ... output_map { key: "z" value: "feat_b" } } ]
    """,
    server_message=(
        "ensemble tensor '{tensor}' can appear in an output map only once for ensemble '{model}' "
        "step {index}"
    ),
)
def ensemble_tensor_produced_twice(ctx: ModelContext) -> Iterator[Finding]:
    seen: set[str] = set()
    for index, step in enumerate(_steps(ctx)):
        for key, tensor in step.output_map.items():
            if tensor in seen:
                yield ctx.at(
                    (*_STEP, index, "output_map", key, "value"),
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


def _flow(config: Any, steps: list[Any]) -> _Flow:
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
    config = _ensemble(ctx)
    steps = _steps(ctx)
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
    input [ { name: "IMAGE" ... } ]
    step [ { model_name: "preprocess" input_map { key: "raw" value: "IMAGES" } ... } ]
    """,
    good="""
    input [ { name: "IMAGE" ... } ]
    step [ { model_name: "preprocess" input_map { key: "raw" value: "IMAGE" } ... } ]
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
    output [ { name: "PROBS" ... } ]
    step [ { model_name: "classify" ... output_map { key: "y" value: "probs" } } ]
    """,
    good="""
    output [ { name: "PROBS" ... } ]
    step [ { model_name: "classify" ... output_map { key: "y" value: "PROBS" } } ]
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
    step [ { model_name: "preprocess" input_map { key: "raw" value: "IMAGE" }
             output_map { key: "out" value: "pixels" } },
           { model_name: "classify" input_map { key: "x" value: "pixel" } ... } ]
    """,
    good="""
    step [ { model_name: "preprocess" input_map { key: "raw" value: "IMAGE" }
             output_map { key: "out" value: "pixels" } },
           { model_name: "classify" input_map { key: "x" value: "pixels" } ... } ]
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
    for index, step in enumerate(_steps(ctx)):
        for key, tensor in step.input_map.items():
            if tensor in inputs or tensor in flow.produced or tensor in reported:
                continue
            reported.add(tensor)
            yield ctx.at(
                (*_STEP, index, "input_map", key, "value"),
                f"ensemble tensor '{tensor}' is unused in ensemble '{ctx.name}': step {index} "
                "reads it but no step writes it and it is not an ensemble input",
            )
        for key, tensor in step.output_map.items():
            if tensor in outputs or tensor in flow.consumed or tensor in reported:
                continue
            reported.add(tensor)
            yield ctx.at(
                (*_STEP, index, "output_map", key, "value"),
                f"ensemble tensor '{tensor}' is unused in ensemble '{ctx.name}': step {index} "
                "writes it but no step reads it and it is not an ensemble output",
            )


# --- Across models: each step against the config of the model it runs. ---------------------


@dataclass(frozen=True)
class _Composing:
    """A step's model, when its config can be read."""

    index: int
    step: Any
    context: ModelContext
    config: Any


def _composing(ctx: ModelContext) -> Iterator[_Composing]:
    for index, step in enumerate(_steps(ctx)):
        model = ctx.repository.model(step.model_name)
        if model is None:
            continue
        other = ctx.context_for(model)
        if other.config is not None:
            yield _Composing(index, step, other, other.config)


def _tensor_path(kind: str, config: Any, name: str) -> tuple[str | int, ...]:
    names = [t.name for t in getattr(config, kind)]
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
    """,
    bad="""
    # classifier declares input "input" and output "probs"
    step [ { model_name: "classifier" model_version: -1
             input_map { key: "images" value: "pixels" }
             output_map { key: "output" value: "LOGITS" } } ]
    """,
    good="""
    step [ { model_name: "classifier" model_version: -1
             input_map { key: "input" value: "pixels" }
             output_map { key: "probs" value: "LOGITS" } } ]
    """,
    server_message=(
        "in ensemble {ensemble}, ensemble tensor {tensor} is mapped from non-existing output "
        "{output} in model {model}\n"
        "in ensemble {ensemble}, ensemble tensor {tensor} is mapping to non-existing input "
        "{input} in model {model}"
    ),
)
def ensemble_unknown_tensor_name(ctx: ModelContext) -> Iterator[Finding]:
    for item in _composing(ctx):
        inputs = {t.name for t in item.config.input}
        outputs = {t.name for t in item.config.output}
        model = item.step.model_name
        step_path = (*_STEP, item.index)
        related = (item.context.related_at(("name",), f"model '{model}' is defined here"),)
        if item.config.input:
            for key, tensor in item.step.input_map.items():
                if key not in inputs:
                    yield ctx.at(
                        (*step_path, "input_map", key, "key"),
                        f"in ensemble {ctx.name}, ensemble tensor {tensor} is mapping to "
                        f"non-existing input {key} in model {model} (its inputs: "
                        f"{', '.join(sorted(inputs))})",
                        related=related,
                    )
        if item.config.output:
            for key, tensor in item.step.output_map.items():
                if key not in outputs:
                    yield ctx.at(
                        (*step_path, "output_map", key, "key"),
                        f"in ensemble {ctx.name}, ensemble tensor {tensor} is mapped from "
                        f"non-existing output {key} in model {model} (its outputs: "
                        f"{', '.join(sorted(outputs))})",
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
    # classifier declares inputs "input" and "mask"
    step [ { model_name: "classifier" input_map { key: "input" value: "pixels" } ... } ]
    """,
    good="""
    step [ { model_name: "classifier"
             input_map { key: "input" value: "pixels" }
             input_map { key: "mask" value: "MASK" } ... } ]
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
            yield ctx.at(
                (*_STEP, item.index, "model_name"),
                f"in ensemble {ctx.name}, input {tensor.name} in model {item.step.model_name} is "
                "not mapped to any ensemble tensors",
                related=(
                    item.context.related_at(
                        _tensor_path("input", item.config, tensor.name),
                        "the input is declared here",
                    ),
                ),
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
    #: Where the tensor is declared (the ensemble's own IO, or the step's model's).
    declaration: RelatedLocation


def _uses(ctx: ModelContext, config: Any) -> dict[str, list[_Use]]:
    uses: dict[str, list[_Use]] = {}
    for kind in ("input", "output"):
        for index, tensor in enumerate(getattr(config, kind)):
            dims = list(tensor.reshape.shape) if tensor.HasField("reshape") else list(tensor.dims)
            path = (kind, index, "name")
            uses.setdefault(tensor.name, []).append(
                _Use(
                    ctx.name,
                    tensor.data_type,
                    dims,
                    config.max_batch_size,
                    path,
                    ctx.related_at(path, f"ensemble {kind} of {ctx.name}"),
                )
            )
    for item in _composing(ctx):
        for kind, mapping in (("input", item.step.input_map), ("output", item.step.output_map)):
            declared = {t.name: t for t in getattr(item.config, kind)}
            for key, tensor_name in mapping.items():
                tensor = declared.get(key)
                if tensor is None:
                    continue
                uses.setdefault(tensor_name, []).append(
                    _Use(
                        item.step.model_name,
                        tensor.data_type,
                        list(tensor.dims),
                        item.config.max_batch_size,
                        (*_STEP, item.index, f"{kind}_map", key, "value"),
                        item.context.related_at(
                            _tensor_path(kind, item.config, key),
                            f"{kind} {key} of {item.step.model_name}",
                        ),
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
    output [ { name: "LOGITS" data_type: TYPE_FP16 dims: [ 1000 ] } ]
    # the step writing LOGITS declares TYPE_FP32
    """,
    good="""
    output [ { name: "LOGITS" data_type: TYPE_FP32 dims: [ 1000 ] } ]
    """,
    server_message=(
        "in ensemble {ensemble}, ensemble tensor {tensor}: inconsistent shape: {shape_a} is "
        "inferred from model {model_a} while {shape_b} is inferred from model {model_b}\n"
        "in ensemble {ensemble}, ensemble tensor {tensor}: inconsistent data type: {type_a} is "
        "inferred from model {model_a} while {type_b} is inferred from model {model_b}"
    ),
)
def ensemble_tensor_mismatch(ctx: ModelContext) -> Iterator[Finding]:
    config = _ensemble(ctx)
    if config is None or not _steps(ctx):
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
            yield ctx.at(
                other.reference,
                f"in ensemble {ctx.name}, ensemble tensor {tensor}: {problem}",
                related=(first.declaration, other.declaration),
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
    are exempt).
    """,
    bad="""
    max_batch_size: 32      # classifier allows 8
    """,
    good="""
    max_batch_size: 8
    """,
    server_message=(
        "ensemble {ensemble} allows maximum batch size {size}, but it contains model {model} "
        "which only allows maximum batch size to be {model_size}"
    ),
)
def ensemble_batch_size_too_large(ctx: ModelContext) -> Iterator[Finding]:
    config = _ensemble(ctx)
    if config is None:
        return
    for item in _composing(ctx):
        limit = item.config.max_batch_size
        if limit != 0 and limit < config.max_batch_size:
            yield ctx.at(
                ("max_batch_size",),
                f"ensemble {ctx.name} allows maximum batch size {config.max_batch_size}, but it "
                f"contains model {item.step.model_name} which only allows maximum batch size to "
                f"be {limit}",
                related=(
                    item.context.related_at(("max_batch_size",), f"{item.step.model_name}'s limit"),
                ),
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
    step [ { model_name: "classifier" input_map { ... } output_map { ... } } ]
    """,
    good="""
    step [ { model_name: "classifier" model_version: -1 input_map { ... } output_map { ... } } ]
    """,
    server_message=(
        "ensemble '{ensemble}' depends on '{model}' whose required version {version} is not loaded."
    ),
)
def ensemble_version_not_served(ctx: ModelContext) -> Iterator[Finding]:
    for index, step in enumerate(_steps(ctx)):
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
        omitted = not ctx.located((*_STEP, index, "model_version"))
        hint = (
            " (model_version is omitted, which means 0; use -1 for the latest)" if omitted else ""
        )
        yield ctx.at(
            (*_STEP, index, "model_version") if not omitted else (*_STEP, index, "model_name"),
            f"ensemble '{ctx.name}' depends on '{step.model_name}' whose required version "
            f"{step.model_version} is not loaded.{hint}",
            fixes=_latest_version(
                ctx,
                index,
                "Write model_version: -1 (the latest version; omitted, it is version 0, which "
                "the model does not serve)",
                Applicability.SAFE,
            )
            if omitted
            else (),
        )


def _latest_version(
    ctx: ModelContext, index: int, title: str, applicability: Applicability
) -> tuple[Fix, ...]:
    """Insert `model_version: -1` after the step's model_name."""
    edit = insert_after(ctx, (*_STEP, index, "model_name"), "model_version: -1")
    return fix(title, applicability, edit)


@rule(
    "TL718",
    "ensemble-cycle",
    Severity.ERROR,
    summary="ensembles that contain each other",
    explanation="""
    An ensemble may run other ensembles, but never, directly or through others, itself.
    """,
    bad="""
    # pipeline_a runs pipeline_b, and pipeline_b runs pipeline_a
    """,
    good="""
    # pipeline_a runs pipeline_b, which runs only non-ensemble models
    """,
    server_message=(
        "circular dependency between ensembles: {start} -> ... -> {current} -> {start}\n"
        "failed to load '{model}', no version is available"
    ),
)
def ensemble_cycle(ctx: ModelContext) -> Iterator[Finding]:
    start = ctx.model.name
    for index, step in enumerate(_steps(ctx)):
        if step.model_name == start:
            trail: list[str] | None = [start, start]
        else:
            trail = _cycle_via(ctx, step.model_name, start)
        if trail is not None:
            yield ctx.at(
                (*_STEP, index, "model_name"),
                f"circular dependency between ensembles: {' -> '.join(trail)}",
            )


def _cycle_via(ctx: ModelContext, name: str, start: str) -> list[str] | None:
    """The chain ``start -> name -> ... -> start``, if ``name`` leads back to ``start``."""
    trail = ctx.graph.path_between(name, start)
    return None if trail is None else [start, *trail]


@rule(
    "TL719",
    "ensemble-model-version-omitted",
    Severity.WARNING,
    fix=fixable(FixAvailability.SOMETIMES, Applicability.UNSAFE),
    summary="an ensemble step without `model_version`",
    explanation="""
    An omitted `model_version` is 0, not "the latest": it works only while the composing
    model happens to serve a version 0 (and TL717 reports it when it does not). Write
    `model_version: -1` for the latest version, or the number you mean. An unsafe fix writes
    `model_version: -1`, which changes the version the step runs where the model does serve
    a version 0.
    """,
    bad="""
    step [ { model_name: "classifier" input_map { ... } output_map { ... } } ]
    """,
    good="""
    step [ { model_name: "classifier" model_version: -1 input_map { ... } output_map { ... } } ]
    """,
)
def ensemble_model_version_omitted(ctx: ModelContext) -> Iterator[Finding]:
    for index, step in enumerate(_steps(ctx)):
        if step.model_name and not ctx.located((*_STEP, index, "model_version")):
            yield ctx.at(
                (*_STEP, index, "model_name"),
                f"step {index} has no model_version, which means version 0, not the latest; "
                "write model_version: -1 for the latest",
                fixes=_latest_version(
                    ctx,
                    index,
                    "Write model_version: -1 (the latest version, where omitted it is version 0)",
                    Applicability.UNSAFE,
                ),
            )


declare(
    "TL720",
    StageRule.ENSEMBLE_COMPOSING_MODEL_REFUSED,
    Severity.ERROR,
    pack="ensemble",
    summary="an ensemble step runs a model that tritonserver refuses",
    explanation="""
    An ensemble loads only when every model it runs loads. When a composing model has an
    error of its own (a missing version folder or model file, a config mistake ...), the
    ensemble fails too; this points at the step, with the composing model's error as the
    related location. (Reported by the pipeline after the rules have looked at every model.)
    """,
    bad="""
    step [ { model_name: "classifier" model_version: -1 ... } ]
    # model_repository/classifier/ has no version folder
    """,
    good="""
    step [ { model_name: "classifier" model_version: -1 ... } ]
    # model_repository/classifier/1/model.onnx exists
    """,
    server_message=(
        "ensemble '{ensemble}' depends on '{model}' which has no loaded version\n"
        "ensemble '{ensemble}' depends on '{model}' which is not valid\n"
        "ensemble {ensemble} contains models that are not available or ambiguous: {names}"
    ),
)
