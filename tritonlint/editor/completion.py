"""What may be typed at the cursor: field names, enum values, backends, models, tensors,
the backend's ``parameters`` keys and their values.

Only what the targeted release's schema has is offered. Items are not filtered by what is
typed: an editor matches them against the word at the cursor (``replace``) itself.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from google.protobuf.descriptor import FieldDescriptor

from tritonlint.editor.context import CursorContext, Position, Source, locate
from tritonlint.editor.ensemble import tensor_uses
from tritonlint.editor.model_file import config_dims, config_model_file, entry_side, spec_text
from tritonlint.editor.parameters import offers
from tritonlint.editor.tensors import describe
from tritonlint.repository.autofill import ENSEMBLE, KNOWN_BACKENDS, PLATFORMS
from tritonlint.schema.binder import enum_type, is_map, type_label
from tritonlint.span import Span

if TYPE_CHECKING:
    from google.protobuf.descriptor import Descriptor

    from tritonlint.repository.model import Repository
    from tritonlint.schema.releases import Schema


class CompletionKind(Enum):
    FIELD = "field"
    ENUM_VALUE = "enum value"
    VALUE = "value"
    MODEL = "model"
    TENSOR = "tensor"
    PARAMETER = "parameter"


class Completion(NamedTuple):
    label: str
    kind: CompletionKind
    #: The field's type, or what a value is.
    detail: str
    #: What replaces :attr:`replace` (string values come quoted).
    insert_text: str
    #: Whether ``insert_text`` is a snippet with ``$0`` / ``$1`` tab stops.
    snippet: bool
    replace: Span
    #: What the item means (Markdown), where there is more to say than :attr:`detail`.
    documentation: str = ""
    #: The likeliest item (the model file's own choice): an editor selects it, listed first.
    preselect: bool = False


def completions(
    source: Source,
    line: int,
    column: int,
    schema: Schema,
    repository: Repository | None = None,
    path: Path | None = None,
) -> list[Completion]:
    """What may be typed at ``line``/``column`` of ``source`` (the config at ``path``, a
    model of ``repository``)."""
    document, context = locate(source, line, column, schema)
    if context.message is None:
        return []
    if context.position is Position.NAME:
        return _field_names(context.message, context)
    parameters = offers(document, context, schema.release, path, repository)
    if parameters is not None:
        kind = CompletionKind.PARAMETER if context.field == "key" else CompletionKind.VALUE
        return [
            _item(offer.value, kind, offer.detail, context, quoted=True, about=offer.documentation)
            for offer in parameters
        ]
    config = document.config
    if config is None:
        return []
    offered = _values(context, config, repository)
    from_file = _from_model_file(context, config, document.text or "", path, repository, offered)
    return from_file if from_file is not None else offered


def _field_names(message: Descriptor, context: CursorContext) -> list[Completion]:
    taken = {name for name in context.present if _single(message, name)}
    for name in list(taken):
        oneof = message.fields_by_name[name].containing_oneof
        if oneof is not None:
            taken.update(field.name for field in oneof.fields)
    return [
        Completion(
            field.name, CompletionKind.FIELD, field_detail(field), *_snippet(field), context.replace
        )
        for field in message.fields
        if field.name not in taken
    ]


def _single(message: Descriptor, name: str) -> bool:
    field = message.fields_by_name.get(name)
    return field is not None and not field.is_repeated


def field_detail(field: FieldDescriptor) -> str:
    """A field's type, ``repeated`` when it is (maps are not called repeated)."""
    label = type_label(field)
    return f"repeated {label}" if field.is_repeated and not is_map(field) else label


def _snippet(field: FieldDescriptor) -> tuple[str, bool]:
    name = field.name
    if field.type == FieldDescriptor.TYPE_MESSAGE:
        if field.is_repeated and not is_map(field):
            return f"{name} [\n  {{\n    $0\n  }}\n]", True
        return f"{name} {{\n  $0\n}}", True
    if field.is_repeated:
        return f"{name}: [ $0 ]", True
    return f"{name}: $0", True


def _values(context: CursorContext, config: Any, repository: Repository | None) -> list[Completion]:
    field = context.field_descriptor
    if field is None:
        return []
    if field.type == FieldDescriptor.TYPE_ENUM:
        enum = enum_type(field)
        return [
            _item(value.name, CompletionKind.ENUM_VALUE, enum.full_name, context)
            for value in enum.values
        ]
    if field.type == FieldDescriptor.TYPE_BOOL:
        return [_item(word, CompletionKind.VALUE, "bool", context) for word in ("true", "false")]
    choices = _string_choices(context, config, repository)
    return [_item(name, kind, detail, context, quoted=True) for name, kind, detail in choices]


def _item(
    name: str,
    kind: CompletionKind,
    detail: str,
    context: CursorContext,
    *,
    quoted: bool = False,
    about: str = "",
) -> Completion:
    text = f'"{name}"' if quoted else name
    return Completion(name, kind, detail, text, False, context.replace, about)


