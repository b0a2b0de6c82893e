"""The tensors of an ensemble: where each is produced and where it is consumed."""

from __future__ import annotations

from typing import Any, NamedTuple

from tritonlint.schema.source_map import Path, SourceMap
from tritonlint.span import Span


class TensorUse(NamedTuple):
    """One place an ensemble tensor name is written."""

    #: ``ensemble input``, ``step 0 (preprocess) output OUT``, ...
    description: str
    #: The field path of the name as written (its value in the source map).
    path: Path


class TensorUses(NamedTuple):
    producers: tuple[TensorUse, ...]
    consumers: tuple[TensorUse, ...]


def tensor_uses(config: Any) -> dict[str, TensorUses]:
    """Every ensemble tensor of a bound ModelConfig, by name.

    Produced by an ensemble input or a step's ``output_map`` value; consumed by a step's
    ``input_map`` value or an ensemble output.
    """
    producers: dict[str, list[TensorUse]] = {}
    consumers: dict[str, list[TensorUse]] = {}
    for index, tensor in enumerate(config.input):
        producers.setdefault(tensor.name, []).append(
            TensorUse("ensemble input", ("input", index, "name"))
        )
    for number, step in enumerate(config.ensemble_scheduling.step):
        base = ("ensemble_scheduling", "step", number)
        label = f"step {number} ({step.model_name})"
        for key, value in step.input_map.items():
            consumers.setdefault(value, []).append(
                TensorUse(f"{label} input {key}", (*base, "input_map", key, "value"))
            )
        for key, value in step.output_map.items():
            producers.setdefault(value, []).append(
                TensorUse(f"{label} output {key}", (*base, "output_map", key, "value"))
            )
    for index, tensor in enumerate(config.output):
        consumers.setdefault(tensor.name, []).append(
            TensorUse("ensemble output", ("output", index, "name"))
        )
    return {
        name: TensorUses(tuple(producers.get(name, ())), tuple(consumers.get(name, ())))
        for name in {**producers, **consumers}
    }


def use_span(source_map: SourceMap, use: TensorUse) -> Span | None:
    location = source_map.get(use.path)
    return location.value if location is not None else None
