"""TensorRT plans built with another TensorRT than the one that loads them: plans of one model
built with different versions, and plans whose version is not the targeted release's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from tritonlint.diagnostics import Severity
from tritonlint.modelfiles.tensorrt import PlanVersion, plan_version, shown_version
from tritonlint.modelfiles.tensorrt_releases import ROWS, ReleaseTensorRT, release_tensorrt
from tritonlint.repository.model import Entry, path_problem
from tritonlint.repository.versions import selected_versions
from tritonlint.rules.base import rule
from tritonlint.rules.context import Finding, ModelContext
from tritonlint.schema.releases import release_key


class _Plan(NamedTuple):
    path: Path
    version: PlanVersion


def _plans(ctx: ModelContext) -> list[_Plan]:
    """The plans a TensorRT model's served versions hold whose header gives their version:
    the model file and each file `cc_model_filenames` names."""
    config = ctx.config
    completed = ctx.completed
    if config is None or not ctx.in_repository:
        return []
    if completed.backend != "tensorrt" or completed.undeterminable:
        return []
    names = dict.fromkeys([completed.default_model_filename, *config.cc_model_filenames.values()])
    plans = []
    for version in selected_versions(ctx.model, config):
        for name in names:
            if path_problem(name):
                continue
            if not isinstance(ctx.model.find_file(f"{version.name}/{name}"), Entry):
                continue
            path = version.path / name
            found = plan_version(path)
            if found is not None:
                plans.append(_Plan(path, found))
    return plans


@rule(
    "TL912",
    "plan-tensorrt-versions-differ",
    Severity.WARNING,
    summary="TensorRT plans of one model built with different TensorRT versions",
    explanation="""
    A TensorRT plan loads only in the TensorRT version that built it; a tritonserver runs one
    TensorRT, so the plans it loads for one model (each served version's `model.plan`, the
    plans `cc_model_filenames` names) must come from one TensorRT. A plan of another version
    fails to load: TensorRT logs `The engine plan file is not compatible with this version
    of TensorRT, expecting library version <server's> got <plan's>, please rebuild.` (or,
    from TensorRT 10, `Serialization assertion stdVersionRead == kSERIALIZATION_VERSION
    failed. Version tag does not match.`), and the tensorrt backend refuses the model with
    `unable to create TensorRT engine`. The exception is a plan built *version-compatible*
    (`BuilderFlag::kVERSION_COMPATIBLE`, TensorRT 8.6 and later), which a later TensorRT
    loads when tritonserver runs with `--backend-config=tensorrt,version-compatible=true`
    (README of triton-inference-server/tensorrt_backend); a newer TensorRT's plan never
    loads in an older one (TensorRT's Version Compatibility guide). The header does not say
    whether a plan was built version-compatible, hence a warning, about each plan older
    than the newest.

    Where the TensorRT of the targeted Triton release is known (`--triton-version`, see
    TL913), each plan is compared with it instead (TL913, TL914), and this rule says nothing.

    The version is read from the plan's header, without deserializing it: after the magic
    `ftrt`, bytes 24, 25 and 26 hold the major, minor and patch version of the TensorRT that
    built the plan, in plans of TensorRT 8.6 and later (NVIDIA's answer in NVIDIA/TensorRT
    issue 3073). Plans of earlier versions, and files whose header does not fit, are left
    alone.
    """,
    bad="""
    model_repository/detector/config.pbtxt:
      platform: "tensorrt_plan"
      max_batch_size: 8
      input [ { name: "images" data_type: TYPE_FP32 dims: [ 3, 640, 640 ] } ]
      output [ { name: "boxes" data_type: TYPE_FP32 dims: [ 100, 6 ] } ]
      version_policy { all { } }
    model_repository/detector/1/model.plan: <hex>   # built with TensorRT 10.3.0
      66 74 72 74 00 00 00 00 00 00 00 00 00 00 00 00
      00 00 00 00 00 00 00 00 0a 03 00 00
    model_repository/detector/2/model.plan: <hex>   # built with TensorRT 10.5.0
      66 74 72 74 00 00 00 00 00 00 00 00 00 00 00 00
      00 00 00 00 00 00 00 00 0a 05 00 00
    """,
    good="""
    model_repository/detector/config.pbtxt:
      platform: "tensorrt_plan"
      max_batch_size: 8
      input [ { name: "images" data_type: TYPE_FP32 dims: [ 3, 640, 640 ] } ]
      output [ { name: "boxes" data_type: TYPE_FP32 dims: [ 100, 6 ] } ]
      version_policy { all { } }
    model_repository/detector/1/model.plan: <hex>   # rebuilt with TensorRT 10.5.0
      66 74 72 74 00 00 00 00 00 00 00 00 00 00 00 00
      00 00 00 00 00 00 00 00 0a 05 00 00
    model_repository/detector/2/model.plan: <hex>   # built with TensorRT 10.5.0
      66 74 72 74 00 00 00 00 00 00 00 00 00 00 00 00
      00 00 00 00 00 00 00 00 0a 05 00 00
    """,
    backend_check=True,
)
def plan_tensorrt_versions_differ(ctx: ModelContext) -> Iterator[Finding]:
    if _served_tensorrt(ctx) is not None:
        return  # each plan is judged against the server's TensorRT (TL913, TL914)
    plans = _plans(ctx)
    if len({plan.version for plan in plans}) < 2:
        return
    newest = max(plans, key=lambda plan: plan.version)
    built = shown_version(newest.version)
    for plan in plans:
        if plan.version == newest.version:
            continue
        yield ctx.about(
            plan.path,
            f"'{ctx.shown(plan.path)}' was built with TensorRT {shown_version(plan.version)}, "
            f"'{ctx.shown(newest.path)}' with TensorRT {built}: a tritonserver runs one "
            'TensorRT, and a plan of another version fails to load ("The engine plan file '
            'is not compatible with this version of TensorRT") unless it was built '
            "version-compatible and the server runs with "
            "--backend-config=tensorrt,version-compatible=true; rebuild it with TensorRT "
            f"{built}",
        )


def _served_tensorrt(ctx: ModelContext) -> ReleaseTensorRT | None:
    """The TensorRT of the release the check targets, where it is known."""
    release = ctx.release
    return release_tensorrt(release) if release is not None else None


def _against_server(ctx: ModelContext, newer: bool) -> Iterator[Finding]:
    """Each plan built newer (``newer``) or older than the targeted release's TensorRT, at the
    config's ``backend`` or ``platform`` (the file itself where the config names neither)."""
    served = _served_tensorrt(ctx)
    if served is None:
        return
    config = ctx.config
    field = ("backend",) if config is not None and config.backend else ("platform",)
    for plan in _plans(ctx):
        if plan.version == served.version or (plan.version > served.version) != newer:
            continue
        built = shown_version(plan.version)
        server = (
            f"the TensorRT {served.tensorrt} of Triton {served.release} "
            f"(container {served.container})"
        )
        if newer:
            message = (
                f"'{ctx.shown(plan.path)}' was built with TensorRT {built}, newer than {server}: "
                'a plan never loads in an older TensorRT ("The engine plan file is not '
                'compatible with this version of TensorRT" or "Version tag does not match", '
                'then "unable to create TensorRT engine"); rebuild it with TensorRT '
                f"{served.tensorrt}"
            )
        else:
            message = (
                f"'{ctx.shown(plan.path)}' was built with TensorRT {built}, older than {server}: "
                "it loads only if it was built version-compatible and the server runs with "
                "--backend-config=tensorrt,version-compatible=true; else rebuild it with "
                f"TensorRT {served.tensorrt}"
            )
        yield ctx.at(field, message) if ctx.located(field) else ctx.about(plan.path, message)


_KNOWN = sorted(ROWS, key=lambda row: release_key(row.release))
_SOURCES = f"""
    Which TensorRT a release's container (`nvcr.io/nvidia/tritonserver:<YY.MM>-py3`) holds is
    in tritonlint/modelfiles/tensorrt_releases.py, each row with its source (NVIDIA's
    Frameworks Support Matrix, as quoted in issues of triton-inference-server/server and
    pytorch/TensorRT, the TensorRT of the container's own error messages, and the release
    notes kept in the server's repository). Releases known there:
    {", ".join(f"{row.release} ({row.container}: {row.tensorrt})" for row in _KNOWN)};
    for the others nothing is said. The header holds the major, minor and patch version, not
    the build number: a plan of another build of the same version (8.6.1.6 in a server of
    8.6.1.2) fails too, unseen.
"""


@rule(
    "TL913",
    "plan-tensorrt-newer-than-server",
    Severity.ERROR,
    summary="a TensorRT plan built with a newer TensorRT than the targeted release's",
    explanation="""
    A TensorRT plan loads in the TensorRT that built it; tritonserver's tensorrt backend loads
    plans with the TensorRT of its container, and a plan of a newer version never loads there,
    not even one built version-compatible (which a *later* TensorRT may load). TensorRT
    refuses it with `The engine plan file is not compatible with this version of TensorRT,
    expecting library version <server's> got <plan's>, please rebuild.` (where only the
    version differs) or `Serialization assertion stdVersionRead == serializationVersion
    failed.Version tag does not match.` (`kSERIALIZATION_VERSION` in some versions; where the
    format differs), and the backend refuses the model: `unable to create TensorRT engine`.
    Versions differ down to the patch: a plan of 8.2.3 fails in TensorRT 8.2.4.

    The plan's version is read from its header (see TL912), the server's from the release
    the check targets (`--triton-version`, or `triton-version` in the settings).
"""
    + _SOURCES,
    bad="""
    $ tritonlint check --triton-version 24.02 model_repository
    model_repository/detector/config.pbtxt:
      platform: "tensorrt_plan"
      max_batch_size: 8
      input [ { name: "images" data_type: TYPE_FP32 dims: [ 3, 640, 640 ] } ]
      output [ { name: "boxes" data_type: TYPE_FP32 dims: [ 100, 6 ] } ]
    model_repository/detector/1/model.plan: <hex>   # built with TensorRT 10.3.0
      66 74 72 74 00 00 00 00 00 00 00 00 00 00 00 00
      00 00 00 00 00 00 00 00 0a 03 00 00
    """,
    good="""
    $ tritonlint check --triton-version 24.02 model_repository
    model_repository/detector/config.pbtxt:
      platform: "tensorrt_plan"
      max_batch_size: 8
      input [ { name: "images" data_type: TYPE_FP32 dims: [ 3, 640, 640 ] } ]
      output [ { name: "boxes" data_type: TYPE_FP32 dims: [ 100, 6 ] } ]
    model_repository/detector/1/model.plan: <hex>   # rebuilt with TensorRT 8.6.3
      66 74 72 74 00 00 00 00 00 00 00 00 00 00 00 00
      00 00 00 00 00 00 00 00 08 06 03 00
    """,
    server_message=(
        "The engine plan file is not compatible with this version of TensorRT, expecting "
        "library version {server} got {plan}, please rebuild."
    ),
    backend_check=True,
)
def plan_tensorrt_newer_than_server(ctx: ModelContext) -> Iterator[Finding]:
    return _against_server(ctx, newer=True)


@rule(
    "TL914",
    "plan-tensorrt-older-than-server",
    Severity.WARNING,
    summary="a TensorRT plan built with an older TensorRT than the targeted release's",
    explanation="""
    A plan of an older TensorRT loads in the server's TensorRT only if it was built
    *version-compatible* (`BuilderFlag::kVERSION_COMPATIBLE`, TensorRT 8.6 and later) and
    tritonserver runs with `--backend-config=tensorrt,version-compatible=true` (README of
    triton-inference-server/tensorrt_backend); otherwise TensorRT refuses it as it refuses a
    newer one (TL913) and the backend reports `unable to create TensorRT engine`. The header
    does not say whether the plan was built version-compatible, hence a warning. Plans of
    TensorRT before 8.6 hold no version where it is read, and are left alone.

    The plan's version is read from its header (see TL912), the server's from the release
    the check targets (`--triton-version`, or `triton-version` in the settings).
"""
    + _SOURCES,
    bad="""
    $ tritonlint check --triton-version 24.02 model_repository
    model_repository/detector/config.pbtxt:
      platform: "tensorrt_plan"
      max_batch_size: 8
      input [ { name: "images" data_type: TYPE_FP32 dims: [ 3, 640, 640 ] } ]
      output [ { name: "boxes" data_type: TYPE_FP32 dims: [ 100, 6 ] } ]
    model_repository/detector/1/model.plan: <hex>   # built with TensorRT 8.6.1
      66 74 72 74 00 00 00 00 00 00 00 00 00 00 00 00
      00 00 00 00 00 00 00 00 08 06 01 00
    """,
    good="""
    $ tritonlint check --triton-version 24.02 model_repository
    model_repository/detector/config.pbtxt:
      platform: "tensorrt_plan"
      max_batch_size: 8
      input [ { name: "images" data_type: TYPE_FP32 dims: [ 3, 640, 640 ] } ]
      output [ { name: "boxes" data_type: TYPE_FP32 dims: [ 100, 6 ] } ]
    model_repository/detector/1/model.plan: <hex>   # rebuilt with TensorRT 8.6.3
      66 74 72 74 00 00 00 00 00 00 00 00 00 00 00 00
      00 00 00 00 00 00 00 00 08 06 03 00
    """,
    backend_check=True,
)
def plan_tensorrt_older_than_server(ctx: ModelContext) -> Iterator[Finding]:
    return _against_server(ctx, newer=False)
