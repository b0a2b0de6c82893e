"""Formatting, of a whole document (``textDocument/formatting``) or of a range
(``textDocument/rangeFormatting``): the formatter's edits of the editor's text.

The formatter's edits replace whole lines, and a line's formatted text depends on what
encloses it (its indentation), so range formatting takes an edit entire or not at all: the
result is always text the formatter itself would write, and an edit that covers lines both
in and out of the range changes those out of it too. A text the formatter refuses (a syntax
error) is left as it is, with a warning in the log.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from tritonlint.lsp.features import answering
from tritonlint.lsp.positions import Positions, lines_touched
from tritonlint.lsp.uris import path_of

if TYPE_CHECKING:
    from tritonlint.lsp.state import TritonLintServer


def _formatted(ls: TritonLintServer, uri: str) -> list[types.TextEdit]:
    """The formatter's edits of the editor's text of ``uri`` (none: it refuses the text)."""
    from tritonlint.format.api import Refusal, format_edits

    text = ls.text_of(uri)
    positions = Positions(text, ls.encoding)
    edits = format_edits(text)
    if isinstance(edits, Refusal):
        ls.log(f"{uri}: not formatted: {edits.message}", types.MessageType.Warning)
        return []
    return [positions.text_edit(edit) for edit in edits]


def formatting(
    ls: TritonLintServer, params: types.DocumentFormattingParams
) -> list[types.TextEdit]:
    return _formatted(ls, params.text_document.uri)


@answering
def range_formatting(
    ls: TritonLintServer, params: types.DocumentRangeFormattingParams
) -> list[types.TextEdit]:
    """The formatter's edits that touch a line of the range, each whole (none for a
    document that is no file, as the other editor features of :mod:`.features` answer)."""
    if path_of(params.text_document.uri) is None:
        return []
    edits = _formatted(ls, params.text_document.uri)
    first, last = lines_touched(params.range)
    taken = []
    for edit in edits:
        start, end = lines_touched(edit.range)
        if start <= last and first <= end:
            taken.append(edit)
    return taken


def register(server: TritonLintServer) -> None:
    """Serve formatting on ``server``."""
    server.feature(types.TEXT_DOCUMENT_FORMATTING)(formatting)
    server.feature(types.TEXT_DOCUMENT_RANGE_FORMATTING)(range_formatting)
