"""A config tensor's shape against the model's, compared the way each backend compares them.

- ONNX Runtime (``CompareDimsSupported`` in onnxruntime_backend's src/onnxruntime_utils.cc):
  with max_batch_size > 0 the model's first dimension must be -1 and the model's shape is the
  config's with that dimension in front; every dimension the model fixes must be the config's.
  A model tensor without dimensions (a scalar) takes only dims of 1 (``ValidateInputs``).
- TensorFlow (``CompareDims`` in tensorflow_backend's src/tensorflow_utils.cc): the same, but
  an output's variable dimensions must be variable in the config too (``compare_exact``),
  and a tensor whose rank the SavedModel does not give is not compared.
- OpenVINO (``CompareDimsSupported`` in openvino_backend's src/openvino_utils.cc): the batch
  dimension is not compared (the backend sets it), and where the model fixes a dimension the
  config must give that size, not -1; inputs are not compared with ``RESHAPE_IO_LAYERS``.

Where ONNX Runtime's own shape inference may fix an output dimension the file leaves open, the
file's -1 is not held against the config (the runtime, not the file, would decide). OpenVINO's
bounded dimensions (``1..8``) read as -1 and are not compared either.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

WILDCARD = -1


class ShapeProblem(NamedTuple):
    """Why the backend refuses a tensor's shape, in its words."""

    #: ``batch`` (the model cannot batch), ``rank`` or ``dim``.
    kind: str
    message: str
    #: The position in the config's shape of the dimension that differs (``dim`` only).
    position: int | None = None


def shape_text(dims: Sequence[int]) -> str:
    """A shape as the backends write it (``ShapeToString``): ``[-1,3,224,224]``."""
    return "[" + ",".join(str(dim) for dim in dims) + "]"


def batching_problem(
    backend: str, model: str, tensor: str, model_dims: Sequence[int]
) -> ShapeProblem | None:
    """Why a model tensor cannot be batched, where the backend says so (max_batch_size > 0)."""
    prefix = f"model '{model}', tensor '{tensor}': for the model to support batching the shape "
    if backend == "openvino":
        if not model_dims:
            return ShapeProblem("batch", prefix + "should have at least 1 dimension")
        return None
    if model_dims and model_dims[0] != WILDCARD:
        return ShapeProblem(
            "batch",
            prefix + "should have at least 1 dimension and the first dimension must be -1; but "
            f"shape expected by the model is {shape_text(model_dims)}",
        )
    return None


def shape_problem(
    backend: str,
    model: str,
    tensor: str,
    model_dims: Sequence[int],
    dims: Sequence[int],
    max_batch_size: int,
    output: bool,
) -> ShapeProblem | None:
    """Why the backend refuses ``dims`` (the config's, or its reshape) for a model tensor of
    ``model_dims``, or None where it accepts them."""
    problems = shape_problems(backend, model, tensor, model_dims, dims, max_batch_size, output)
    return problems[0] if problems else None


def shape_problems(
    backend: str,
    model: str,
    tensor: str,
    model_dims: Sequence[int],
    dims: Sequence[int],
    max_batch_size: int,
    output: bool,
) -> list[ShapeProblem]:
    """Every reason the backend has to refuse ``dims`` for a model tensor of ``model_dims``:
    a ``batch`` or ``rank`` problem alone, else one ``dim`` problem per dimension that
    differs (the backend stops at the first; an editor shows them all)."""
    if backend == "onnxruntime" and not model_dims:
        if any(dim != 1 for dim in dims):
            return [
                ShapeProblem(
                    "rank",
                    f"unable to load model '{model}', scalar tensor '{tensor}', should only "
                    "provide 1 in the model configuration when the model doesn't support "
                    f"batching. Model configuration provided: {shape_text(dims)}.",
                )
            ]
        return []
    if backend == "tensorflow" and not model_dims:
        return []
    batching = max_batch_size > 0
    if batching:
        problem = batching_problem(backend, model, tensor, model_dims)
        if problem is not None:
            return [problem]
    first = max_batch_size if backend == "openvino" else WILDCARD
    full = [first, *dims] if batching else list(dims)
    if len(model_dims) != len(full):
        return [ShapeProblem("rank", _differs(model, tensor, model_dims, dims, full, batching))]
    return [
        ShapeProblem(
            "dim",
            _differs(model, tensor, model_dims, dims, full, batching),
            position - 1 if batching else position,
        )
        for position, (wanted, given) in enumerate(zip(model_dims, full, strict=True))
        # the batch dimension is -1 (checked above), or set by OpenVINO
        if not (batching and position == 0)
        and not _matches(backend, wanted, given, output, batching)
    ]


def _matches(backend: str, wanted: int, given: int, output: bool, batching: bool) -> bool:
    """Whether the backend takes the config's dimension ``given`` for the model's ``wanted``."""
    if wanted == WILDCARD:
        # TensorFlow compares an output's dimensions exactly; the others take any size here.
        return given == WILDCARD or not (backend == "tensorflow" and output)
    if backend == "openvino" and given == WILDCARD and batching and not output:
        return True  # OpenVINO skips an input's -1 when batching, and compares it otherwise
    return wanted == given


def _differs(
    model: str,
    tensor: str,
    model_dims: Sequence[int],
    dims: Sequence[int],
    full: Sequence[int],
    batching: bool,
) -> str:
    expects = (
        f"model '{model}', tensor '{tensor}': the model expects {len(model_dims)} dimensions "
        f"(shape {shape_text(model_dims)}) but the model configuration specifies "
    )
    if batching:
        return expects + (
            f"{len(full)} dimensions (an initial batch dimension because max_batch_size > 0 "
            "followed by the explicit tensor shape, making complete shape "
            f"{shape_text(full)})"
        )
    return expects + f"{len(dims)} dimensions (shape {shape_text(dims)})"
