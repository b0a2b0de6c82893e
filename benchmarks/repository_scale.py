#!/usr/bin/env python3
"""How the time and memory of a whole-repository lint grow with the number of models.

Usage: python benchmarks/repository_scale.py [--sizes 1000 10000] [--repeat 3]

For each size, a repository is generated from the example repository in ``fixtures/``
(``generated_repository.py``: plain models, and ensembles that run them) and ``tritonlint
REPOSITORY`` is run as a whole process, as a user runs it (worker processes included), with
its bytecode cached as an installed
package has it. The
best time of ``--repeat`` runs is kept; the peak memory is the largest resident size of the
process or any of its workers. The last column is each size's time over the first size's:
linear growth means it grows as the size does.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from generated_repository import generate


def _run(repository: Path, environment: dict[str, str]) -> tuple[float, int]:
    """Seconds and peak resident KiB of one ``tritonlint REPOSITORY`` process (and workers)."""
    command = [sys.executable, "-m", "tritonlint", str(repository), "--exit-zero"]
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, env=environment)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"tritonlint failed on {repository}")
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return elapsed, max(usage.ru_maxrss, workers)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"cores: {os.cpu_count()}, repeat: {args.repeat} (best kept)")
    print(f"{'models':>8} {'seconds':>8} {'ms/model':>9} {'peak MiB':>9} {'x first':>8}")
    first: tuple[int, float] | None = None
    with tempfile.TemporaryDirectory() as scratch:
        # Bytecode is kept (in the scratch folder), as an installed package keeps it.
        environment = dict(os.environ, PYTHONPYCACHEPREFIX=str(Path(scratch) / "pycache"))
        environment.pop("PYTHONDONTWRITEBYTECODE", None)
        for size in args.sizes:
            repository = generate(Path(scratch) / f"repository_{size}", size)
            _run(repository, environment)  # warm the file system cache and the bytecode
            runs = [_run(repository, environment) for _ in range(args.repeat)]
            seconds = min(r[0] for r in runs)
            peak = max(r[1] for r in runs)
            first = first or (size, seconds)
            print(
                f"{size:>8} {seconds:>8.2f} {seconds / size * 1000:>9.3f} "
                f"{peak / 1024:>9.0f} {seconds / first[1]:>8.2f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
