"""The backend's own ``parameters`` keys at the cursor: which keys and values to offer, and
what a written key means.

The backend is the one the server would run the config with (``backend:``, or the one
``platform:``, the model file name or the model folder's files imply; see
:mod:`tritonlint.repository.server_fill_in`); only the keys it reads in the targeted release are
offered.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from tritonlint.editor.context import CursorContext, Position
from tritonlint.editor.model_tensors import model_folder
from tritonlint.repository.backend_parameters import Parameter, parameter, parameters_of
from tritonlint.repository.server_fill_in import complete
from tritonlint.schema.scalars import unescape
from tritonlint.syntax.cst import Message, Scalar, ScalarKind

if TYPE_CHECKING:
    from tritonlint.document import ConfigDocument
    from tritonlint.repository.model import Repository
    from tritonlint.syntax.cst import SyntaxTree


class Offer(NamedTuple):
    """A key or value to complete (inserted quoted)."""

    value: str
    detail: str
    documentation: str


def _backend_of(config: Any, path: Path | None, repository: Repository | None) -> str:
    """The backend the server runs ``config`` (the config file at ``path``) with; empty when
    it cannot tell."""
    return complete(model_folder(path, repository), config).backend


def offers(
    document: ConfigDocument,
    context: CursorContext,
    release: str,
    path: Path | None,
    repository: Repository | None,
) -> list[Offer] | None:
    """The keys to offer at the key of a ``parameters`` entry, or the values to offer in its
    ``value { string_value: ... }``; None when the cursor is at neither."""
    index = _entry_index(context)
    if index is None or document.syntax is None:
        return None
    at_key = context.field == "key" and len(context.path) == 2
    at_value = context.field == "string_value" and context.path[2:] == ("value",)
    if not (at_key or at_value):
        return None
    backend = _backend_of(document.config, path, repository)
    keys = _entry_keys(document.syntax.document)
    if at_key:
        others = {key for number, key in enumerate(keys) if number != index}
        return [
            Offer(known.key, f"{backend} parameter, {known.kind.value}", _documentation(known))
            for known in parameters_of(backend, release)
            if known.key not in others
        ]
    key = keys[index] if index < len(keys) else None
    known = parameter(backend, key, release) if key is not None else None
    if known is None:
        return []
    return [Offer(choice.value, f"{key} value", choice.meaning) for choice in known.values]


def key_hover(
    text: str,
    document: ConfigDocument,
    context: CursorContext,
    release: str,
    path: Path | None,
    repository: Repository | None,
) -> str | None:
    """What the key of a ``parameters`` entry under the cursor means to the config's backend
    (None: not such a key, or one the backend does not know)."""
    if _entry_index(context) is None or context.field != "key" or len(context.path) != 2:
        return None
    key = text[context.replace.start : context.replace.end].strip('"')
    backend = _backend_of(document.config, path, repository)
    known = parameter(backend, key, release) or parameter(backend, key)
    if known is None:
        return None
    lines = [
        f"**{known.key}**: `{known.kind.value}`, a parameter of the {backend} backend",
        _documentation(known),
    ]
    if not known.read_in(release):
        lines.append(f"Not read by the {backend} backend of Triton {release} ({_span(known)})")
    return "\n\n".join(lines)


def _documentation(known: Parameter) -> str:
    """The key's meaning, with its values where the backend names them."""
    if not known.choices:
        return known.meaning
    values = "; ".join(f"`{choice.value}` {choice.meaning}".rstrip() for choice in known.choices)
    return f"{known.meaning}\n\nValues: {values}"


def _span(known: Parameter) -> str:
    """The releases that read a key, for a release that does not."""
    first = f"first read in Triton {known.since}" if known.since is not None else ""
    last = f"no longer read from Triton {known.until} on" if known.until is not None else ""
    return ", ".join(part for part in (first, last) if part)


def _entry_index(context: CursorContext) -> int | None:
    """The index of the top-level ``parameters`` entry the cursor is in, if any."""
    path = context.path
    if context.position is not Position.VALUE or len(path) < 2 or path[0] != "parameters":
        return None
    return path[1] if isinstance(path[1], int) else None


def _entry_keys(document: SyntaxTree) -> list[str | None]:
    """The key written in each top-level ``parameters`` entry, in the order written (None
    where an entry has no string key)."""
    return [
        _key(message)
        for field in document.fields
        if field.name.text == "parameters"
        for message in field.messages()
    ]


def _key(message: Message) -> str | None:
    for field in message.fields:
        value = field.value
        if field.name.text == "key" and isinstance(value, Scalar):
            if value.kind is not ScalarKind.STRING or value.missing:
                return None
            raw = unescape([token.text for token in value.tokens])
            return raw.decode("utf-8", "replace") if isinstance(raw, bytes) else None
    return None
