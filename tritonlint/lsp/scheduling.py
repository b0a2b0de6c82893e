"""When the language server checks a workspace: at once, one check at a time.

The first request after a quiet period (an edit, a save, a change on disk) starts a check at
once: as soon as the messages the client sent with it are handled (a paste, a multi-cursor
edit or fast typing sends several edits together), so that it checks the last of them.
Requests that come while a check runs are not each checked: when the running check ends,
one more check reads the texts as they are then. The check itself (the server's) makes sure
that a check whose texts were edited while it ran publishes nothing, so that the
diagnostics of an older version never replace those of a newer one.

A request may ask for a delay (``TRITONLINT_LSP_DEBOUNCE_MS`` for edits): the check then
waits until no request came for that long.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from tritonlint import environment

#: How long after an edit its check waits for more edits, by default: not at all.
DEBOUNCE = 0.0

#: How long, at most, a check waits for the input already sent to be handled (a client that
#: never stops sending still gets its edits checked).
READING = 0.1


def debounce() -> float:
    """The delay, in seconds, between an edit and its check (``TRITONLINT_LSP_DEBOUNCE_MS``
    in the environment, in milliseconds; by default none)."""
    milliseconds = environment.debounce_ms()
    return DEBOUNCE if milliseconds is None else milliseconds / 1000


class Checks:
    """Runs the checks of one workspace one at a time, coalescing the requests that come
    while one runs into one more check."""

    def __init__(
        self, check: Callable[[], Awaitable[None]], waiting: Callable[[], bool] = lambda: False
    ) -> None:
        """``check``: checks and publishes; ``waiting``: whether input from the client is
        waiting to be handled."""
        self._check = check
        self._waiting = waiting
        self._task: asyncio.Task[None] | None = None
        #: Whether the check is running (not waiting for its delay to pass).
        self._running = False
        #: A request came while the check was running.
        self._again = False
        #: When, on the event loop's clock, the next check may start.
        self._start_at = 0.0

    def request(self, delay: float = 0.0) -> None:
        """Check after ``delay`` seconds without another request (at once for 0), or, while a
        check runs, once more after it."""
        self._start_at = asyncio.get_running_loop().time() + delay
        if self._running:
            self._again = True
            return
        if self._task is not None:
            self._task.cancel()  # waiting, maybe longer than this request asks: wait anew
        self._task = asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        while True:
            await self._ready()
            self._again = False
            self._running = True
            try:
                await self._check()
            finally:
                self._running = False
            if not self._again:
                return

    async def _ready(self) -> None:
        """Wait for the delay asked for, and for the input already sent to be handled."""
        clock = asyncio.get_running_loop().time
        reading_until: float | None = None
        pause = 0.0
        while True:
            wait = self._start_at - clock()
            if wait > 0:
                await asyncio.sleep(wait)
                continue
            if not self._waiting():
                return
            if reading_until is None:
                reading_until = clock() + READING
            elif clock() >= reading_until:
                return
            await asyncio.sleep(pause)  # the event loop reads and handles what came
            pause = 0.001  # the rest of a message that came in part
