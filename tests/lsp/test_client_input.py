"""What the client sends that is not a right message: a real ``tritonlint lsp`` process, its
standard input written byte by byte as a client (or a broken one) writes it.

A request whose params do not fit its method is answered with InvalidParams (-32602). A frame
that cannot be read (a ``Content-Length`` that is no number, a body without one, a line that is
no header, a body that is not JSON) and JSON that is not a JSON-RPC message are skipped, with a
warning in the log that says what was skipped, never an "internal error"; the next message is
answered.
"""

from __future__ import annotations

import json
import queue
import subprocess
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from lsp_session import SERVER

Message = dict[str, Any]


def frame(message: Message | bytes) -> bytes:
    """A message framed as LSP frames it."""
    body = message if isinstance(message, bytes) else json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def request(msg_id: int, method: str, params: Any = None) -> Message:
    message: Message = {"jsonrpc": "2.0", "id": msg_id, "method": method}
    if params is not None:
        message["params"] = params
    return message


def hover(msg_id: int, params: Any) -> Message:
    return request(msg_id, "textDocument/hover", params)


class Server:
    """A ``tritonlint lsp`` process, with the messages it writes read as they come."""

    def __init__(self, cwd: Path) -> None:
        self.process = subprocess.Popen(
            SERVER, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )
        self.received: queue.Queue[Message | None] = queue.Queue()
        #: Every message read so far, in order.
        self.seen: list[Message] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stdout = self.process.stdout
        assert stdout is not None
        while True:
            length = None
            while True:
                line = stdout.readline()
                if not line:
                    self.received.put(None)
                    return
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
                if not line.strip():
                    break
            assert length is not None
            self.received.put(json.loads(stdout.read(length)))

    def write(self, data: bytes) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        stdin.write(data)
        stdin.flush()

    def until(self, wanted: Callable[[Message], bool], timeout: float = 20.0) -> Message:
        """The first message from now on that is ``wanted``."""
        while True:
            try:
                message = self.received.get(timeout=timeout)
            except queue.Empty:
                raise AssertionError(f"no answer; the server wrote {self.seen}") from None
            assert message is not None, f"the server ended; it wrote {self.seen}"
            self.seen.append(message)
            if wanted(message):
                return message

    def answer(self, msg_id: int) -> Message:
        return self.until(lambda message: message.get("id") == msg_id and "method" not in message)

    def logged(self) -> list[str]:
        return [
            message["params"]["message"]
            for message in self.seen
            if message.get("method") == "window/logMessage"
        ]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=10)
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                stream.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """An initialised server (no workspace folder, no capabilities)."""
    started = Server(tmp_path)
    try:
        started.write(frame(request(1, "initialize", {"processId": None, "capabilities": {}})))
        assert "capabilities" in started.answer(1)["result"]
        started.write(frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
        yield started
    finally:
        started.stop()


def _goes_on(server: Server) -> None:
    """The server answers the next request (a shutdown), and logged no internal error."""
    server.write(frame(request(99, "shutdown")))
    assert server.answer(99) == {"jsonrpc": "2.0", "id": 99, "result": None}
    assert not [line for line in server.logged() if "internal error" in line]


def test_a_request_with_invalid_params_gets_invalid_params_and_the_server_goes_on(
    server: Server,
) -> None:
    server.write(frame(hover(7, {"textDocument": {}})))
    assert server.answer(7) == {
        "jsonrpc": "2.0",
        "id": 7,
        "error": {
            "code": -32602,
            "message": "invalid params for textDocument/hover: required field missing @ "
            "$.params.text_document.uri; required field missing @ $.params.position",
        },
    }
    server.write(frame(request(8, "textDocument/hover", "not an object")))
    assert server.answer(8)["error"]["code"] == -32602
    _goes_on(server)


def test_a_notification_with_invalid_params_is_skipped_with_a_log_line(server: Server) -> None:
    server.write(frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {}}))
    _goes_on(server)
    assert server.logged() == [
        "tritonlint: skipped input from the client: a textDocument/didOpen notification with "
        "invalid params: required field missing @ $.params.text_document"
    ]


