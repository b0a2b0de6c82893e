"""Warmup pack: the samples tritonserver runs through a model before it serves it."""

from __future__ import annotations

from collections.abc import Iterator

from tritonlint.diagnostics import Severity
from tritonlint.repository.autofill import ENSEMBLE
from tritonlint.rules.context import ModelContext
from tritonlint.rules.registry import Finding, rule

_PREFIX = "[request id: <id_unknown>] "


@rule(
    "TL801",
    "warmup-inputs-mismatch",
    Severity.ERROR,
    summary="a warmup sample that does not feed every required input of the model",
    explanation="""
    Each warmup sample is a real request: its `inputs` keys must cover every input of the
    model that is not `optional`. A key that is not an input of the model does not count
    (the server takes it for a control input), so a misspelt key leaves an input unfed.
    """,
    bad="""
    input [ { name: "input" data_type: TYPE_FP32 dims: [ 3 ] } ]
    model_warmup [ {
      name: "w" batch_size: 1
      inputs { key: "images" value { data_type: TYPE_FP32 dims: [ 3 ] zero_data: true } }
    } ]
    """,
    good="""
    model_warmup [ {
      name: "w" batch_size: 1
      inputs { key: "input" value { data_type: TYPE_FP32 dims: [ 3 ] zero_data: true } }
    } ]
    """,
    server_message=(
        "[request id: <id_unknown>] expected {n} inputs but got {m} inputs for model '{model}'. "
        "Got input(s) [...], but missing required input(s) [...]. Please provide all required "
        "input(s)."
    ),
)
def warmup_inputs_mismatch(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is None or config.platform == ENSEMBLE or not config.input:
        return
    declared = {t.name for t in config.input}
    required = {t.name for t in config.input if not t.optional}
    for index, sample in enumerate(config.model_warmup):
        given = [key for key in sample.inputs if key in declared]
        missing = sorted(required - set(given))
        if not missing:
            continue
        unknown = sorted(key for key in sample.inputs if key not in declared)
        hint = (
            f" ({', '.join(unknown)} {'is' if len(unknown) == 1 else 'are'} not an input)"
            if unknown
            else ""
        )
        got = ", ".join(f"'{name}'" for name in sorted(given))
        want = ", ".join(f"'{name}'" for name in missing)
        yield ctx.at(
            ("model_warmup", index),
            f"{_PREFIX}expected {len(required)} inputs but got {len(given)} inputs for model "
            f"'{ctx.name}'. Got input(s) [{got}], but missing required input(s) [{want}]. Please "
            f"provide all required input(s).{hint}",
            part="value",
        )


@rule(
    "TL802",
    "warmup-variable-dims",
    Severity.ERROR,
    summary="a warmup input with a variable (-1) dimension",
    explanation="""
    Warmup data is generated from the sample's `dims`, so every dimension must be a fixed
    size. (The dims leave out the batch dimension; `batch_size` gives it.)
    """,
    bad="""
    inputs { key: "input" value { data_type: TYPE_FP32 dims: [ -1, 3 ] zero_data: true } }
    """,
    good="""
    inputs { key: "input" value { data_type: TYPE_FP32 dims: [ 16, 3 ] zero_data: true } }
    """,
    server_message=(
        "warmup setting expects all variable-size dimensions are specified for input '{input}'"
    ),
)
def warmup_variable_dims(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is None or config.platform == ENSEMBLE:
        return
    for index, sample in enumerate(config.model_warmup):
        for key, value in sample.inputs.items():
            for position, dim in enumerate(value.dims):
                if dim == -1:
                    yield ctx.at(
                        ("model_warmup", index, "inputs", key, "value", "dims", position),
                        "warmup setting expects all variable-size dimensions are specified for "
                        f"input '{key}'",
                    )


@rule(
    "TL803",
    "warmup-input-without-data",
    Severity.ERROR,
    summary="a warmup input that says neither zero_data, random_data nor input_data_file",
    explanation="""
    Each warmup input must say where its data comes from: `zero_data: true`,
    `random_data: true`, or `input_data_file: "<file in the model's warmup/ folder>"`.
    """,
    bad="""
    inputs { key: "input" value { data_type: TYPE_FP32 dims: [ 3 ] } }
    """,
    good="""
    inputs { key: "input" value { data_type: TYPE_FP32 dims: [ 3 ] random_data: true } }
    """,
    server_message=(
        "[request id: <id_unknown>] warmup setting expects input '{input}' to have "
        "input_data_type set"
    ),
)
def warmup_input_without_data(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is None or config.platform == ENSEMBLE:
        return
    for index, sample in enumerate(config.model_warmup):
        for key, value in sample.inputs.items():
            if value.WhichOneof("input_data_type") is None:
                yield ctx.at(
                    ("model_warmup", index, "inputs", key),
                    f"{_PREFIX}warmup setting expects input '{key}' to have input_data_type set",
                )


@rule(
    "TL804",
    "warmup-data-file-missing",
    Severity.ERROR,
    summary="a warmup `input_data_file` that is not in the model's warmup/ folder",
    explanation="""
    `input_data_file` names a file in `<model folder>/warmup/`, read when the model loads.
    """,
    bad="""
    inputs { key: "input" value { data_type: TYPE_FP32 dims: [ 3 ] input_data_file: "raw.bin" } }
    # but model_repository/resnet/warmup/raw.bin does not exist
    """,
    good="""
    # model_repository/resnet/warmup/raw.bin exists
    inputs { key: "input" value { data_type: TYPE_FP32 dims: [ 3 ] input_data_file: "raw.bin" } }
    """,
    server_message="failed to open text file for read {path}: No such file or directory",
)
def warmup_data_file_missing(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is None or config.platform == ENSEMBLE or not ctx.in_repository:
        return
    for index, sample in enumerate(config.model_warmup):
        for key, value in sample.inputs.items():
            name = value.input_data_file
            if value.WhichOneof("input_data_type") != "input_data_file":
                continue
            path = ctx.model.path / "warmup" / name
            if not path.is_file():
                yield ctx.at(
                    ("model_warmup", index, "inputs", key, "value", "input_data_file"),
                    f"failed to open text file for read {path}: No such file or directory",
                )
