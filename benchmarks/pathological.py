#!/usr/bin/env python3
"""Time and memory of linting pathological config files, at sizes growing tenfold.

Usage: python benchmarks/pathological.py [--repeat N] [--give-up SECONDS] [SHAPE ...]

Each shape is generated at three sizes, ten times apart (bytes of input, or levels of
nesting), and goes through the whole path one config file takes: parse, recover from
syntax errors, bind to the ModelConfig schema (``tritonlint.document.parse_config``). For
each size the table shows the best time of ``--repeat`` runs, the ratio to the previous
size's time (about 10 when the cost is linear in the input), the peak memory allocated
during one run (``tracemalloc``) per byte of input, and the time protobuf's own
``text_format.Parse`` takes on the same text, for reference.

A size whose run takes longer than ``--give-up`` seconds (default 60) is the last one
measured for its shape: the larger ones are left out.

``--without-gc`` turns Python's cyclic garbage collector off during the timed runs, to tell
the linter's own cost from the collector's. Building a tree of a million objects, the
collector runs full collections over the whole heap every 70,000 new objects until the heap
is a few hundred thousand objects large (then at each quarter of growth): at these sizes that
costs more than linear time, whatever builds the objects.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gc
import sys
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from google.protobuf import text_format

from tritonlint.document import parse_config
from tritonlint.schema.releases import Schema, load_schema

KB = 1000


def _repeat_to(unit: str, size: int) -> str:
    """``unit`` repeated until the text is ``size`` characters long (or just over)."""
    return unit * -(-size // len(unit))


def stray_token_line(size: int) -> str:
    """One long line of fields with a stray ``}`` in its middle."""
    half = _repeat_to('input { name: "in" dims: [ 1, 2 ] } ', size // 2)
    return half + "} " + half


def stray_characters(size: int) -> str:
    """A field, then one long run of characters that start no token."""
    return 'name: "m" ' + "@" * size


def unclosed_braces(size: int) -> str:
    """``{`` repeated on one line: every one is a syntax error (a missing field name)."""
    return "{" * size


def adjacent_strings(size: int) -> str:
    """One value made of many adjacent empty string literals."""
    return "name: " + '""' * (size // 2)


def huge_string(size: int) -> str:
    """One string literal, with an escape so that it has to be unescaped."""
    return 'name: "\\t' + "x" * size + '"'


def nested_unclosed(depth: int) -> str:
    """Messages opened ``depth`` deep and never closed."""
    return "a { " * depth


def nested_closed(depth: int) -> str:
    """Messages nested ``depth`` deep, each closed."""
    return "a { " * depth + "}" * depth


def many_fields(size: int) -> str:
    """Many valid fields of a real ModelConfig, one per line."""
    field = 'input { name: "in" data_type: TYPE_FP32 dims: [ 3 ] }\n'
    return 'name: "m"\n' + _repeat_to(field, size)


def repeated_field(size: int) -> str:
    """The same field on every line: each one after the first is a duplicate with a fix."""
    return _repeat_to('name: "m"\n', size)


def many_errors(size: int) -> str:
    """A syntax error on every line, far more than are reported."""
    return _repeat_to("field value\n", size)


@dataclass(frozen=True)
class Shape:
    name: str
    make: Callable[[int], str]
    sizes: tuple[int, int, int]
    unit: str  # what a size counts


SHAPES = [
    Shape("stray token in a long line", stray_token_line, (10 * KB, 100 * KB, 1000 * KB), "B"),
    Shape("stray characters", stray_characters, (10 * KB, 100 * KB, 1000 * KB), "B"),
    Shape("unclosed '{' repeated", unclosed_braces, (10 * KB, 100 * KB, 1000 * KB), "B"),
    Shape("adjacent string literals", adjacent_strings, (50 * KB, 500 * KB, 5000 * KB), "B"),
    Shape("nested unclosed messages", nested_unclosed, (1000, 10_000, 100_000), "levels"),
    Shape("huge string literal", huge_string, (40 * KB, 400 * KB, 4000 * KB), "B"),
    Shape("nested closed messages", nested_closed, (1000, 10_000, 100_000), "levels"),
    Shape("many fields", many_fields, (10 * KB, 100 * KB, 1000 * KB), "B"),
    Shape("syntax errors beyond the cap", many_errors, (10 * KB, 100 * KB, 1000 * KB), "B"),
    Shape("repeated field", repeated_field, (10 * KB, 100 * KB, 1000 * KB), "B"),
]


def _lint(text: str, schema: Schema) -> None:
    parse_config(Path("x/config.pbtxt"), text, schema)


def _protobuf(text: str, schema: Schema) -> None:
    # Refusing the text is what it does with most of these.
    with contextlib.suppress(text_format.ParseError, ValueError):
        text_format.Parse(text, schema.new_config())


def _best_time(run: Callable[[], None], repeat: int, collector: bool = True) -> float:
    """The shortest of ``repeat`` runs, each from a collected heap."""
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        if not collector:
            gc.disable()
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
        gc.enable()
    return best


def _peak_memory(run: Callable[[], None]) -> int:
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _label(size: int, unit: str) -> str:
    if unit == "levels":
        return f"{size:,} levels"
    return f"{size / KB:,.0f} KB" if size < 1000 * KB else f"{size / KB / KB:,.0f} MB"


def measure(shape: Shape, schema: Schema, args: argparse.Namespace) -> None:
    previous: float | None = None
    collector = not args.without_gc
    for size in shape.sizes:
        text = shape.make(size)
        lint = functools.partial(_lint, text, schema)
        seconds = _best_time(lint, 1, collector)
        slow = seconds > args.give_up
        if not slow:
            seconds = min(seconds, _best_time(lint, args.repeat - 1, collector))
        memory = None if slow else _peak_memory(lint)
        reference = _best_time(functools.partial(_protobuf, text, schema), args.repeat)
        ratio = f"{seconds / previous:6.1f}x" if previous else "      -"
        per_byte = f"{memory / len(text):8.1f}" if memory is not None else "       ?"
        print(
            f"{shape.name:30} {_label(size, shape.unit):>15} {seconds * 1000:11.1f} {ratio} "
            f"{per_byte} {reference * 1000:11.1f}",
            flush=True,
        )
        if slow:
            print(f"{'':30} {'(larger sizes left out)':>15}", flush=True)
            return
        previous = seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("shapes", nargs="*", help="names of shapes to run (default: all)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--give-up", type=float, default=60.0)
    parser.add_argument("--without-gc", action="store_true")
    args = parser.parse_args()
    chosen = [s for s in SHAPES if not args.shapes or s.name in args.shapes]
    if not chosen:
        print(f"no such shape; the shapes are: {[s.name for s in SHAPES]}", file=sys.stderr)
        return 2
    schema = load_schema()
    _lint('name: "warm up"', schema)
    print(
        f"{'shape':30} {'size':>15} {'time (ms)':>11} {'ratio':>7} {'mem B/B':>8} "
        f"{'protobuf ms':>11}"
    )
    for shape in chosen:
        measure(shape, schema, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
