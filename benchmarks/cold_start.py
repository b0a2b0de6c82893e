#!/usr/bin/env python3
"""Time tritonlint's start-up: whole processes, against a Python that does nothing.

Usage: python benchmarks/cold_start.py [--runs N]

Runs each command below as a new process ``--runs`` times (default 20), taking turns so that
a change in the machine's load touches every command alike, and prints the median wall-clock
time of each, the median CPU time (user + system) and the ratio of the wall-clock median to
that of ``python -c pass``:

* ``python -c pass``: the interpreter starting and stopping;
* the imports no lint can do without: the standard library's argparse, pathlib, dataclasses
  and json, and protobuf's descriptor pool and message factory (a config is bound to a real
  ModelConfig message): the floor under any one-file run;
* ``tritonlint CONFIG`` on one clean config of the example repository, and on one with a
  finding (a warning);
* ``tritonlint rules``.

``tritonlint`` runs what the installed script runs: the function ``[project.scripts]`` of
pyproject.toml names. Output goes to a pipe, as in CI. The processes run this checkout's
tritonlint (on ``PYTHONPATH``) with its bytecode compiled, as an installed package would:
they keep their bytecode in a temporary folder (``PYTHONPYCACHEPREFIX``), which a first,
untimed run of each command fills, so nothing is written into the checkout.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "fixtures" / "model_repository"


@dataclass
class Command:
    label: str
    argv: tuple[str, ...]
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)


def _console_script() -> str:
    """What the installed ``tritonlint`` script runs, as pip writes it."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    module, function = pyproject["project"]["scripts"]["tritonlint"].split(":")
    return f"import sys; from {module} import {function}; sys.exit({function}())"


#: What every lint imports whatever tritonlint does: see the module's docstring.
FLOOR = (
    "import argparse, dataclasses, json, pathlib, "
    "google.protobuf.descriptor_pool, google.protobuf.message_factory"
)


def _commands(python: str) -> list[Command]:
    script = _console_script()

    def tritonlint(*args: str) -> tuple[str, ...]:
        return (python, "-c", script, *args)

    clean = EXAMPLE / "echo_python" / "config.pbtxt"
    finding = EXAMPLE / "lightseq_transformer" / "config.pbtxt"
    return [
        Command("python -c pass", (python, "-c", "pass")),
        Command("python -c 'import <the floor>'", (python, "-c", FLOOR)),
        Command(f"tritonlint {clean.relative_to(ROOT)}", tritonlint(str(clean))),
        Command(f"tritonlint {finding.relative_to(ROOT)}", tritonlint(str(finding))),
        Command("tritonlint rules", tritonlint("rules")),
    ]


def _environment(pycache: str) -> dict[str, str]:
    environment = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONPYCACHEPREFIX=pycache)
    for name in ("PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED", "GITHUB_ACTIONS", "FORCE_COLOR"):
        environment.pop(name, None)
    return environment


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(argv: Sequence[str], environment: Mapping[str, str]) -> tuple[float, float]:
    """Run one process to its end: (wall-clock seconds, CPU seconds)."""
    cpu = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run(argv, env=environment, cwd=ROOT, capture_output=True, check=False)
    wall = time.perf_counter() - start
    if done.returncode not in (0, 1) or done.stderr:
        sys.exit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.decode()}")
    return wall, _children_cpu() - cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="runs of each command (20)")
    args = parser.parse_args()
    commands = _commands(sys.executable)
    with tempfile.TemporaryDirectory(prefix="tritonlint-pycache-") as pycache:
        environment = _environment(pycache)
        for command in commands:
            _run(command.argv, environment)  # compile the bytecode
        for _ in range(args.runs):
            for command in commands:
                wall, cpu = _run(command.argv, environment)
                command.wall.append(wall)
                command.cpu.append(cpu)
    baseline = statistics.median(commands[0].wall)
    width = max(len(command.label) for command in commands)
    print(f"{args.runs} runs of each, medians")
    print(f"  {'command':{width}s}  {'wall-clock':>10s}  {'CPU':>9s}  {'ratio':>6s}")
    for command in commands:
        wall, cpu = statistics.median(command.wall), statistics.median(command.cpu)
        print(
            f"  {command.label:{width}s}  {wall * 1000:7.1f} ms  {cpu * 1000:6.1f} ms  "
            f"{wall / baseline:5.1f}x"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
