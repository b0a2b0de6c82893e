"""Inlay hints: the shape the server gives each input and output of a batching model."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from tritonlint.editor.context import Source, read
from tritonlint.editor.tensors import full_shape, shape_text
from tritonlint.span import Span

if TYPE_CHECKING:
    from tritonlint.schema.releases import Schema


class InlayHint(NamedTuple):
    #: An empty span: where the hint is shown (just after the dims as written).
    position: Span
    label: str


def inlay_hints(source: Source, schema: Schema) -> list[InlayHint]:
    """After the ``dims`` of each input and output, ``→ [-1, …]``: the full shape with the
    batch dimension, when the model batches (``max_batch_size`` > 0). Without batching the
    shape is the dims as written, and there is nothing to add."""
    document = read(source, schema)
    config: Any = document.config
    if config is None or document.bound is None or config.max_batch_size <= 0:
        return []
    spans = document.bound.source_map
    hints = []
    for field in ("input", "output"):
        for index, tensor in enumerate(getattr(config, field)):
            if not tensor.dims:
                continue
            # A list ends at its ``]``; dims written as repeated fields end at the last one.
            ends = [
                location.value
                for location in (
                    spans.get((field, index, "dims")),
                    spans.get((field, index, "dims", len(tensor.dims) - 1)),
                )
                if location is not None
            ]
            if not ends:
                continue
            end = max(ends, key=lambda span: span.end)
            label = "→ " + shape_text(full_shape(tensor.dims, config.max_batch_size))
            hints.append(InlayHint(Span.point(end.end_line, end.end_column, end.end), label))
    return sorted(hints, key=lambda hint: hint.position.start)
