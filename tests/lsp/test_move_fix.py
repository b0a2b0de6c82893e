"""The quick fix that moves a model file into its version folder (TL212): a ``RenameFile``
operation for a client that can rename files, nothing for one that cannot."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from helpers import make_tree
from lsp_documents import code_actions, codes, open_document
from lsp_session import SERVER, capabilities, start, until
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

pytestmark = pytest.mark.asyncio

CONFIG = """\
platform: "onnxruntime_onnx"
max_batch_size: 8
input [ { name: "x" data_type: TYPE_FP32 dims: [ 3 ] } ]
output [ { name: "y" data_type: TYPE_FP32 dims: [ 3 ] } ]
"""
MOVE = "Move model.onnx into 1/"


@pytest.fixture
def loose(tmp_path: Path) -> Path:
    """A project whose model has its model file beside its config."""
    make_tree(tmp_path / "models", {"m/config.pbtxt": CONFIG, "m/model.onnx": ""})
    return tmp_path


def renaming() -> types.ClientCapabilities:
    """A client that applies ``documentChanges`` with create, rename and delete operations."""
    given = capabilities()
    assert given.workspace is not None
    given.workspace.workspace_edit = types.WorkspaceEditClientCapabilities(
        document_changes=True,
        resource_operations=[
            types.ResourceOperationKind.Create,
            types.ResourceOperationKind.Rename,
            types.ResourceOperationKind.Delete,
        ],
    )
    return given


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def renamer(lsp_client: LanguageClient, loose: Path) -> AsyncIterator[None]:
    await start(lsp_client, loose, given=renaming())
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def editor(lsp_client: LanguageClient, loose: Path) -> AsyncIterator[None]:
    """A client that declares no resource operations."""
    await start(lsp_client, loose)
    yield
    await lsp_client.shutdown_session()


async def _actions(client: LanguageClient, project: Path) -> list[types.CodeAction]:
    """The code actions on the TL212 finding shown on the model's config."""
    uri = open_document(client, project / "models/m/config.pbtxt", CONFIG)
    await until(lambda: codes(client, uri) == ["TL212"])
    (shown,) = client.diagnostics[uri]
    return await code_actions(client, uri, shown.range)


async def test_a_client_that_renames_files_gets_the_move(
    renamer: LanguageClient, loose: Path
) -> None:
    found = await _actions(renamer, loose)
    assert [a.title for a in found] == [MOVE, "Disable TL212 for this file"]
    move = found[0]
    assert move.kind == types.CodeActionKind.QuickFix and not move.is_preferred
    assert move.edit is not None and move.edit.changes is None
    models = loose / "models" / "m"
    assert list(move.edit.document_changes or []) == [
        types.RenameFile(
            old_uri=(models / "model.onnx").as_uri(),
            new_uri=(models / "1" / "model.onnx").as_uri(),
            options=types.RenameFileOptions(overwrite=False, ignore_if_exists=False),
        )
    ]
    (operation,) = move.edit.document_changes or []
    assert isinstance(operation, types.RenameFile) and operation.kind == "rename"


async def test_the_move_is_not_offered_where_its_target_exists_now(
    renamer: LanguageClient, loose: Path
) -> None:
    """Made after the check: the finding stands, but the move would replace a file."""
    uri = open_document(renamer, loose / "models/m/config.pbtxt", CONFIG)
    await until(lambda: codes(renamer, uri) == ["TL212"])
    (loose / "models/m/1").mkdir()
    (loose / "models/m/1/model.onnx").write_text("")
    (shown,) = renamer.diagnostics[uri]
    found = await code_actions(renamer, uri, shown.range)
    assert MOVE not in [a.title for a in found]


async def test_a_client_that_cannot_rename_files_is_not_offered_the_move(
    editor: LanguageClient, loose: Path
) -> None:
    found = await _actions(editor, loose)
    assert [a.title for a in found] == ["Disable TL212 for this file"]
