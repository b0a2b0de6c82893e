"""What may be typed at the cursor: field names, enum values, backends, models, tensors,
the backend's ``parameters`` keys and their values.

Only what the targeted release's schema has is offered. Items are not filtered by what is
typed: an editor matches them against the word at the cursor (``replace``) itself.

No item, accepted where it is offered, makes text that does not parse: inside the ``[ ]`` of
a list of messages (``input [`` and a new line) the only item is an element, ``{ }``, and only
where an element may begin (after the ``[`` or a ``,``); never a field name, which would
write ``input [ input [ ... ] ]``. Enum values the server refuses (``TYPE_INVALID``) are not
offered.
"""

from __future__ import annotations

import re
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from google.protobuf.descriptor import FieldDescriptor

from tritonlint.editor.context import CursorContext, Position, Source, locate
from tritonlint.editor.ensemble import tensor_uses
from tritonlint.editor.model_tensors import config_dims, config_model_file, entry_side, spec_text
from tritonlint.editor.parameters import offers
from tritonlint.editor.tensors import describe
from tritonlint.repository.server_fill_in import ENSEMBLE, KNOWN_BACKENDS, PLATFORMS
from tritonlint.schema.binder import enum_type, is_map, type_label
from tritonlint.span import Span

if TYPE_CHECKING:
    from google.protobuf.descriptor import Descriptor

    from tritonlint.repository.model import Repository
    from tritonlint.schema.releases import Schema


#: The enum values that say "no value" (``TYPE_INVALID``), which the server refuses.
_REFUSED_SUFFIX = "_INVALID"


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
    *,
    typed: bool = False,
) -> list[Completion]:
    """What may be typed at ``line``/``column`` of ``source`` (the config at ``path``, a
    model of ``repository``).

    ``typed``: asked for because a character was typed (not by the user): then nothing is
    offered right after a ``{`` or the ``[`` of a list of messages just opened, where the
    user goes on to type a name or a brace, not to pick from a list.
    """
    document, context = locate(source, line, column, schema)
    if context.message is None:
        return []
    text = document.text or ""
    if typed and _just_opened(context, text):
        return []
    if _in_comment(text, context.replace.start):
        return []
    if context.position is Position.NAME:
        if _after_bare_name(text, context.replace.start):
            return []  # `input |`: the name's value comes next, not another name
        shape = _written_value(text, context.replace.end)
        if shape is not None and context.replace.start == context.replace.end:
            return []  # between a name and its value: nothing goes there
        return _field_names(context.message, context, shape)
    if context.position is Position.ELEMENT:
        return _element(context, text)
    if context.replace.start == context.replace.end and _before_value(text, context.replace.end):
        return []  # before a value written already: a second one would not parse
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


class _Shape(Enum):
    """What follows a field name already written: the value a new name must fit."""

    SCALAR = "scalar"
    SCALARS = "list of scalars"
    MESSAGE = "message"
    MESSAGES = "list of messages"


def _field_names(
    message: Descriptor, context: CursorContext, shape: _Shape | None = None
) -> list[Completion]:
    """The fields that may be named at the cursor: with a snippet of their value where the
    name is new; where the name of a field with its value is being changed (``shape``: that
    value's), the names of the fields that value fits, alone."""
    taken = {name for name in context.present if _single(message, name)}
    for name in list(taken):
        oneof = message.fields_by_name[name].containing_oneof
        if oneof is not None:
            taken.update(field.name for field in oneof.fields)
    return [
        Completion(
            field.name,
            CompletionKind.FIELD,
            field_detail(field),
            *(_snippet(field) if shape is None else (field.name, False)),
            context.replace,
        )
        for field in message.fields
        if field.name not in taken and (shape is None or _fits(field, shape))
    ]


def _written_value(text: str, offset: int) -> _Shape | None:
    """The shape of the value written after the name that ends at ``offset`` (None: no value
    follows, the name is new)."""
    rest = text[offset:].lstrip(" \t")
    colon = rest.startswith(":")
    if colon:
        rest = rest[1:].lstrip()
    if rest.startswith("{"):
        return _Shape.MESSAGE
    if rest.startswith("["):
        return _Shape.MESSAGES if rest[1:].lstrip().startswith("{") else _Shape.SCALARS
    return _Shape.SCALAR if colon else None


def _fits(field: FieldDescriptor, shape: _Shape) -> bool:
    """Whether a value of ``shape`` may follow the name of ``field``."""
    message = field.type == FieldDescriptor.TYPE_MESSAGE
    if shape is _Shape.MESSAGE:
        return message
    if shape is _Shape.MESSAGES:
        return message and field.is_repeated
    if shape is _Shape.SCALARS:
        return not message and field.is_repeated
    return not message


