"""A real ``tritonlint lsp`` process for each test, driven over stdio by pytest-lsp's client,
initialised on a fresh project folder (see :mod:`lsp_session`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from helpers import Files, make_tree
from lsp_session import PROJECT_FILES, SERVER, start
from pytest_lsp import ClientServerConfig, LanguageClient


@pytest.fixture
def project_files() -> Files:
    """The files of the project's repository; a module may give its own."""
    return PROJECT_FILES


@pytest.fixture
def project(tmp_path: Path, project_files: Files) -> Path:
    """The project folder (the editor's workspace folder); its repository is ``models``."""
    make_tree(tmp_path / "models", project_files)
    return tmp_path


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient, project: Path) -> AsyncIterator[None]:
    await start(lsp_client, project)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client_utf32(lsp_client: LanguageClient, project: Path) -> AsyncIterator[None]:
    """A client that prefers UTF-32 positions (columns in code points)."""
    await start(lsp_client, project, ["utf-32", "utf-16"])
    yield
    await lsp_client.shutdown_session()
