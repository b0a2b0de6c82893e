"""TensorRT plans of one model built with different TensorRT versions."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from tritonlint.diagnostics import Severity
from tritonlint.modelfiles.tensorrt import PlanVersion, plan_version, shown_version
from tritonlint.repository.model import Entry, path_problem
from tritonlint.repository.versions import selected_versions
from tritonlint.rules.base import rule
from tritonlint.rules.context import Finding, ModelContext


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
