"""Backend parameters: the values backends parse and refuse, and the paths they name."""

from __future__ import annotations

from collections.abc import Iterator

from tritonlint.diagnostics import Severity
from tritonlint.repository import backend_parameters
from tritonlint.repository.backend_parameters import MODEL_DIRECTORY
from tritonlint.repository.model import path_problem
from tritonlint.rules.base import rule
from tritonlint.rules.context import Finding, ModelContext


def _parameter(ctx: ModelContext, key: str) -> str | None:
    config = ctx.config
    if config is None or key not in config.parameters:
        return None
    value: str = config.parameters[key].string_value
    return value


@rule(
    "TL852",
    "python-execution-env-missing",
    Severity.ERROR,
    summary="a Python model's EXECUTION_ENV_PATH inside the model folder that does not exist",
    explanation="""
    `EXECUTION_ENV_PATH` points the Python backend at a packed environment (a conda-pack
    archive). A path starting with `$$TRITON_MODEL_DIRECTORY` is inside the model folder and
    must be there; the load fails otherwise. (Paths elsewhere, below a subfolder of a
    subfolder, or with `..`, are checked on the server's machine only.)
    """,
    bad="""
    model_repository/preprocess/config.pbtxt:
      backend: "python"
      parameters {
        key: "EXECUTION_ENV_PATH"
        value { string_value: "$$TRITON_MODEL_DIRECTORY/env.tar.gz" }
      }
    model_repository/preprocess/1/model.py
    model_repository/preprocess/1/env.tar.gz  # in 1/, not beside config.pbtxt
    """,
    good="""
    model_repository/preprocess/config.pbtxt:
      backend: "python"
      parameters {
        key: "EXECUTION_ENV_PATH"
        value { string_value: "$$TRITON_MODEL_DIRECTORY/env.tar.gz" }
      }
    model_repository/preprocess/1/model.py
    model_repository/preprocess/env.tar.gz
    """,
    server_message="Failed to get the canonical path for {path}.",
    backend_check=True,
)
def python_execution_env_missing(ctx: ModelContext) -> Iterator[Finding]:
    value = _parameter(ctx, "EXECUTION_ENV_PATH")
    if value is None or not ctx.in_repository or not value.startswith(MODEL_DIRECTORY):
        return
    relative = value[len(MODEL_DIRECTORY) :].lstrip("/")
    if relative and path_problem(relative):
        return  # (invalid-file-name reports a name no file can have)
    if ctx.model.find(relative) is None:
        yield ctx.at(
            ("parameters", "EXECUTION_ENV_PATH", "value", "string_value"),
            f"EXECUTION_ENV_PATH names {ctx.shown(ctx.model.path / relative)}, which does not "
            "exist",
        )


def _documented(backend: str, key: str) -> tuple[str, ...]:
    """The values ``backend`` documents for ``key`` (and refuses any other, for the keys
    checked here)."""
    known = backend_parameters.parameter(backend, key)
    return tuple(choice.value for choice in known.choices) if known is not None else ()


def _bad_parameter(backend: str, key: str, value: str, model: str) -> str | None:
    """The backend's refusal of one parameter value, or None (values are always strings)."""
    if (
        backend == "python"
        and key == "FORCE_CPU_ONLY_INPUT_TENSORS"
        and value not in _documented(backend, key)
    ):
        return f"Incorrect value for FORCE_CPU_ONLY_INPUT_TENSORS: {value}'"
    if (
        backend == "onnxruntime"
        and key == "execution_mode"
        and value not in _documented(backend, key)
    ):
        return (
            "Invalid configuration value provided. Expected values for  execution_mode are 0 or "
            f"1 but got {value} ."
        )
    if backend == "tensorflow" and key in ("MAX_SESSION_SHARE_COUNT", "TF_NUM_INTRA_THREADS"):
        try:
            number = int(value)
        except ValueError:
            return f"failed to convert '{value}' to integral number"
        if key == "MAX_SESSION_SHARE_COUNT" and number <= 0:
            return (
                "parameter 'MAX_SESSION_SHARE_COUNT' must be positive number for TensorFlow "
                f"model '{model}'"
            )
        if key == "TF_NUM_INTRA_THREADS" and number < 0:
            return (
                "parameter 'TF_NUM_INTRA_THREADS' must be non-negative number for TensorFlow "
                f"model '{model}'"
            )
    return None


@rule(
    "TL853",
    "invalid-backend-parameter",
    Severity.ERROR,
    summary="a backend parameter with a value the backend refuses",
    explanation="""
    Parameters are strings; some backends parse theirs and refuse bad values: the Python
    backend's `FORCE_CPU_ONLY_INPUT_TENSORS` is `yes` or `no`; ONNX Runtime's
    `execution_mode` is `0` or `1`; TensorFlow's `MAX_SESSION_SHARE_COUNT` is a positive and
    `TF_NUM_INTRA_THREADS` a non-negative integer.
    """,
    bad="""
    backend: "python"
    parameters { key: "FORCE_CPU_ONLY_INPUT_TENSORS" value { string_value: "true" } }
    """,
    good="""
    backend: "python"
    parameters { key: "FORCE_CPU_ONLY_INPUT_TENSORS" value { string_value: "no" } }
    """,
    server_message="Incorrect value for FORCE_CPU_ONLY_INPUT_TENSORS: {value}'",
    backend_check=True,
)
def invalid_backend_parameter(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is None:
        return
    for key, parameter in config.parameters.items():
        field = ("parameters", key, "value", "string_value")
        if not ctx.located(field):
            continue  # no string_value written: the syntax or schema rules say why
        backend, value = ctx.completed.backend, parameter.string_value
        message = _bad_parameter(backend, key, value, ctx.name)
        if message is not None and not value:  # the backend's words quote nothing
            choices = _documented(backend, key)
            expected = f"one of {', '.join(choices)}" if choices else "an integer"
            message = f"{key} is empty; the {backend} backend refuses it (write {expected})"
        if message is not None:
            yield ctx.at(field, message)
