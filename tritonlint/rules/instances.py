"""Instance-group pack: kinds, counts, GPUs, profiles, secondary devices, rate limiters.

Which GPUs exist is known only on the machine the server runs on: a GPU id that is merely
high is a warning here (the smoke stage, on the real machine, decides), a negative one is
always an error.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from tritonlint.diagnostics import Severity
from tritonlint.repository.server_fill_in import ENSEMBLE
from tritonlint.rules.base import repository_rule, rule
from tritonlint.rules.context import Finding, ModelContext, RepositoryContext

if TYPE_CHECKING:
    from tritonlint.schema.config_types import ModelInstanceGroup

KIND_AUTO, KIND_GPU, KIND_CPU, KIND_MODEL = 0, 1, 2, 3
_KIND_NAMES = {
    KIND_AUTO: "KIND_AUTO",
    KIND_GPU: "KIND_GPU",
    KIND_CPU: "KIND_CPU",
    KIND_MODEL: "KIND_MODEL",
}


def _groups(ctx: ModelContext) -> list[tuple[int, ModelInstanceGroup, str]]:
    """(index, group, the name the server gives it) for a non-ensemble model."""
    config = ctx.config
    if config is None or config.platform == ENSEMBLE:
        return []
    return [
        (index, group, group.name or f"{ctx.name}_{index}")
        for index, group in enumerate(config.instance_group)
    ]


@rule(
    "TL601",
    "gpus-on-non-gpu-group",
    Severity.ERROR,
    summary="`gpus` listed in an instance group of kind KIND_CPU or KIND_MODEL",
    explanation="""
    Only KIND_GPU groups place instances on GPUs. A KIND_CPU group runs on the CPU and a
    KIND_MODEL group lets the model place itself; listing `gpus` in either is refused.
    """,
    bad="""
    name: "text_encoder"
    platform: "onnxruntime_onnx"
    instance_group [ { kind: KIND_CPU gpus: [ 0 ] } ]  # GPUs for a CPU group
    """,
    good="""
    name: "text_encoder"
    platform: "onnxruntime_onnx"
    instance_group [ { kind: KIND_GPU gpus: [ 0 ] } ]
    """,
    server_message=(
        "instance group {group} of model {model} has kind KIND_CPU but specifies one or more GPUs"
    ),
)
def gpus_on_non_gpu_group(ctx: ModelContext) -> Iterator[Finding]:
    for index, group, name in _groups(ctx):
        if group.kind in (KIND_CPU, KIND_MODEL) and len(group.gpus) > 0:
            yield ctx.at(
                ("instance_group", index, "gpus"),
                f"instance group {name} of model {ctx.name} has kind "
                f"{_KIND_NAMES[group.kind]} but specifies one or more GPUs",
            )


@rule(
    "TL602",
    "invalid-gpu-id",
    Severity.ERROR,
    summary="a negative GPU id in an instance group",
    explanation="""
    GPU ids are the CUDA device numbers 0, 1, ... A negative id never names a GPU.
    (Whether a non-negative id exists depends on the machine; see TL603.)
    """,
    bad="""
    name: "resnet50"
    platform: "tensorrt_plan"
    instance_group [ { kind: KIND_GPU gpus: [ -1 ] } ]  # -1 names no GPU
    """,
    good="""
    name: "resnet50"
    platform: "tensorrt_plan"
    instance_group [ { kind: KIND_GPU gpus: [ 0 ] } ]
    """,
    server_message=(
        "instance group {group} of model {model} specifies invalid or unsupported gpu id {id}. "
        "GPUs with at least the minimum required CUDA compute compatibility of {cc} are: {ids}"
    ),
)
def invalid_gpu_id(ctx: ModelContext) -> Iterator[Finding]:
    for index, group, name in _groups(ctx):
        if group.kind not in (KIND_GPU, KIND_AUTO):
            continue
        for position, gpu in enumerate(group.gpus):
            if gpu < 0:
                yield ctx.at(
                    ("instance_group", index, "gpus", position),
                    f"instance group {name} of model {ctx.name} specifies invalid or unsupported "
                    f"gpu id {gpu}",
                )


@rule(
    "TL603",
    "hard-coded-gpu-ids",
    Severity.WARNING,
    opt_in=True,
    summary="an instance group pinned to particular GPU ids",
    explanation="""
    `gpus: [ ... ]` ties the model to those devices: on a machine with fewer GPUs (a laptop,
    a smaller CI runner, a node of a different shape) the server refuses the model with
    "specifies invalid or unsupported gpu id". Without `gpus`, a KIND_GPU group gets
    instances on every available GPU. Only the server on the target machine can tell whether
    the ids exist: run the smoke stage there.

    Not in the default set: `gpus: [ 0 ]` is written in most GPU configs and works on every
    machine with a GPU; the server itself reports ids it does not have. Enable it with
    `--extend-select TL603` where one repository is deployed on machines of different shapes.
    """,
    bad="""
    name: "resnet50"
    platform: "tensorrt_plan"
    instance_group [ { kind: KIND_GPU gpus: [ 0, 1, 2, 3 ] } ]  # needs 4 GPUs
    """,
    good="""
    name: "resnet50"
    platform: "tensorrt_plan"
    instance_group [ { kind: KIND_GPU count: 1 } ]  # 1 instance on each GPU
    """,
)
def hard_coded_gpu_ids(ctx: ModelContext) -> Iterator[Finding]:
    for index, group, name in _groups(ctx):
        ids = [gpu for gpu in group.gpus if gpu >= 0]
        if group.kind in (KIND_GPU, KIND_AUTO) and ids:
            yield ctx.at(
                ("instance_group", index, "gpus"),
                f"instance group {name} is pinned to GPU ids {ids}; it fails on a machine without "
                "them",
            )


@rule(
    "TL604",
    "instance-count-not-positive",
    Severity.WARNING,
    summary="an instance group `count` of zero or below",
    explanation="""
    A count below 1 is silently replaced by the default (1, or 2 for KIND_CPU groups of the
    TensorFlow and ONNX Runtime backends). Say how many instances you want.
    """,
    bad="""
    name: "text_encoder"
    platform: "onnxruntime_onnx"
    instance_group [ { kind: KIND_CPU count: 0 } ]  # becomes the default count, 2
    """,
    good="""
    name: "text_encoder"
    platform: "onnxruntime_onnx"
    instance_group [ { kind: KIND_CPU count: 4 } ]
    """,
)
def instance_count_not_positive(ctx: ModelContext) -> Iterator[Finding]:
    for index, group, name in _groups(ctx):
        if ctx.located(("instance_group", index, "count")) and group.count < 1:
            yield ctx.at(
                ("instance_group", index, "count"),
                f"instance group {name} has count {group.count}; the server replaces it with "
                "its default",
            )


@rule(
    "TL605",
    "instance-kind-unsupported-by-backend",
    Severity.ERROR,
    summary="a kind the backend refuses: TensorRT needs GPU instances, OpenVINO CPU instances",
    explanation="""
    The TensorRT backend runs only on GPUs and the OpenVINO backend only on CPUs; an instance
    group of another kind makes the model fail to load. (Checked by the backend itself, so
    a server with a stand-in backend cannot confirm it.)
    """,
    bad="""
    platform: "tensorrt_plan"
    instance_group [ { kind: KIND_CPU } ]
    """,
    good="""
    platform: "tensorrt_plan"
    instance_group [ { kind: KIND_GPU } ]
    """,
    server_message="unable to load model '{model}', TensorRT backend supports only GPU device",
    backend_check=True,
)
def instance_kind_unsupported_by_backend(ctx: ModelContext) -> Iterator[Finding]:
    backend = ctx.completed.backend
    for index, group, _name in _groups(ctx):
        if backend == "tensorrt" and group.kind in (KIND_CPU, KIND_MODEL):
            yield ctx.at(
                ("instance_group", index, "kind"),
                f"unable to load model '{ctx.name}', TensorRT backend supports only GPU device",
            )
        elif backend == "openvino" and group.kind in (KIND_GPU, KIND_MODEL):
            yield ctx.at(
                ("instance_group", index, "kind"),
                f"unable to load model '{ctx.name}', Triton openVINO backend supports only CPU "
                "device",
            )


_PROFILE = re.compile(r"\s*([+-]?\d+)")


@rule(
    "TL606",
    "invalid-profile",
    Severity.ERROR,
    summary="an instance group `profile` on a non-TensorRT model, or one that is not a number",
    explanation="""
    `profile` selects TensorRT optimization profiles by index. It is refused on other
    platforms, and each entry must be a non-negative integer written as a string.
    """,
    bad="""
    name: "resnet50"
    platform: "tensorrt_plan"
    instance_group [ { kind: KIND_GPU profile: [ "fast" ] } ]  # not an index
    """,
    good="""
    name: "resnet50"
    platform: "tensorrt_plan"
    instance_group [ { kind: KIND_GPU profile: [ "0" ] } ]
    """,
    server_message=(
        "instance group {group} of model {model} and platform {platform}specifies profile field "
        "which is only supported for TensorRT models"
    ),
)
def invalid_profile(ctx: ModelContext) -> Iterator[Finding]:
    platform = ctx.completed.platform
    for index, group, name in _groups(ctx):
        if not group.profile:
            continue
        if platform != "tensorrt_plan":
            yield ctx.at(
                ("instance_group", index, "profile"),
                f"instance group {name} of model {ctx.name} and platform {platform}specifies "
                "profile field which is only supported for TensorRT models",
            )
            continue
        for position, profile in enumerate(group.profile):
            path = ("instance_group", index, "profile", position)
            if not profile:
                yield ctx.at(path, "profile name must not be empty")
                continue
            number = _PROFILE.match(profile)
            if number is None:
                yield ctx.at(path, f"unable to parse '{profile}': stoi")
            elif int(number.group(1)) < 0:
                yield ctx.at(
                    path,
                    f"instance group {name} of model {ctx.name} and platform {platform} "
                    f"specifies invalid profile {profile}. The field should contain the string "
                    "representation of a non-negative integer.",
                )


@rule(
    "TL607",
    "too-many-secondary-devices",
    Severity.ERROR,
    summary="a TensorRT instance group with more than one secondary device",
    explanation="""
    A TensorRT instance may use at most one secondary device (an NVDLA engine).
    """,
    bad="""
    name: "detector"
    platform: "tensorrt_plan"
    instance_group [ {
      kind: KIND_GPU
      secondary_devices [  # an instance may use one DLA engine at most
        { kind: KIND_NVDLA device_id: 0 },
        { kind: KIND_NVDLA device_id: 1 }
      ]
    } ]
    """,
    good="""
    name: "detector"
    platform: "tensorrt_plan"
    instance_group [ {
      kind: KIND_GPU
      secondary_devices [
        { kind: KIND_NVDLA device_id: 0 }
      ]
    } ]
    """,
    server_message=(
        "{instance} of model {model} must have either zero or or one secondary devices"
    ),
    backend_check=True,
)
def too_many_secondary_devices(ctx: ModelContext) -> Iterator[Finding]:
    if ctx.completed.backend != "tensorrt":
        return
    for index, group, name in _groups(ctx):
        if len(group.secondary_devices) > 1:
            yield ctx.at(
                ("instance_group", index, "secondary_devices"),
                f"{name}_0 of model {ctx.name} must have either zero or or one secondary devices",
                part="name",
            )


@rule(
    "TL608",
    "duplicate-instance-group",
    Severity.WARNING,
    summary="two instance groups with the same name, or a GPU listed twice in one group",
    explanation="""
    Each repeated GPU id creates another set of instances on the same GPU, and groups with
    the same name make the server's messages ambiguous. Use `count` for more instances.
    """,
    bad="""
    name: "resnet50"
    platform: "tensorrt_plan"
    instance_group [ { kind: KIND_GPU gpus: [ 0, 0 ] } ]  # GPU 0 twice
    """,
    good="""
    name: "resnet50"
    platform: "tensorrt_plan"
    instance_group [ { kind: KIND_GPU count: 2 gpus: [ 0 ] } ]
    """,
)
def duplicate_instance_group(ctx: ModelContext) -> Iterator[Finding]:
    seen: dict[str, int] = {}
    for index, group, name in _groups(ctx):
        if group.name and group.name in seen:
            yield ctx.at(
                ("instance_group", index, "name"),
                f"instance group name '{group.name}' is used again (first by group "
                f"{seen[group.name]})",
            )
        seen.setdefault(group.name, index)
        listed: set[int] = set()
        for position, gpu in enumerate(group.gpus):
            if gpu in listed:
                yield ctx.at(
                    ("instance_group", index, "gpus", position),
                    f"GPU {gpu} is listed twice in instance group {name}: it gets another set "
                    "of instances",
                )
            listed.add(gpu)


@repository_rule(
    "TL609",
    "rate-limiter-resource-scope",
    Severity.WARNING,
    summary="a rate-limiter resource used as global in one place and per-device in another",
    explanation="""
    With `--rate-limit=execution_count`, a resource name must be either global or
    device-specific across all models of the server; mixing them fails the loads. (The
    default `--rate-limit=off` ignores rate limiters, so this is a warning.)
    """,
    bad="""
    model_repository/detector/config.pbtxt:
      platform: "onnxruntime_onnx"
      instance_group [ {
        kind: KIND_GPU
        rate_limiter { resources [ { name: "R1" global: true count: 2 } ] }
      } ]
    model_repository/detector/1/model.onnx

    model_repository/classifier/config.pbtxt:
      platform: "onnxruntime_onnx"
      instance_group [ {
        kind: KIND_GPU
        # R1 is global in detector, but per device here
        rate_limiter { resources [ { name: "R1" count: 2 } ] }
      } ]
    model_repository/classifier/1/model.onnx
    """,
    good="""
    model_repository/detector/config.pbtxt:
      platform: "onnxruntime_onnx"
      instance_group [ {
        kind: KIND_GPU
        rate_limiter { resources [ { name: "R1" global: true count: 2 } ] }
      } ]
    model_repository/detector/1/model.onnx

    model_repository/classifier/config.pbtxt:
      platform: "onnxruntime_onnx"
      instance_group [ {
        kind: KIND_GPU
        rate_limiter { resources [ { name: "R1" global: true count: 2 } ] }
      } ]
    model_repository/classifier/1/model.onnx
    """,
    server_message=(
        'Resource "{resource}" is present as both global and device-specific resource in the '
        "model configuration."
    ),
)
def rate_limiter_resource_scope(ctx: RepositoryContext) -> Iterator[Finding]:
    graph = ctx.repository.graph
    for resource_name, users in graph.resources():
        scopes = {scope: sorted(n for n, s in users if s == scope) for scope in (True, False)}
        if not scopes[True] or not scopes[False]:
            continue
        model = ctx.repository.model(scopes[False][0])
        if model is None:
            continue
        where = ModelContext(ctx.repository, model)
        yield where.at(
            ("instance_group",),
            f'Resource "{resource_name}" is present as both global and device-specific '
            "resource in the model configuration (global in model "
            f"{scopes[True][0]}); it fails with --rate-limit=execution_count",
            part="name",
        )
