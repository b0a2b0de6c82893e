"""The structure of an ensemble: its platform and scheduling, the fields the server refuses on an
ensemble, and what each step must name."""

from __future__ import annotations

from collections.abc import Iterator

from tritonlint.diagnostics import Applicability, Fix, Severity
from tritonlint.repository.server_fill_in import ENSEMBLE
from tritonlint.rules.base import Declaration, FixAvailability, fixable, rule
from tritonlint.rules.context import Finding, ModelContext
from tritonlint.rules.ensemble.steps import STEP, ensemble_config, latest_version, steps_of
from tritonlint.rules.fixes import fix, remove_top_level, rename


@rule(
    "TL701",
    "ensemble-without-scheduling",
    Severity.ERROR,
    summary='`platform: "ensemble"` without `ensemble_scheduling`',
    explanation="""
    An ensemble is defined by its steps, in `ensemble_scheduling { step [ ... ] }`.
    """,
    bad="""
    model_repository/classify/config.pbtxt:
      platform: "ensemble"  # no ensemble_scheduling: which models does it run?
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 1000 ] } ]
    model_repository/classify/1/

    model_repository/preprocess/config.pbtxt:
      backend: "python"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    model_repository/preprocess/1/model.py

    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
      output [ { name: "probs" data_type: TYPE_FP32 dims: [ 1000 ] } ]
    model_repository/resnet50/1/model.onnx
    """,
    good="""
    model_repository/classify/config.pbtxt:
      platform: "ensemble"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 1000 ] } ]
      ensemble_scheduling {
        step [
          { model_name: "preprocess" model_version: -1
            input_map { key: "IMAGE" value: "IMAGE" }
            output_map { key: "PIXELS" value: "pixels" } },
          { model_name: "resnet50" model_version: -1
            input_map { key: "input" value: "pixels" }
            output_map { key: "probs" value: "PROBS" } }
        ]
      }
    model_repository/classify/1/

    model_repository/preprocess/config.pbtxt:
      backend: "python"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    model_repository/preprocess/1/model.py

    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
      output [ { name: "probs" data_type: TYPE_FP32 dims: [ 1000 ] } ]
    model_repository/resnet50/1/model.onnx
    """,
    server_message=(
        "ensemble scheduling must be set for ensemble {model} whose platform is ensemble"
    ),
)
def ensemble_without_scheduling(ctx: ModelContext) -> Iterator[Finding]:
    config = ensemble_config(ctx)
    if config is not None and not config.HasField("ensemble_scheduling"):
        yield ctx.at(
            ("platform",),
            f"ensemble scheduling must be set for ensemble {ctx.name} whose platform is "
            "ensemble: add ensemble_scheduling { step [ ... ] }",
        )


