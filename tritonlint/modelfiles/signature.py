"""The shape of what a model-file reader returns: the model's tensors, or why it could not say."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class TensorSpec:
    """One input or output tensor as the model file declares it."""

    name: str
    #: The Triton data type name (``TYPE_FP32``); None where the file gives no type, or one
    #: that has no Triton equivalent (then ``source_type`` says what it is).
    data_type: str | None
    #: The type as the format writes it (``tensor(float)``, ``DT_FLOAT``, ``f32``), for messages.
    source_type: str | None
    #: Every dimension, -1 where it is not fixed; None where the rank is unknown.
    dims: tuple[int, ...] | None
    #: The symbolic name of each dimension where the format gives one (ONNX ``dim_param``).
    dim_names: tuple[str | None, ...] = ()
    #: What each dimension is, where the format says (OpenVINO's layout, ``[N,C,H,W]``).
    layout: str | None = None


@dataclass(frozen=True)
class ModelSignature:
    """The tensors a model file declares, in the file's order."""

    #: ``onnx``, ``torchscript``, ``savedmodel`` or ``openvino``.
    format: str
    #: The model file (or folder) read.
    path: Path
    inputs: tuple[TensorSpec, ...]
    outputs: tuple[TensorSpec, ...]
    #: Inputs a request may give but need not, the model holding a value for them (ONNX
    #: initializers listed as graph inputs); not among ``inputs``.
    optional_inputs: tuple[TensorSpec, ...] = ()


@dataclass(frozen=True)
class ModelFileProblem:
    """A model file that could not be read as its format: truncated, corrupt, hostile."""

    path: Path
    message: str
