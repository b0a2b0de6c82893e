"""The editor's documents, with lines as the protocol counts them.

pygls' ``TextDocument`` splits lines with ``str.splitlines``, which also breaks at ``\\f``,
``\\v``, ``\\x1c``-``\\x1e``, ``\\x85``, ``\\u2028`` and ``\\u2029``; LSP ends a line only at
``\\n``, ``\\r\\n`` and ``\\r``. An incremental change after such a character would be applied
lines away from where the editor made it. The documents here split lines as LSP does, and
apply a change through :class:`~tritonlint.lsp.positions.Positions` (which also puts a
position past a line's end at that end, where pygls puts it one character before on a last
line without a line end). docs/pygls-notes.md describes both for pygls.
"""

from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types

from tritonlint.lsp.positions import LINE_END, Positions
from tritonlint.lsp.pygls_adapter import AdaptedDocument, AdaptedWorkspace


class Document(AdaptedDocument):
    """A text document whose lines end where LSP ends them."""

    @property
    def lines(self) -> Sequence[str]:
        """The lines of the text, each with its line end (as ``splitlines(True)`` has them)."""
        source = self.source
        starts = [0, *(found.end() for found in LINE_END.finditer(source))]
        if starts[-1] == len(source):
            starts.pop()  # no line after a final line end, as splitlines has it
        ends = [*starts[1:], len(source)]
        return tuple(source[start:end] for start, end in zip(starts, ends, strict=True))

    def offsets(self, span: types.Range) -> tuple[int, int]:
        encoding = self.position_codec.encoding or types.PositionEncodingKind.Utf16
        positions = Positions(self.source, types.PositionEncodingKind(encoding))
        return positions.offset(span.start), positions.offset(span.end)


class Documents(AdaptedWorkspace):
    """pygls' workspace, holding :class:`Document`\\ s."""

    document_class = Document
