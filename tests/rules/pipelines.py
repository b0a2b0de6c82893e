"""An ensemble ``pipeline`` of one step that feeds a ``classifier``, as the tests of the rules
across models write it."""

from __future__ import annotations

#: The step that maps the pipeline's IMAGE and PROBS onto the classifier's input and probs.
GOOD_STEP = (
    'model_name: "classifier" model_version: -1 '
    'input_map { key: "input" value: "IMAGE" } output_map { key: "probs" value: "PROBS" }'
)


def ensemble(step: str, *, max_batch_size: int, image_dims: str, io: str | None = None) -> str:
    """The pipeline's config: ``io`` (by default an FP32 IMAGE of ``image_dims`` in, ten FP32
    PROBS out), then its one ``step``."""
    io = io or (
        f'input [ {{ name: "IMAGE" data_type: TYPE_FP32 dims: [ {image_dims} ] }} ]\n'
        'output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 10 ] } ]\n'
    )
    return (
        f'name: "pipeline"\nplatform: "ensemble"\nmax_batch_size: {max_batch_size}\n{io}'
        f"ensemble_scheduling {{ step [ {{ {step} }} ] }}\n"
    )
