"""Naming pack: the model's name against its folder, and names clients cannot address."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, cast

from tritonlint.diagnostics import Applicability, Fix, Severity, TextEdit
from tritonlint.edits import quote
from tritonlint.rules.base import FixAvailability, fixable, rule
from tritonlint.rules.context import Finding, ModelContext
from tritonlint.rules.fixes import fix, set_value
from tritonlint.schema.source_map import Path as FieldPath

if TYPE_CHECKING:
    from tritonlint.schema.config_types import ModelConfig

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
    first) also renames their steps: it edits their config files too. The titles say which
    fix touches what: this model only, or the ensembles too (how many, and which when few).
    """
    folder = quote(ctx.model.name)
    if folder is None:
        return ()
    own = set_value(ctx, ("name",), folder)
    ensembles, steps = _steps_naming(ctx, name, folder)
    if not steps:
        return fix(f"Set name to {folder}, the model folder's name", Applicability.SAFE, own)
    with_steps = fix(
        f"Set name to {folder} and rename it in {_ensembles(ensembles)}",
        Applicability.UNSAFE,
        own,
        *steps,
    )
    alone = fix(f"Set name to {folder} (this model only)", Applicability.SAFE, own)
    return with_steps + alone


#: Up to how many ensembles a fix's title names.
_NAMED = 3


def _ensembles(names: list[str]) -> str:
    """The ensembles a fix edits, as its title says them: ``the ensemble "pipe" that runs
    it``, ``the 2 ensembles that run it ("a", "b")``, ``the 5 ensembles that run it``."""
    quoted = [quote(name) or repr(name) for name in names]
    if len(names) == 1:
        return f"the ensemble {quoted[0]} that runs it"
    listed = f" ({', '.join(quoted)})" if len(names) <= _NAMED else ""
    return f"the {len(names)} ensembles that run it{listed}"


def _steps_naming(
    ctx: ModelContext, name: str, literal: str
) -> tuple[list[str], list[TextEdit | None]]:
    """The ensembles with a step that runs ``name``, and the edits writing ``literal`` as the
    model_name of every such step.

    Every model's edges are read (only a model whose name differs from its folder's gets
    here); the steps from the ensembles' parsed configs directly: what a fix of this model
    reads in other configs must not count as a read of this check (see rules/reads.py).
    """
    ensembles: list[str] = []
    edits: list[TextEdit | None] = []
    for model in ctx.repository.models:
        if name not in ctx.graph.edges(model.name).steps:
            continue
        document = model.config
        if document is None or document.bound is None:
            continue
        if document.has_syntax_errors:
            return [model.name], [None]  # its steps cannot be placed surely: no fix across files
        other = ctx.context_for(model)
        # As bound, in the release the repository targets: every release has the steps.
        config = cast("ModelConfig", document.bound.message)
        for index, step in enumerate(config.ensemble_scheduling.step):
            if step.model_name == name:
                edit = set_value(other, _step_model_name(index), literal)
                edits.append(edit._replace(path=other.config_path) if edit else None)
                if model.name not in ensembles:
                    ensembles.append(model.name)
    return ensembles, edits


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
