"""Naming pack: the model's name against its folder, and names clients cannot address."""

from __future__ import annotations

import re
from collections.abc import Iterator

from tritonlint.diagnostics import Applicability, Fix, Severity
from tritonlint.edits import quote
from tritonlint.rules.context import ModelContext
from tritonlint.rules.fixes import fix, set_value
from tritonlint.rules.registry import Finding, FixAvailability, fixable, rule

_UNADDRESSABLE = re.compile(r"[\s?#%\\\"<>|*]")


@rule(
    "TL201",
    "name-mismatch",
    Severity.ERROR,
    fix=fixable(FixAvailability.SOMETIMES, Applicability.SAFE),
    summary="config `name` differs from the model folder's name",
    explanation="""
    tritonserver knows a model by its folder's name. When `name` is set it must be exactly
    that name; otherwise the model is refused (after its other checks pass). `name` may
    also be left out: the server fills it in from the folder. A safe fix sets `name` to the
    folder's name.
    """,
    bad="""
    # model_repository/resnet50/config.pbtxt
    name: "resnet"
    """,
    good="""
    # model_repository/resnet50/config.pbtxt
    name: "resnet50"
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
            fixes=_folder_name_fix(ctx),
        )


def _folder_name_fix(ctx: ModelContext) -> tuple[Fix, ...]:
    """Set `name` to the folder's name: the server knows the model by its folder."""
    folder = quote(ctx.model.name)
    if folder is None:
        return ()
    title = f"Set name to {folder}, the model folder's name"
    return fix(title, Applicability.SAFE, set_value(ctx, ("name",), folder))


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
    # model_repository/my model/config.pbtxt
    """,
    good="""
    # model_repository/my_model/config.pbtxt
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
