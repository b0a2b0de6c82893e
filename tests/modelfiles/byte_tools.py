"""What the readers' tests build bytes with and measure them by: protobuf varints, and the
peak memory a read takes."""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def varint(value: int) -> bytes:
    """``value`` as a protobuf base-128 varint."""
    out = bytearray()
    while True:
        low, value = value & 0x7F, value >> 7
        out.append(low | (0x80 if value else 0))
        if not value:
            return bytes(out)


def with_peak_memory(call: Callable[[], T]) -> tuple[T, int]:
    """What ``call`` returns, and the most memory Python allocated while it ran (bytes)."""
    tracemalloc.start()
    try:
        result = call()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return result, peak
