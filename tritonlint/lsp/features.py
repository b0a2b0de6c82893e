"""The editor features: completion, hover, navigation, rename, outline, folding, tokens,
inlay hints and links, answered by :mod:`tritonlint.editor` (formatting is
:mod:`tritonlint.lsp.formatting`'s).

Each request reads the editor's current text of the document as the engine workspace of its
repository has it parsed and bound (the same document its checks read: a request does not
parse the text again), the other configs as the workspace has them (open ones as edited, the
rest from disk) and the schema of the Triton release the workspace targets. A handler that
fails logs why and answers null (no result); the server goes on.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from lsprotocol import types

from tritonlint.editor.completion import completions
from tritonlint.editor.context import CursorContext, Position, Source, context_at
from tritonlint.editor.folding import folding_ranges
from tritonlint.editor.hover import hover
from tritonlint.editor.inlay import inlay_hints
from tritonlint.editor.links import document_links
from tritonlint.editor.navigation import Place, definition, references
from tritonlint.editor.symbols import symbols
from tritonlint.editor.tokens import semantic_tokens
from tritonlint.edits import quote
from tritonlint.lsp import answers
from tritonlint.lsp.positions import Positions, contains
from tritonlint.lsp.projects import Project
from tritonlint.lsp.uris import path_of
from tritonlint.schema.releases import Schema, load_schema

if TYPE_CHECKING:
    from tritonlint.lsp.state import TritonLintServer

_Params = TypeVar("_Params")
_Answer = TypeVar("_Answer")
_Handler = Callable[["TritonLintServer", _Params], _Answer]

#: Characters after which an editor asks for completions unprompted.
TRIGGER_CHARACTERS = [":", " ", '"']


class Request(NamedTuple):
    """What a request about one open document reads."""

    path: Path
    uri: str
    text: str
    #: The text, parsed and bound by the workspace (or the text alone, where the workspace
    #: has another: a file it does not know as the editor has it).
    source: Source
    project: Project
    schema: Schema
    positions: Positions

    def at(self, position: types.Position) -> tuple[int, int]:
        """The engine's line and column of an LSP position in this text."""
        return self.positions.engine(position)

    def location(self, place: Place, ls: TritonLintServer) -> types.Location | None:
        """``place`` as an LSP location (None: its file can no longer be read)."""
        positions = (
            self.positions if place.path == self.path else ls.positions(self.project)(place.path)
        )
        if positions is None:
            return None
        return types.Location(uri=ls.uri_of(place.path), range=positions.range(place.span))


def request(ls: TritonLintServer, uri: str) -> Request | None:
    """The document ``uri`` as the editor has it, with its workspace (None: not a file)."""
    path = path_of(uri)
    if path is None:
        return None
    project = ls.projects.for_file(path)
    text = ls.text_of(uri)
    schema = load_schema(project.workspace.options.triton_version)
    document = project.workspace.document(path)
    source: Source = document if document.text == text else text
    return Request(path, uri, text, source, project, schema, Positions(text, ls.encoding))


def answering(handler: _Handler[_Params, _Answer]) -> _Handler[_Params, _Answer | None]:
    """Make a handler answer null (no result: valid for every request here) after logging
    why, when it fails."""

    @functools.wraps(handler)
    def guarded(ls: TritonLintServer, params: _Params) -> _Answer | None:
        try:
            return handler(ls, params)
        except Exception as error:  # the request is answered; the user reads why in the log
            ls.report_server_error(error, None)
            return None

    return guarded


# -- the requests ------------------------------------------------------------------------------


@answering
def completion(ls: TritonLintServer, params: types.CompletionParams) -> list[types.CompletionItem]:
    found = request(ls, params.text_document.uri)
    if found is None:
        return []
    line, column = found.at(params.position)
    repository = found.project.workspace.repository
    client = _item_capabilities(ls)
    context = params.context
    typed = context is not None and (
        context.trigger_kind == types.CompletionTriggerKind.TriggerCharacter
    )
    offered = completions(
        found.source, line, column, found.schema, repository, found.path, typed=typed
    )
    return answers.completion_items(offered, found.positions, client)


@answering
def hover_text(ls: TritonLintServer, params: types.HoverParams) -> types.Hover | None:
    found = request(ls, params.text_document.uri)
    if found is None:
        return None
    line, column = found.at(params.position)
    repository = found.project.workspace.repository
    shown = hover(found.source, line, column, found.schema, repository, found.path)
    return answers.hover(shown, found.positions) if shown is not None else None


@answering
def go_to_definition(ls: TritonLintServer, params: types.DefinitionParams) -> list[types.Location]:
    found = request(ls, params.text_document.uri)
    if found is None:
        return []
    line, column = found.at(params.position)
    places = definition(
        found.source, line, column, found.schema, found.path, found.project.workspace.repository
    )
    return _locations(found, places, ls)


@answering
def find_references(ls: TritonLintServer, params: types.ReferenceParams) -> list[types.Location]:
    found = request(ls, params.text_document.uri)
    if found is None:
        return []
    line, column = found.at(params.position)
    places = references(
        found.source,
        line,
        column,
        found.schema,
        found.path,
        found.project.workspace.repository,
        include_declaration=params.context.include_declaration,
    )
    return _locations(found, places, ls)


