"""Ensemble pack: the shape of an ensemble config and its data flow between steps."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tritonlint.diagnostics import Severity
from tritonlint.repository.autofill import ENSEMBLE
from tritonlint.rules.context import ModelContext
from tritonlint.rules.registry import Finding, rule


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
    "TL701", "ensemble-without-scheduling", Severity.ERROR,
    summary="`platform: \"ensemble\"` without `ensemble_scheduling`",
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
    "TL702", "scheduling-without-ensemble-platform", Severity.ERROR,
    summary="`ensemble_scheduling` in a model whose platform is not `ensemble`",
    explanation="""
    Only a model with `platform: "ensemble"` (and no `backend`) may have
    `ensemble_scheduling`. `backend: "ensemble"` is a common slip.
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
    yield ctx.at(
        ("ensemble_scheduling",),
        f"ensemble scheduling cannot be set for model '{ctx.name}' whose platform is not "
        "ensemble: set platform: \"ensemble\"",
        part="name",
    )


@rule(
    "TL703", "ensemble-has-backend", Severity.ERROR,
    summary="an ensemble with a `backend`",
    explanation="""
    Ensembles are run by the server itself, not by a backend: `backend` must be empty.
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
    yield ctx.at(
        path,
        f"Ensemble model '{ctx.name}' must have platform type 'ensemble' and empty backend "
        f"type (it has backend '{ctx.completed.backend}')",
    )


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
            yield ctx.at((field_name,), message.format(model=ctx.name), part="name")

    check.__module__ = __name__
    rule(
        code, name, Severity.ERROR,
        summary=f"`{field_name}` on an ensemble",
        explanation=f"""
        The server schedules an ensemble's steps itself: each composing model has its own
        instances, optimization and warmup, and an ensemble may not set `{field_name}`.
        Move it to the composing models.
        """,
        bad=bad,
        good="""
        platform: "ensemble"
        ensemble_scheduling { step [ ... ] }
        """,
        server_message=message,
    )(check)


_forbidden(
    "instance_group", "TL704", "ensemble-instance-group",
    "instance group should not be specified for ensemble '{model}'",
    """
    platform: "ensemble"
    instance_group [ { kind: KIND_CPU count: 2 } ]
    """,
)
_forbidden(
    "optimization", "TL705", "ensemble-optimization",
    "optimization should not be specified for ensemble '{model}'",
    """
    platform: "ensemble"
    optimization { input_pinned_memory { enable: true } }
    """,
)
_forbidden(
    "model_warmup", "TL706", "ensemble-warmup",
    "model_warmup can not be specified for ensemble '{model}'",
    """
    platform: "ensemble"
    model_warmup [ { name: "w" batch_size: 1 inputs { key: "IN" value { ... } } } ]
    """,
)


@rule(
    "TL707", "ensemble-step-incomplete", Severity.ERROR,
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
    server_message="must specify 'output_map' in step {index} of ensemble '{model}'",
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
    "TL708", "ensemble-unknown-model", Severity.ERROR,
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
        if step.model_name and not (root / step.model_name).is_dir():
            yield ctx.at(
                (*_STEP, index, "model_name"),
                f"ensemble {ctx.name} contains models that are not available or ambiguous: "
                f"{step.model_name} (no folder '{step.model_name}' in {root})",
            )


@rule(
    "TL709", "ensemble-tensor-produced-twice", Severity.ERROR,
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
                    (*_STEP, index, "output_map", key),
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


@rule(
    "TL710", "ensemble-input-unused", Severity.ERROR,
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
    config = _ensemble(ctx)
    steps = _steps(ctx)
    if config is None or not steps:
        return
    flow = _flow(config, steps)
    for index, name in enumerate(flow.inputs):
        if name not in flow.consumed and name not in flow.produced:
            yield ctx.at(
                ("input", index, "name"),
                f"ensemble input '{name}' for ensemble {ctx.name}' is not used: no step's "
                "input_map reads it",
            )


@rule(
    "TL711", "ensemble-output-not-produced", Severity.ERROR,
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
    server_message="output '{output}' for ensemble '{model}' is not written",
)
def ensemble_output_not_produced(ctx: ModelContext) -> Iterator[Finding]:
    config = _ensemble(ctx)
    steps = _steps(ctx)
    if config is None or not steps:
        return
    flow = _flow(config, steps)
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
    "TL712", "ensemble-tensor-unused", Severity.ERROR,
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
    config = _ensemble(ctx)
    steps = _steps(ctx)
    if config is None or not steps:
        return
    flow = _flow(config, steps)
    outputs = set(flow.outputs)
    inputs = set(flow.inputs)
    reported: set[str] = set()
    for index, step in enumerate(steps):
        for key, tensor in step.input_map.items():
            if tensor in inputs or tensor in flow.produced or tensor in reported:
                continue
            reported.add(tensor)
            yield ctx.at(
                (*_STEP, index, "input_map", key),
                f"ensemble tensor '{tensor}' is unused in ensemble '{ctx.name}': step {index} "
                "reads it but no step writes it and it is not an ensemble input",
            )
        for key, tensor in step.output_map.items():
            if tensor in outputs or tensor in flow.consumed or tensor in reported:
                continue
            reported.add(tensor)
            yield ctx.at(
                (*_STEP, index, "output_map", key),
                f"ensemble tensor '{tensor}' is unused in ensemble '{ctx.name}': step {index} "
                "writes it but no step reads it and it is not an ensemble output",
            )