def _element(context: CursorContext, text: str) -> list[Completion]:
    """An element of the list of messages the cursor is in, where one may begin."""
    field = context.field_descriptor
    if field is None or field.type != FieldDescriptor.TYPE_MESSAGE:
        return []
    if not opens_element(text, context.replace.start):
        return []
    detail = f"an element of {field.name}, {type_label(field)}"
    comma = "," if _next_significant(text, context.replace.end) == "{" else ""  # before another
    snippet = "{\n  $0\n}" + comma
    return [Completion("{ }", CompletionKind.VALUE, detail, snippet, True, context.replace)]


def _just_opened(context: CursorContext, text: str) -> bool:
    """Whether the cursor follows a ``{``, or the ``[`` of a list of messages."""
    last = _last_token(text, context.replace.start)
    if context.position is Position.ELEMENT:
        return last == "["
    return context.position is Position.NAME and last == "{"


def opens_element(text: str, offset: int) -> bool:
    """Whether the last thing before ``offset`` (spaces and comments aside) is a ``[`` or a
    ``,``: where a list's next element begins."""
    return _last_token(text, offset) in ("[", ",")


def _last_token(text: str, offset: int) -> str:
    """The last character before ``offset`` that is neither space nor in a comment."""
    at = _last_token_at(text, offset)
    return text[at] if at >= 0 else ""


def _last_token_at(text: str, offset: int) -> int:
    """Where the last character before ``offset`` that is neither space nor in a comment is
    (-1: none)."""
    line_start = text.rfind("\n", 0, offset) + 1
    end = offset
    while True:
        line = text[line_start:end]
        comment = _comment_start(line)
        if comment is not None:
            line = line[:comment]
        stripped = line.rstrip()
        if stripped:
            return line_start + len(stripped) - 1
        if line_start == 0:
            return -1
        end = line_start - 1
        line_start = text.rfind("\n", 0, end) + 1


def _after_bare_name(text: str, offset: int) -> bool:
    """Whether the last thing before ``offset`` is a field's name that has no value yet
    (``input |``): a word that no ``:`` or sign (a value), ``[`` or ``,`` (an element) comes
    before."""
    end = _last_token_at(text, offset)
    if end < 0 or not _word_character(text[end]):
        return False
    start = end
    while start > 0 and _word_character(text[start - 1]):
        start -= 1
    if not (text[start].isalpha() or text[start] == "_"):
        return False  # a number
    return _last_token(text, start) not in (":", "[", ",", "-", "+")


def _word_character(character: str) -> bool:
    return character.isalnum() or character in "_."


#: What may follow a value (``""``: the end of the text; ``"\n"``: of the line): a cursor
#: before one of them is not before a value already written.
_AFTER_VALUE = frozenset({"", "]", "}", ">", ",", ";", "\n"})


def _next_token(text: str, offset: int) -> str:
    """The first character after ``offset`` that is not a space or tab (``"\n"`` at the end
    of the line or a comment, ``""`` at the end of the text)."""
    rest = text[offset:].lstrip(" \t\r")
    if rest.startswith("#"):
        return "\n"
    return rest[:1]


def _before_value(text: str, offset: int) -> bool:
    """Whether a value follows ``offset`` on its line (not a field's name, which is followed
    by ``:``, ``{`` or ``[``)."""
    if _next_token(text, offset) in _AFTER_VALUE:
        return False
    rest = text[offset:].lstrip(" \t")
    word = re.match(r"[A-Za-z_][A-Za-z0-9_.]*", rest)
    if word is None:
        return True
    return not rest[word.end() :].lstrip(" \t").startswith((":", "{", "["))


def _next_significant(text: str, offset: int) -> str:
    """The first character after ``offset`` that is neither space nor in a comment (``""``
    at the end of the text)."""
    while True:
        token = _next_token(text, offset)
        if token != "\n":
            return token
        offset = text.find("\n", offset) + 1
        if offset == 0:
            return ""


def _in_comment(text: str, offset: int) -> bool:
    """Whether ``offset`` is inside a ``#`` comment."""
    line_start = text.rfind("\n", 0, offset) + 1
    return _comment_start(text[line_start:offset]) is not None


def _comment_start(line: str) -> int | None:
    """Where a ``#`` comment starts in ``line`` (not one inside a string), or None."""
    quote: str | None = None
    escaped = False
    for index, char in enumerate(line):
        if quote is not None:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = None
        elif char in "\"'":
            quote = char
        elif char == "#":
            return index
    return None


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
            if not value.name.endswith(_REFUSED_SUFFIX)
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
