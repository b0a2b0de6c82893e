"""Naming pack: the model's name against its folder, and names clients cannot address."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from tritonlint.diagnostics import Applicability, Fix, Severity, TextEdit
from tritonlint.edits import quote
from tritonlint.rules.base import FixAvailability, fixable, rule
from tritonlint.rules.context import Finding, ModelContext
from tritonlint.rules.fixes import fix, set_value
from tritonlint.schema.source_map import Path as FieldPath

_UNADDRESSABLE = re.compile(r"[\s?#%\\\"<>|*]")


@rule(
    "TL201",
    "name-mismatch",
    Severity.ERROR,
    fix=fixable(FixAvailability.SOMETIMES, Applicability.SAFE, Applicability.UNSAFE),
    summary="config `name` differs from the model folder's name",
    explanation="""
    tritonserver knows a model by its folder's name. When `name` is set it must be exactly
    that name; otherwise the model is refused (after its other checks pass). `name` may
    also be left out: the server fills it in from the folder. A safe fix sets `name` to the
    folder's name. Where ensembles run the model by the name its config gave it, an unsafe
    fix also renames those steps, in the ensembles' config files: all the files change
    together, or none does.
    """,
    bad="""
    model_repository/resnet50/config.pbtxt:
      name: "resnet"
      platform: "onnxruntime_onnx"
    model_repository/resnet50/1/model.onnx
    """,
    good="""
    model_repository/resnet50/config.pbtxt:
      name: "resnet50"
      platform: "onnxruntime_onnx"
    model_repository/resnet50/1/model.onnx
    """,
    server_message=(
        "unexpected directory name '{dir}' for model '{name}', directory name must equal model name"
    ),
)
def name_mismatch(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if not ctx.in_repository or config is None or not config.name:
        return
    if config.name != ctx.model.name:
        yield ctx.at(
            ("name",),
            f'name "{config.name}" differs from the model folder "{ctx.model.name}"; '
            f"tritonserver refuses it: unexpected directory name '{ctx.model.name}' for model "
            f"'{config.name}', directory name must equal model name",
            fixes=_folder_name_fix(ctx, config.name),
        )


def _folder_name_fix(ctx: ModelContext, name: str) -> tuple[Fix, ...]:
    """Set `name` to the folder's name: the server knows the model by its folder.

    Where ensembles run the model by the name its config gave it, an unsafe fix (offered
    first) also renames their steps: it edits their config files too.
    """
    folder = quote(ctx.model.name)
    if folder is None:
        return ()
    own = set_value(ctx, ("name",), folder)
    steps = _steps_naming(ctx, name, folder)
    title = f"Set name to {folder}, the model folder's name"
    with_steps = fix(
        f"{title}, and the ensemble steps that name {quote(name)}",
        Applicability.UNSAFE,
        own,
        *steps,
    )
    return (with_steps if steps else ()) + fix(title, Applicability.SAFE, own)


def _steps_naming(ctx: ModelContext, name: str, literal: str) -> list[TextEdit | None]:
    """Edits writing ``literal`` as the model_name of every ensemble step that runs ``name``.

    Every model's edges are read (only a model whose name differs from its folder's gets
    here); the steps from the ensembles' parsed configs directly: what a fix of this model
    reads in other configs must not count as a read of this check (see rules/reads.py).
    """
    edits: list[TextEdit | None] = []
    for model in ctx.repository.models:
        if name not in ctx.graph.edges(model.name).steps:
            continue
        document = model.config
        if document is None or document.bound is None:
            continue
        if document.has_syntax_errors:
            return [None]  # its steps cannot be placed surely: no fix across files
        other = ctx.context_for(model)
        config: Any = document.bound.message
        for index, step in enumerate(config.ensemble_scheduling.step):
            if step.model_name == name:
                edit = set_value(other, _step_model_name(index), literal)
                edits.append(edit._replace(path=other.config_path) if edit else None)
    return edits


def _step_model_name(index: int) -> FieldPath:
    return ("ensemble_scheduling", "step", index, "model_name")


@rule(
    "TL202",
    "unaddressable-model-name",
    Severity.WARNING,
    summary="the model's name has characters clients cannot put in a request URL",
    explanation="""
    Clients address a model by name in HTTP paths (`/v2/models/<name>/infer`) and in gRPC
    requests. Spaces and characters such as `?`, `#`, `%` or quotes have to be escaped
    everywhere the name is used, and many client tools get that wrong. Use letters, digits,
    `_`, `-` and `.`.
    """,
    bad="""
    model_repository/text classifier/config.pbtxt:
      platform: "onnxruntime_onnx"
    model_repository/text classifier/1/model.onnx
    """,
    good="""
    model_repository/text_classifier/config.pbtxt:
      platform: "onnxruntime_onnx"
    model_repository/text_classifier/1/model.onnx
    """,
)
def unaddressable_model_name(ctx: ModelContext) -> Iterator[Finding]:
    if not ctx.in_repository:
        return
    match = _UNADDRESSABLE.search(ctx.model.name)
    if match:
        yield ctx.about(
            ctx.model.path,
            f"model name {ctx.model.name!r} contains {match.group(0)!r}, which clients must "
            "escape in request URLs; prefer letters, digits, '_', '-' and '.'",
        )
