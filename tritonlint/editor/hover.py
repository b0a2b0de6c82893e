"""What hovering over a config shows: a field's meaning, type, default and first release;
the full shape of ``dims``; a step model's inputs and outputs; an ensemble tensor's uses; what
a ``parameters`` key means to the config's backend."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from google.protobuf.descriptor import FieldDescriptor

from tritonlint.editor.completion import field_detail
from tritonlint.editor.context import CursorContext, MessagePath, Position, Source, locate
from tritonlint.editor.descriptions import description
from tritonlint.editor.ensemble import tensor_uses
from tritonlint.editor.model_tensors import (
    config_model_file,
    differences,
    entry_side,
    model_shape,
)
from tritonlint.editor.parameters import key_hover
from tritonlint.editor.tensors import data_type_name, full_shape, shape_text
from tritonlint.schema.history import field_history
from tritonlint.schema.releases import available_releases
from tritonlint.span import Span

if TYPE_CHECKING:
    from tritonlint.modelfiles.signature import TensorSpec
    from tritonlint.repository.model import Repository
    from tritonlint.schema.releases import Schema


class Hover(NamedTuple):
    #: The word hovered.
    span: Span
    #: Markdown.
    text: str


def hover(
    source: Source,
    line: int,
    column: int,
    schema: Schema,
    repository: Repository | None = None,
    path: Path | None = None,
) -> Hover | None:
    """What to show for the word at ``line``/``column`` of ``source``, the config at ``path``
    (None: nothing known about it)."""
    document, context = locate(source, line, column, schema)
    text = document.text or ""
    field = context.field_descriptor
    if field is None or context.replace.start == context.replace.end:
        return None
    config: Any = document.config
    parameter = key_hover(text, document, context, schema.release, path, repository)
    if parameter is not None:
        return Hover(context.replace, parameter)
    parts = (
        [] if context.position is Position.NAME else _value_notes(text, context, config, repository)
    )
    if not parts:
        parts = [_field_text(field)]
        if context.position is Position.VALUE and field.name == "name":
            parts[:0] = _model_file_notes(config, context.path, path, repository)
    if field.name == "dims" and context.path[:1] in (("input",), ("output",)):
        tensor = _message(config, context.path)
        if tensor is not None:
            shape = shape_text(full_shape(tensor.dims, config.max_batch_size))
            parts.append(f"Shape the server uses: `{shape}`")
    return Hover(context.replace, "\n\n".join(parts))


def _field_text(field: FieldDescriptor) -> str:
    lines = [f"**{field.name}**: `{field_detail(field)}`"]
    meaning = description(field.full_name)
    owner = field.containing_type
    assert owner is not None  # a field of a message, not an extension
    lines.append(meaning or f"A field of `{owner.full_name}`.")
    default = _default(field)
    if default is not None:
        lines.append(f"Default: `{default}`")
    history = field_history(field.full_name)
    if history is not None:
        if history.added == available_releases()[0]:
            lines.append(f"In every release covered (Triton {history.added} on)")
        else:
            lines.append(f"Added in Triton {history.added}")
    return "\n\n".join(lines)


def _default(field: FieldDescriptor) -> str | None:
    if field.is_repeated or field.type == FieldDescriptor.TYPE_MESSAGE:
        return None
    if field.type == FieldDescriptor.TYPE_ENUM:
        assert field.enum_type is not None
        return str(field.enum_type.values_by_number[field.default_value].name)
    if field.type == FieldDescriptor.TYPE_STRING:
        return '""'
    if field.type == FieldDescriptor.TYPE_BOOL:
        return "true" if field.default_value else "false"
    return str(field.default_value)


def _message(config: Any, path: MessagePath) -> Any | None:
    """The bound message at ``path`` (None where the binder left it out)."""
    message = config
    for part in path:
        try:
            message = message[part] if isinstance(part, int) else getattr(message, part)
        except (AttributeError, IndexError, TypeError):
            return None
    return message


def _value_notes(
    text: str, context: CursorContext, config: Any, repository: Repository | None
) -> list[str]:
    if context.step is None or config is None:
        return []
    if context.field == "model_name" and context.path[-1] == context.step:
        step: Any = _message(config, context.path)
        target = repository.model(step.model_name) if step is not None and repository else None
        composing: Any = target.config.config if target and target.config else None
        if composing is None:
            return []
        return [_model_text(step.model_name, composing)]
    if context.field == "value" and len(context.path) >= 2:
        if context.path[-2] not in ("input_map", "output_map"):
            return []
        name = text[context.replace.start : context.replace.end].strip('"')
        uses = tensor_uses(config).get(name)
        if uses is None:
            return []
        produced = [use.description for use in uses.producers] or ["nothing"]
        consumed = [use.description for use in uses.consumers] or ["nothing"]
        return [
            f"Ensemble tensor **{name}**\n\nProduced by: {', '.join(produced)}\n\n"
            f"Consumed by: {', '.join(consumed)}"
        ]
    return []


def _model_file_notes(
    config: Any, entry: MessagePath, path: Path | None, repository: Repository | None
) -> list[str]:
    """How the model file declares the tensor that the input or output entry at ``entry``
    names, and whether the entry matches it (nothing where no model file is read)."""
    side = entry_side(entry)
    tensor = _message(config, entry) if side is not None and config is not None else None
    if tensor is None or side is None:
        return []
    found = config_model_file(config, path, repository)
    if found is None:
        return []
    if found.problem is not None:
        return [f"The model file, {found.title}, could not be read: {found.problem}"]
    if found.signature is None:
        return []
    index = entry[1]
    assert isinstance(index, int)
    names = [written.name for written in getattr(config, side)]
    match = found.match(side, names, index)
    if match is None:
        known = ", ".join(f"`{t.name}`" for t in found.tensors(side)) or "none that can be read"
        return [
            f"`{tensor.name}` is not an {side} of the model file, {found.title}. "
            f"Its {side}s: {known}"
        ]
    spec = match.tensor.spec
    unnamed = found.file.format == "torchscript" and side == "output"
    name = "none in TorchScript" if unnamed else f"`{spec.name}`"
    shape = model_shape(spec)
    lines = [
        f"**Model file**: {found.title}",
        f"- name: {name} ({side} {match.tensor.index}, matched {match.how})\n"
        f"- element type: {_element_type(spec, found.file.format)}\n"
        f"- shape: {f'`{shape}`' if shape is not None else 'unknown'}",
    ]
    if spec.data_type is None and spec.dims is None:
        lines.append("The file gives no element type or shape to compare.")
        return ["\n\n".join(lines)]
    found_differences = differences(
        spec, tensor, found.folder.name, found.backend, side, config.max_batch_size
    )
    if found_differences:
        lines.append(
            "Differs from the config:\n" + "\n".join(f"- {line}" for line in found_differences)
        )
    else:
        lines.append("Matches the config.")
    return ["\n\n".join(lines)]


def _element_type(spec: TensorSpec, file_format: str) -> str:
    """The element type as the format writes it, and as Triton names it."""
    written = f"`{spec.source_type}`" if spec.source_type else "not given"
    if spec.data_type is not None:
        return f"{written} ({spec.data_type})"
    if file_format == "torchscript":
        return f"{written} (TorchScript gives no element type)"
    return f"{written} (no Triton data type)"


def _model_text(name: str, model: Any) -> str:
    lines = [f"Model **{name}**"]
    for title, tensors in (("Inputs", model.input), ("Outputs", model.output)):
        lines.append(f"{title}:")
        lines.extend(
            f"- `{tensor.name}` {data_type_name(tensor)} "
            f"`{shape_text(full_shape(tensor.dims, model.max_batch_size))}`"
            for tensor in tensors
        )
    return "\n".join(lines)
