"""``tritonlint.run: onSave``: a document is checked when opened and saved, not as typed; its
diagnostics are those of the text as last saved."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from lsp_documents import change_document, open_document, pulled, save
from lsp_session import CLASSIFIER, CLASSIFIER_CONFIG, SERVER, capabilities, start, until
from lsprotocol import types
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio

#: The classifier with one finding: TL105 (an unknown data type) at 3:35-3:47 (0-based).
BROKEN = CLASSIFIER.replace("TYPE_FP32", "TYPE_FLOAT32", 1)


@pytest_lsp.fixture(config=pytest_lsp.ClientServerConfig(server_command=SERVER))
async def pushed(lsp_client: LanguageClient, project: Path) -> AsyncIterator[None]:
    lsp_client.set_configuration({"run": "onSave"}, section="tritonlint")
    await start(lsp_client, project)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=pytest_lsp.ClientServerConfig(server_command=SERVER))
async def pulling(lsp_client: LanguageClient, project: Path) -> AsyncIterator[None]:
    lsp_client.set_configuration({"run": "onSave"}, section="tritonlint")
    await start(lsp_client, project, given=capabilities(pull=types.DiagnosticClientCapabilities()))
    yield
    await lsp_client.shutdown_session()


async def test_typing_publishes_nothing_until_the_document_is_saved(
    pushed: LanguageClient, project: Path
) -> None:
    published: list[types.PublishDiagnosticsParams] = pushed.published  # type: ignore[attr-defined]
    uri = open_document(pushed, project / CLASSIFIER_CONFIG, CLASSIFIER)
    await until(lambda: any(p.uri == uri for p in published))
    assert [d.code for d in published[-1].diagnostics] == []
    change_document(pushed, uri, BROKEN, 2)
    await asyncio.sleep(0.5)  # time enough for a check, were one made
    assert [p.version for p in published if p.uri == uri] == [1]
    save(pushed, uri)
    await until(lambda: [p.version for p in published if p.uri == uri] == [1, 2])
    (diagnostic,) = published[-1].diagnostics
    assert diagnostic.code == "TL105"
    assert diagnostic.range == types.Range(types.Position(3, 35), types.Position(3, 47))


async def test_a_pull_answers_for_the_text_as_last_saved(
    pulling: LanguageClient, project: Path
) -> None:
    uri = open_document(pulling, project / CLASSIFIER_CONFIG, CLASSIFIER)

    async def pull() -> list[str]:
        return [str(d.code) for d in await pulled(pulling, uri)]

    assert await pull() == []
    change_document(pulling, uri, BROKEN, 2)
    assert await pull() == []
    save(pulling, uri)
    assert await pull() == ["TL105"]
