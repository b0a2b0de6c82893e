"""Sequence-batching pack: control tensors, strategies and implicit state."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from tritonlint.diagnostics import Severity
from tritonlint.repository.model import Entry, path_problem
from tritonlint.rules.base import rule
from tritonlint.rules.context import Finding, ModelContext
from tritonlint.schema.datatypes import data_types

if TYPE_CHECKING:
    from tritonlint.schema.config_types import ModelSequenceBatching

_START, _READY, _END, _CORRID = 0, 1, 2, 3
_KINDS = {
    _START: "CONTROL_SEQUENCE_START",
    _END: "CONTROL_SEQUENCE_END",
    _READY: "CONTROL_SEQUENCE_READY",
    _CORRID: "CONTROL_SEQUENCE_CORRID",
}
_CORRID_TYPES = frozenset({"TYPE_INT64", "TYPE_UINT64", "TYPE_INT32", "TYPE_UINT32", "TYPE_STRING"})
_LISTS = ("int32_false_true", "fp32_false_true", "bool_false_true")
_BATCH = ("sequence_batching",)


def _sequence(ctx: ModelContext) -> ModelSequenceBatching | None:
    config = ctx.config
    if config is None or not config.HasField("sequence_batching"):
        return None
    return config.sequence_batching


@rule(
    "TL551",
    "sequence-control-input-name",
    Severity.ERROR,
    summary="a sequence control input without a name, or a name used by two control inputs",
    explanation="""
    Each `control_input` names the model input that carries its control signal; the name is
    required and each name may appear in one control_input only (one entry may hold several
    `control` items).
    """,
    bad="""
    name: "streaming_asr"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    sequence_batching {
      control_input {
        name: "START"
        control { kind: CONTROL_SEQUENCE_START int32_false_true: [ 0, 1 ] }
      }
      control_input {
        name: "START"  # copied from above, not renamed
        control { kind: CONTROL_SEQUENCE_READY int32_false_true: [ 0, 1 ] }
      }
    }
    """,
    good="""
    name: "streaming_asr"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    sequence_batching {
      control_input {
        name: "START"
        control { kind: CONTROL_SEQUENCE_START int32_false_true: [ 0, 1 ] }
      }
      control_input {
        name: "READY"
        control { kind: CONTROL_SEQUENCE_READY int32_false_true: [ 0, 1 ] }
      }
    }
    """,
    server_message=(
        "sequence batching control tensor '{name}' is specified for multiple control kinds for "
        "{model}"
    ),
)
def sequence_control_input_name(ctx: ModelContext) -> Iterator[Finding]:
    batching = _sequence(ctx)
    if batching is None:
        return
    seen: set[str] = set()
    for index, control_input in enumerate(batching.control_input):
        path = (*_BATCH, "control_input", index)
        if not control_input.name:
            yield ctx.at(path, f"sequence batching control tensor must have a name for {ctx.name}")
        elif control_input.name in seen:
            yield ctx.at(
                (*path, "name"),
                f"sequence batching control tensor '{control_input.name}' is specified for "
                f"multiple control kinds for {ctx.name}",
            )
        seen.add(control_input.name)


@rule(
    "TL552",
    "sequence-control-values",
    Severity.ERROR,
    summary="a sequence control of one kind twice, or with wrong false/true values",
    explanation="""
    Each control kind (START, END, READY, CORRID) may appear once. START, END and READY give
    exactly one of `int32_false_true`, `fp32_false_true` or `bool_false_true`, with exactly
    two entries (the false value, then the true value). CORRID gives none of them, and a
    `data_type` of TYPE_UINT64, TYPE_INT64, TYPE_UINT32, TYPE_INT32 or TYPE_STRING.
    """,
    bad="""
    name: "streaming_asr"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    sequence_batching {
      control_input {
        name: "READY"
        # two values: the one for false, then the one for true
        control { kind: CONTROL_SEQUENCE_READY int32_false_true: [ 1 ] }
      }
    }
    """,
    good="""
    name: "streaming_asr"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    sequence_batching {
      control_input {
        name: "READY"
        control { kind: CONTROL_SEQUENCE_READY int32_false_true: [ 0, 1 ] }
      }
    }
    """,
    server_message=(
        "sequence batching specifies multiple {kind} tensors for {model}\n"
        "sequence batching must specify either 'int32_false_true', 'fp32_false_true' or "
        "'bool_false_true' for {kind} for {model}\n"
        "sequence batching specifies more than one from 'int32_false_true', 'fp32_false_true' "
        "and 'bool_false_true' for {kind} for {model}\n"
        "sequence batching control '{list}' must have exactly 2 entries for {kind} for {model}\n"
        "sequence batching must not specify either 'int32_false_true', 'fp32_false_true' or "
        "'bool_false_true' for CONTROL_SEQUENCE_CORRID for {model}\n"
        "unexpected data type for control CONTROL_SEQUENCE_CORRID for {model}. Allowed data types "
        "are TYPE_UINT64, TYPE_INT64, TYPE_UINT32, TYPE_INT32 and TYPE_STRING"
    ),
)
def sequence_control_values(ctx: ModelContext) -> Iterator[Finding]:
    batching = _sequence(ctx)
    if batching is None:
        return
    kinds_seen: set[int] = set()
    for index, control_input in enumerate(batching.control_input):
        for position, control in enumerate(control_input.control):
            path = (*_BATCH, "control_input", index, "control", position)
            kind = _KINDS.get(control.kind, str(control.kind))
            if control.kind in kinds_seen:
                yield ctx.at(
                    path, f"sequence batching specifies multiple {kind} tensors for {ctx.name}"
                )
            kinds_seen.add(control.kind)
            given = [name for name in _LISTS if len(getattr(control, name)) > 0]
            if control.kind == _CORRID:
                if given:
                    yield ctx.at(
                        path,
                        "sequence batching must not specify either 'int32_false_true', "
                        "'fp32_false_true' or 'bool_false_true' for CONTROL_SEQUENCE_CORRID for "
                        f"{ctx.name}",
                    )
                if data_types(batching).name(control.data_type) not in _CORRID_TYPES:
                    yield ctx.at(
                        path,
                        "unexpected data type for control CONTROL_SEQUENCE_CORRID for "
                        f"{ctx.name}. Allowed data types are TYPE_UINT64, TYPE_INT64, "
                        "TYPE_UINT32, TYPE_INT32 and TYPE_STRING",
                    )
                continue
            if not given:
                yield ctx.at(
                    path,
                    "sequence batching must specify either 'int32_false_true', "
                    f"'fp32_false_true' or 'bool_false_true' for {kind} for {ctx.name}",
                )
            elif len(given) > 1:
                yield ctx.at(
                    path,
                    "sequence batching specifies more than one from 'int32_false_true', "
                    f"'fp32_false_true' and 'bool_false_true' for {kind} for {ctx.name}",
                )
            elif len(getattr(control, given[0])) != 2:
                yield ctx.at(
                    (*path, given[0]),
                    f"sequence batching control '{given[0]}' must have exactly 2 entries for "
                    f"{kind} for {ctx.name}",
                )


@rule(
    "TL553",
    "sequence-strategy-values",
    Severity.ERROR,
    summary="an oldest-strategy preferred size above max_batch_size, or a bad slot utilization",
    explanation="""
    The oldest strategy's `preferred_batch_size` entries must be at least 1 and at most
    `max_batch_size` (none at all for a model that does not batch); the direct strategy's
    `minimum_slot_utilization` lies between 0 and 1.
    """,
    bad="""
    name: "streaming_asr"
    platform: "onnxruntime_onnx"
    max_batch_size: 4
    sequence_batching { oldest { preferred_batch_size: [ 8 ] } }  # 8 > 4
    """,
    good="""
    name: "streaming_asr"
    platform: "onnxruntime_onnx"
    max_batch_size: 4
    sequence_batching { oldest { preferred_batch_size: [ 4 ] } }
    """,
    server_message="sequence batching preferred batch size must be <= max batch size for {model}",
)
def sequence_strategy_values(ctx: ModelContext) -> Iterator[Finding]:
    batching = _sequence(ctx)
    config = ctx.config
    if batching is None or config is None:
        return
    for index, size in enumerate(batching.oldest.preferred_batch_size):
        path = (*_BATCH, "oldest", "preferred_batch_size", index)
        if size <= 0:
            yield ctx.at(
                path, f"sequence batching preferred batch size must be positive for {ctx.name}"
            )
        elif size > config.max_batch_size:
            yield ctx.at(
                path,
                f"sequence batching preferred batch size must be <= max batch size for {ctx.name}",
            )
    utilization = batching.direct.minimum_slot_utilization
    if not 0.0 <= utilization <= 1.0:
        yield ctx.at(
            (*_BATCH, "direct", "minimum_slot_utilization"),
            "sequence batching minimum slot utilization must be in range (0.0, 1.0] for "
            f"{ctx.name}",
        )


@rule(
    "TL554",
    "sequence-batch-strategy-parameter",
    Severity.ERROR,
    summary="a custom batching strategy parameter on a sequence-batched model",
    explanation="""
    `TRITON_BATCH_STRATEGY_PATH` plugs a custom batching library into the dynamic batcher;
    the sequence batcher cannot use one, and the model fails to load.
    """,
    bad="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    max_batch_size: 16
    sequence_batching { }  # a custom strategy needs the dynamic batcher
    parameters {
      key: "TRITON_BATCH_STRATEGY_PATH"
      value { string_value: "/opt/tritonserver/batching/libvolume_batching.so" }
    }
    """,
    good="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    max_batch_size: 16
    dynamic_batching { }
    parameters {
      key: "TRITON_BATCH_STRATEGY_PATH"
      value { string_value: "/opt/tritonserver/batching/libvolume_batching.so" }
    }
    """,
    server_message=(
        "TRITON_BATCH_STRATEGY_PATH cannot be specified with sequence batcher, using default "
        "batching strategy"
    ),
)
def sequence_batch_strategy_parameter(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if _sequence(ctx) is None or config is None:
        return
    if "TRITON_BATCH_STRATEGY_PATH" in config.parameters:
        yield ctx.at(
            ("parameters", "TRITON_BATCH_STRATEGY_PATH", "key"),
            "TRITON_BATCH_STRATEGY_PATH cannot be specified with sequence batcher, using "
            "default batching strategy",
        )


def _initial_state_problems(
    state: ModelSequenceBatching.State, initial: ModelSequenceBatching.InitialState
) -> Iterator[tuple[str, str]]:
    """(path suffix, message) for one initial_state against its state."""
    name = state.input_name
    if initial.data_type != state.data_type:
        yield (
            "data_type",
            f"The data type used for 'initial_state' field of state '{name}' does not match "
            "the state data type.",
        )
    if not initial.name:
        yield "", f"Field 'name' must be set when using initial_state for state input '{name}'."
    if len(initial.dims) != len(state.dims):
        yield (
            "dims",
            f"Number of dimensions in 'initial_state' doesn't match the size of 'state' "
            f"dimensions for state input '{name}'. {len(initial.dims)} != {len(state.dims)}",
        )
    elif any(d == -1 for d in initial.dims):
        yield (
            "dims",
            f"'initial_state' field for state input name '{name}' contains variable dimensions.",
        )
    else:
        for want, got in zip(state.dims, initial.dims, strict=True):
            if want != -1 and want != got:
                yield (
                    "dims",
                    f"'initial_state' dim for input name '{name}' doesn't match 'state' dim "
                    f"description. {got} != {want}",
                )
                break
    if initial.WhichOneof("state_data") is None:
        yield "", f"initial_state setting expects state'{name}' to have state_data set"


@rule(
    "TL555",
    "sequence-initial-state",
    Severity.ERROR,
    summary="an implicit state whose initial_state does not fit it",
    explanation="""
    A `state` may have at most one `initial_state`, with a name, the state's data type, dims
    of the same rank without variable dimensions (and equal wherever the state's are fixed),
    and either `zero_data` or a `data_file` from the model's `initial_state/` folder. A
    state input name may carry an initial_state only once.
    """,
    bad="""
    name: "streaming_asr"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    sequence_batching {
      state [
        {
          input_name: "hidden_in"
          output_name: "hidden_out"
          data_type: TYPE_FP32
          dims: [ -1 ]
          initial_state {
            name: "zeros"
            data_type: TYPE_FP32
            dims: [ -1 ]  # how many zeros?
            zero_data: true
          }
        }
      ]
    }
    """,
    good="""
    name: "streaming_asr"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    sequence_batching {
      state [
        {
          input_name: "hidden_in"
          output_name: "hidden_out"
          data_type: TYPE_FP32
          dims: [ -1 ]
          initial_state {
            name: "zeros"
            data_type: TYPE_FP32
            dims: [ 256 ]
            zero_data: true
          }
        }
      ]
    }
    """,
    server_message=(
        "'initial_state' field for state input name '{input}' contains variable dimensions."
    ),
)
def sequence_initial_state(ctx: ModelContext) -> Iterator[Finding]:
    batching = _sequence(ctx)
    if batching is None:
        return
    with_initial: set[str] = set()
    for index, state in enumerate(batching.state):
        path = (*_BATCH, "state", index)
        if len(state.initial_state) > 1:
            yield ctx.at(
                (*path, "initial_state"),
                f"initial_state field for state input '{state.input_name}' must contain exactly "
                f"one or zero element. Found '{len(state.initial_state)}' elements.",
                part="name",
            )
            continue
        if not state.initial_state:
            continue
        if state.input_name in with_initial:
            yield ctx.at(
                (*path, "input_name"),
                f"State input name '{state.input_name}' specified more than once.",
            )
        with_initial.add(state.input_name)
        for suffix, message in _initial_state_problems(state, state.initial_state[0]):
            inner = (*path, "initial_state", 0, suffix) if suffix else (*path, "initial_state", 0)
            yield ctx.at(inner, message)


@rule(
    "TL556",
    "sequence-initial-state-file",
    Severity.ERROR,
    summary="an initial_state `data_file` that is missing or too small",
    explanation="""
    `data_file` names a file in `<model folder>/initial_state/`. For fixed-size types it must
    hold at least elements times element size bytes (more is ignored). (A path into a
    subfolder of initial_state/, or one that leaves it, is not checked.)
    """,
    bad="""
    name: "streaming_asr"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    sequence_batching {
      state [
        {
          input_name: "hidden_in"
          output_name: "hidden_out"
          data_type: TYPE_FP32
          dims: [ 256 ]
          initial_state {
            name: "zeros"
            data_type: TYPE_FP32
            dims: [ 256 ]
            data_file: "zeros.bin"  # not in streaming_asr/initial_state/
          }
        }
      ]
    }
    """,
    good="""
    name: "streaming_asr"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    sequence_batching {
      state [
        {
          input_name: "hidden_in"
          output_name: "hidden_out"
          data_type: TYPE_FP32
          dims: [ 256 ]
          initial_state {
            name: "zeros"
            data_type: TYPE_FP32
            dims: [ 256 ]
            zero_data: true  # no file needed for zeros
          }
        }
      ]
    }
    """,
    server_message=(
        "initial_state setting expects {n} bytes, but the data provided from {file}only has {m} "
        "bytes."
    ),
)
def sequence_initial_state_file(ctx: ModelContext) -> Iterator[Finding]:
    batching = _sequence(ctx)
    if batching is None or not ctx.in_repository:
        return
    for index, state in enumerate(batching.state):
        for position, initial in enumerate(state.initial_state):
            name = initial.data_file
            if initial.WhichOneof("state_data") != "data_file" or path_problem(name):
                continue  # (invalid-file-name reports a name no file can have)
            path = (*_BATCH, "state", index, "initial_state", position, "data_file")
            file = ctx.model.find_file(f"initial_state/{name}")
            if file is None:
                missing = ctx.shown(ctx.model.path / "initial_state" / name)
                yield ctx.at(
                    path, f"failed to open text file for read {missing}: No such file or directory"
                )
                continue
            size = data_types(batching).element_bytes(initial.data_type)
            if not isinstance(file, Entry) or file.size is None or size is None:
                continue
            if any(d < 0 for d in initial.dims):
                continue
            needed = size
            for dim in initial.dims:
                needed *= dim
            actual = file.size
            if actual < needed:
                yield ctx.at(
                    path,
                    f"initial_state setting expects {needed} bytes, but the data provided from "
                    f"{initial.data_file}only has {actual} bytes.",
                )
