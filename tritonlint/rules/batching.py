"""Batching pack: max_batch_size and the dynamic batcher's settings."""

from __future__ import annotations

from collections.abc import Iterator

from tritonlint.diagnostics import Severity
from tritonlint.rules.context import ModelContext
from tritonlint.rules.registry import Finding, rule

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
    max_batch_size: -1
    """,
    good="""
    max_batch_size: 0
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
    max_batch_size: 8
    dynamic_batching { preferred_batch_size: [ 4, 16 ] }
    """,
    good="""
    max_batch_size: 16
    dynamic_batching { preferred_batch_size: [ 4, 16 ] }
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
    dynamic_batching { priority_levels: 2 }
    """,
    good="""
    dynamic_batching { priority_levels: 2 default_priority_level: 1 }
    """,
    server_message="default priority level must be in range [1, {levels}] for {model}",
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
    dynamic_batching { preserve_ordering: true priority_levels: 2 default_priority_level: 1 }
    """,
    good="""
    dynamic_batching { preserve_ordering: true }
    """,
    server_message=(
        "Only one priority level is allowed when 'preserve_ordering' is true for {model}"
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