@rule(
    "TL702",
    "scheduling-without-ensemble-platform",
    Severity.ERROR,
    fix=fixable(FixAvailability.SOMETIMES, Applicability.SAFE),
    summary="`ensemble_scheduling` in a model whose platform is not `ensemble`",
    explanation="""
    Only a model with `platform: "ensemble"` (and no `backend`) may have
    `ensemble_scheduling`. `backend: "ensemble"` is a common slip, which a safe fix writes as
    `platform: "ensemble"`.
    """,
    bad="""
    model_repository/classify/config.pbtxt:
      backend: "ensemble"  # platform, not backend
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 1000 ] } ]
      ensemble_scheduling {
        step [
          { model_name: "preprocess" model_version: -1
            input_map { key: "IMAGE" value: "IMAGE" }
            output_map { key: "PIXELS" value: "pixels" } },
          { model_name: "resnet50" model_version: -1
            input_map { key: "input" value: "pixels" }
            output_map { key: "probs" value: "PROBS" } }
        ]
      }
    model_repository/classify/1/

    model_repository/preprocess/config.pbtxt:
      backend: "python"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    model_repository/preprocess/1/model.py

    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
      output [ { name: "probs" data_type: TYPE_FP32 dims: [ 1000 ] } ]
    model_repository/resnet50/1/model.onnx
    """,
    good="""
    model_repository/classify/config.pbtxt:
      platform: "ensemble"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 1000 ] } ]
      ensemble_scheduling {
        step [
          { model_name: "preprocess" model_version: -1
            input_map { key: "IMAGE" value: "IMAGE" }
            output_map { key: "PIXELS" value: "pixels" } },
          { model_name: "resnet50" model_version: -1
            input_map { key: "input" value: "pixels" }
            output_map { key: "probs" value: "PROBS" } }
        ]
      }
    model_repository/classify/1/

    model_repository/preprocess/config.pbtxt:
      backend: "python"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    model_repository/preprocess/1/model.py

    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
      output [ { name: "probs" data_type: TYPE_FP32 dims: [ 1000 ] } ]
    model_repository/resnet50/1/model.onnx
    """,
    server_message=(
        "ensemble scheduling cannot be set for model '{model}' whose platform is not ensemble"
    ),
)
def scheduling_without_ensemble_platform(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is None or not config.HasField("ensemble_scheduling"):
        return
    if config.platform == ENSEMBLE or ctx.completed.undeterminable:
        return
    slip = config.backend == ENSEMBLE and not config.platform
    yield ctx.at(
        ("ensemble_scheduling",),
        f"ensemble scheduling cannot be set for model '{ctx.name}' whose platform is not "
        'ensemble: set platform: "ensemble"',
        part="name",
        fixes=fix(
            'Write platform: "ensemble" instead of backend',
            Applicability.SAFE,
            rename(ctx, ("backend",), "platform"),
        )
        if slip
        else (),
    )


@rule(
    "TL703",
    "ensemble-has-backend",
    Severity.ERROR,
    fix=fixable(FixAvailability.SOMETIMES, Applicability.SAFE),
    summary="an ensemble with a `backend`",
    explanation="""
    Ensembles are run by the server itself, not by a backend: `backend` must be empty. A safe
    fix removes `backend`.
    """,
    bad="""
    model_repository/classify/config.pbtxt:
      platform: "ensemble"
      backend: "python"  # an ensemble has no backend
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 1000 ] } ]
      ensemble_scheduling {
        step [
          { model_name: "preprocess" model_version: -1
            input_map { key: "IMAGE" value: "IMAGE" }
            output_map { key: "PIXELS" value: "pixels" } },
          { model_name: "resnet50" model_version: -1
            input_map { key: "input" value: "pixels" }
            output_map { key: "probs" value: "PROBS" } }
        ]
      }
    model_repository/classify/1/

    model_repository/preprocess/config.pbtxt:
      backend: "python"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    model_repository/preprocess/1/model.py

    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
      output [ { name: "probs" data_type: TYPE_FP32 dims: [ 1000 ] } ]
    model_repository/resnet50/1/model.onnx
    """,
    good="""
    model_repository/classify/config.pbtxt:
      platform: "ensemble"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 1000 ] } ]
      ensemble_scheduling {
        step [
          { model_name: "preprocess" model_version: -1
            input_map { key: "IMAGE" value: "IMAGE" }
            output_map { key: "PIXELS" value: "pixels" } },
          { model_name: "resnet50" model_version: -1
            input_map { key: "input" value: "pixels" }
            output_map { key: "probs" value: "PROBS" } }
        ]
      }
    model_repository/classify/1/

    model_repository/preprocess/config.pbtxt:
      backend: "python"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    model_repository/preprocess/1/model.py

    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
      output [ { name: "probs" data_type: TYPE_FP32 dims: [ 1000 ] } ]
    model_repository/resnet50/1/model.onnx
    """,
    server_message=(
        "Ensemble model '{model}' must have platform type '{platform}' and empty backend type"
    ),
)
def ensemble_has_backend(ctx: ModelContext) -> Iterator[Finding]:
    config = ensemble_config(ctx)
    if config is None or not ctx.completed.backend:
        return
    path = ("backend",) if config.backend else ("platform",)
    # With no default_model_filename to take one from, the backend field is its only source.
    removable = bool(config.backend) and not config.default_model_filename
    yield ctx.at(
        path,
        f"Ensemble model '{ctx.name}' must have platform type 'ensemble' and empty backend "
        f"type (it has backend '{ctx.completed.backend}')",
        fixes=_removal(ctx, "backend") if removable else (),
    )


def _removal(ctx: ModelContext, field_name: str) -> tuple[Fix, ...]:
    """Remove a field the server refuses on an ensemble (and ignores on its steps' models)."""
    edits = remove_top_level(ctx, field_name)
    return fix(f"Remove {field_name} from the ensemble", Applicability.SAFE, *edits)


def _forbidden(
    field_name: str, code: str, name: str, message: str, bad: str, good: str
) -> Declaration:
    """The rule that refuses ``field_name`` on an ensemble (bound to a name of this module, as
    every rule is, for the registry to find)."""

    def check(ctx: ModelContext) -> Iterator[Finding]:
        config = ensemble_config(ctx)
        if config is None:
            return
        present = (
            config.HasField("optimization")
            if field_name == "optimization"
            else len(getattr(config, field_name)) > 0
        )
        if present:
            yield ctx.at(
                (field_name,),
                message.format(model=ctx.name),
                part="name",
                fixes=_removal(ctx, field_name),
            )

    return rule(
        code,
        name,
        Severity.ERROR,
        summary=f"`{field_name}` on an ensemble",
        explanation=f"""
        The server schedules an ensemble's steps itself: each composing model has its own
        instances, optimization and warmup, and an ensemble may not set `{field_name}`.
        Move it to the composing models. A safe fix removes it from the ensemble.
        """,
        bad=bad,
        good=good,
        server_message=message,
        fix=fixable(FixAvailability.SOMETIMES, Applicability.SAFE),
    )(check)


ensemble_instance_group = _forbidden(
    "instance_group",
    "TL704",
    "ensemble-instance-group",
    "instance group should not be specified for ensemble '{model}'",
    bad="""
    model_repository/classify/config.pbtxt:
      platform: "ensemble"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 1000 ] } ]
      # resnet50's instances, not the ensemble's
      instance_group [ { kind: KIND_GPU count: 2 } ]
      ensemble_scheduling {
        step [
          { model_name: "preprocess" model_version: -1
            input_map { key: "IMAGE" value: "IMAGE" }
            output_map { key: "PIXELS" value: "pixels" } },
          { model_name: "resnet50" model_version: -1
            input_map { key: "input" value: "pixels" }
            output_map { key: "probs" value: "PROBS" } }
        ]
      }
    model_repository/classify/1/

    model_repository/preprocess/config.pbtxt:
      backend: "python"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    model_repository/preprocess/1/model.py

    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
      output [ { name: "probs" data_type: TYPE_FP32 dims: [ 1000 ] } ]
    model_repository/resnet50/1/model.onnx
    """,
    good="""
    model_repository/classify/config.pbtxt:
      platform: "ensemble"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 1000 ] } ]
      ensemble_scheduling {
        step [
          { model_name: "preprocess" model_version: -1
            input_map { key: "IMAGE" value: "IMAGE" }
            output_map { key: "PIXELS" value: "pixels" } },
          { model_name: "resnet50" model_version: -1
            input_map { key: "input" value: "pixels" }
            output_map { key: "probs" value: "PROBS" } }
        ]
      }
    model_repository/classify/1/

    model_repository/preprocess/config.pbtxt:
      backend: "python"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    model_repository/preprocess/1/model.py

    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
      output [ { name: "probs" data_type: TYPE_FP32 dims: [ 1000 ] } ]
      instance_group [ { kind: KIND_GPU count: 2 } ]
    model_repository/resnet50/1/model.onnx
    """,
)
ensemble_optimization = _forbidden(
    "optimization",
    "TL705",
    "ensemble-optimization",
    "optimization should not be specified for ensemble '{model}'",
    bad="""
    model_repository/classify/config.pbtxt:
      platform: "ensemble"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 1000 ] } ]
      # resnet50's optimization, not the ensemble's
      optimization { input_pinned_memory { enable: true } }
      ensemble_scheduling {
        step [
          { model_name: "preprocess" model_version: -1
            input_map { key: "IMAGE" value: "IMAGE" }
            output_map { key: "PIXELS" value: "pixels" } },
          { model_name: "resnet50" model_version: -1
            input_map { key: "input" value: "pixels" }
            output_map { key: "probs" value: "PROBS" } }
        ]
      }
    model_repository/classify/1/

    model_repository/preprocess/config.pbtxt:
      backend: "python"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    model_repository/preprocess/1/model.py

    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
      output [ { name: "probs" data_type: TYPE_FP32 dims: [ 1000 ] } ]
    model_repository/resnet50/1/model.onnx
    """,
    good="""
    model_repository/classify/config.pbtxt:
      platform: "ensemble"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 1000 ] } ]
      ensemble_scheduling {
        step [
          { model_name: "preprocess" model_version: -1
            input_map { key: "IMAGE" value: "IMAGE" }
            output_map { key: "PIXELS" value: "pixels" } },
          { model_name: "resnet50" model_version: -1
            input_map { key: "input" value: "pixels" }
            output_map { key: "probs" value: "PROBS" } }
        ]
      }
    model_repository/classify/1/

    model_repository/preprocess/config.pbtxt:
      backend: "python"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    model_repository/preprocess/1/model.py

    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
      output [ { name: "probs" data_type: TYPE_FP32 dims: [ 1000 ] } ]
      optimization { input_pinned_memory { enable: true } }
    model_repository/resnet50/1/model.onnx
    """,
)
ensemble_warmup = _forbidden(
    "model_warmup",
    "TL706",
    "ensemble-warmup",
    "model_warmup can not be specified for ensemble '{model}'",
    bad="""
    model_repository/classify/config.pbtxt:
      platform: "ensemble"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 1000 ] } ]
      model_warmup [ {  # warm up resnet50 instead
        name: "zeros"
        batch_size: 1
        inputs {
          key: "IMAGE"
          value { data_type: TYPE_UINT8 dims: [ 224, 224, 3 ] zero_data: true }
        }
      } ]
      ensemble_scheduling {
        step [
          { model_name: "preprocess" model_version: -1
            input_map { key: "IMAGE" value: "IMAGE" }
            output_map { key: "PIXELS" value: "pixels" } },
          { model_name: "resnet50" model_version: -1
            input_map { key: "input" value: "pixels" }
            output_map { key: "probs" value: "PROBS" } }
        ]
      }
    model_repository/classify/1/

    model_repository/preprocess/config.pbtxt:
      backend: "python"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    model_repository/preprocess/1/model.py

    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
      output [ { name: "probs" data_type: TYPE_FP32 dims: [ 1000 ] } ]
    model_repository/resnet50/1/model.onnx
    """,
    good="""
    model_repository/classify/config.pbtxt:
      platform: "ensemble"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 1000 ] } ]
      ensemble_scheduling {
        step [
          { model_name: "preprocess" model_version: -1
            input_map { key: "IMAGE" value: "IMAGE" }
            output_map { key: "PIXELS" value: "pixels" } },
          { model_name: "resnet50" model_version: -1
            input_map { key: "input" value: "pixels" }
            output_map { key: "probs" value: "PROBS" } }
        ]
      }
    model_repository/classify/1/

    model_repository/preprocess/config.pbtxt:
      backend: "python"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    model_repository/preprocess/1/model.py

    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
      output [ { name: "probs" data_type: TYPE_FP32 dims: [ 1000 ] } ]
      model_warmup [ {
        name: "zeros"
        batch_size: 1
        inputs {
          key: "input"
          value { data_type: TYPE_FP32 dims: [ 3, 224, 224 ] zero_data: true }
        }
      } ]
    model_repository/resnet50/1/model.onnx
    """,
)


@rule(
    "TL707",
    "ensemble-step-incomplete",
    Severity.ERROR,
    summary="an ensemble without steps, or a step without model_name, input_map or output_map",
    explanation="""
    An ensemble needs at least one step, and every step names its model and maps at least
    one input and one output of it to ensemble tensors.
    """,
    bad="""
    model_repository/classify/config.pbtxt:
      platform: "ensemble"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 1000 ] } ]
      ensemble_scheduling {
        step [
          { model_name: "preprocess" model_version: -1
            input_map { key: "IMAGE" value: "IMAGE" }
            output_map { key: "PIXELS" value: "pixels" } },
          { model_name: "resnet50" model_version: -1
            input_map { key: "input" value: "pixels" } }  # no output_map
        ]
      }
    model_repository/classify/1/

    model_repository/preprocess/config.pbtxt:
      backend: "python"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    model_repository/preprocess/1/model.py

    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
      output [ { name: "probs" data_type: TYPE_FP32 dims: [ 1000 ] } ]
    model_repository/resnet50/1/model.onnx
    """,
    good="""
    model_repository/classify/config.pbtxt:
      platform: "ensemble"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 1000 ] } ]
      ensemble_scheduling {
        step [
          { model_name: "preprocess" model_version: -1
            input_map { key: "IMAGE" value: "IMAGE" }
            output_map { key: "PIXELS" value: "pixels" } },
          { model_name: "resnet50" model_version: -1
            input_map { key: "input" value: "pixels" }
            output_map { key: "probs" value: "PROBS" } }
        ]
      }
    model_repository/classify/1/

    model_repository/preprocess/config.pbtxt:
      backend: "python"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    model_repository/preprocess/1/model.py

    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
      output [ { name: "probs" data_type: TYPE_FP32 dims: [ 1000 ] } ]
    model_repository/resnet50/1/model.onnx
    """,
    server_message=(
        "must specify 'step' for ensemble '{model}'\n"
        "must specify 'model_name' in step {index} of ensemble '{model}'\n"
        "must specify 'input_map' in step {index} of ensemble '{model}'\n"
        "must specify 'output_map' in step {index} of ensemble '{model}'"
    ),
)
def ensemble_step_incomplete(ctx: ModelContext) -> Iterator[Finding]:
    config = ensemble_config(ctx)
    if config is None or not config.HasField("ensemble_scheduling"):
        return
    steps = steps_of(ctx)
    if not steps:
        yield ctx.at(
            ("ensemble_scheduling",),
            f"must specify 'step' for ensemble '{ctx.name}'",
            part="name",
        )
    for index, step in enumerate(steps):
        for missing, present in (
            ("model_name", bool(step.model_name)),
            ("input_map", len(step.input_map) > 0),
            ("output_map", len(step.output_map) > 0),
        ):
            if not present:
                yield ctx.at(
                    (*STEP, index),
                    f"must specify '{missing}' in step {index} of ensemble '{ctx.name}'",
                )


@rule(
    "TL719",
    "ensemble-model-version-omitted",
    Severity.WARNING,
    fix=fixable(FixAvailability.SOMETIMES, Applicability.UNSAFE),
    summary="an ensemble step without `model_version`",
    explanation="""
    An omitted `model_version` is 0, not "the latest": it works only while the composing
    model happens to serve a version 0 (and TL717 reports it when it does not). Write
    `model_version: -1` for the latest version, or the number you mean. An unsafe fix writes
    `model_version: -1`, which changes the version the step runs where the model does serve
    a version 0.
    """,
    bad="""
    model_repository/classify/config.pbtxt:
      platform: "ensemble"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 1000 ] } ]
      ensemble_scheduling {
        step [
          { model_name: "preprocess" model_version: -1
            input_map { key: "IMAGE" value: "IMAGE" }
            output_map { key: "PIXELS" value: "pixels" } },
          { model_name: "resnet50"  # no model_version: version 0, not the latest
            input_map { key: "input" value: "pixels" }
            output_map { key: "probs" value: "PROBS" } }
        ]
      }
    model_repository/classify/1/

    model_repository/preprocess/config.pbtxt:
      backend: "python"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    model_repository/preprocess/1/model.py

    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
      output [ { name: "probs" data_type: TYPE_FP32 dims: [ 1000 ] } ]
    model_repository/resnet50/0/model.onnx  # its only version, for now
    """,
    good="""
    model_repository/classify/config.pbtxt:
      platform: "ensemble"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 1000 ] } ]
      ensemble_scheduling {
        step [
          { model_name: "preprocess" model_version: -1
            input_map { key: "IMAGE" value: "IMAGE" }
            output_map { key: "PIXELS" value: "pixels" } },
          { model_name: "resnet50" model_version: -1
            input_map { key: "input" value: "pixels" }
            output_map { key: "probs" value: "PROBS" } }
        ]
      }
    model_repository/classify/1/

    model_repository/preprocess/config.pbtxt:
      backend: "python"
      max_batch_size: 8
      input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
      output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    model_repository/preprocess/1/model.py

    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
      output [ { name: "probs" data_type: TYPE_FP32 dims: [ 1000 ] } ]
    model_repository/resnet50/0/model.onnx
    """,
)
def ensemble_model_version_omitted(ctx: ModelContext) -> Iterator[Finding]:
    for index, step in enumerate(steps_of(ctx)):
        if step.model_name and not ctx.located((*STEP, index, "model_version")):
            yield ctx.at(
                (*STEP, index, "model_name"),
                f"step {index} has no model_version, which means version 0, not the latest; "
                "write model_version: -1 for the latest",
                fixes=latest_version(
                    ctx,
                    index,
                    "Write model_version: -1 (the latest version, where omitted it is version 0)",
                    Applicability.UNSAFE,
                ),
            )
