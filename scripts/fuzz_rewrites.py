"""Fuzz ``format`` and ``check --fix`` with mutated configs, in process, and count what broke.

    .venv/bin/python scripts/fuzz_rewrites.py --format 50000 --fix 5000 --seed 1

Each input is a real config (the fixtures and the shared corpus) with a few mutations (see
``tests/rewrite_fuzz.py``). A failure is a rewrite that reads worse than its input: protobuf
reads the input but not the output (or, formatted, as another message), or the output has a
syntax error or a field given twice that the input had not, or a formatted text that
formatting changes again. Failures are counted by kind, with the first input of each kind;
refused fixes (the verifier's refusals, a bug of the rule that offered the fix) by reason.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from rewrite_fuzz import fix_outcome, format_failure, mutate, seed_texts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--format", type=int, default=10000, help="inputs to format")
    parser.add_argument("--fix", type=int, default=1000, help="inputs to fix (each twice)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    seeds = seed_texts()
    print(f"{len(seeds)} seed configs")
    rng = random.Random(args.seed)
    status = 0

    failures: Counter[str] = Counter()
    examples: dict[str, str] = {}
    started = time.monotonic()
    for _ in range(args.format):
        text = mutate(rng.choice(seeds), rng)
        try:
            failure = format_failure(text)
        except Exception as error:  # a crash is a failure as well
            failure = f"raised {type(error).__name__}"
        if failure is not None:
            failures[failure] += 1
            examples.setdefault(failure, text)
    seconds = time.monotonic() - started
    print(f"format: {args.format} inputs, {sum(failures.values())} failures ({seconds:.0f} s)")
    status |= _show(failures, examples)

    for unsafe in (False, True):
        failures, examples = Counter(), {}
        refusals: Counter[str] = Counter()
        applied = 0
        started = time.monotonic()
        with tempfile.TemporaryDirectory() as folder:
            for _ in range(args.fix):
                text = mutate(rng.choice(seeds), rng)
                try:
                    outcome = fix_outcome(text, Path(folder), unsafe=unsafe)
                except Exception as error:
                    failures[f"raised {type(error).__name__}: {error}"] += 1
                    continue
                applied += outcome.applied
                refusals.update(outcome.refused)
                for reason in outcome.refused:
                    examples.setdefault(f"refused: {reason}", text)
                if outcome.failure is not None:
                    failures[outcome.failure] += 1
                    examples.setdefault(outcome.failure, text)
        seconds = time.monotonic() - started
        name = "check --fix --unsafe-fixes" if unsafe else "check --fix"
        print(
            f"{name}: {args.fix} inputs, {applied} fixes applied, "
            f"{sum(refusals.values())} refused, {sum(failures.values())} failures ({seconds:.0f} s)"
        )
        status |= _show(failures, examples)
        for reason, count in refusals.most_common():
            print(f"  refused {count}: {reason}\n    e.g. {examples['refused: ' + reason]!r}")
    return status


def _show(failures: Counter[str], examples: dict[str, str]) -> int:
    for failure, count in failures.most_common():
        print(f"  {count}: {failure}\n    e.g. {examples.get(failure, '')!r}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
