"""The handlers of the protocol's life cycle, of documents and of diagnostics: what the editor
tells the server (start-up, settings, opened, edited and closed documents, files changed on
disk, workspace folders) and its requests for pulled diagnostics, each handed to the
server's state (:class:`~tritonlint.lsp.state.TritonLintServer`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types

from tritonlint.lsp.projects import EditorSettings
from tritonlint.lsp.protocol import pulls
from tritonlint.lsp.uris import path_of

if TYPE_CHECKING:
    from tritonlint.lsp.state import TritonLintServer

#: How long the server waits for the editor's answer to its settings request, in seconds.
SETTINGS_TIMEOUT = 5.0


def initialize(ls: TritonLintServer, params: types.InitializeParams) -> None:
    folders = [f.uri for f in params.workspace_folders or []]
    if not folders and params.root_uri:
        folders = [params.root_uri]
    ls.folders = [p for p in map(path_of, folders) if p is not None]
    ls.pull = pulls(params.capabilities)


async def initialized(ls: TritonLintServer, params: types.InitializedParams) -> None:
    try:  # the workspaces made for documents opened meanwhile are made again, with them
        ls.reload(await _editor_settings(ls), force=True)
    finally:
        ls.configured.set()
    await ls.watch()


def watched_files(ls: TritonLintServer, params: types.DidChangeWatchedFilesParams) -> None:
    ls.disk_changed([p for p in (path_of(change.uri) for change in params.changes) if p])


async def workspace_folders(
    ls: TritonLintServer, params: types.DidChangeWorkspaceFoldersParams
) -> None:
    def paths(folders: Sequence[types.WorkspaceFolder]) -> list[Path]:
        return [p for p in (path_of(f.uri) for f in folders) if p is not None]

    await ls.folders_changed(paths(params.event.added), paths(params.event.removed))


async def diagnostic(
    ls: TritonLintServer, params: types.DocumentDiagnosticParams
) -> types.DocumentDiagnosticReport:
    return await ls.pull_document(params.text_document.uri, params.previous_result_id)


async def workspace_diagnostic(
    ls: TritonLintServer, params: types.WorkspaceDiagnosticParams
) -> types.WorkspaceDiagnosticReport:
    return await ls.pull_workspace(params.previous_result_ids)


async def configuration(ls: TritonLintServer, params: types.DidChangeConfigurationParams) -> None:
    ls.reload(await _editor_settings(ls))


def did_open(ls: TritonLintServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.edited(params.text_document.uri, 0.0)


def did_change(ls: TritonLintServer, params: types.DidChangeTextDocumentParams) -> None:
    ls.edited(params.text_document.uri, ls.debounce, typed=True)


def did_save(ls: TritonLintServer, params: types.DidSaveTextDocumentParams) -> None:
    ls.edited(params.text_document.uri, 0.0)


def did_close(ls: TritonLintServer, params: types.DidCloseTextDocumentParams) -> None:
    ls.closed(params.text_document.uri)


async def _editor_settings(ls: TritonLintServer) -> EditorSettings:
    """The ``tritonlint`` section of the client's settings, where it can be asked for."""
    capabilities = ls.client_capabilities.workspace
    if capabilities is None or not capabilities.configuration:
        return ls.projects.editor
    try:
        sections = await asyncio.wait_for(
            ls.workspace_configuration_async(
                types.ConfigurationParams(items=[types.ConfigurationItem(section="tritonlint")])
            ),
            SETTINGS_TIMEOUT,
        )
    except TimeoutError:  # a client that never answers must not hold every check back
        ls.log(f"tritonlint: the editor did not send its settings in {SETTINGS_TIMEOUT:g} s")
        return ls.projects.editor
    except Exception as error:  # a client that fails to answer keeps the settings as they are
        ls.log(f"tritonlint: could not read the editor's settings: {error}")
        return ls.projects.editor
    return EditorSettings.from_client(sections[0] if sections else None)


def register(server: TritonLintServer) -> None:
    """Serve the life cycle, the documents and the pulled diagnostics on ``server``."""
    server.feature(types.INITIALIZE)(initialize)
    server.feature(types.INITIALIZED)(initialized)
    server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)(watched_files)
    server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)(workspace_folders)
    server.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(
            identifier="tritonlint", inter_file_dependencies=True, workspace_diagnostics=True
        ),
    )(diagnostic)
    server.feature(types.WORKSPACE_DIAGNOSTIC)(workspace_diagnostic)
    server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)(configuration)
    server.feature(types.TEXT_DOCUMENT_DID_OPEN)(did_open)
    server.feature(types.TEXT_DOCUMENT_DID_CHANGE)(did_change)
    server.feature(types.TEXT_DOCUMENT_DID_SAVE)(did_save)
    server.feature(types.TEXT_DOCUMENT_DID_CLOSE)(did_close)
