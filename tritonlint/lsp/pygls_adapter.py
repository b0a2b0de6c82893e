"""Every use the language server makes of pygls' private members, in one place.

pygls offers no public way to do what the server needs here; each class and function names
the private members it reaches and why (docs/pygls-notes.md says what pygls would need for
this module to go). No other module of the server touches a private member of pygls.

They were checked against pygls :data:`PYGLS_VERSIONS`: pyproject.toml pins the same range,
and a test fails when the installed pygls is outside it (a newer pygls may rename or drop any
of them; read this module again before widening the range).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Generator
from concurrent.futures import Future
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method
from pygls.workspace import TextDocument, Workspace

#: The pygls releases this module was checked against (a PEP 440 specifier).
PYGLS_VERSIONS = ">=2.1,<2.2"


class AdaptedProtocol(LanguageServerProtocol):
    """pygls' protocol with its workspace made by :attr:`documents_class`, without the leak
    of notifications' futures and the warning for a late cancel, and with the private
    members :mod:`tritonlint.lsp.protocol` reads behind public names."""

    #: The class of the workspace of documents (pygls makes its own ``Workspace``).
    documents_class: type[Workspace] = Workspace

    @lsp_method(types.INITIALIZE)
    def lsp_initialize(
        self, params: types.InitializeParams
    ) -> Generator[Any, Any, types.InitializeResult]:
        """pygls' initialisation, with the workspace it makes (``_workspace``) replaced by one
        of :attr:`documents_class` as soon as it is made: before the server's own handler
        runs, and before any document is opened."""
        steps = super().lsp_initialize(params)
        value: Any = None
        while True:
            try:
                step = steps.send(value)
            except StopIteration as done:
                self._hold_documents()
                result: types.InitializeResult = done.value
                return result
            self._hold_documents()
            value = yield step

    def _hold_documents(self) -> None:
        made = self._workspace
        if made is not None and not isinstance(made, self.documents_class):
            # The server's sync kind is private too (``_text_document_sync_kind``).
            self._workspace = self.documents_class(
                made.root_uri,
                self._server._text_document_sync_kind,
                list(made.folders.values()),
                made.position_encoding,
            )

    # -- the futures of notifications ----------------------------------------------------------

    def _handle_notification(self, method_name: str, params: Any) -> None:
        """pygls files the future of a notification handled by a generator or a coroutine in
        its table of requests in flight (``_request_futures``) under a fresh id, and only a
        response takes it out: take it out once it is done."""
        futures = self._request_futures
        before = set(futures)
        super()._handle_notification(method_name, params)
        for key in set(futures) - before:
            futures[key].add_done_callback(self._forget(key))

    def _forget(self, key: Any) -> Callable[[Future[Any]], None]:
        def forget(future: Future[Any]) -> None:
            # One cancelled was cancelled by shutdown, which goes through the table meanwhile.
            if not future.cancelled():
                self._request_futures.pop(key, None)

        return forget

    def _handle_cancel_notification(self, msg_id: Any) -> None:
        """A cancel of a request already answered is normal: no warning (pygls logs one)."""
        if msg_id in self._request_futures:
            super()._handle_cancel_notification(msg_id)

    # -- what reading a message needs --------------------------------------------------------

    def response_type(self, msg_id: Any) -> Any:
        """The type of the result of the server's request ``msg_id`` (None: not known), taken
        out of pygls' table (``_result_types``) as pygls' ``structure_message`` does."""
        return self._result_types.pop(msg_id, None)

    def structure(self, data: dict[str, Any], kind: Any) -> Any:
        """``data`` as an object of ``kind``, by pygls' converter (``_converter``)."""
        return self._converter.structure(data, kind)

    def send_error(self, msg_id: int | str, error: types.ResponseError) -> None:
        """Answer the request ``msg_id`` with ``error`` (``_send_response``)."""
        self._send_response(msg_id, error=error)

    def report_handler_error(self, error: Exception) -> None:
        """Tell the server a handler failed, as pygls' own loop does
        (``_server._report_server_error``)."""
        self._server._report_server_error(error, JsonRpcException)


class AdaptedDocument(TextDocument):
    """A pygls text document whose incremental changes are applied at the offsets
    :meth:`offsets` gives (pygls applies them by its own lines), through its private text
    (``_source``) and step (``_apply_incremental_change``)."""

    def offsets(self, span: types.Range) -> tuple[int, int]:
        """Where in the text ``span`` starts and ends."""
        raise NotImplementedError

    def _apply_incremental_change(self, change: types.TextDocumentContentChangePartial) -> None:
        source = self.source
        start, end = self.offsets(change.range)
        self._source = source[:start] + change.text + source[max(start, end) :]


class AdaptedWorkspace(Workspace):
    """pygls' workspace, whose text documents are of :attr:`document_class` (pygls makes
    them in its private ``_create_text_document``, with its private ``_sync_kind``)."""

    document_class: type[TextDocument] = TextDocument

    def _create_text_document(
        self,
        doc_uri: str,
        source: str | None = None,
        version: int | None = None,
        language_id: str | None = None,
    ) -> TextDocument:
        return self.document_class(
            doc_uri,
            source=source,
            version=version,
            language_id=language_id,
            sync_kind=self._sync_kind,
            position_codec=self.position_codec,
        )


def stop_event(server: LanguageServer) -> threading.Event:
    """A new event that pygls' ``shutdown`` (and ``exit``) sets to end the server's loop: its
    private ``_stop_event``, made here for a loop the server runs itself."""
    event = server._stop_event = threading.Event()
    return event
