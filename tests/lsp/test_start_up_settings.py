"""The editor's settings, asked for at start-up (``workspace/configuration``), are in force
from the first diagnostics on, also when the editor answers late and a document is opened
meanwhile: no finding they leave out is ever shown."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from lsp_documents import open_document, pulled
from lsp_session import CLASSIFIER_CONFIG, NEGATIVE_BATCH, SERVER, capabilities, start, until
from lsprotocol import types
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio

#: Two findings (TL501 and TL101); the editor's settings ignore TL501.
TEXT = NEGATIVE_BATCH.replace(" dims: [ 3 ]", " dim: [ 3 ]")
#: A client that pulls diagnostics but cannot be asked to pull again (as Neovim 0.11).
PULLING = capabilities(pull=types.DiagnosticClientCapabilities())


def answer_late(client: LanguageClient) -> None:
    """Make ``client`` answer the server's question for its settings (``ignore: TL501``) half a
    second late, as an editor busy starting up may."""
    client.set_configuration({"ignore": ["TL501"]}, section="tritonlint")
    features = client.protocol.fm.features
    answer = features[types.WORKSPACE_CONFIGURATION]

    async def late(params: types.ConfigurationParams) -> list[object]:
        await asyncio.sleep(0.5)
        return answer(params)  # type: ignore[no-any-return]

    features[types.WORKSPACE_CONFIGURATION] = late


@pytest_lsp.fixture(config=pytest_lsp.ClientServerConfig(server_command=SERVER))
async def pushed(lsp_client: LanguageClient, project: Path) -> AsyncIterator[None]:
    """A client that is sent diagnostics and answers its settings late."""
    answer_late(lsp_client)
    await start(lsp_client, project)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=pytest_lsp.ClientServerConfig(server_command=SERVER))
async def pulling(lsp_client: LanguageClient, project: Path) -> AsyncIterator[None]:
    """A client that pulls diagnostics, cannot be asked to pull again (as Neovim 0.11) and
    answers its settings late."""
    answer_late(lsp_client)
    await start(lsp_client, project, given=PULLING)
    yield
    await lsp_client.shutdown_session()


async def test_the_first_diagnostics_pushed_follow_the_editors_settings(
    pushed: LanguageClient, project: Path
) -> None:
    uri = open_document(pushed, project / CLASSIFIER_CONFIG, TEXT)
    published: list[types.PublishDiagnosticsParams] = pushed.published  # type: ignore[attr-defined]
    await until(lambda: any(p.uri == uri for p in published))
    first = next(p for p in published if p.uri == uri)
    assert [d.code for d in first.diagnostics] == ["TL101"]


async def test_a_pull_at_start_up_waits_for_the_editors_settings(
    pulling: LanguageClient, project: Path
) -> None:
    uri = open_document(pulling, project / CLASSIFIER_CONFIG, TEXT)
    assert [d.code for d in await pulled(pulling, uri)] == ["TL101"]


def never_answer(client: LanguageClient) -> asyncio.Event:
    """Make ``client`` leave the server's question for its settings unanswered until the
    returned event is set (at the end of the session)."""
    released = asyncio.Event()

    async def silent(params: types.ConfigurationParams) -> list[object]:
        await released.wait()
        return []

    client.protocol.fm.features[types.WORKSPACE_CONFIGURATION] = silent
    return released


@pytest_lsp.fixture(config=pytest_lsp.ClientServerConfig(server_command=SERVER))
async def silent(lsp_client: LanguageClient, project: Path) -> AsyncIterator[None]:
    """A pulling client that never answers the server's settings request."""
    released = never_answer(lsp_client)
    await start(lsp_client, project, given=PULLING)
    yield
    released.set()
    await asyncio.sleep(0)  # the late answer goes out before the session ends
    await lsp_client.shutdown_session()


async def test_a_client_that_never_sends_its_settings_gets_the_projects_options(
    silent: LanguageClient, project: Path
) -> None:
    uri = open_document(silent, project / CLASSIFIER_CONFIG, TEXT)
    assert sorted(str(d.code) for d in await pulled(silent, uri)) == ["TL101", "TL501"]
    logged: list[types.LogMessageParams] = silent.log_messages  # type: ignore[attr-defined]
    assert any("did not send its settings in 5 s" in m.message for m in logged)
