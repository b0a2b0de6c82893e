"""Transaction policy, response cache, parameters, metrics: the rest of what the server checks."""

from __future__ import annotations

from collections.abc import Iterator

from tritonlint.diagnostics import Severity
from tritonlint.repository import backend_parameters
from tritonlint.repository.model import path_problem
from tritonlint.rules.context import ModelContext
from tritonlint.rules.registry import Finding, rule

#: How a backend parameter names a path inside the model folder.
MODEL_DIRECTORY = "$$TRITON_MODEL_DIRECTORY"


@rule(
    "TL851",
    "response-cache-conflict",
    Severity.ERROR,
    summary="the response cache on a decoupled or sequence-batched model",
    explanation="""
    The response cache stores one response per request; it cannot serve decoupled models
    (any number of responses) or sequence-batched ones (responses depend on the sequence's
    state). Disable it for those models.
    """,
    bad="""
    model_transaction_policy { decoupled: true }
    response_cache { enable: true }
    """,
    good="""
    model_transaction_policy { decoupled: true }
    """,
    server_message=(
        "Response Cache does not currently support model {model} with 'decoupled' transaction "
        "policy. Please disable the response cache."
    ),
)
def response_cache_conflict(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is None or not config.response_cache.enable:
        return
    if config.HasField("sequence_batching"):
        yield ctx.at(
            ("response_cache", "enable"),
            f"Response Cache does not currently support model {ctx.name} with sequence batching "
            "scheduler. Please disable the response cache.",
        )
    if config.model_transaction_policy.decoupled:
        yield ctx.at(
            ("response_cache", "enable"),
            f"Response Cache does not currently support model {ctx.name} with 'decoupled' "
            "transaction policy. Please disable the response cache.",
        )


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
    parameters { key: "EXECUTION_ENV_PATH"
                 value { string_value: "$$TRITON_MODEL_DIRECTORY/env.tar.gz" } }
    # but model_repository/m/env.tar.gz does not exist
    """,
    good="""
    # model_repository/m/env.tar.gz exists
    parameters { key: "EXECUTION_ENV_PATH"
                 value { string_value: "$$TRITON_MODEL_DIRECTORY/env.tar.gz" } }
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
            f"EXECUTION_ENV_PATH names {ctx.model.path / relative}, which does not exist",
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
        message = _bad_parameter(ctx.completed.backend, key, parameter.string_value, ctx.name)
        if message is not None:
            yield ctx.at(("parameters", key, "value", "string_value"), message)


_DECOUPLED_BACKENDS = frozenset({"onnxruntime", "tensorrt", "pytorch", "tensorflow", "openvino"})


@rule(
    "TL854",
    "decoupled-on-non-decoupled-backend",
    Severity.WARNING,
    summary="`decoupled: true` on a backend that always answers once per request",
    explanation="""
    ONNX Runtime, TensorRT, PyTorch, TensorFlow and OpenVINO models produce exactly one
    response per request. Marking them decoupled gains nothing, and clients must then use
    gRPC streaming: HTTP and non-streaming gRPC requests are rejected.
    """,
    bad="""
    platform: "onnxruntime_onnx"
    model_transaction_policy { decoupled: true }
    """,
    good="""
    platform: "onnxruntime_onnx"
    """,
)
def decoupled_on_non_decoupled_backend(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is None or not config.model_transaction_policy.decoupled:
        return
    if ctx.completed.backend in _DECOUPLED_BACKENDS:
        yield ctx.at(
            ("model_transaction_policy", "decoupled"),
            f"the {ctx.completed.backend} backend answers each request exactly once; a decoupled "
            "policy only forces clients onto gRPC streaming",
        )


@rule(
    "TL855",
    "invalid-model-metrics",
    Severity.ERROR,
    summary="a model_metrics control without its identifier family or histogram buckets",
    explanation="""
    (Triton releases that have `model_metrics`.) Each `metric_control` needs a
    `metric_identifier` with a non-empty `family`, and `histogram_options` with at least one
    bucket.
    """,
    bad="""
    model_metrics { metric_control [ {
      metric_identifier { family: "nv_inference_first_response_histogram_ms" }
    } ] }
    """,
    good="""
    model_metrics { metric_control [ {
      metric_identifier { family: "nv_inference_first_response_histogram_ms" }
      histogram_options { buckets: [ 1, 10, 100 ] }
    } ] }
    """,
    server_message="metric control must specify 'histogram_options'",
    requires_field="model_metrics",
)
def invalid_model_metrics(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is None or "model_metrics" not in config.DESCRIPTOR.fields_by_name:
        return
    if not config.HasField("model_metrics"):
        return
    for index, control in enumerate(config.model_metrics.metric_control):
        path = ("model_metrics", "metric_control", index)
        if not control.HasField("metric_identifier"):
            yield ctx.at(path, "metric control must specify 'metric_identifier'")
        elif not control.metric_identifier.family:
            yield ctx.at(
                (*path, "metric_identifier"), "metric identifier must specify non-empty 'family'"
            )
        if not control.HasField("histogram_options"):
            yield ctx.at(path, "metric control must specify 'histogram_options'")
        elif not control.histogram_options.buckets:
            yield ctx.at(
                (*path, "histogram_options"), "histogram options must specify non-empty 'buckets'"
            )


#: Repository agents that NVIDIA's tritonserver containers ship.
_SHIPPED_AGENTS = frozenset({"checksum"})


@rule(
    "TL856",
    "repository-agent-not-shipped",
    Severity.WARNING,
    summary="a model repository agent that Triton's containers do not ship",
    explanation="""
    Each agent in `model_repository_agents` must be installed on the server as
    `<repoagent-directory>/<name>/libtritonrepoagent_<name>.so`, or the model fails to load.
    Only the server can tell what is installed (run the smoke stage); this warns about any
    agent other than the `checksum` agent the containers ship.
    """,
    bad="""
    model_repository_agents { agents [ { name: "decrypt" } ] }
    """,
    good="""
    model_repository_agents { agents [ { name: "checksum"
      parameters { key: "MD5:1/model.onnx" value: "..." } } ] }
    """,
    server_message=(
        "unable to find 'libtritonrepoagent_{name}.so' for repo agent '{name}', searched: {dir}"
    ),
)
def repository_agent_not_shipped(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is None:
        return
    for index, agent in enumerate(config.model_repository_agents.agents):
        if agent.name not in _SHIPPED_AGENTS:
            yield ctx.at(
                ("model_repository_agents", "agents", index, "name"),
                f"repository agent '{agent.name}' must be installed on the server as "
                f"libtritonrepoagent_{agent.name}.so; Triton's containers ship only 'checksum'",
            )
