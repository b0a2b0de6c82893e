"""The cyclic garbage collector paused while a one-shot run builds what it keeps to the end.

Importing the command line's modules and parsing a repository create many small objects that
live until the run ends and form no cycles; the collector would scan them again and again
while they are made (it tripled the time of a large run). Paused, then frozen once made, they
are never scanned again, nor freed one by one. A long-lived process (the language server)
keeps the collector running.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def without_cycle_collection() -> Iterator[None]:
    """Pause the collector for the block; then freeze what exists and resume it (unless it
    was paused before the block: then it stays paused, and nothing is frozen)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.freeze()
            gc.enable()
