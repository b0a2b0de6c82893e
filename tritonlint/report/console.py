"""The rich consoles the command prints on, made (and rich imported) only where needed.

rich's import costs a one-file run more than its lint does, so the plain reports are written
without it; rich prints what needs a terminal's colours or a table's layout.

``--color`` decides whether there is colour: ``auto`` leaves it to rich, which colours a
terminal and honours ``NO_COLOR`` and ``FORCE_COLOR``; ``always`` and ``never`` win over the
terminal and the environment alike.

A reader may leave before the report ends (``tritonlint ... | head``): what is left of it is
dropped, and the run ends as it would have, with its own exit status (rich by itself would
exit with status 1).
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from rich.console import Console

COLOR_CHOICES = ("auto", "always", "never")
#: The rich console options each ``--color`` choice sets.
_COLOR_OPTIONS: dict[str, dict[str, Any]] = {
    "auto": {},
    "always": {"force_terminal": True, "no_color": False},
    "never": {"force_terminal": False, "no_color": True},
}


def rich_console(color: str = "auto", **options: Any) -> Console:
    """A rich console that highlights nothing by itself, coloured as ``color`` (a
    ``--color`` choice) says; ``options`` as rich takes them, over what ``color`` sets."""
    return _console_class()(highlight=False, **{**_COLOR_OPTIONS[color], **options})


@functools.cache
def _console_class() -> type[Console]:
    from rich.console import Console

    class _Console(Console):
        """A console that falls silent when the reader of standard output leaves."""

        def on_broken_pipe(self) -> None:
            self.quiet = True
            drop_stdout()

    return _Console


def drop_stdout() -> None:
    """Send whatever is written to standard output from now on to the null device."""
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, sys.stdout.fileno())
    os.close(null)


@contextmanager
def reader_may_leave() -> Iterator[None]:
    """Let the reader of standard output stop reading: the rest of the output is dropped.

    Nothing written later, nor the last flush at exit, fails on the closed pipe.
    """
    try:
        yield
    except BrokenPipeError:
        drop_stdout()


def may_be_terminal(stream: TextIO, color: str = "auto") -> bool:
    """Whether rich could take ``stream`` for a terminal, and print on it in colour.

    False only where rich certainly prints plain text: ``--color never``, or (with ``auto``) a
    stream that is no terminal, with none of the variables that make rich colour anyway
    (``FORCE_COLOR``, ``TTY_COMPATIBLE``).
    """
    if color != "auto":
        return color == "always"
    if "FORCE_COLOR" in os.environ or os.environ.get("TTY_COMPATIBLE") == "1":
        return True
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False
