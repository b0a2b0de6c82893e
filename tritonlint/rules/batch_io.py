"""Batch inputs and outputs pack: ragged batching's extra tensors."""

from __future__ import annotations

from collections.abc import Iterator

from tritonlint.diagnostics import Severity
from tritonlint.rules.base import rule
from tritonlint.rules.context import Finding, ModelContext
from tritonlint.rules.tensor_lists import tensors_of
from tritonlint.schema.datatypes import data_types

_ONE_SOURCE_INPUT = {
    0: "BATCH_ELEMENT_COUNT",
    1: "BATCH_ACCUMULATED_ELEMENT_COUNT",
    2: "BATCH_ACCUMULATED_ELEMENT_COUNT_WITH_ZERO",
    3: "BATCH_MAX_ELEMENT_COUNT_AS_SHAPE",
    4: "BATCH_ITEM_SHAPE",
    5: "BATCH_ITEM_SHAPE_FLATTEN",
}


@rule(
    "TL421",
    "invalid-batch-input",
    Severity.ERROR,
    summary="a batch_input with a wrong number of source inputs, data type or unknown source",
    explanation="""
    Each batch input kind is computed from exactly one source input, which must be one of
    the model's `input`s, and produces TYPE_INT32 or TYPE_FP32 data.
    """,
    bad="""
    name: "sentence_encoder"
    platform: "tensorrt_plan"
    max_batch_size: 16
    dynamic_batching { }
    input [
      {
        name: "tokens"
        data_type: TYPE_INT32
        dims: [ -1 ]
        allow_ragged_batch: true
      }
    ]
    batch_input [
      {
        kind: BATCH_ACCUMULATED_ELEMENT_COUNT
        target_name: "offsets"
        data_type: TYPE_INT64  # only TYPE_INT32 or TYPE_FP32
        source_input: [ "tokens" ]
      }
    ]
    output [ { name: "embedding" data_type: TYPE_FP32 dims: [ 384 ] } ]
    """,
    good="""
    name: "sentence_encoder"
    platform: "tensorrt_plan"
    max_batch_size: 16
    dynamic_batching { }
    input [
      {
        name: "tokens"
        data_type: TYPE_INT32
        dims: [ -1 ]
        allow_ragged_batch: true
      }
    ]
    batch_input [
      {
        kind: BATCH_ACCUMULATED_ELEMENT_COUNT
        target_name: "offsets"
        data_type: TYPE_INT32
        source_input: [ "tokens" ]
      }
    ]
    output [ { name: "embedding" data_type: TYPE_FP32 dims: [ 384 ] } ]
    """,
    server_message="batch input kind '{kind}' expects 1 source input, got {n} for {model}",
)
def invalid_batch_input(ctx: ModelContext) -> Iterator[Finding]:
    config, loaded = ctx.config, ctx.loaded_config
    if config is None or loaded is None:
        return
    inputs = {t.name for t in loaded.input}
    types = data_types(config)
    for index, batch_input in enumerate(config.batch_input):
        path = ("batch_input", index)
        kind = _ONE_SOURCE_INPUT.get(batch_input.kind)
        if kind is None:
            yield ctx.at(
                (*path, "kind"), f"unknown batch input kind '{batch_input.kind}' for {ctx.name}"
            )
        elif len(batch_input.source_input) != 1:
            yield ctx.at(
                path,
                f"batch input kind '{kind}' expects 1 source input, got "
                f"{len(batch_input.source_input)} for {ctx.name}",
            )
        if types.name(batch_input.data_type) not in ("TYPE_INT32", "TYPE_FP32"):
            yield ctx.at(
                path, f"batch input data type must be TYPE_INT32 or TYPE_FP32 for {ctx.name}"
            )
        for position, source in enumerate(batch_input.source_input):
            if source not in inputs:
                yield ctx.at(
                    (*path, "source_input", position),
                    f"unknown source input name '{source}' for {ctx.name}"
                    f"{_completed_names(ctx, 'input')}",
                )


def _completed_names(ctx: ModelContext, kind: str) -> str:
    """`` (the inputs, with those ... adds: a, b)`` where the backend's auto-complete adds
    inputs (or outputs) that a batch input or output may name."""
    completion = ctx.auto_completion
    if completion is None or not any(k == kind for k, _ in completion.added):
        return ""
    names = ", ".join(sorted(t.name for t in tensors_of(completion.config, kind)))
    return f" (the {kind}s, with those {completion.by} adds: {names})"


@rule(
    "TL422",
    "invalid-batch-output",
    Severity.ERROR,
    summary="a batch_output with a wrong source input or an unknown or repeated target output",
    explanation="""
    BATCH_SCATTER_WITH_INPUT_SHAPE takes exactly one source input, one of the model's
    `input`s; each `target_name` must be one of the model's `output`s, listed once.
    """,
    bad="""
    name: "token_classifier"
    platform: "tensorrt_plan"
    max_batch_size: 16
    dynamic_batching { }
    input [
      {
        name: "tokens"
        data_type: TYPE_INT32
        dims: [ -1 ]
        allow_ragged_batch: true
      }
    ]
    output [ { name: "labels" data_type: TYPE_INT32 dims: [ -1 ] } ]
    batch_output [
      {
        kind: BATCH_SCATTER_WITH_INPUT_SHAPE
        target_name: [ "label" ]  # the output is "labels"
        source_input: [ "tokens" ]
      }
    ]
    """,
    good="""
    name: "token_classifier"
    platform: "tensorrt_plan"
    max_batch_size: 16
    dynamic_batching { }
    input [
      {
        name: "tokens"
        data_type: TYPE_INT32
        dims: [ -1 ]
        allow_ragged_batch: true
      }
    ]
    output [ { name: "labels" data_type: TYPE_INT32 dims: [ -1 ] } ]
    batch_output [
      {
        kind: BATCH_SCATTER_WITH_INPUT_SHAPE
        target_name: [ "labels" ]
        source_input: [ "tokens" ]
      }
    ]
    """,
    server_message="unknown target output name '{name}' for {model}",
)
def invalid_batch_output(ctx: ModelContext) -> Iterator[Finding]:
    config, loaded = ctx.config, ctx.loaded_config
    if config is None or loaded is None:
        return
    inputs = {t.name for t in loaded.input}
    outputs = {t.name for t in loaded.output}
    for index, batch_output in enumerate(config.batch_output):
        path = ("batch_output", index)
        if batch_output.kind != 0:
            yield ctx.at(
                (*path, "kind"), f"unknown batch output kind '{batch_output.kind}' for {ctx.name}"
            )
        elif len(batch_output.source_input) != 1:
            yield ctx.at(
                path,
                "batch output kind 'BATCH_SCATTER_WITH_INPUT_SHAPE' expects 1 source input, got "
                f"{len(batch_output.source_input)} for {ctx.name}",
            )
        for position, source in enumerate(batch_output.source_input):
            if source not in inputs:
                yield ctx.at(
                    (*path, "source_input", position),
                    f"unknown source input name '{source}' for {ctx.name}"
                    f"{_completed_names(ctx, 'input')}",
                )
        targets: set[str] = set()
        for position, target in enumerate(batch_output.target_name):
            target_path = (*path, "target_name", position)
            if target not in outputs:
                yield ctx.at(
                    target_path,
                    f"unknown target output name '{target}' for {ctx.name}"
                    f"{_completed_names(ctx, 'output')}",
                )
            elif target in targets:
                yield ctx.at(
                    target_path,
                    f"target output name '{target}' can only be specified once for {ctx.name}",
                )
            targets.add(target)
