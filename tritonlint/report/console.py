"""The rich consoles the command prints on, made (and rich imported) only where needed.

rich's import costs a one-file run more than its lint does, so the plain reports are written
without it; rich prints what needs a terminal's colours or a table's layout.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from rich.console import Console


def rich_console(**options: Any) -> Console:
    """A rich console that highlights nothing by itself; ``options`` as rich takes them."""
    from rich.console import Console

    return Console(highlight=False, **options)


def may_be_terminal(stream: TextIO) -> bool:
    """Whether rich could take ``stream`` for a terminal, and print on it in colour.

    False only where rich certainly prints plain text: a stream that is no terminal, with
    none of the variables that make rich colour anyway (``FORCE_COLOR``, ``TTY_COMPATIBLE``).
    """
    if "FORCE_COLOR" in os.environ or os.environ.get("TTY_COMPATIBLE") == "1":
        return True
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False
