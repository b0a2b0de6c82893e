#!/usr/bin/env python3
"""Time the formatter against protobuf's own parse and print, on the same files.

Usage: python benchmarks/format_vs_protobuf.py [CORPUS_DIR] [--repeat N]

In one process, for every ``*.pbtxt`` under CORPUS_DIR (default: ../shared/corpus next to
this checkout), its text already read into memory:

* protobuf: ``text_format.Parse(text, ModelConfig())`` then ``text_format.MessageToString``
  (the files it refuses are timed up to the refusal);
* tritonlint: ``format_text(text)``, which parses, prints in the canonical layout and checks
  the result (protobuf parses the original and the result of each file that changes);
* tritonlint on files already formatted: ``format_text`` again on its own results (a parse
  and a print, as for a repository formatted before, run again in pre-commit or an editor).

Each is run ``--repeat`` times (default 5) and the best time is kept. The ratio printed is
tritonlint's time over protobuf's.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

from google.protobuf import text_format

from tritonlint.format import Formatted, format_text
from tritonlint.schema.releases import load_schema

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def _best(run: Callable[[], object], repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    texts = [p.read_text("utf-8", "replace") for p in sorted(args.corpus.rglob("*.pbtxt"))]
    if not texts:
        print(f"no *.pbtxt under {args.corpus}", file=sys.stderr)
        return 2
    schema = load_schema()
    warnings.simplefilter("ignore")  # the invalid escapes some files have

    def protobuf() -> None:
        for text in texts:
            with contextlib.suppress(text_format.ParseError):
                text_format.MessageToString(text_format.Parse(text, schema.new_config()))

    def tritonlint() -> list[Formatted]:
        return [r for r in map(format_text, texts) if isinstance(r, Formatted)]

    formatted = [result.text for result in tritonlint()]

    def again() -> None:
        for text in formatted:
            format_text(text)

    size = sum(len(text) for text in texts) / 1024
    print(f"{len(texts)} files, {size:.0f} KiB; {len(formatted)} formatted, best of {args.repeat}")
    base, base_median = _best(protobuf, args.repeat)
    print(
        f"protobuf Parse + MessageToString  {base * 1000:8.1f} ms (median {base_median * 1000:.1f})"
    )
    for name, run in (("tritonlint format_text", tritonlint), ("  already formatted", again)):
        best, median = _best(run, args.repeat)
        print(
            f"{name:<33} {best * 1000:8.1f} ms (median {median * 1000:.1f}) ratio {best / base:.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
