#!/usr/bin/env python3
"""A whole lint of hostile config files, as a user runs it: time, memory and report size.

Usage: python benchmarks/hostile_configs.py [--sizes 10000 100000 1000000] [--timeout S]
       [--format text] [SHAPE ...]

Each shape is one model's config.pbtxt, generated at each size (bytes of input) and linted
by ``tritonlint check MODEL --format FORMAT`` in a process of its own, its report read from a
pipe. For each size the table shows the seconds the process took, the ratio to the previous
size's (about the ratio of the sizes when the cost is linear), the peak resident memory of
the process, the memory it took beyond a lint of a one-line config per byte of input (``B/B``),
the report's size and its bytes per finding. A run past ``--timeout`` seconds (default 120)
is stopped, and the larger sizes of its shape are left out.

``PYTHONPATH=OTHER_CHECKOUT python benchmarks/hostile_configs.py`` measures another
checkout's code (an older commit, unpacked with ``git archive``) with the same shapes.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple


def _repeat_to(unit: str, size: int) -> str:
    return unit * max(1, -(-size // len(unit)))


def repeated_field(size: int) -> str:
    """``name: "m"`` on every line: every one after the first is a duplicate (TL107)."""
    return _repeat_to('name: "m"\n', size)


def unclosed_messages(size: int) -> str:
    """``a { `` repeated on one line, never closed: messages nested as deep as the file."""
    return _repeat_to("a { ", size)


def closed_messages(size: int) -> str:
    """Messages nested as deep as the file, each closed."""
    depth = max(1, size // 5)
    return "a { " * depth + "}" * depth


def adjacent_strings(size: int) -> str:
    """One value made of many adjacent empty string literals."""
    return 'name: "m" backend: "onnxruntime" parameters { key: "k" value { string_value: ' + (
        _repeat_to('"" ', size) + "} }\n"
    )


def findings_on_one_line(size: int) -> str:
    """One long line of fields, every one a finding (a duplicate ``max_batch_size``)."""
    return 'name: "m" backend: "onnxruntime" ' + _repeat_to("max_batch_size: 1 ", size) + "\n"


class Shape(NamedTuple):
    name: str
    make: Callable[[int], str]


SHAPES = [
    Shape("repeated field", repeated_field),
    Shape("unclosed 'a {'", unclosed_messages),
    Shape("closed nesting", closed_messages),
    Shape("adjacent strings", adjacent_strings),
    Shape("findings on one line", findings_on_one_line),
]


class Run(NamedTuple):
    seconds: float
    peak_kib: int
    report_bytes: int
    findings: int


def _lint(model: Path, report_format: str, timeout: float) -> Run | None:
    """One ``tritonlint check`` of ``model``; None when it ran past ``timeout`` seconds."""
    command = [sys.executable, "-m", "tritonlint.cli", "check", model.name, "--format"]
    command.append(report_format)
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        process = subprocess.Popen(
            command, cwd=model.parent, stdout=out, stderr=subprocess.DEVNULL, env=os.environ
        )
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - start > timeout:
                process.send_signal(signal.SIGKILL)
                os.wait4(process.pid, 0)
                process.returncode = -9
                return None
            time.sleep(0.02)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        size = out.tell()
        out.seek(0)
        findings = sum(1 for line in out if b": TL" in line and b"[" in line)
    return Run(seconds, usage.ru_maxrss, size, findings)


def _label(size: int) -> str:
    return f"{size / 1000:,.0f} KB" if size < 1_000_000 else f"{size / 1_000_000:,.0f} MB"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("shapes", nargs="*", help="names of shapes to run (default: all)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--format", default="text", dest="report_format")
    args = parser.parse_args()
    chosen = [s for s in SHAPES if not args.shapes or s.name in args.shapes]
    if not chosen:
        print(f"no such shape; the shapes are: {[s.name for s in SHAPES]}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as scratch:
        model = Path(scratch) / "m"
        (model / "1").mkdir(parents=True)
        (model / "1" / "model.onnx").write_bytes(b"")
        config = model / "config.pbtxt"
        config.write_text('name: "m"\nbackend: "onnxruntime"\n', encoding="utf-8")
        baseline = _lint(model, args.report_format, args.timeout)
        assert baseline is not None
        code = subprocess.run(
            [sys.executable, "-c", "import tritonlint; print(tritonlint.__path__[0])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        if not os.path.relpath(code).startswith(".."):
            code = os.path.relpath(code)
        print(f"code: {code}; format: {args.report_format}; a one-line config: "
              f"{baseline.seconds:.2f} s, {baseline.peak_kib / 1024:.0f} MiB")  # fmt: skip
        print(
            f"{'shape':22} {'size':>7} {'seconds':>8} {'ratio':>6} {'peak MiB':>9} "
            f"{'B/B':>7} {'report':>11} {'findings':>8} {'B/finding':>9}"
        )
        for shape in chosen:
            previous: float | None = None
            for size in args.sizes:
                text = shape.make(size)
                config.write_text(text, encoding="utf-8")
                run = _lint(model, args.report_format, args.timeout)
                label = _label(len(text))
                if run is None:
                    print(f"{shape.name:22} {label:>7} {'>' + str(int(args.timeout)):>8}  "
                          "(stopped; larger sizes left out)", flush=True)  # fmt: skip
                    break
                ratio = f"{run.seconds / previous:5.1f}x" if previous else "     -"
                grown = max(0, run.peak_kib - baseline.peak_kib) * 1024 / len(text)
                per_finding = run.report_bytes / run.findings if run.findings else 0.0
                print(
                    f"{shape.name:22} {label:>7} {run.seconds:8.2f} {ratio} "
                    f"{run.peak_kib / 1024:9.0f} {grown:7.1f} {run.report_bytes:11,} "
                    f"{run.findings:8,} {per_finding:9.0f}",
                    flush=True,
                )
                previous = run.seconds
    return 0


if __name__ == "__main__":
    sys.exit(main())
