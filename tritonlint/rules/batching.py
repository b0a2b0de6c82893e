"""Batching pack: max_batch_size and the dynamic batcher's settings."""

from __future__ import annotations

from collections.abc import Iterator

from tritonlint.diagnostics import Severity
from tritonlint.rules.base import rule
from tritonlint.rules.context import Finding, ModelContext

_DELAY = 1  # ModelQueuePolicy.TimeoutAction.DELAY


@rule(
    "TL501",
    "negative-max-batch-size",
    Severity.ERROR,
    summary="`max_batch_size` below zero",
    explanation="""
    `max_batch_size` is 0 for a model that does not batch, or the largest batch it accepts.
    A negative number is refused.
    """,
    bad="""
    name: "yolov8"
    platform: "onnxruntime_onnx"
    max_batch_size: -1  # -1 is not "any batch size"
    """,
    good="""
    name: "yolov8"
    platform: "onnxruntime_onnx"
    max_batch_size: 16
    """,
    server_message="'max_batch_size' must be non-negative value for {model}",
)
def negative_max_batch_size(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is not None and config.max_batch_size < 0:
        yield ctx.at(
            ("max_batch_size",),
            f"'max_batch_size' must be non-negative value for {ctx.name}",
        )


@rule(
    "TL502",
    "invalid-preferred-batch-size",
    Severity.ERROR,
    summary="a preferred batch size that is not positive or exceeds max_batch_size",
    explanation="""
    Each `preferred_batch_size` must be at least 1 and at most `max_batch_size`. With
    `max_batch_size: 0` (or none) the model does not batch, and no preferred size is allowed.
    """,
    bad="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    dynamic_batching { preferred_batch_size: [ 4, 16 ] }  # 16 > 8
    """,
    good="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    dynamic_batching { preferred_batch_size: [ 4, 8 ] }
    """,
    server_message="dynamic batching preferred size must be <= max batch size for {model}",
)
def invalid_preferred_batch_size(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is None or not config.HasField("dynamic_batching"):
        return
    for index, size in enumerate(config.dynamic_batching.preferred_batch_size):
        path = ("dynamic_batching", "preferred_batch_size", index)
        if size <= 0:
            yield ctx.at(path, f"dynamic batching preferred size must be positive for {ctx.name}")
        elif size > config.max_batch_size:
            yield ctx.at(
                path,
                f"dynamic batching preferred size must be <= max batch size for {ctx.name} "
                f"({size} > max_batch_size {config.max_batch_size})",
            )


@rule(
    "TL503",
    "invalid-priority-level",
    Severity.ERROR,
    summary="a default priority level or queue policy level outside 1..priority_levels",
    explanation="""
    With `priority_levels: N`, `default_priority_level` must be set and lie in 1..N, and each
    `priority_queue_policy` key must be a level in 1..N. Setting `priority_levels` without
    `default_priority_level` is the usual slip.
    """,
    bad="""
    name: "text_classifier"
    platform: "onnxruntime_onnx"
    max_batch_size: 32
    # which level do requests without a priority get?
    dynamic_batching { priority_levels: 2 }
    """,
    good="""
    name: "text_classifier"
    platform: "onnxruntime_onnx"
    max_batch_size: 32
    dynamic_batching { priority_levels: 2 default_priority_level: 2 }
    """,
    server_message=(
        "default priority level must be in range [1, {levels}] for {model}\n"
        "priority queue policy must have priority level in range [1, {levels}] for {model}"
    ),
)
def invalid_priority_level(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is None or not config.HasField("dynamic_batching"):
        return
    batching = config.dynamic_batching
    levels = batching.priority_levels
    if levels == 0:
        return
    default = batching.default_priority_level
    if default == 0 or default > levels:
        path = (
            ("dynamic_batching", "default_priority_level")
            if default
            else ("dynamic_batching", "priority_levels")
        )
        yield ctx.at(
            path,
            f"default priority level must be in range [1, {levels}] for {ctx.name}",
        )
    for level in batching.priority_queue_policy:
        if level == 0 or level > levels:
            yield ctx.at(
                ("dynamic_batching", "priority_queue_policy", level),
                f"priority queue policy must have priority level in range [1, {levels}] for "
                f"{ctx.name}",
            )


@rule(
    "TL504",
    "preserve-ordering-conflict",
    Severity.ERROR,
    summary="`preserve_ordering` with several priority levels or a DELAY timeout action",
    explanation="""
    A batcher that preserves the order of responses can have only one priority level, and
    its queue policies cannot delay timed-out requests (`timeout_action: DELAY` with a
    non-zero `default_timeout_microseconds`).
    """,
    bad="""
    name: "text_classifier"
    platform: "onnxruntime_onnx"
    max_batch_size: 32
    dynamic_batching {
      preserve_ordering: true
      priority_levels: 2  # ordered responses allow one level only
      default_priority_level: 2
    }
    """,
    good="""
    name: "text_classifier"
    platform: "onnxruntime_onnx"
    max_batch_size: 32
    dynamic_batching {
      preserve_ordering: true
    }
    """,
    server_message=(
        "Only one priority level is allowed when 'preserve_ordering' is true for {model}\n"
        "Queue policy can not have DELAY as timeout action when 'preserve_ordering' is true for "
        "{model}"
    ),
)
def preserve_ordering_conflict(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is None or not config.HasField("dynamic_batching"):
        return
    batching = config.dynamic_batching
    if not batching.preserve_ordering:
        return
    if batching.priority_levels > 1:
        yield ctx.at(
            ("dynamic_batching", "priority_levels"),
            f"Only one priority level is allowed when 'preserve_ordering' is true for {ctx.name}",
        )
    delaying = "Queue policy can not have DELAY as timeout action when 'preserve_ordering' is "
    default = batching.default_queue_policy
    if default.default_timeout_microseconds != 0 and default.timeout_action == _DELAY:
        yield ctx.at(
            ("dynamic_batching", "default_queue_policy", "timeout_action"),
            f"{delaying}true for {ctx.name}",
        )
    for level, policy in batching.priority_queue_policy.items():
        if policy.default_timeout_microseconds != 0 and policy.timeout_action == _DELAY:
            yield ctx.at(
                ("dynamic_batching", "priority_queue_policy", level, "value", "timeout_action"),
                f"{delaying}true for {ctx.name}",
            )


@rule(
    "TL505",
    "batching-without-batcher",
    Severity.WARNING,
    opt_in=True,
    summary="a batching model (max_batch_size > 0) without a dynamic or sequence batcher",
    explanation="""
    `max_batch_size` says the model *accepts* batches; without `dynamic_batching` (or
    `sequence_batching`) the server never forms them, and each request runs alone. Add
    `dynamic_batching { }` unless clients always send full batches themselves.

    Not in the default set: most batching models of real projects have no batcher on
    purpose (their clients send whole batches, or a model in front of them batches), so
    this is advice, not a mistake. Enable it with `--extend-select TL505`.
    """,
    bad="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    max_batch_size: 32  # accepts batches, but nothing forms them
    """,
    good="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    max_batch_size: 32
    dynamic_batching { max_queue_delay_microseconds: 100 }
    """,
)
def batching_without_batcher(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.loaded_config
    if config is None or config.max_batch_size <= 0 or config.platform == "ensemble":
        return
    if config.WhichOneof("scheduling_choice") is None:
        yield ctx.at(
            ("max_batch_size",),
            f"max_batch_size is {config.max_batch_size} but no dynamic_batching: the server never "
            "combines requests into batches",
        )


@rule(
    "TL506",
    "batcher-without-batching",
    Severity.WARNING,
    summary="`dynamic_batching` on a model whose max_batch_size is 0 or not given",
    explanation="""
    With `max_batch_size` 0 (which is also what an absent max_batch_size means, unless the
    backend's auto-complete sets one from the model) the model takes no batch dimension and
    the dynamic batcher has nothing to batch. Set max_batch_size explicitly.

    Where the model file is there to read, the rule sees what the ONNX Runtime and
    TensorFlow backends' auto-complete does: for a model that takes batches, they set a
    max_batch_size of 0 to the server's default (4); ONNX Runtime does so only when the
    config leaves its inputs or outputs out, and when every input and output of the model
    has a variable first dimension.
    """,
    bad="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    dynamic_batching { }  # no max_batch_size: the model takes no batches
    """,
    good="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    max_batch_size: 16
    dynamic_batching { }
    """,
)
def batcher_without_batching(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.loaded_config
    if config is None or not config.HasField("dynamic_batching") or config.max_batch_size != 0:
        return
    given = "is 0" if ctx.located(("max_batch_size",)) else "is not given"
    yield ctx.at(
        ("dynamic_batching",),
        f"dynamic_batching has no effect: max_batch_size {given}",
        part="name",
    )


@rule(
    "TL507",
    "preferred-batch-sizes-unordered",
    Severity.WARNING,
    summary="preferred batch sizes out of order or repeated",
    explanation="""
    The dynamic batcher treats `preferred_batch_size` as a set; repeats are dropped and the
    order means nothing, so an unsorted or repeated list usually hides a typo.
    """,
    bad="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    max_batch_size: 16
    dynamic_batching { preferred_batch_size: [ 8, 4, 8 ] }
    """,
    good="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    max_batch_size: 16
    dynamic_batching { preferred_batch_size: [ 4, 8 ] }
    """,
)
def preferred_batch_sizes_unordered(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is None or not config.HasField("dynamic_batching"):
        return
    sizes = list(config.dynamic_batching.preferred_batch_size)
    if sizes != sorted(set(sizes)):
        yield ctx.at(
            ("dynamic_batching", "preferred_batch_size"),
            f"preferred_batch_size {sizes} is not sorted or repeats a size (the batcher uses "
            f"{sorted(set(sizes))})",
        )


@rule(
    "TL508",
    "priority-settings-ignored",
    Severity.WARNING,
    summary="a default priority level or priority queue policy without priority_levels",
    explanation="""
    `default_priority_level` and `priority_queue_policy` only apply when `priority_levels`
    is set; otherwise the server ignores them without a word.
    """,
    bad="""
    name: "text_classifier"
    platform: "onnxruntime_onnx"
    max_batch_size: 32
    dynamic_batching { default_priority_level: 2 }  # no priority_levels
    """,
    good="""
    name: "text_classifier"
    platform: "onnxruntime_onnx"
    max_batch_size: 32
    dynamic_batching { priority_levels: 2 default_priority_level: 2 }
    """,
)
def priority_settings_ignored(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is None or not config.HasField("dynamic_batching"):
        return
    batching = config.dynamic_batching
    if batching.priority_levels:
        return
    for field, present in (
        ("default_priority_level", batching.default_priority_level != 0),
        ("priority_queue_policy", len(batching.priority_queue_policy) > 0),
    ):
        if present:
            yield ctx.at(
                ("dynamic_batching", field),
                f"{field} is ignored because priority_levels is not set",
                part="name",
            )


@rule(
    "TL509",
    "preferred-batch-size-above-queue",
    Severity.WARNING,
    summary="a preferred batch size larger than the queue can ever hold",
    explanation="""
    With `default_queue_policy { max_queue_size: N }` the batcher never holds more than N
    requests, so a preferred batch size above N is never formed, and requests wait the full
    `max_queue_delay_microseconds` hoping for it.
    """,
    bad="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    max_batch_size: 16
    dynamic_batching {
      preferred_batch_size: [ 16 ]  # the queue holds 8 requests at most
      default_queue_policy { max_queue_size: 8 }
    }
    """,
    good="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    max_batch_size: 16
    dynamic_batching {
      preferred_batch_size: [ 8 ]
      default_queue_policy { max_queue_size: 8 }
    }
    """,
)
def preferred_batch_size_above_queue(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is None or not config.HasField("dynamic_batching"):
        return
    batching = config.dynamic_batching
    limit = batching.default_queue_policy.max_queue_size
    if limit == 0:
        return
    for index, size in enumerate(batching.preferred_batch_size):
        if size > limit:
            yield ctx.at(
                ("dynamic_batching", "preferred_batch_size", index),
                f"preferred batch size {size} is above max_queue_size {limit}: the queue never "
                "holds that many requests",
            )
