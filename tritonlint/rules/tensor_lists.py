"""A config's inputs or outputs, named by kind: what the rules read where a message names a
tensor as ``input 'x'`` or ``output 'y'`` and the same code serves both."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from tritonlint.schema.config_types import ModelConfig, ModelInput, ModelOutput

    #: An input or an output: the fields they share are what code serving both reads.
    Tensor: TypeAlias = ModelInput | ModelOutput


def tensors_of(config: ModelConfig, kind: str) -> Sequence[Tensor]:
    """The config's ``input`` or ``output`` entries (``kind``: "input" or "output")."""
    if kind == "input":
        return config.input
    if kind == "output":
        return config.output
    raise ValueError(f"not a kind of tensor: {kind!r}")
