"""The language server, assembled: the server's state (:mod:`.state`) with every handler
registered on it, served on standard input and output."""

from __future__ import annotations

from tritonlint.lsp import (
    code_actions,
    code_lens,
    custom_requests,
    features,
    formatting,
    graph_request,
    handlers,
)
from tritonlint.lsp.state import TritonLintServer


def create_server() -> TritonLintServer:
    server = TritonLintServer()
    for module in (
        handlers,
        code_actions,
        formatting,
        features,
        code_lens,
        custom_requests,
        graph_request,
    ):
        module.register(server)
    return server


def main() -> int:
    """Serve on standard input and output until the client exits."""
    create_server().start_io()
    return 0
