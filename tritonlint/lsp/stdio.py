"""The client's messages read from standard input by the event loop itself.

pygls reads standard input in a worker thread, with a round trip to it for each line of each
message: messages a client sends together (the edits of a paste, of a multi-cursor edit, of
fast typing) reach the server one at a time, and a check started by the first of them runs
while the others are still being read, and publishes a version already replaced. Here the
event loop reads the pipe as data comes: all the messages that came together are handled
before anything else runs, and the server can ask whether more input is waiting
(:meth:`PipeReader.waiting`) before it starts a check.

Only a pipe is read so (what editors and test clients give a server): reading makes the
file descriptor non-blocking, which a terminal or a socket shares with standard output.

Whatever reads the input, the messages are taken out of their frames here (:class:`Frames`,
:func:`serve`), not by pygls' loop, which a single malformed frame leaves deaf until the input
ends: a frame that cannot be read is skipped, said in the log, and the input read on from the
next ``Content-Length`` header.
"""

from __future__ import annotations

import asyncio
import os
import select
import stat
import threading
from collections.abc import Awaitable, Callable
from typing import BinaryIO, Protocol


def is_pipe(stream: BinaryIO) -> bool:
    """Whether ``stream`` is a pipe (not a file, terminal or socket)."""
    try:
        return stat.S_ISFIFO(os.fstat(stream.fileno()).st_mode)
    except (OSError, ValueError):  # no file descriptor (a stream in memory), or closed
        return False


class PipeReader(asyncio.Protocol):
    """The bytes read from a pipe, for pygls' message loop (``readline``, ``readexactly``)."""

    def __init__(self, descriptor: int) -> None:
        self._descriptor = descriptor
        self._buffer = bytearray()
        self._ended = False
        self._waiter: asyncio.Future[None] | None = None

    @classmethod
    async def open(cls, stream: BinaryIO) -> PipeReader:
        reader = cls(stream.fileno())
        await asyncio.get_running_loop().connect_read_pipe(lambda: reader, stream)
        return reader

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        self._wake()

    def eof_received(self) -> bool:
        self._ended = True
        self._wake()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self._ended = True
        self._wake()

    def waiting(self) -> bool:
        """Whether input is waiting: read but not yet taken, or not yet read."""
        if self._buffer:
            return True
        if self._ended:
            return False
        readable, _, _ = select.select([self._descriptor], [], [], 0)
        return bool(readable)

    async def readline(self) -> bytes:
        """The next line, with its line break (at the end of the input, what is left)."""
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0 or self._ended:
                return self._take(end + 1 if end >= 0 else len(self._buffer))
            await self._more()

    async def readexactly(self, size: int) -> bytes:
        """The next ``size`` bytes (at the end of the input, what is left)."""
        while len(self._buffer) < size and not self._ended:
            await self._more()
        return self._take(min(size, len(self._buffer)))

    def _take(self, size: int) -> bytes:
        taken = bytes(self._buffer[:size])
        del self._buffer[:size]
        return taken

    async def _more(self) -> None:
        self._waiter = asyncio.get_running_loop().create_future()
        try:
            await self._waiter
        finally:
            self._waiter = None

    def _wake(self) -> None:
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)


class Reader(Protocol):
    """What the message loop reads from: :class:`PipeReader`, or pygls' reader of a stream
    that is not a pipe."""

    def readline(self) -> Awaitable[bytes]: ...

    def readexactly(self, n: int) -> Awaitable[bytes]: ...


#: The header that frames a message, as it is compared (header names ignore case).
_LENGTH = b"content-length:"


class Frames:
    """The bodies of the messages framed in ``reader``'s bytes (``Content-Length: N``, other
    headers, an empty line, N bytes), skipping what is not a message.

    pygls' own loop stops at the first frame it cannot read: a header that is not a
    ``Content-Length`` it understands leaves it reading bodies as header lines, and so the
    headers that follow, until the input ends. Here a frame that cannot be read (a
    ``Content-Length`` that is no number, a body without one, a line that is no header) is
    reported to ``skipped`` with why, once, and the input is read on from the next line that
    holds a ``Content-Length`` header. A body that a frame declares but that is no message
    (:meth:`resynchronise`) is skipped so too, and the messages that a too long
    ``Content-Length`` took into it are read again.
    """

    def __init__(self, reader: Reader, skipped: Callable[[str], None]) -> None:
        self._reader = reader
        self._skipped = skipped
        #: Bytes given back to be read again, before the reader's.
        self._pending = bytearray()
        #: Looking for the next ``Content-Length`` header, past a frame that was skipped.
        self._skipping = False

    async def next(self) -> bytes | None:
        """The next message's body; None at the end of the input."""
        length: int | None = None
        headers = False
        while True:
            line = await self._readline()
            if not line:
                return None
            start = line.lower().find(_LENGTH)
            if self._skipping:
                if start < 0:
                    continue
                self._skipping = False
            elif start > 0:
                self._skip(f"{start} bytes before a Content-Length header")
                self._skipping = False
            if start > 0:
                line, start = line[start:], 0
            text = line.strip()
            if not text:  # the end of the headers
                if length is not None:
                    body = await self._readexactly(length)
                    return body if len(body) == length else None
                if headers:
                    self._skip("a frame without a Content-Length header")
                continue
            headers = True
            if start == 0:
                value = text[len(_LENGTH) :].strip()
                if not value.isdigit():
                    self._skip(f"a frame whose Content-Length {shown(value)} is no number of bytes")
                    length, headers = None, False
                    continue
                length = int(value)
            elif b":" not in text:
                self._skip(f"a header line {shown(text)}, which is not 'Name: value'")
                length, headers = None, False

    def resynchronise(self, body: bytes) -> None:
        """Read on from the next ``Content-Length`` header, past ``body``, which is no
        message; one in ``body`` (its frame's length was too long) is read again."""
        start = body.lower().find(_LENGTH)
        if start >= 0:
            self._pending[:0] = body[start:]
        self._skipping = True

    def _skip(self, why: str) -> None:
        self._skipped(why)
        self._skipping = True

    async def _readline(self) -> bytes:
        if self._pending:
            end = self._pending.find(b"\n")
            if end >= 0:
                return self._take(end + 1)
            return self._take(len(self._pending)) + await self._reader.readline()
        return await self._reader.readline()

    async def _readexactly(self, size: int) -> bytes:
        taken = self._take(min(size, len(self._pending)))
        if len(taken) == size:
            return taken
        return taken + await self._reader.readexactly(size - len(taken))

    def _take(self, size: int) -> bytes:
        taken = bytes(self._pending[:size])
        del self._pending[:size]
        return taken


def shown(text: bytes, limit: int = 40) -> str:
    """Bytes of the input as a log line quotes them: a prefix, as Python writes it."""
    return repr(text[:limit].decode("utf-8", "replace")) + ("..." if len(text) > limit else "")


async def serve(
    stop: threading.Event,
    reader: Reader,
    receive: Callable[[bytes], bool],
    skipped: Callable[[str], None],
) -> None:
    """Hand the body of each message read from ``reader`` to ``receive`` (which says False
    for one that is not JSON, whose frame was wrong) until the input ends or ``stop`` is set;
    ``skipped`` is told what was skipped, and why."""
    frames = Frames(reader, skipped)
    while not stop.is_set():
        body = await frames.next()
        if body is None:
            return
        if not receive(body):
            frames.resynchronise(body)
