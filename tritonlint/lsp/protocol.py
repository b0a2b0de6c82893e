"""pygls' protocol, less a leak and with the protocol's line ends.

pygls 2.1 files the future of a notification handled by a generator (its own ``didOpen``,
``didChange``, ``didSave``, ``didClose`` handlers) or by a coroutine under a fresh id in the
table of requests in flight, and only a request's response takes it out again: a server kept
two futures per keystroke forever (about 2 KiB each). This protocol takes out those of
notifications once they are done.

Its workspace holds :class:`~tritonlint.lsp.documents.Document`\\ s, whose lines end where
LSP ends them (pygls' own split them where ``str.splitlines`` does).

A client cancels requests it no longer needs, often after their answer went out: that is
normal, not worth the warning pygls logs for it (editors show it as an error).
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from concurrent.futures import Future
from typing import Any

from lsprotocol import types
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

from tritonlint.lsp.documents import Documents


class Protocol(LanguageServerProtocol):
    @lsp_method(types.INITIALIZE)
    def lsp_initialize(
        self, params: types.InitializeParams
    ) -> Generator[Any, Any, types.InitializeResult]:
        """pygls' initialisation, with its workspace replaced by :class:`Documents` as soon
        as it is made (before the server's own handler runs, and before any document)."""
        steps = super().lsp_initialize(params)
        value: Any = None
        while True:
            try:
                step = steps.send(value)
            except StopIteration as done:
                self._hold_documents()
                return done.value  # type: ignore[no-any-return]
            self._hold_documents()
            value = yield step

    def _hold_documents(self) -> None:
        made = self._workspace
        if made is not None and not isinstance(made, Documents):
            self._workspace = Documents(
                made.root_uri,
                self._server._text_document_sync_kind,
                list(made.folders.values()),
                made.position_encoding,
            )

    def _handle_notification(self, method_name: str, params: Any) -> None:
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
        if msg_id in self._request_futures:
            super()._handle_cancel_notification(msg_id)
