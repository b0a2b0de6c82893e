"""Model metrics: what each metric control must name."""

from __future__ import annotations

from collections.abc import Iterator

from tritonlint.diagnostics import Severity
from tritonlint.rules.base import rule
from tritonlint.rules.context import Finding, ModelContext


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
    name: "llm"
    backend: "python"
    model_metrics { metric_control [ {
      metric_identifier { family: "nv_inference_first_response_histogram_ms" }
      # and the histogram_options with its buckets?
    } ] }
    """,
    good="""
    name: "llm"
    backend: "python"
    model_metrics { metric_control [ {
      metric_identifier { family: "nv_inference_first_response_histogram_ms" }
      histogram_options { buckets: [ 10, 50, 100, 500, 1000 ] }
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
