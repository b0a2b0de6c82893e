"""pygls' protocol, less a leak: each notification's handler future is forgotten when done.

pygls 2.1 files the future of a notification handled by a generator (its own ``didOpen``,
``didChange``, ``didSave``, ``didClose`` handlers) or by a coroutine under a fresh id in the
table of requests in flight, and only a request's response takes it out again: a server kept
two futures per keystroke forever (about 2 KiB each). This protocol takes out those of
notifications once they are done.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from pygls.protocol import LanguageServerProtocol


class Protocol(LanguageServerProtocol):
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
