"""The answers of :mod:`tritonlint.editor` as LSP types.

Each function takes the editor function's result and a :class:`Positions` of the text its
spans are in (in the encoding agreed with the client).
"""

from __future__ import annotations

import re

from lsprotocol import types

from tritonlint.editor.completion import Completion, CompletionKind
from tritonlint.editor.folding import FoldingRange, FoldKind
from tritonlint.editor.hover import Hover
from tritonlint.editor.inlay import InlayHint
from tritonlint.editor.symbols import Symbol, SymbolKind
from tritonlint.editor.tokens import SemanticToken, TokenType
from tritonlint.lsp.positions import Positions

_COMPLETION_KINDS = {
    CompletionKind.FIELD: types.CompletionItemKind.Field,
    CompletionKind.ENUM_VALUE: types.CompletionItemKind.EnumMember,
    CompletionKind.VALUE: types.CompletionItemKind.Value,
    CompletionKind.MODEL: types.CompletionItemKind.Module,
    CompletionKind.TENSOR: types.CompletionItemKind.Variable,
    CompletionKind.PARAMETER: types.CompletionItemKind.Property,
}
_SYMBOL_KINDS = {
    SymbolKind.MODEL: types.SymbolKind.Module,
    SymbolKind.TENSOR: types.SymbolKind.Variable,
    SymbolKind.SECTION: types.SymbolKind.Namespace,
    SymbolKind.INSTANCE_GROUP: types.SymbolKind.Object,
    SymbolKind.STEP: types.SymbolKind.Function,
    SymbolKind.PARAMETER: types.SymbolKind.Property,
}
_FOLD_KINDS = {
    FoldKind.REGION: types.FoldingRangeKind.Region,
    FoldKind.COMMENT: types.FoldingRangeKind.Comment,
}
#: The semantic token types, in the order of the legend (a token's type is its index).
_TOKEN_TYPES = {
    TokenType.FIELD: types.SemanticTokenTypes.Property,
    TokenType.ENUM_VALUE: types.SemanticTokenTypes.EnumMember,
    TokenType.KEYWORD: types.SemanticTokenTypes.Keyword,
    TokenType.STRING: types.SemanticTokenTypes.String,
    TokenType.NUMBER: types.SemanticTokenTypes.Number,
    TokenType.COMMENT: types.SemanticTokenTypes.Comment,
}
TOKEN_LEGEND = types.SemanticTokensLegend(
    token_types=[kind.value for kind in _TOKEN_TYPES.values()], token_modifiers=[]
)
_TOKEN_INDEX = {kind: index for index, kind in enumerate(_TOKEN_TYPES)}


def completion_items(
    completions: list[Completion], positions: Positions, client: types.ClientCompletionItemOptions
) -> list[types.CompletionItem]:
    """The items of one answer. Where one is preselected, each item sorts by its place in
    the answer (an editor otherwise sorts by label), so that it comes first."""
    items = [_completion_item(completion, positions, client) for completion in completions]
    if any(completion.preselect for completion in completions):
        for number, item in enumerate(items):
            item.sort_text = f"{number:04d}"
    return items


def _completion_item(
    completion: Completion, positions: Positions, client: types.ClientCompletionItemOptions
) -> types.CompletionItem:
    """An item replacing the word at the cursor; matched against what is typed by its insert
    text (a string value is inserted quoted, and the user types its quote too). For a client
    without snippet support the tab stops are left out (the cursor ends after the text, a
    placeholder's text in its place); one that does not read Markdown gets the documentation
    as plain text."""
    snippets = bool(client.snippet_support)
    snippet = completion.snippet and snippets
    text = _plain(completion) if completion.snippet and not snippets else completion.insert_text
    return types.CompletionItem(
        label=completion.label,
        kind=_COMPLETION_KINDS[completion.kind],
        detail=completion.detail,
        documentation=_documentation(completion.documentation, client),
        insert_text=text,
        insert_text_format=(
            types.InsertTextFormat.Snippet if snippet else types.InsertTextFormat.PlainText
        ),
        text_edit=types.TextEdit(range=positions.range(completion.replace), new_text=text),
        filter_text=text,
        preselect=completion.preselect or None,
    )


def _documentation(
    text: str, client: types.ClientCompletionItemOptions
) -> types.MarkupContent | str | None:
    if not text:
        return None
    if types.MarkupKind.Markdown in (client.documentation_format or ()):
        return types.MarkupContent(kind=types.MarkupKind.Markdown, value=text)
    return text


def _plain(completion: Completion) -> str:
    """A snippet's text without its tab stops (``$0``, ``$1``) and with each placeholder's
    text (``${1:224}``): the only syntax they use."""
    text = re.sub(r"\$\{\d+:([^}]*)\}", r"\1", completion.insert_text)
    return re.sub(r"\$\d", "", text)


def hover(found: Hover, positions: Positions) -> types.Hover:
    return types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=found.text),
        range=positions.range(found.span),
    )


def document_symbol(symbol: Symbol, positions: Positions) -> types.DocumentSymbol:
    return types.DocumentSymbol(
        name=symbol.name,
        kind=_SYMBOL_KINDS[symbol.kind],
        detail=symbol.detail or None,
        range=positions.range(symbol.span),
        selection_range=positions.range(symbol.selection),
        children=[document_symbol(child, positions) for child in symbol.children],
    )


def folding_range(found: FoldingRange) -> types.FoldingRange:
    return types.FoldingRange(
        start_line=found.start_line - 1, end_line=found.end_line - 1, kind=_FOLD_KINDS[found.kind]
    )


def inlay_hint(hint: InlayHint, positions: Positions) -> types.InlayHint:
    return types.InlayHint(
        position=positions.position(hint.position.line, hint.position.column),
        label=hint.label,
        padding_left=True,
    )


def semantic_tokens(tokens: list[SemanticToken], positions: Positions) -> types.SemanticTokens:
    """The tokens in LSP's relative encoding: five numbers each (line and start relative to
    the token before, length, type, modifiers). A token is on one line (strings and comments
    of a config do not cross lines, but a comment runs on past a lone ``\r``, which ends an
    editor's line); one that would is cut at its first line's end."""
    data: list[int] = []
    line, character = 0, 0
    for token in tokens:
        start, end = positions.at(token.span.start), positions.at(token.span.end)
        if end.line != start.line:
            end = positions.line_end(start.line)
        if end.character <= start.character:
            continue
        delta_line = start.line - line
        delta_start = start.character - character if delta_line == 0 else start.character
        data += [delta_line, delta_start, end.character - start.character]
        data += [_TOKEN_INDEX[token.type], 0]
        line, character = start.line, start.character
    return types.SemanticTokens(data=data)
