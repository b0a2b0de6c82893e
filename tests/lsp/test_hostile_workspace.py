"""A workspace of hostile files: the language server publishes each model file's finding, and
the other files' findings, never stopping for one file it cannot read; a settings file nested
too deeply is logged, naming the file, and the defaults apply."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from hostile_files import Expected, make_hostile_repository
from lsp_session import SERVER, start, until
from pytest_lsp import ClientServerConfig, LanguageClient

pytestmark = pytest.mark.asyncio


@pytest.fixture
def expected(tmp_path: Path) -> list[Expected]:
    (tmp_path / ".tritonlint.toml").write_text("select = " + "[" * 500 + "]" * 500 + "\n")
    return make_hostile_repository(tmp_path / "models")


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(
    lsp_client: LanguageClient, tmp_path: Path, expected: list[Expected]
) -> AsyncIterator[None]:
    await start(lsp_client, tmp_path)
    yield
    await lsp_client.shutdown_session()


def published(client: LanguageClient, root: Path) -> set[tuple[str, str, str]]:
    """(code, file relative to ``root``, message) of every diagnostic published now."""
    prefix = root.as_uri() + "/"
    return {
        (str(diagnostic.code), uri.removeprefix(prefix), diagnostic.message)
        for uri, diagnostics in client.diagnostics.items()
        for diagnostic in diagnostics
    }


def has(found: set[tuple[str, str, str]], expected: Expected) -> bool:
    """Whether ``expected`` is published, on its file or on its model's config."""
    config = expected.path.split("/1/")[0] + "/config.pbtxt"
    return any(
        code == expected.code and path in (expected.path, config) and expected.fragment in message
        for code, path, message in found
    )


async def test_every_hostile_file_gets_its_finding_and_the_others_theirs_or_a_warning(
    client: LanguageClient, tmp_path: Path, expected: list[Expected]
) -> None:
    try:
        await until(lambda: all(has(published(client, tmp_path), e) for e in expected))
    except AssertionError:
        missing = [e for e in expected if not has(published(client, tmp_path), e)]
        shown = published(client, tmp_path)
        raise AssertionError(f"not published: {missing}; published: {shown}") from None
    assert any(
        ".tritonlint.toml: arrays or tables nested more than 32 levels" in message.message
        for message in client.log_messages
    ), [message.message for message in client.log_messages]
