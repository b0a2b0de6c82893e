"""Lines as the protocol counts them: only ``\\n``, ``\\r\\n`` and ``\\r`` end one.

Characters that Python's ``str.splitlines`` also splits at (``\\f``, ``\\u2028`` ...) are
inside a line; a lone ``\\r`` ends an editor's line but not the engine's (a comment runs on
past it, as in protobuf), and places on both sides of it are still exact.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_documents import (
    apply,
    at,
    change_document,
    code_actions,
    codes,
    edit_document,
    finding_range,
    formatted,
    open_document,
    opened,
    token_data,
)
from lsp_session import CLASSIFIER_CONFIG, NEGATIVE_BATCH, until
from lsprotocol import types
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio

#: A comment with characters that are no line end for LSP, before a finding on line 2.
SEPARATED = NEGATIVE_BATCH.replace(
    'name: "classifier"', 'name: "classifier"  # one\u2028two\fthree\x85four'
)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(SEPARATED, id="characters-that-end-no-lsp-line"),
        pytest.param(
            NEGATIVE_BATCH.replace('"classifier"\n', '"classifier"\r'),
            id="a-lone-carriage-return-that-ends-an-lsp-line",
        ),
    ],
)
async def test_the_range_of_a_finding_after_the_line_breaks_is_exact(
    client: LanguageClient, project: Path, text: str
) -> None:
    assert await finding_range(client, project, text, "TL501") == at(2, 16, 2, 18)


async def test_an_incremental_edit_after_them_is_applied_where_the_editor_made_it(
    client: LanguageClient, project: Path
) -> None:
    text = 'name: "classifier"  # one\u2028two\fthree\x85four\nbackend :  "onnxruntime"\n'
    uri = await opened(
        client, project / CLASSIFIER_CONFIG, text + "max_batch_size: -1\n", ["TL501"]
    )
    edit_document(client, uri, 2, at(2, 16, 2, 18), "4")
    await until(lambda: codes(client, uri) == [])
    # The server's text is the editor's: its formatting edits, applied to the editor's
    # text, give the formatted text.
    edits = await formatted(client, uri) or []
    assert [e.range for e in edits] == [at(1, 0, 2, 0)]
    assert apply(text + "max_batch_size: 4\n", edits) == (
        'name: "classifier"  # one\u2028two\fthree\x85four\n'
        'backend: "onnxruntime"\n'
        "max_batch_size: 4\n"
    )


async def test_an_edit_past_the_end_of_the_last_line_is_applied_at_its_end(
    client: LanguageClient, project: Path
) -> None:
    uri = await opened(client, project / CLASSIFIER_CONFIG, NEGATIVE_BATCH.rstrip("\n"), ["TL501"])
    edit_document(client, uri, 2, at(4, 200, 4, 200), "\nmax_batch_size: 4")
    # Written after the last line, the second max_batch_size overrides the first.
    await until(lambda: codes(client, uri) == ["TL107"])
    (found,) = client.diagnostics[uri]
    assert found.range.start.line == 5


async def test_disabling_a_finding_after_a_lone_carriage_return_comments_the_engines_line(
    client: LanguageClient, project: Path
) -> None:
    text = NEGATIVE_BATCH.replace('"onnxruntime"\n', '"onnxruntime"\r')
    uri = await opened(client, project / CLASSIFIER_CONFIG, text, ["TL501"])
    assert client.diagnostics[uri][0].range == at(2, 16, 2, 18)
    actions = await code_actions(client, uri, at(2, 17, 2, 17))
    line = next(a for a in actions if a.title == "Disable TL501 for this line")
    assert line.edit and line.edit.changes
    (edit,) = line.edit.changes[uri]
    assert edit == types.TextEdit(at(2, 18, 2, 18), "  # tritonlint: disable=TL501")
    change_document(client, uri, apply(text, [edit]), 2)
    await until(lambda: codes(client, uri) == [])


async def test_a_comment_running_past_a_lone_carriage_return_is_one_token_on_its_first_line(
    client: LanguageClient, project: Path
) -> None:
    text = "# one\rtwo\nmax_batch_size: 4\n"
    uri = open_document(client, project / CLASSIFIER_CONFIG, text)
    # A comment at 0:0 (5 long), cut at its line's end; on line 2 the field name and number.
    assert await token_data(client, uri) == [0, 0, 5, 5, 0, 2, 0, 14, 0, 0, 0, 16, 1, 4, 0]