def _string_choices(
    context: CursorContext, config: Any, repository: Repository | None
) -> list[tuple[str, CompletionKind, str]]:
    path, name = context.path, context.field
    if path == () and name == "backend":
        return [(backend, CompletionKind.VALUE, "backend") for backend in KNOWN_BACKENDS]
    if path == () and name == "platform":
        return [
            (platform, CompletionKind.VALUE, f"platform (backend {backend})")
            for platform, (backend, _) in PLATFORMS.items()
        ] + [(ENSEMBLE, CompletionKind.VALUE, "platform")]
    if context.step is None:
        return []
    in_step = path[-1] == context.step
    if in_step and name == "model_name" and repository is not None:
        return [
            (model.name, CompletionKind.MODEL, "model")
            for model in repository.models
            if model.name != config.name
        ]
    if len(path) < 2 or path[-2] not in ("input_map", "output_map"):
        return []
    inputs = path[-2] == "input_map"
    if name == "key":
        step = _step_message(config, context.step)
        target = repository.model(step.model_name) if step and repository else None
        composing: Any = target.config.config if target and target.config else None
        if composing is None:
            return []
        tensors = composing.input if inputs else composing.output
        return [
            (tensor.name, CompletionKind.TENSOR, describe(tensor, composing.max_batch_size))
            for tensor in tensors
        ]
    if name == "value":
        return _ensemble_tensors(config, context.step, inputs)
    return []


def _from_model_file(
    context: CursorContext,
    config: Any,
    text: str,
    path: Path | None,
    repository: Repository | None,
    offered: list[Completion],
) -> list[Completion] | None:
    """What the model file says may be written in an input or output entry: the names of
    its tensors the config does not name yet, a named tensor's data type (first, selected)
    and its dims. None where the file has nothing to add to ``offered``."""
    side = entry_side(context.path)
    if side is None or context.field not in ("name", "data_type", "dims"):
        return None
    found = config_model_file(config, path, repository)
    if found is None:
        return None
    names = [entry.name for entry in getattr(config, side)]
    index = context.path[1]
    assert isinstance(index, int)
    if context.field == "name":
        taken = {name for number, name in enumerate(names) if number != index}
        return [
            _item(
                tensor.name,
                CompletionKind.TENSOR,
                spec_text(tensor.spec),
                context,
                quoted=True,
                about=f"{side.capitalize()} {tensor.index} of the model file, {found.title}",
            )
            for tensor in found.tensors(side)
            if tensor.name not in taken
        ]
    match = found.match(side, names, index)
    if match is None:
        return None
    spec = match.tensor.spec
    about = f"`{match.tensor.name}` in the model file, {found.title}: {spec_text(spec)}"
    if context.field == "data_type":
        chosen = next((item for item in offered if item.label == spec.data_type), None)
        if chosen is None:
            return None
        first = chosen._replace(
            detail=f"{chosen.detail}, the model file's", documentation=about, preselect=True
        )
        return [first, *(item for item in offered if item is not chosen)]
    dims = config_dims(spec, config.max_batch_size)
    snippet = _dims_snippet(dims, text, context) if dims else None
    if snippet is None:
        return None
    label, insert = snippet
    return [
        Completion(
            label,
            CompletionKind.VALUE,
            "dims of the model file",
            insert,
            True,
            context.replace,
            about,
        )
    ]


def _dims_snippet(dims: list[int], text: str, context: CursorContext) -> tuple[str, str] | None:
    """The label and snippet of ``dims`` at the cursor: the whole list after ``dims:``, the
    numbers inside an empty ``[ ]`` (None: the cursor is anywhere else)."""
    before = text[: context.replace.start].rstrip()
    after = text[context.replace.end :].lstrip()
    numbers = ", ".join(f"${{{number}:{dim}}}" for number, dim in enumerate(dims, 1))
    written = ", ".join(str(dim) for dim in dims)
    if before.endswith(":"):
        return f"[ {written} ]", f"[ {numbers} ]$0"
    if before.endswith("[") and (not after or after.startswith("]")):
        return written, f"{numbers}$0"
    return None


def _step_message(config: Any, index: int) -> Any | None:
    steps = config.ensemble_scheduling.step
    return steps[index] if index < len(steps) else None


def _ensemble_tensors(
    config: Any, step: int, inputs: bool
) -> list[tuple[str, CompletionKind, str]]:
    """Tensors a step may read (``inputs``: produced elsewhere) or write (consumed elsewhere),
    other than by this step itself."""
    own = ("ensemble_scheduling", "step", step)
    choices = []
    for name, uses in sorted(tensor_uses(config).items()):
        places = uses.producers if inputs else uses.consumers
        others = [use for use in places if use.path[:3] != own]
        if others:
            choices.append((name, CompletionKind.TENSOR, others[0].description))
    return choices
