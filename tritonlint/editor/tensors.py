"""Model inputs and outputs in words: data type, dims and the shape the server uses."""

from __future__ import annotations

from typing import Any

from tritonlint.schema.datatypes import data_types


def data_type_name(tensor: Any) -> str:
    """``TYPE_FP32``: the name of a ModelInput/ModelOutput's data type."""
    return data_types(tensor).name(tensor.data_type)


def full_shape(dims: list[int], max_batch_size: int) -> list[int]:
    """The shape the server gives a tensor: a leading ``-1`` batch dimension when the model
    batches (``max_batch_size > 0``), then the dims as written."""
    return ([-1] if max_batch_size > 0 else []) + list(dims)


def shape_text(shape: list[int]) -> str:
    return "[" + ", ".join(str(dim) for dim in shape) + "]"


def describe(tensor: Any, max_batch_size: int) -> str:
    """``TYPE_FP32 [-1, 3, 224, 224]``."""
    return f"{data_type_name(tensor)} {shape_text(full_shape(tensor.dims, max_batch_size))}"
