"""Pull diagnostics (``textDocument/diagnostic``) for a client that asks for them; the other
tests' client, without the capability, is sent them (``publishDiagnostics``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from lsp_documents import at, change_document, codes, open_document
from lsp_session import CLASSIFIER, PRE, SERVER, capabilities, start, until
from lsprotocol import types
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio


@pytest_lsp.fixture(config=pytest_lsp.ClientServerConfig(server_command=SERVER))
async def pulling(lsp_client: LanguageClient, project: Path) -> AsyncIterator[None]:
    """A client that pulls diagnostics and is told when to pull again."""
    lsp_client.refreshes = 0  # type: ignore[attr-defined]
    features = lsp_client.protocol.fm.features
    handler = features[types.WORKSPACE_DIAGNOSTIC_REFRESH]

    def refresh(params: None) -> None:
        lsp_client.refreshes += 1  # type: ignore[attr-defined]
        handler(params)

    features[types.WORKSPACE_DIAGNOSTIC_REFRESH] = refresh

    given = capabilities(
        pull=types.DiagnosticClientCapabilities(related_document_support=True), refresh=True
    )
    lsp_client.result = await start(lsp_client, project, given=given)  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def pull(
    client: LanguageClient, uri: str, previous: str | None = None
) -> types.DocumentDiagnosticReport:
    return await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            identifier="tritonlint",
            previous_result_id=previous,
        )
    )


async def test_the_server_offers_pull_diagnostics(pulling: LanguageClient) -> None:
    provider = pulling.result.capabilities.diagnostic_provider  # type: ignore[attr-defined]
    assert provider == types.DiagnosticOptions(
        inter_file_dependencies=True, workspace_diagnostics=True, identifier="tritonlint"
    )


async def test_a_pulling_client_gets_the_findings_of_its_text_and_no_pushes(
    pulling: LanguageClient, project: Path
) -> None:
    text = CLASSIFIER.replace("max_batch_size: 8", "max_batch_size: -1")
    uri = open_document(pulling, project / "models/classifier/config.pbtxt", text)
    report = await pull(pulling, uri)
    assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
    assert [(d.code, d.range, d.message) for d in report.items] == [
        ("TL501", at(2, 16, 2, 18), "'max_batch_size' must be non-negative value for classifier")
    ]
    again = await pull(pulling, uri, report.result_id)
    assert again == types.RelatedUnchangedDocumentDiagnosticReport(result_id=report.result_id)
    change_document(pulling, uri, CLASSIFIER, 2)
    fixed = await pull(pulling, uri, report.result_id)
    assert isinstance(fixed, types.RelatedFullDocumentDiagnosticReport)
    assert list(fixed.items) == [] and fixed.result_id != report.result_id
    assert pulling.published == []  # type: ignore[attr-defined]


async def test_an_edit_breaking_another_file_asks_the_client_to_pull_again(
    pulling: LanguageClient, project: Path
) -> None:
    pipeline = (project / "models/pipeline/config.pbtxt").as_uri()
    uri = open_document(pulling, project / "models/pre/config.pbtxt", PRE)
    await pull(pulling, uri)
    before = pulling.refreshes  # type: ignore[attr-defined]
    change_document(pulling, uri, PRE.replace('"PIXELS"', '"IMAGE"'), 2)
    await until(lambda: pulling.refreshes > before)  # type: ignore[attr-defined]
    report = await pull(pulling, pipeline)
    assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
    assert [d.code for d in report.items] == ["TL713"]
    assert codes(pulling, pipeline) is None


async def workspace_pull(
    client: LanguageClient, previous: list[types.WorkspaceDocumentDiagnosticReport] | None = None
) -> list[types.WorkspaceDocumentDiagnosticReport]:
    """The reports of a ``workspace/diagnostic`` request, giving the result ids of
    ``previous``."""
    known = [
        types.PreviousResultId(uri=report.uri, value=report.result_id)
        for report in previous or []
        if report.result_id is not None
    ]
    answer = await client.workspace_diagnostic_async(
        types.WorkspaceDiagnosticParams(previous_result_ids=known, identifier="tritonlint")
    )
    return list(answer.items)


def summary(
    reports: list[types.WorkspaceDocumentDiagnosticReport],
) -> list[tuple[str, str, int | None, list[tuple[str, types.Range]]]]:
    """Each report's kind, file (relative to the repository), version and findings."""
    return [
        (
            report.kind,
            report.uri.split("/models/")[1],
            report.version,
            [(str(d.code), d.range) for d in getattr(report, "items", [])],
        )
        for report in reports
    ]


async def test_a_workspace_pull_reports_every_config_open_or_not(
    pulling: LanguageClient, project: Path
) -> None:
    text = CLASSIFIER.replace("max_batch_size: 8", "max_batch_size: -1")
    open_document(pulling, project / "models/classifier/config.pbtxt", text, version=3)
    first = await workspace_pull(pulling)
    assert summary(first) == [
        ("full", "classifier/config.pbtxt", 3, [("TL501", at(2, 16, 2, 18))]),
        ("full", "pipeline/config.pbtxt", None, []),
        ("full", "pre/config.pbtxt", None, []),
    ]
    assert all(report.result_id for report in first)
    again = await workspace_pull(pulling, first)
    assert again == [
        types.WorkspaceUnchangedDocumentDiagnosticReport(
            uri=report.uri, result_id=report.result_id or "", version=report.version
        )
        for report in first
    ]


async def test_a_workspace_pull_reports_anew_only_the_files_whose_findings_changed(
    pulling: LanguageClient, project: Path
) -> None:
    first = await workspace_pull(pulling)
    uri = open_document(pulling, project / "models/pre/config.pbtxt", PRE, version=5)
    change_document(pulling, uri, PRE.replace('"PIXELS"', '"IMAGE"'), 6)
    after = await workspace_pull(pulling, first)
    assert summary(after) == [
        ("unchanged", "classifier/config.pbtxt", None, []),
        ("full", "pipeline/config.pbtxt", None, [("TL713", at(11, 24, 11, 32))]),
        ("unchanged", "pre/config.pbtxt", 6, []),  # its own findings are as they were
    ]
    assert after[1].result_id != first[1].result_id