MALFORMED = {
    "non-numeric length": (
        b'Content-Length: abc\r\n\r\n{"jsonrpc": "2.0", "method": "initialized"}',
        "a frame whose Content-Length 'abc' is no number of bytes",
    ),
    "negative length": (
        b'Content-Length: -4\r\n\r\n{"jsonrpc": "2.0", "method": "initialized"}',
        "a frame whose Content-Length '-4' is no number of bytes",
    ),
    "no Content-Length": (
        b'Content-Type: application/json\r\n\r\n{"jsonrpc": "2.0", "method": "exit"}',
        "a frame without a Content-Length header",
    ),
    "a header without a colon": (
        b'Content-Length 40\r\n\r\n{"jsonrpc": "2.0", "method": "exit"}',
        "a header line 'Content-Length 40', which is not 'Name: value'",
    ),
    "a line that is no header": (
        b"hello\r\n",
        "a header line 'hello', which is not 'Name: value'",
    ),
    "bytes before a header": (b"xyz", "3 bytes before a Content-Length header"),
    "invalid JSON": (frame(b'{"jsonrpc": "2.0", "id": 3,'), "a body that is not JSON: "),
    "a length too short": (
        b'Content-Length: 10\r\n\r\n{"jsonrpc": "2.0", "id": 3, "method": "shutdown"}',
        "a body that is not JSON: '{\"jsonrpc\"'",
    ),
    "not UTF-8": (frame(b"\xff\xfe\xff"), "a body that is not JSON: "),
    "a JSON array": (frame(b"[1, 2]"), "a message that is not JSON-RPC 2.0: '[1, 2]'"),
    "a JSON object that is no message": (
        frame(b'{"hello": "world"}'),
        'a message that is not JSON-RPC 2.0: \'{"hello": "world"}\'',
    ),
    "JSON-RPC 1.0": (
        frame(b'{"jsonrpc": "1.0", "id": 3, "method": "shutdown"}'),
        "a message that is not JSON-RPC 2.0: ",
    ),
    "a method that is a number": (
        frame(b'{"jsonrpc": "2.0", "id": 3, "method": 3}'),
        "a message whose method is not a string: ",
    ),
    "an id that is an object": (
        frame(b'{"jsonrpc": "2.0", "id": {}, "method": "shutdown"}'),
        "a message whose id is neither a number nor a string: ",
    ),
}


@pytest.mark.parametrize(("data", "skipped"), MALFORMED.values(), ids=MALFORMED.keys())
def test_what_is_no_message_is_skipped_with_a_log_line_and_the_next_message_answered(
    server: Server, data: bytes, skipped: str
) -> None:
    server.write(data)
    _goes_on(server)
    (line,) = server.logged()
    assert line.startswith(f"tritonlint: skipped input from the client: {skipped}")


def test_messages_in_the_body_of_a_too_long_frame_are_read_again(server: Server) -> None:
    """The frame claims more bytes than its body: the messages after it that it took in are
    read again, from the first Content-Length header in it."""
    swallowed = frame(hover(11, {})) + frame(hover(12, {}))
    server.write(b"Content-Length: 150\r\n\r\n{}" + swallowed)
    assert [server.answer(msg_id)["error"]["code"] for msg_id in (11, 12)] == [-32602] * 2
    _goes_on(server)
    body = repr(("{}" + swallowed.decode())[:40])
    assert server.logged() == [
        f"tritonlint: skipped input from the client: a body that is not JSON: {body}..."
    ]


def test_a_request_for_a_method_the_server_does_not_serve_is_no_internal_error(
    server: Server,
) -> None:
    server.write(frame(request(4, "no/such/method", {})))
    assert server.answer(4)["error"]["code"] == -32601
    _goes_on(server)
    assert server.logged() == ["tritonlint: Method Not Found: no/such/method"]


def test_standard_input_that_is_a_file_is_read_so_too(tmp_path: Path) -> None:
    """A file (not a pipe) is read by pygls' reader, in a thread, through the same frames."""
    messages = (
        frame(request(1, "initialize", {"processId": None, "capabilities": {}}))
        + b"Content-Length: abc\r\n\r\n{}"
        + frame(hover(2, {}))
        + frame(request(3, "shutdown"))
        + frame({"jsonrpc": "2.0", "method": "exit"})
    )
    given = tmp_path / "input"
    given.write_bytes(messages)
    with given.open("rb") as stdin:
        done = subprocess.run(SERVER, stdin=stdin, capture_output=True, timeout=60, check=True)
    parts = done.stdout.split(b"Content-Length: ")[1:]
    answers = [json.loads(part.split(b"\r\n\r\n", 1)[1]) for part in parts]
    assert [(a.get("id"), a.get("method")) for a in answers] == [
        (1, None),
        (None, "window/logMessage"),
        (2, None),
        (3, None),
    ]
    assert answers[1]["params"]["message"] == (
        "tritonlint: skipped input from the client: a frame whose Content-Length 'abc' is no "
        "number of bytes"
    )
    assert answers[2]["error"]["code"] == -32602
