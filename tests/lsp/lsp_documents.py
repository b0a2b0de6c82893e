"""The editor's side of a document: opening, changing and saving it, asking about it, and the
places and edits of the answers (positions are 0-based, in UTF-16 code units unless told)."""

from __future__ import annotations

import re
import weakref
from pathlib import Path

from lsp_session import CLASSIFIER_CONFIG, until
from lsprotocol import types
from pytest_lsp import LanguageClient


def offset(text: str, position: types.Position, encoding: str = "utf-16") -> int:
    """The index into ``text`` of an LSP position, lines ending at ``\n``, ``\r\n`` or ``\r``
    (written here, apart from the server's)."""
    starts = [0, *(found.end() for found in re.finditer("\r\n|\r|\n", text))]
    index, units = starts[position.line], 0
    while units < position.character:
        char = text[index]
        units += len(char.encode("utf-16-le")) // 2 if encoding == "utf-16" else 1
        index += 1
    return index


def apply(text: str, edits: list[types.TextEdit], encoding: str = "utf-16") -> str:
    """``text`` after the edits (given on the original text, as LSP has them)."""
    spans = sorted(
        (
            (offset(text, e.range.start, encoding), offset(text, e.range.end, encoding), e.new_text)
            for e in edits
        ),
        reverse=True,
    )
    for start, end, new_text in spans:
        text = text[:start] + new_text + text[end:]
    return text


def at(line: int, character: int, end_line: int, end_character: int) -> types.Range:
    return types.Range(types.Position(line, character), types.Position(end_line, end_character))


def open_document(client: LanguageClient, path: Path, text: str, version: int = 1) -> str:
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="pbtxt", version=version, text=text
            )
        )
    )
    return uri


def change_document(client: LanguageClient, uri: str, text: str, version: int) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


def edit_document(
    client: LanguageClient, uri: str, version: int, where: types.Range, text: str
) -> None:
    """An incremental change: ``text`` in place of ``where``."""
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangePartial(range=where, text=text)],
        )
    )


def save(client: LanguageClient, uri: str) -> None:
    client.text_document_did_save(
        types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )


_versions: weakref.WeakKeyDictionary[LanguageClient, dict[str, int]] = weakref.WeakKeyDictionary()


def show(client: LanguageClient, path: Path, text: str) -> types.TextDocumentIdentifier:
    """Make ``text`` the text of ``path`` in ``client``'s editor: opened the first time,
    changed (as a whole, in the next version) after; for a session shared by a module's tests."""
    uri = path.as_uri()
    versions = _versions.setdefault(client, {})
    versions[uri] = versions.get(uri, 0) + 1
    if versions[uri] == 1:
        open_document(client, path, text)
    else:
        change_document(client, uri, text, versions[uri])
    return types.TextDocumentIdentifier(uri=uri)


def codes(client: LanguageClient, uri: str) -> list[str] | None:
    found = client.diagnostics.get(uri)
    return None if found is None else [str(d.code) for d in found]


async def opened(client: LanguageClient, path: Path, text: str, expected: list[str]) -> str:
    """Open ``path`` with ``text`` and wait for its diagnostics to have the ``expected``
    codes; its URI."""
    uri = open_document(client, path, text)
    await until(lambda: codes(client, uri) == expected)
    return uri


async def finding_range(client: LanguageClient, folder: Path, text: str, code: str) -> types.Range:
    """The range of the one finding, ``code``, of the classifier's config opened with ``text``
    (the config in ``folder``, the project folder)."""
    uri = await opened(client, folder / CLASSIFIER_CONFIG, text, [code])
    return client.diagnostics[uri][0].range


async def pulled(client: LanguageClient, uri: str) -> list[types.Diagnostic]:
    """The diagnostics of a pull for ``uri`` (a full report)."""
    report = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
    return list(report.items)


async def code_actions(
    client: LanguageClient,
    uri: str,
    where: types.Range,
    only: list[str] | None = None,
    trigger: types.CodeActionTriggerKind | None = None,
) -> list[types.CodeAction]:
    found = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=where,
            context=types.CodeActionContext(diagnostics=[], only=only, trigger_kind=trigger),
        )
    )
    return [a for a in found or [] if isinstance(a, types.CodeAction)]


async def formatted(client: LanguageClient, uri: str) -> list[types.TextEdit] | None:
    """The formatting edits for ``uri`` (two spaces a level); ``None`` where none came."""
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            options=types.FormattingOptions(tab_size=2, insert_spaces=True),
        )
    )
    return None if edits is None else list(edits)


async def token_data(client: LanguageClient, uri: str) -> list[int]:
    """The semantic tokens of ``uri`` as LSP encodes them, five numbers a token."""
    found = await client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(types.TextDocumentIdentifier(uri=uri))
    )
    assert found is not None
    return list(found.data)
