"""pygls' protocol, less a leak and with the protocol's line ends.

pygls 2.1 files the future of a notification handled by a generator (its own ``didOpen``,
``didChange``, ``didSave``, ``didClose`` handlers) or by a coroutine under a fresh id in the
table of requests in flight, and only a request's response takes it out again: a server kept
two futures per keystroke forever (about 2 KiB each). This protocol takes out those of
notifications once they are done (through :mod:`~tritonlint.lsp.pygls_adapter`, as every
use of pygls' private members).

Its workspace holds :class:`~tritonlint.lsp.documents.Document`\\ s, whose lines end where
LSP ends them (pygls' own split them where ``str.splitlines`` does).

A client cancels requests it no longer needs, often after their answer went out: that is
normal, not worth the warning pygls logs for it (editors show it as an error).

What the client sends is read here (:meth:`Protocol.receive`), not by pygls' loop, which sends
no answer to a request whose params do not fit its method and logs the client's mistakes as
the server's: a request that cannot be read is answered with InvalidParams (-32602), and
anything else that is no message is skipped, with a line in the log that says why.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Generator
from typing import Any, TypeGuard

from cattrs import transform_error
from cattrs.errors import ClassValidationError
from lsprotocol import types
from pygls.protocol.json_rpc import (
    JsonRPCNotification,
    JsonRPCRequestMessage,
    JsonRPCResponseMessage,
)
from pygls.protocol.language_server import lsp_method

from tritonlint.lsp.documents import Documents
from tritonlint.lsp.pygls_adapter import AdaptedProtocol
from tritonlint.lsp.stdio import shown


class Protocol(AdaptedProtocol):
    documents_class = Documents

    @lsp_method(types.INITIALIZE)
    def lsp_initialize(
        self, params: types.InitializeParams
    ) -> Generator[Any, Any, types.InitializeResult]:
        """pygls' initialisation (with :class:`Documents`, see :class:`AdaptedProtocol`).

        A client that pulls diagnostics but cannot be asked to pull again is not offered
        pulling (see :func:`pulls`): it is sent every file's diagnostics instead."""
        result = yield from super().lsp_initialize(params)
        if not pulls(params.capabilities):
            result.capabilities.diagnostic_provider = None
        return result

    # -- reading the client's messages ------------------------------------------------------

    def receive(self, body: bytes, skipped: Callable[[str], None]) -> bool:
        """Handle the message ``body``; False where it is not JSON (its frame was wrong).

        A request whose params do not fit its method gets an InvalidParams error; any other
        message that cannot be read is told to ``skipped``.
        """
        try:
            data = json.loads(body)
        except ValueError:  # not JSON, or not in a Unicode encoding
            skipped(f"a body that is not JSON: {shown(body)}")
            return False
        if not isinstance(data, dict) or data.get("jsonrpc") != self.VERSION:
            skipped(f"a message that is not JSON-RPC {self.VERSION}: {shown(body)}")
            return True
        problem = _envelope_problem(data)
        if problem is not None:
            skipped(f"a message whose {problem}: {shown(body)}")
            return True
        try:
            message = self._structured(data)
        except Exception as error:  # what the client sent does not fit
            self._refuse(data, _why(error), skipped)
            return True
        try:
            self.handle_message(message)
        except Exception as error:  # a handler failed: the server's error
            self.report_handler_error(error)
        return True

    def _structured(self, data: dict[str, Any]) -> Any:
        """The message as pygls' handlers take it (as pygls' ``structure_message`` makes it,
        without logging the client's mistakes as errors of the server's)."""
        kind: Any
        if "id" in data:
            if "error" in data:
                kind = types.ResponseErrorMessage
            elif "method" in data:
                kind = self.get_message_type(data["method"]) or JsonRPCRequestMessage
            else:
                kind = self.response_type(data["id"]) or JsonRPCResponseMessage
        else:
            kind = self.get_message_type(data.get("method", "")) or JsonRPCNotification
        return self.structure(data, kind)

    def _refuse(self, data: dict[str, Any], why: str, skipped: Callable[[str], None]) -> None:
        """Answer a request that cannot be read with InvalidParams; skip anything else."""
        method, msg_id = data.get("method"), data.get("id")
        if isinstance(method, str) and _is_id(msg_id):
            error = types.ResponseError(
                code=types.ErrorCodes.InvalidParams,
                message=f"invalid params for {method}: {why}",
            )
            self.send_error(msg_id, error)
        elif isinstance(method, str) and "id" not in data:
            skipped(f"a {method} notification with invalid params: {why}")
        else:
            skipped(f"a message that cannot be read: {why}")


def pulls(capabilities: types.ClientCapabilities) -> bool:
    """Whether the server leaves a client to pull its diagnostics (``textDocument/diagnostic``):
    when it can pull and can be asked to pull again (``workspace/diagnostic/refresh``). A
    check of one file changes what others show (the ensembles running an edited model); a
    client that pulls only what it edits would keep showing their old findings, so one that
    cannot be asked to pull again (Neovim 0.11) is sent them all (``publishDiagnostics``), as
    a client that does not pull is: the server does not offer it pulling."""
    text = capabilities.text_document
    workspace = capabilities.workspace
    refresh = workspace.diagnostics if workspace is not None else None
    return bool(
        text is not None
        and text.diagnostic is not None
        and refresh is not None
        and refresh.refresh_support
    )


def _envelope_problem(data: dict[str, Any]) -> str | None:
    """What makes ``data`` no JSON-RPC message though it says it is one, or None."""
    if "method" in data and not isinstance(data["method"], str):
        return "method is not a string"
    if "id" in data and not _is_id(data["id"]) and not (data["id"] is None and "error" in data):
        return "id is neither a number nor a string"
    return None


def _is_id(value: Any) -> TypeGuard[int | str]:
    """Whether ``value`` is a JSON-RPC id a response can name (a number or a string)."""
    return isinstance(value, (int, str)) and not isinstance(value, bool)


def _why(error: Exception) -> str:
    """What does not fit in a message, as cattrs finds it (``required field missing @
    $.params.position``)."""
    if isinstance(error, ClassValidationError):
        return "; ".join(transform_error(error))
    return str(error) or type(error).__name__
