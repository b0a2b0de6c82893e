"""When ``tritonlint lsp`` checks edits and publishes their diagnostics: each version's
publication comes after those of the versions before it, a burst of edits ends with the last
version's diagnostics, and edits sent as ranges (incremental sync) are checked as the text
they make."""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from lsp_documents import (
    at,
    change_document,
    codes,
    edit_document,
    open_document,
    opened,
    save,
)
from lsp_session import CLASSIFIER, CLASSIFIER_CONFIG, PRE, SERVER, start, until
from pytest_lsp import ClientServerConfig, LanguageClient

pytestmark = pytest.mark.asyncio


def versions(client: LanguageClient, uri: str) -> list[int | None]:
    """The versions of ``uri`` the server published diagnostics for, in order."""
    return [p.version for p in client.published if p.uri == uri]  # type: ignore[attr-defined]


def messages(client: LanguageClient, uri: str) -> list[str]:
    return [d.message for d in client.diagnostics.get(uri, [])]


def large_config(inputs: int) -> str:
    """A config of ``inputs`` inputs: long enough for a check to take a while."""
    tensors = ", ".join(
        f'{{ name: "INPUT{index}" data_type: TYPE_FP32 dims: [ 3 ] }}' for index in range(inputs)
    )
    return CLASSIFIER.replace('input [ { name: "INPUT" data_type: TYPE_FP32 dims: [ 3 ] } ]', (
        f"input [ {tensors} ]"
    ))  # fmt: skip


def with_unknown_field(text: str, version: int) -> str:
    """``text`` with a field named after ``version``: each version has a finding of its own."""
    return text + f"unknown_{version}: 1\n"


async def test_the_server_syncs_documents_incrementally(
    client: LanguageClient, project: Path
) -> None:
    uri = await opened(client, project / CLASSIFIER_CONFIG, CLASSIFIER, [])
    line = CLASSIFIER.split("\n").index("max_batch_size: 8")
    edit_document(client, uri, 2, at(line, 16, line, 17), "-1")
    await until(lambda: versions(client, uri)[-1] == 2)
    assert codes(client, uri) == ["TL501"]
    (found,) = client.diagnostics[uri]
    assert found.range == at(line, 16, line, 18)


async def test_a_burst_of_edits_ends_with_the_last_versions_diagnostics(
    client: LanguageClient, project: Path
) -> None:
    uri = await opened(client, project / CLASSIFIER_CONFIG, CLASSIFIER, [])
    for version in range(2, 12):
        change_document(client, uri, with_unknown_field(CLASSIFIER, version), version)
    await until(lambda: versions(client, uri)[-1] == 11)
    published = versions(client, uri)
    assert published == sorted(published)
    assert len(messages(client, uri)) == 1 and "unknown_11" in messages(client, uri)[0]


async def test_edits_made_while_checks_run_are_published_in_order(
    client: LanguageClient, project: Path
) -> None:
    """Edits of a large config, some sent at once, some a little apart (while the server is
    checking the one before): the publications never go back to an older version, and the
    last one is of the last text."""
    text = large_config(400)
    uri = open_document(client, project / CLASSIFIER_CONFIG, text)
    await until(lambda: versions(client, uri) == [1])
    rng = random.Random(1)
    for version in range(2, 30):
        change_document(client, uri, with_unknown_field(text, version), version)
        if rng.random() < 0.5:
            await asyncio.sleep(rng.choice([0.001, 0.005, 0.02]))
    await until(lambda: versions(client, uri)[-1] == 29)
    published = versions(client, uri)
    assert published == sorted(published) and len(set(published)) == len(published)
    assert len(messages(client, uri)) == 1 and "unknown_29" in messages(client, uri)[0]


async def test_edits_of_two_documents_each_end_with_their_last_version(
    client: LanguageClient, project: Path
) -> None:
    pre = open_document(client, project / "models/pre/config.pbtxt", PRE)
    classifier = open_document(client, project / CLASSIFIER_CONFIG, CLASSIFIER)
    await until(lambda: codes(client, pre) == [] and codes(client, classifier) == [])
    for version in range(2, 10):
        change_document(client, pre, with_unknown_field(PRE, version), version)
        change_document(client, classifier, with_unknown_field(CLASSIFIER, version), version)
    await until(lambda: versions(client, pre)[-1] == 9 and versions(client, classifier)[-1] == 9)
    for uri in (pre, classifier):
        published = versions(client, uri)
        assert published == sorted(published)
        assert len(messages(client, uri)) == 1 and "unknown_9" in messages(client, uri)[0]


@pytest_lsp.fixture(
    config=ClientServerConfig(
        server_command=SERVER,
        server_env={**os.environ, "TRITONLINT_LSP_DEBOUNCE_MS": "60000"},
    )
)
async def slow_client(lsp_client: LanguageClient, project: Path) -> AsyncIterator[None]:
    """A server told to wait a minute after an edit before checking it."""
    await start(lsp_client, project)
    yield
    await lsp_client.shutdown_session()


async def test_the_debounce_delays_an_edits_check_but_not_a_saves(
    slow_client: LanguageClient, project: Path
) -> None:
    uri = open_document(slow_client, project / CLASSIFIER_CONFIG, CLASSIFIER)
    await until(lambda: versions(slow_client, uri) == [1])
    change_document(slow_client, uri, with_unknown_field(CLASSIFIER, 2), 2)
    await asyncio.sleep(0.5)  # long enough for a check, far shorter than the debounce
    assert versions(slow_client, uri) == [1]
    save(slow_client, uri)
    await until(lambda: versions(slow_client, uri) == [1, 2])
    assert "unknown_2" in messages(slow_client, uri)[0]
