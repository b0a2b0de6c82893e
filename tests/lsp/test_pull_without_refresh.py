"""A client that pulls diagnostics but cannot be asked to pull again (no
``workspace.diagnostics.refreshSupport``, as Neovim 0.11) is not offered pulling: it is sent
every file's diagnostics, so that an edit of one model shows at once in the ensemble that
runs it, open or not."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from lsp_documents import at, change_document, open_document
from lsp_session import PIPELINE, PRE, SERVER, capabilities, start, until
from lsprotocol import types
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio


@pytest_lsp.fixture(config=pytest_lsp.ClientServerConfig(server_command=SERVER))
async def no_refresh(lsp_client: LanguageClient, project: Path) -> AsyncIterator[None]:
    given = capabilities(pull=types.DiagnosticClientCapabilities(related_document_support=True))
    lsp_client.result = await start(lsp_client, project, given=given)  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


def latest(client: LanguageClient, uri: str) -> list[types.Diagnostic] | None:
    published: list[types.PublishDiagnosticsParams] = client.published  # type: ignore[attr-defined]
    found = [p for p in published if p.uri == uri]
    return list(found[-1].diagnostics) if found else None


async def test_the_server_does_not_offer_pulling_to_a_client_it_cannot_ask_to_pull_again(
    no_refresh: LanguageClient,
) -> None:
    result: types.InitializeResult = no_refresh.result  # type: ignore[attr-defined]
    assert result.capabilities.diagnostic_provider is None


@pytest.mark.parametrize("ensemble_open", [True, False], ids=["ensemble-open", "ensemble-closed"])
async def test_an_edit_of_a_composing_model_is_sent_for_the_ensemble(
    no_refresh: LanguageClient, project: Path, ensemble_open: bool
) -> None:
    pipeline = (project / "models/pipeline/config.pbtxt").as_uri()
    if ensemble_open:
        open_document(no_refresh, project / "models/pipeline/config.pbtxt", PIPELINE)
    uri = open_document(no_refresh, project / "models/pre/config.pbtxt", PRE)
    clean_at_start = [] if ensemble_open else None  # a clean file not open is not sent
    await until(
        lambda: latest(no_refresh, uri) == [] and latest(no_refresh, pipeline) == clean_at_start
    )
    change_document(no_refresh, uri, PRE.replace('"PIXELS"', '"IMAGE"'), 2)
    await until(lambda: bool(latest(no_refresh, pipeline)), timeout=1.0)
    (finding,) = latest(no_refresh, pipeline) or []
    assert (finding.code, finding.range) == ("TL713", at(11, 24, 11, 32))
    assert "PIXELS" in finding.message
    change_document(no_refresh, uri, PRE, 3)
    await until(lambda: latest(no_refresh, pipeline) == [], timeout=1.0)
