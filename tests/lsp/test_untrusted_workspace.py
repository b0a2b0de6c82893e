"""The language server runs none of the commands of a repository it is opened on: git's
settings in its ``.git/config`` (``core.fsmonitor``, hooks) never get the chance to run."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import armed_git_repository, make_tree
from lsp_documents import codes
from lsp_session import CLASSIFIER, until
from lsprotocol import types
from pytest_lsp import LanguageClient

pytestmark = [
    pytest.mark.asyncio,
    pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed"),
]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A workspace folder that is a git repository with a trap in its ``.git/config``, a
    model repository under ``models`` and an ignored one under ``build``."""
    folder = tmp_path / "project"
    make_tree(
        folder / "models", {"classifier/config.pbtxt": CLASSIFIER, "classifier/1/model.onnx": ""}
    )
    make_tree(folder / "build" / "models", {"m/config.pbtxt": 'name: "x"\n', "m/1/": None})
    (folder / ".gitignore").write_text("build/\n", encoding="utf-8")
    armed_git_repository(folder, tmp_path / "ran")
    return folder


async def test_opening_a_config_runs_none_of_the_repositorys_git_commands(
    client: LanguageClient, project: Path
) -> None:
    path = project / "models/classifier/config.pbtxt"
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri, "pbtxt", 1, CLASSIFIER.replace("10", "x"))
        )
    )
    await until(lambda: bool(codes(client, uri)))
    assert not (project.parent / "ran").exists()
    # The ignored repository was passed over: nothing was published about it.
    assert not [published for published in client.diagnostics if "/build/" in published]
