"""The outline of a config: the model, its tensors, batching, instance groups, ensemble steps
and parameters, each with the span it covers and the span of its name."""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Any, NamedTuple

from tritonlint.editor.context import Source, read
from tritonlint.editor.tensors import data_type_name, shape_text
from tritonlint.span import Span

if TYPE_CHECKING:
    from tritonlint.schema.releases import Schema
    from tritonlint.schema.source_map import Location, SourceMap
    from tritonlint.schema.source_map import Path as FieldPath


class SymbolKind(Enum):
    MODEL = "model"
    TENSOR = "tensor"
    #: ``dynamic_batching``, ``sequence_batching``.
    SECTION = "section"
    INSTANCE_GROUP = "instance group"
    STEP = "step"
    PARAMETER = "parameter"


class Symbol(NamedTuple):
    name: str
    kind: SymbolKind
    detail: str
    #: Everything the symbol covers.
    span: Span
    #: Its name (inside ``span``): what an editor selects when the symbol is picked.
    selection: Span
    children: tuple[Symbol, ...] = ()


def symbols(source: Source, schema: Schema) -> list[Symbol]:
    """The model of ``source`` with its parts as children, in document order (empty for a
    text that names nothing)."""
    document = read(source, schema)
    config: Any = document.config
    text = document.text
    if config is None or document.bound is None or text is None:
        return []
    outline = _Outline(text, document.bound.source_map)
    children = [*outline.tensors(config, "input"), *outline.tensors(config, "output")]
    for name in ("dynamic_batching", "sequence_batching"):
        location = outline.spans.get((name,))
        if location is not None:
            span = outline.whole(location)
            children.append(Symbol(name, SymbolKind.SECTION, "", span, location.name))
    children.extend(outline.instance_groups(config))
    children.extend(outline.steps(config))
    children.extend(outline.parameters(config))
    whole = _text_span(text)
    written = outline.spans.get(("name",))
    selection = written.value if written is not None else Span.point(1, 1, 0)
    detail = config.platform or config.backend
    children.sort(key=lambda symbol: symbol.span.start)
    return [
        Symbol(config.name or "model", SymbolKind.MODEL, detail, whole, selection, tuple(children))
    ]


class _Outline:
    def __init__(self, text: str, spans: SourceMap) -> None:
        self.text = text
        self.spans = spans

    def whole(self, location: Location) -> Span:
        """The span of a message written as ``name { … }``, or of a list element ``{ … }``."""
        between = self.text[location.name.end : location.value.start]
        return (
            location.name.cover(location.value) if not between.strip(" \t\r\n:") else location.value
        )

    def _named(self, path: FieldPath, name_field: str) -> tuple[Span, Span] | None:
        """The whole span of the message at ``path`` and the span of its ``name_field``."""
        location = self.spans.get(path)
        if location is None:
            return None
        span = self.whole(location)
        name = self.spans.get((*path, name_field))
        return span, name.value if name is not None else Span.point(*span[:2], span.start)

    def tensors(self, config: Any, field: str) -> list[Symbol]:
        found = []
        for index, tensor in enumerate(getattr(config, field)):
            spans = self._named((field, index), "name")
            if spans is not None:
                detail = f"{data_type_name(tensor)} {shape_text(list(tensor.dims))}"
                found.append(Symbol(tensor.name or field, SymbolKind.TENSOR, detail, *spans))
        return found

    def instance_groups(self, config: Any) -> list[Symbol]:
        found = []
        for index, group in enumerate(config.instance_group):
            spans = self._named(("instance_group", index), "name")
            if spans is not None:
                kind = group.DESCRIPTOR.fields_by_name["kind"].enum_type.values_by_number
                detail = kind[group.kind].name if group.kind in kind else str(group.kind)
                if group.count:
                    detail += f", count {group.count}"
                name = group.name or f"instance_group {index}"
                found.append(Symbol(name, SymbolKind.INSTANCE_GROUP, detail, *spans))
        return found

    def steps(self, config: Any) -> list[Symbol]:
        found = []
        for index, step in enumerate(config.ensemble_scheduling.step):
            spans = self._named(("ensemble_scheduling", "step", index), "model_name")
            if spans is not None:
                name = step.model_name or f"step {index}"
                found.append(Symbol(name, SymbolKind.STEP, f"step {index}", *spans))
        return found

    def parameters(self, config: Any) -> list[Symbol]:
        found = []
        for key, value in config.parameters.items():
            spans = self._named(("parameters", key), "key")
            if spans is not None:
                found.append(Symbol(key, SymbolKind.PARAMETER, value.string_value, *spans))
        return found


def _text_span(text: str) -> Span:
    lines = text.split("\n")
    return Span(1, 1, len(lines), len(lines[-1]) + 1, 0, len(text))
