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
"""

from __future__ import annotations

import asyncio
import os
import select
import stat
from typing import BinaryIO


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
