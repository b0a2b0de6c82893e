"""How a model answers: the response cache, and the decoupled transaction policy."""

from __future__ import annotations

from collections.abc import Iterator

from tritonlint.diagnostics import Severity
from tritonlint.rules.base import rule
from tritonlint.rules.context import Finding, ModelContext


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
    name: "llm_stream"
    backend: "python"
    model_transaction_policy { decoupled: true }
    response_cache { enable: true }  # caches one response per request
    """,
    good="""
    name: "llm_stream"
    backend: "python"
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