@answering
def prepare_rename(
    ls: TritonLintServer, params: types.PrepareRenameParams
) -> types.PrepareRenamePlaceholder | None:
    """The name at the cursor, when it is one that :func:`rename` renames."""
    found = request(ls, params.text_document.uri)
    if found is None:
        return None
    line, column = found.at(params.position)
    context = context_at(found.source, line, column, found.schema)
    if not _renameable(context) or not _rename_places(found, line, column):
        return None
    word = found.text[context.replace.start : context.replace.end]
    return types.PrepareRenamePlaceholder(
        range=found.positions.range(context.replace), placeholder=word.strip("\"'")
    )


@answering
def rename(ls: TritonLintServer, params: types.RenameParams) -> types.WorkspaceEdit | None:
    """Rename an ensemble tensor, or a model's input or output: every place
    :func:`~tritonlint.editor.navigation.references` finds, in every file it is in."""
    found = request(ls, params.text_document.uri)
    new_text = quote(params.new_name)
    if found is None or new_text is None:
        return None
    line, column = found.at(params.position)
    if not _renameable(context_at(found.source, line, column, found.schema)):
        return None
    changes: dict[str, list[types.TextEdit]] = {}
    for place in _rename_places(found, line, column):
        location = found.location(place, ls)
        if location is not None:
            edit = types.TextEdit(range=location.range, new_text=new_text)
            changes.setdefault(location.uri, []).append(edit)
    return types.WorkspaceEdit(changes=changes) if changes else None


@answering
def links(ls: TritonLintServer, params: types.DocumentLinkParams) -> list[types.DocumentLink]:
    found = request(ls, params.text_document.uri)
    if found is None:
        return []
    return [
        types.DocumentLink(range=found.positions.range(link.span), target=link.target.as_uri())
        for link in document_links(found.source, found.schema, found.path.parent)
    ]


@answering
def outline(ls: TritonLintServer, params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
    found = request(ls, params.text_document.uri)
    if found is None:
        return []
    return [
        answers.document_symbol(symbol, found.positions)
        for symbol in symbols(found.source, found.schema)
    ]


@answering
def folding(ls: TritonLintServer, params: types.FoldingRangeParams) -> list[types.FoldingRange]:
    found = request(ls, params.text_document.uri)
    if found is None:
        return []
    return [answers.folding_range(fold) for fold in folding_ranges(found.source)]


@answering
def tokens(ls: TritonLintServer, params: types.SemanticTokensParams) -> types.SemanticTokens | None:
    found = request(ls, params.text_document.uri)
    if found is None:
        return None
    return answers.semantic_tokens(semantic_tokens(found.source), found.positions)


@answering
def hints(ls: TritonLintServer, params: types.InlayHintParams) -> list[types.InlayHint]:
    found = request(ls, params.text_document.uri)
    if found is None:
        return []
    return [
        answers.inlay_hint(hint, found.positions)
        for hint in inlay_hints(found.source, found.schema)
        if contains(
            params.range, found.positions.position(hint.position.line, hint.position.column)
        )
    ]


# -- helpers -----------------------------------------------------------------------------------


def _locations(found: Request, places: list[Place], ls: TritonLintServer) -> list[types.Location]:
    located = (found.location(place, ls) for place in places)
    return [location for location in located if location is not None]


def _item_capabilities(ls: TritonLintServer) -> types.ClientCompletionItemOptions:
    """What the client takes in a completion item (nothing declared: the defaults)."""
    document = ls.client_capabilities.text_document
    completion = document.completion if document is not None else None
    item = completion.completion_item if completion is not None else None
    return item or types.ClientCompletionItemOptions()


def _renameable(context: CursorContext) -> bool:
    """Whether the cursor is at a name that rename changes everywhere it is used: an input's
    or output's name, or a key or value of a step's ``input_map``/``output_map`` (a model's
    name is not: its folder is named after it)."""
    if context.position is not Position.VALUE or context.replace.start == context.replace.end:
        return False
    path = context.path
    if len(path) == 2 and path[0] in ("input", "output"):
        return context.field == "name"
    in_map = len(path) >= 2 and path[-2] in ("input_map", "output_map")
    return in_map and context.step is not None and context.field in ("key", "value")


def _rename_places(found: Request, line: int, column: int) -> list[Place]:
    """Every place the name at the cursor is written, this one included."""
    repository = found.project.workspace.repository
    places = references(found.source, line, column, found.schema, found.path, repository)
    return list(dict.fromkeys(places))


def register(server: TritonLintServer) -> None:
    """Serve the editor features on ``server``."""
    features: list[tuple[str, Any, Callable[..., Any]]] = [
        (
            types.TEXT_DOCUMENT_COMPLETION,
            types.CompletionOptions(trigger_characters=TRIGGER_CHARACTERS),
            completion,
        ),
        (types.TEXT_DOCUMENT_HOVER, None, hover_text),
        (types.TEXT_DOCUMENT_DEFINITION, None, go_to_definition),
        (types.TEXT_DOCUMENT_REFERENCES, None, find_references),
        (types.TEXT_DOCUMENT_PREPARE_RENAME, None, prepare_rename),
        (types.TEXT_DOCUMENT_RENAME, types.RenameOptions(prepare_provider=True), rename),
        (types.TEXT_DOCUMENT_DOCUMENT_LINK, types.DocumentLinkOptions(), links),
        (types.TEXT_DOCUMENT_DOCUMENT_SYMBOL, None, outline),
        (types.TEXT_DOCUMENT_FOLDING_RANGE, None, folding),
        (
            types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL,
            answers.TOKEN_LEGEND,
            tokens,
        ),
        (types.TEXT_DOCUMENT_INLAY_HINT, None, hints),
    ]
    for method, options, handler in features:
        server.feature(method, options)(handler)
