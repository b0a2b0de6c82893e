"""10,000 seeded random edits to one document over stdio: the server keeps answering, keeps
the editor's text exactly, and its memory stays bounded."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from lsp_documents import apply, codes, open_document
from lsp_session import CLASSIFIER, until
from lsprotocol import types
from pytest_lsp import LanguageClient

from tritonlint.engine import lint_text
from tritonlint.format.api import format_text
from tritonlint.lsp.convert import shown_in

pytestmark = [pytest.mark.asyncio, pytest.mark.slow]

FIXTURES = Path(__file__).parents[2] / "fixtures"
EDITS = 10_000
#: Edits after which the test waits for the server's diagnostics of the current text.
PAUSES = frozenset(range(250, EDITS + 1, 250))
#: Characters a pasted "binary" run is drawn from: every byte as a code point but "\r", which
#: ends a line for LSP where the test's own positions count only "\n" (the others that Python's
#: ``splitlines`` takes for line breaks, "\f", "\v", "\x1c" to "\x1e" and "\x85", are
#: characters of their line for both).
JUNK = [chr(b) for b in range(256) if chr(b) != "\r"]
WORDS = ["name", ":", '"x"', "{", "}", "[", "]", "dims", "-1", "TYPE_FP32", "#", "模型", "😀", " "]
#: RSS may grow by this much from the 1,000th edit to the last. After 1,000 edits the server
#: has parsed and checked texts of every kind the replay makes, so its caches and the
#: allocator's arenas are warm; what the remaining 9,000 edits may add is fragmentation, not
#: data (measured: 50.6 MB after 1,000 edits, 50.7 MB after 10,000). A server keeping something
#: per edit passes the bound: one keeping two small futures per notification grew 35%.
GROWTH = 1.2


def corpus() -> list[str]:
    return [p.read_text(errors="replace") for p in sorted(FIXTURES.rglob("*.pbtxt"))]


def position(text: str, index: int) -> types.Position:
    """The LSP position (UTF-16 units) of ``text[index]``, lines split at "\\n" only."""
    line = text.count("\n", 0, index)
    start = text.rfind("\n", 0, index) + 1
    return types.Position(line, len(text[start:index].encode("utf-16-le")) // 2)


def random_edit(rng: random.Random, text: str, configs: list[str]) -> tuple[int, int, str]:
    """A span of ``text`` and what replaces it."""
    start = rng.randint(0, len(text))
    kind = rng.random()
    if len(text) > 8000 or kind < 0.35:  # delete
        return start, min(len(text), start + rng.randint(1, 400 if len(text) > 8000 else 40)), ""
    if kind < 0.75:  # type
        return start, start, "".join(rng.choice(WORDS) for _ in range(rng.randint(1, 4)))
    if kind < 0.9:  # paste binary junk
        return start, start, "".join(rng.choice(JUNK) for _ in range(rng.randint(1, 64)))
    config = rng.choice(configs)  # paste (part of) another config
    cut = rng.randint(0, len(config))
    return start, start, config[cut : cut + rng.randint(1, 2000)]


def rss_kib(client: LanguageClient) -> int:
    process = client._server
    assert process is not None
    for line in Path(f"/proc/{process.pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


async def checked(client: LanguageClient, uri: str, version: int) -> list[str]:
    """The codes the server published for ``version`` of ``uri``."""
    found: list[types.PublishDiagnosticsParams] = []

    def done() -> bool:
        found[:] = [
            p
            for p in client.published  # type: ignore[attr-defined]
            if p.uri == uri and p.version == version
        ]
        return bool(found)

    await until(done, timeout=60)
    return [str(d.code) for d in found[-1].diagnostics]


async def test_ten_thousand_random_edits(client: LanguageClient, project: Path) -> None:
    rng = random.Random(20261123)
    configs = corpus()
    path = project / "models/classifier/config.pbtxt"
    text = CLASSIFIER
    uri = open_document(client, path, text)
    await until(lambda: codes(client, uri) == [])
    rss: dict[int, int] = {}
    for version in range(2, EDITS + 2):
        start, end, new_text = random_edit(rng, text, configs)
        change = types.TextDocumentContentChangePartial(
            range=types.Range(position(text, start), position(text, end)), text=new_text
        )
        text = text[:start] + new_text + text[end:]
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[change],
            )
        )
        edits = version - 1
        if edits % 50 == 0:
            await asyncio.sleep(0)  # let the client read what the server sends meanwhile
        if edits in PAUSES:
            # The server's findings are those of the test's text: it applied every edit.
            found = lint_text(path, text).diagnostics
            expected = [d.code for d in found if shown_in(d, path) == path]
            assert await checked(client, uri, version) == expected, f"after {edits} edits"
            if edits in (1000, EDITS):
                rss[edits] = rss_kib(client)

    final = CLASSIFIER.replace("max_batch_size: 8", "max_batch_size:   -1")
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=EDITS + 2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=final)],
        )
    )
    assert await checked(client, uri, EDITS + 2) == ["TL501"]
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            options=types.FormattingOptions(tab_size=2, insert_spaces=True),
        )
    )
    formatted = format_text(final)
    assert edits and apply(final, list(edits)) == getattr(formatted, "text", None)
    assert rss[EDITS] <= rss[1000] * GROWTH, rss
