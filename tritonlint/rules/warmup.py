"""Warmup pack: the samples tritonserver runs through a model before it serves it."""

from __future__ import annotations

from collections.abc import Iterator

from tritonlint.diagnostics import Severity
from tritonlint.repository.model import Entry, path_problem
from tritonlint.repository.server_fill_in import ENSEMBLE
from tritonlint.rules.base import rule
from tritonlint.rules.completed import added_by, max_batch_size_note, tensor_note
from tritonlint.rules.context import Finding, ModelContext
from tritonlint.schema.datatypes import data_types

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
    Where the config leaves its inputs to the ONNX Runtime or TensorFlow backend's
    auto-complete, the samples are checked against the inputs of the model file.
    """,
    bad="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    model_warmup [ {
      name: "zeros"
      batch_size: 1
      inputs {
        key: "images"  # the model's input is "input"
        value { data_type: TYPE_FP32 dims: [ 3, 224, 224 ] zero_data: true }
      }
    } ]
    """,
    good="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    model_warmup [ {
      name: "zeros"
      batch_size: 1
      inputs {
        key: "input"
        value { data_type: TYPE_FP32 dims: [ 3, 224, 224 ] zero_data: true }
      }
    } ]
    """,
    server_message=(
        "[request id: <id_unknown>] expected {n} inputs but got {m} inputs for model '{model}'. "
        "Got input(s) [...], but missing required input(s) [...]. Please provide all required "
        "input(s)."
    ),
)
def warmup_inputs_mismatch(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.loaded_config
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
            f"provide all required input(s).{hint}{_added_note(ctx, missing)}",
            part="value",
        )


def _added_note(ctx: ModelContext, inputs: list[str]) -> str:
    """Which of ``inputs`` the config leaves to the backend's auto-complete."""
    added = [name for name in inputs if added_by(ctx, "input", name)]
    completion = ctx.auto_completion
    if not added or completion is None:
        return ""
    names = ", ".join(f"'{name}'" for name in added)
    return (
        f" ({names} {'is' if len(added) == 1 else 'are'} not in the config: {completion.by} "
        f"adds {'it' if len(added) == 1 else 'them'})"
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
    name: "bert_base"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    input [ { name: "input_ids" data_type: TYPE_INT64 dims: [ -1 ] } ]
    model_warmup [ {
      name: "zeros"
      batch_size: 1
      inputs {
        key: "input_ids"
        value { data_type: TYPE_INT64 dims: [ -1 ] zero_data: true }  # how long?
      }
    } ]
    """,
    good="""
    name: "bert_base"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    input [ { name: "input_ids" data_type: TYPE_INT64 dims: [ -1 ] } ]
    model_warmup [ {
      name: "zeros"
      batch_size: 1
      inputs {
        key: "input_ids"
        value { data_type: TYPE_INT64 dims: [ 128 ] zero_data: true }
      }
    } ]
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
    name: "resnet50"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    model_warmup [ {
      name: "random"
      batch_size: 1
      inputs {
        key: "input"
        value { data_type: TYPE_FP32 dims: [ 3, 224, 224 ] }  # no data
      }
    } ]
    """,
    good="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    model_warmup [ {
      name: "random"
      batch_size: 1
      inputs {
        key: "input"
        value { data_type: TYPE_FP32 dims: [ 3, 224, 224 ] random_data: true }
      }
    } ]
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
    (A path into a subfolder of warmup/, or one that leaves it, is not checked.)
    """,
    bad="""
    model_repository/tokenizer/config.pbtxt:
      backend: "python"
      input [ { name: "TEXT" data_type: TYPE_UINT8 dims: [ -1 ] } ]
      model_warmup [ {
        name: "hello"
        batch_size: 1
        inputs {
          key: "TEXT"
          value {
            data_type: TYPE_UINT8
            dims: [ 14 ]
            input_data_file: "hello.txt"
          }
        }
      } ]
    model_repository/tokenizer/1/model.py
    model_repository/tokenizer/hello.txt:  # the server looks in warmup/
      Hello, world!
    """,
    good="""
    model_repository/tokenizer/config.pbtxt:
      backend: "python"
      input [ { name: "TEXT" data_type: TYPE_UINT8 dims: [ -1 ] } ]
      model_warmup [ {
        name: "hello"
        batch_size: 1
        inputs {
          key: "TEXT"
          value {
            data_type: TYPE_UINT8
            dims: [ 14 ]
            input_data_file: "hello.txt"
          }
        }
      } ]
    model_repository/tokenizer/1/model.py
    model_repository/tokenizer/warmup/hello.txt:
      Hello, world!
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
            if value.WhichOneof("input_data_type") != "input_data_file" or path_problem(name):
                continue  # (invalid-file-name reports a name no file can have)
            if ctx.model.find_file(f"warmup/{name}") is None:
                path = ctx.shown(ctx.model.path / "warmup" / name)
                yield ctx.at(
                    ("model_warmup", index, "inputs", key, "value", "input_data_file"),
                    f"failed to open text file for read {path}: No such file or directory",
                )


_SHAPE_NOTE = (
    "NOTE: Setting a non-zero max_batch_size in the model config requires a batch dimension to "
    "be prepended to each input shape. If you want to specify the full shape including the "
    "batch dim in your input dims config, try setting max_batch_size to zero. See the model "
    "configuration docs for more info on max_batch_size."
)


def _show(shape: list[int]) -> str:
    return "[" + ",".join(str(d) for d in shape) + "]"


@rule(
    "TL805",
    "warmup-input-mismatch",
    Severity.ERROR,
    summary="a warmup input whose data type or shape differs from the model's input",
    explanation="""
    Warmup requests are checked like client requests: each input's `data_type` must be the
    model input's, and its `dims` must match the input's dims (where the input has -1, any
    size). The dims leave the batch dimension out, as `dims` in `input` do.
    """,
    bad="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    model_warmup [ {
      name: "zeros"
      batch_size: 1
      inputs {
        key: "input"
        # the batch dimension is batch_size, not part of dims
        value { data_type: TYPE_FP32 dims: [ 1, 3, 224, 224 ] zero_data: true }
      }
    } ]
    """,
    good="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    model_warmup [ {
      name: "zeros"
      batch_size: 1
      inputs {
        key: "input"
        value { data_type: TYPE_FP32 dims: [ 3, 224, 224 ] zero_data: true }
      }
    } ]
    """,
    server_message=(
        "[request id: <id_unknown>] unexpected shape for input '{input}' for model '{model}'. "
        "Expected {expected}, got {got}. {note}"
    ),
)
def warmup_input_mismatch(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.loaded_config
    if config is None or config.platform == ENSEMBLE:
        return
    declared = {t.name: t for t in config.input}
    batching = config.max_batch_size > 0
    types = data_types(config)
    for index, sample in enumerate(config.model_warmup):
        for key, value in sample.inputs.items():
            tensor = declared.get(key)
            if tensor is None:
                continue
            path = ("model_warmup", index, "inputs", key, "value")
            if value.data_type != tensor.data_type:
                got = types.protocol_name(value.data_type)
                want = types.protocol_name(tensor.data_type)
                yield ctx.at(
                    (*path, "data_type"),
                    f"{_PREFIX}inference input '{key}' data-type is '{got}', but model "
                    f"'{ctx.name}' expects '{want}'{tensor_note(ctx, 'input', key)}",
                )
            expected = list(tensor.dims)
            given = list(value.dims)
            if any(d == -1 for d in given):
                continue  # warmup-variable-dims reports it
            matches = len(expected) == len(given) and all(
                e in (-1, g) for e, g in zip(expected, given, strict=True)
            )
            if not matches:
                full_expected = [-1, *expected] if batching else expected
                full_given = [1, *given] if batching else given
                note = f" {_SHAPE_NOTE}" if batching else ""
                yield ctx.at(
                    (*path, "dims"),
                    f"{_PREFIX}unexpected shape for input '{key}' for model '{ctx.name}'. "
                    f"Expected {_show(full_expected)}, got {_show(full_given)}.{note}"
                    f"{tensor_note(ctx, 'input', key) or max_batch_size_note(ctx)}",
                )


@rule(
    "TL806",
    "warmup-batch-size",
    Severity.WARNING,
    summary="a warmup `batch_size` of 0, above max_batch_size, or above 1 for a non-batching model",
    explanation="""
    A sample with `batch_size: 0` is skipped; the server sends batch_size separate batch-1
    requests, so a larger value is not refused, but it does not warm up the batch size it
    names. It should be between 1 and max_batch_size (1 for models that do not batch).
    """,
    bad="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    model_warmup [ {
      name: "full_batch"
      batch_size: 0  # skipped
      inputs {
        key: "input"
        value { data_type: TYPE_FP32 dims: [ 3, 224, 224 ] zero_data: true }
      }
    } ]
    """,
    good="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    model_warmup [ {
      name: "full_batch"
      batch_size: 8
      inputs {
        key: "input"
        value { data_type: TYPE_FP32 dims: [ 3, 224, 224 ] zero_data: true }
      }
    } ]
    """,
)
def warmup_batch_size(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.loaded_config
    if config is None or config.platform == ENSEMBLE:
        return
    limit = max(config.max_batch_size, 1)
    for index, sample in enumerate(config.model_warmup):
        size = sample.batch_size
        if size == 0:
            message = f"warmup sample '{sample.name}' has batch_size 0 and is skipped"
        elif size > limit:
            message = (
                f"warmup sample '{sample.name}' has batch_size {size}, above what the model "
                f"takes ({limit}){max_batch_size_note(ctx)}"
            )
        else:
            continue
        yield ctx.at(("model_warmup", index, "batch_size"), message)


def _data_files(ctx: ModelContext) -> Iterator[tuple[tuple[str | int, ...], str, int, int]]:
    """(field path, file name, bytes needed, bytes present) of each warmup data file."""
    config = ctx.config
    if config is None or config.platform == ENSEMBLE or not ctx.in_repository:
        return
    types = data_types(config)
    for index, sample in enumerate(config.model_warmup):
        for key, value in sample.inputs.items():
            if value.WhichOneof("input_data_type") != "input_data_file":
                continue
            name = value.input_data_file
            file = None if path_problem(name) else ctx.model.find_file(f"warmup/{name}")
            size = types.element_bytes(value.data_type)
            if not isinstance(file, Entry) or file.size is None or size is None:
                continue
            if any(d < 0 for d in value.dims):
                continue
            needed = size
            for dim in value.dims:
                needed *= dim
            path = ("model_warmup", index, "inputs", key, "value", "input_data_file")
            yield path, name, needed, file.size


@rule(
    "TL807",
    "warmup-data-file-too-small",
    Severity.ERROR,
    summary="a warmup `input_data_file` smaller than the input it feeds",
    explanation="""
    For fixed-size data types the file must hold at least elements times element size bytes of
    one batch entry (a larger file is cut); strings are read as they are.
    """,
    bad="""
    model_repository/tokenizer/config.pbtxt:
      backend: "python"
      input [ { name: "TEXT" data_type: TYPE_UINT8 dims: [ -1 ] } ]
      model_warmup [ {
        name: "hello"
        batch_size: 1
        inputs {
          key: "TEXT"
          value {
            data_type: TYPE_UINT8
            dims: [ 32 ]  # hello.txt holds 14 bytes
            input_data_file: "hello.txt"
          }
        }
      } ]
    model_repository/tokenizer/1/model.py
    model_repository/tokenizer/warmup/hello.txt:  # 14 bytes, with the newline
      Hello, world!
    """,
    good="""
    model_repository/tokenizer/config.pbtxt:
      backend: "python"
      input [ { name: "TEXT" data_type: TYPE_UINT8 dims: [ -1 ] } ]
      model_warmup [ {
        name: "hello"
        batch_size: 1
        inputs {
          key: "TEXT"
          value {
            data_type: TYPE_UINT8
            dims: [ 14 ]
            input_data_file: "hello.txt"
          }
        }
      } ]
    model_repository/tokenizer/1/model.py
    model_repository/tokenizer/warmup/hello.txt:  # 14 bytes, with the newline
      Hello, world!
    """,
    server_message=(
        "[request id: <id_unknown>] warmup setting expects {n} bytes, but the data provided "
        "from {file}only has {m} bytes"
    ),
)
def warmup_data_file_too_small(ctx: ModelContext) -> Iterator[Finding]:
    for path, name, needed, actual in _data_files(ctx):
        if actual < needed:
            yield ctx.at(
                path,
                f"{_PREFIX}warmup setting expects {needed} bytes, but the data provided "
                f"from {name}only has {actual} bytes",
            )


@rule(
    "TL808",
    "warmup-data-file-too-large",
    Severity.WARNING,
    summary="a warmup `input_data_file` larger than the input it feeds",
    explanation="""
    The server reads only the bytes one batch entry needs and ignores the rest, so a larger
    file usually means the dims or the data type do not describe the data (a file of FP32
    values fed to an FP16 input, a whole batch where one entry is expected).
    """,
    bad="""
    model_repository/tokenizer/config.pbtxt:
      backend: "python"
      input [ { name: "TEXT" data_type: TYPE_UINT8 dims: [ -1 ] } ]
      model_warmup [ {
        name: "hello"
        batch_size: 1
        inputs {
          key: "TEXT"
          value {
            data_type: TYPE_UINT8
            dims: [ 5 ]  # only "Hello" is read
            input_data_file: "hello.txt"
          }
        }
      } ]
    model_repository/tokenizer/1/model.py
    model_repository/tokenizer/warmup/hello.txt:  # 14 bytes, with the newline
      Hello, world!
    """,
    good="""
    model_repository/tokenizer/config.pbtxt:
      backend: "python"
      input [ { name: "TEXT" data_type: TYPE_UINT8 dims: [ -1 ] } ]
      model_warmup [ {
        name: "hello"
        batch_size: 1
        inputs {
          key: "TEXT"
          value {
            data_type: TYPE_UINT8
            dims: [ 14 ]
            input_data_file: "hello.txt"
          }
        }
      } ]
    model_repository/tokenizer/1/model.py
    model_repository/tokenizer/warmup/hello.txt:  # 14 bytes, with the newline
      Hello, world!
    """,
)
def warmup_data_file_too_large(ctx: ModelContext) -> Iterator[Finding]:
    for path, name, needed, actual in _data_files(ctx):
        if actual > needed:
            yield ctx.at(
                path,
                f"{name} holds {actual} bytes but the input needs {needed}; the server reads only "
                f"the first {needed}",
            )
