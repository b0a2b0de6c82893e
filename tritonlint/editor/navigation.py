"""Go to definition and find references: model names, step tensors and ensemble tensors.

Three kinds of name link configs together:

* a model's ``name``, which an ensemble step names in ``model_name``;
* a model's input or output name, which a step maps as an ``input_map``/``output_map`` key;
* an ensemble tensor, produced by an ensemble input or a step's ``output_map`` value and
  consumed by a step's ``input_map`` value or an ensemble output.

The file being edited is read from its text (so that unsaved changes count); the other
configs of the repository as they are on disk.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from tritonlint.editor.context import CursorContext, Position, Source, locate
from tritonlint.editor.ensemble import tensor_uses, use_span
from tritonlint.span import Span

if TYPE_CHECKING:
    from tritonlint.document import ConfigDocument
    from tritonlint.repository.model import Repository
    from tritonlint.schema.releases import Schema
    from tritonlint.schema.source_map import Path as FieldPath


class Place(NamedTuple):
    """A span in a file."""

    path: Path
    span: Span


#: Where a file is pointed at when no better place is known: its start.
FILE_START = Span(1, 1, 1, 1, 0, 0)

_MAPS = ("input_map", "output_map")


def definition(
    source: Source,
    line: int,
    column: int,
    schema: Schema,
    path: Path,
    repository: Repository | None = None,
) -> list[Place]:
    """Where the name at ``line``/``column`` of ``source`` (the config at ``path``) is
    defined.

    A step's ``model_name``: that model's config, at its ``name`` value (the file's start
    when it has none). A map key: the step model's input or output of that name. A map
    value: where that ensemble tensor is produced (an ensemble input, or a step output).
    Empty when the name is none of these, or names nothing known.
    """
    document, context = locate(source, line, column, schema)
    config: Any = document.config
    word = _word(document.text or "", context)
    if config is None or word is None or context.step is None:
        return []
    if _in_step(context) and context.field == "model_name":
        return [_model_place(model) for model in _models(repository, word)]
    if not _in_map(context):
        return []
    if context.field == "key":
        model_name = _step_model(config, context.step)
        return _tensor_declarations(repository, model_name, context.path[-2], word)
    if context.field == "value":
        uses = tensor_uses(config).get(word)
        spans = [use_span(_source_map(document), use) for use in uses.producers] if uses else []
        return [Place(path, span) for span in spans if span is not None]
    return []


def references(
    source: Source,
    line: int,
    column: int,
    schema: Schema,
    path: Path,
    repository: Repository | None = None,
    *,
    include_declaration: bool = True,
) -> list[Place]:
    """Every place that names what the name at ``line``/``column`` names, by file and
    position.

    An ensemble tensor (a map value, or the ensemble's input or output name): each place in
    the ensemble that produces or consumes it. A model's input or output (its name, or a
    step's map key for it): each map key in the repository's ensembles that maps it. A
    model (its ``name``, or a step's ``model_name``): each step in the repository naming it.
    ``include_declaration`` adds the model's or tensor's own name.
    """
    document, context = locate(source, line, column, schema)
    config: Any = document.config
    word = _word(document.text or "", context)
    if config is None or word is None:
        return []
    documents = dict(_documents(path, document, repository))
    places: list[Place] = []
    if context.path == () and context.field == "name":
        places = _model_references(documents, word, path if include_declaration else None)
    elif context.step is not None and _in_step(context) and context.field == "model_name":
        places = _model_references(documents, word, None)
        if include_declaration:
            places.extend(_model_place(model) for model in _models(repository, word))
    elif context.step is not None and _in_map(context) and context.field == "value":
        places = _tensor_references(path, document, word)
    elif context.step is not None and _in_map(context) and context.field == "key":
        model_name = _step_model(config, context.step)
        places = _key_references(documents, model_name, context.path[-2], word)
        if include_declaration:
            places.extend(_tensor_declarations(repository, model_name, context.path[-2], word))
    elif _is_tensor_name(context):
        kind = "input_map" if context.path[0] == "input" else "output_map"
        places = _key_references(documents, config.name, kind, word)
        if _source_map(document).get(("ensemble_scheduling",)) is not None:
            places.extend(_tensor_references(path, document, word))
        if include_declaration:
            places.append(Place(path, context.replace))
    return sorted(set(places), key=lambda place: (str(place.path), place.span.start))


def _word(text: str, context: CursorContext) -> str | None:
    """The string value at the cursor, unquoted (None at a field name or a blank)."""
    if context.position is not Position.VALUE or context.replace.start == context.replace.end:
        return None
    return text[context.replace.start : context.replace.end].strip("\"'")


def _in_step(context: CursorContext) -> bool:
    return bool(context.path) and context.path[-1] == context.step


def _is_tensor_name(context: CursorContext) -> bool:
    """Whether the cursor is at the name of one of the model's inputs or outputs."""
    return (
        len(context.path) == 2
        and context.path[0] in ("input", "output")
        and context.field == "name"
    )


def _in_map(context: CursorContext) -> bool:
    return len(context.path) >= 2 and context.path[-2] in _MAPS


def _step_model(config: Any, index: int) -> str:
    """The model step ``index`` names ("" where the binder left the step out)."""
    steps = config.ensemble_scheduling.step
    return str(steps[index].model_name) if index < len(steps) else ""


def _source_map(document: ConfigDocument) -> Any:
    assert document.bound is not None  # a document with a config is bound
    return document.bound.source_map


def _models(repository: Repository | None, name: str) -> list[Any]:
    model = repository.model(name) if repository is not None else None
    return [model] if model is not None else []


def _model_place(model: Any) -> Place:
    document = model.config
    location = _source_map(document).get(("name",)) if document and document.bound else None
    return Place(model.config_path, location.value if location is not None else FILE_START)


def _documents(
    path: Path, document: ConfigDocument, repository: Repository | None
) -> Iterator[tuple[Path, ConfigDocument]]:
    """Every config of the repository, the one at ``path`` as ``document`` (edited)."""
    yield path, document
    for model in repository.models if repository is not None else ():
        other = model.config
        if model.config_path != path and other is not None and other.bound is not None:
            yield model.config_path, other


def _tensor_declarations(
    repository: Repository | None, model_name: str, kind: str | int, name: str
) -> list[Place]:
    """The input (``kind`` ``input_map``) or output of model ``model_name`` called ``name``."""
    places = []
    for model in _models(repository, model_name):
        document = model.config
        if document is None or document.config is None:
            continue
        field = "input" if kind == "input_map" else "output"
        for index, tensor in enumerate(getattr(document.config, field)):
            location = _source_map(document).get((field, index, "name"))
            if tensor.name == name and location is not None:
                places.append(Place(model.config_path, location.value))
    return places


def _model_references(
    documents: dict[Path, ConfigDocument], name: str, declared_in: Path | None
) -> list[Place]:
    """Every step naming model ``name``, and its ``name`` in ``declared_in``, if given."""
    places = []
    for path, document in documents.items():
        config: Any = document.config
        spans = _source_map(document)
        if path == declared_in and config.name == name:
            places.append(Place(path, spans.get(("name",)).value))
        for index, step in enumerate(config.ensemble_scheduling.step):
            location = spans.get(("ensemble_scheduling", "step", index, "model_name"))
            if step.model_name == name and location is not None:
                places.append(Place(path, location.value))
    return places


def _key_references(
    documents: dict[Path, ConfigDocument], model_name: str, kind: str | int, name: str
) -> list[Place]:
    """Every ``kind`` (``input_map``/``output_map``) key ``name`` of a step of ``model_name``."""
    places = []
    for path, document in documents.items():
        config: Any = document.config
        for index, step in enumerate(config.ensemble_scheduling.step):
            if step.model_name != model_name or name not in getattr(step, str(kind)):
                continue
            field_path: FieldPath = ("ensemble_scheduling", "step", index, kind, name, "key")
            location = _source_map(document).get(field_path)
            if location is not None:
                places.append(Place(path, location.value))
    return places


def _tensor_references(path: Path, document: ConfigDocument, name: str) -> list[Place]:
    uses = tensor_uses(document.config).get(name)
    if uses is None:
        return []
    spans = (use_span(_source_map(document), use) for use in (*uses.producers, *uses.consumers))
    return [Place(path, span) for span in spans if span is not None]
