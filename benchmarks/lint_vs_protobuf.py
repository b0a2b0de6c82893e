#!/usr/bin/env python3
"""Time a full tritonlint run against protobuf's own text-format parser, on the same files.

Usage: python benchmarks/lint_vs_protobuf.py [CORPUS_DIR] [--repeat N]

In one process, for every ``config.pbtxt`` under CORPUS_DIR (default: ../shared/corpus next
to this checkout):

* protobuf: ``google.protobuf.text_format.Parse(text, ModelConfig())`` on each file's text
  (already read into memory: the parse alone);
* tritonlint: ``lint_paths`` on the same files - reading them, parsing, binding to the
  schema, walking their model folders and running every rule - as the command runs it (the
  repositories spread over worker processes, one per core), and again in this one process
  alone (``TRITONLINT_JOBS=1``); the cyclic garbage collector is paused during the lint, as
  the command pauses it.

Each is run ``--repeat`` times (default 5) and the best time is kept. The ratio printed is
tritonlint's time over protobuf's: below 1.0 means the whole lint is faster than the parse.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from google.protobuf import text_format

from tritonlint.engine import lint_paths
from tritonlint.schema.releases import load_schema

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def _best(run: Callable[[], object], repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        gc.collect()  # what an earlier run left is not this run's cost
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    files = sorted(args.corpus.rglob("config.pbtxt"))
    if not files:
        print(f"no config.pbtxt under {args.corpus}", file=sys.stderr)
        return 2
    texts = []
    for path in files:
        try:
            texts.append(path.read_text(encoding="utf-8"))
        except UnicodeDecodeError:
            continue
    schema = load_schema()

    def protobuf_parse() -> None:
        for text in texts:
            with contextlib.suppress(text_format.ParseError, ValueError):
                text_format.Parse(text, schema.new_config())

    def tritonlint_lint() -> None:
        # As the command runs it: the cyclic collector paused while the trees are built.
        gc.disable()
        try:
            lint_paths(files)
        finally:
            gc.enable()

    tritonlint_lint()  # build the parser tables once, as any long-running use would
    protobuf_best, protobuf_median = _best(protobuf_parse, args.repeat)
    lint_best, lint_median = _best(tritonlint_lint, args.repeat)
    os.environ["TRITONLINT_JOBS"] = "1"
    single_best, single_median = _best(tritonlint_lint, args.repeat)
    del os.environ["TRITONLINT_JOBS"]
    print(f"files: {len(files)} config.pbtxt ({sum(map(len, texts)) / 1024:.0f} KiB)")
    print(f"schema: Triton {schema.release}; repeat {args.repeat}, best (median) of each")
    print(
        f"protobuf text_format.Parse:       {protobuf_best * 1000:8.1f} ms "
        f"({protobuf_median * 1000:.1f} ms)"
    )
    print(
        f"tritonlint lint (all rules):      {lint_best * 1000:8.1f} ms "
        f"({lint_median * 1000:.1f} ms)"
    )
    print(
        f"tritonlint lint, one process:     {single_best * 1000:8.1f} ms "
        f"({single_median * 1000:.1f} ms)"
    )
    print(f"ratio tritonlint / protobuf parse: {lint_best / protobuf_best:.2f}")
    print(f"ratio, one process:                {single_best / protobuf_best:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
