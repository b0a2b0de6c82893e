#!/usr/bin/env python3
"""How fast the browser playground (playground/) starts and lints, in headless Chromium.

Usage: python benchmarks/playground.py [--starts 5] [--lints 20]

Needs the page built (``npm ci && npm run build`` in playground/) and the browser tools of
the VS Code end-to-end tests (``scripts/vscode_e2e/setup.sh``). The page is served from
loopback by Python's http.server; benchmarks/playground.mjs opens it ``--starts`` times in one
browser profile (the first open on a cold cache, the others warm: the files revalidated,
answered 304) and times navigation to the first findings shown; then it pastes a config of
300 lines ``--lints`` times (each a little different) and reads how long the page's call into
tritonlint took and the whole update (the findings listed, the text coloured and
squiggled), and, for comparison, how long ``lint_text`` takes on the same texts in this Python.
Medians and bests in milliseconds.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from tritonlint.engine import lint_text

ROOT = Path(__file__).resolve().parents[1]
DIST = ROOT / "playground" / "dist"
SETUP = Path.home() / ".cache" / "tritonlint-vscode-e2e" / "setup.json"


def config_of(lines: int) -> str:
    """A config of ``lines`` lines: an ONNX model with as many inputs as fit, one of them
    with a dimension of 0 (so that there is a finding to show)."""
    head = ['name: "large"', 'platform: "onnxruntime_onnx"', "max_batch_size: 8", "input ["]
    tail = ["]", 'output [ { name: "OUTPUT0", data_type: TYPE_FP32, dims: [ 16 ] } ]']
    body: list[str] = []
    index = 0
    while len(head) + len(body) + 5 + len(tail) <= lines:
        dims = "0" if index == 3 else "16"
        body += ["  {", f'    name: "INPUT{index}"', "    data_type: TYPE_FP32"]
        body += [f"    dims: [ {dims} ]", "  },"]
        index += 1
    body[-1] = "  }"
    body += ["  # (padding)"] * (lines - len(head) - len(body) - len(tail))
    return "\n".join([*head, *body, *tail]) + "\n"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--lints", type=int, default=20)
    args = parser.parse_args()
    if not (DIST / "index.html").exists() or not SETUP.exists():
        print("build the page (npm run build in playground/) and run scripts/vscode_e2e/setup.sh")
        return 1
    tools = json.loads(SETUP.read_text())
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(DIST))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    with tempfile.TemporaryDirectory() as folder:
        config = Path(folder) / "config.pbtxt"
        text = config_of(299)  # playground.mjs adds a line, a comment that differs each time
        config.write_text(text)
        measured = subprocess.run(
            [tools["node"], str(ROOT / "benchmarks" / "playground.mjs")],
            env={
                "PAGE_URL": f"http://127.0.0.1:{server.server_address[1]}/",
                "PLAYWRIGHT_CORE": tools["playwright_core"],
                "CHROMIUM": tools["chromium"],
                "CONFIG": str(config),
                "STARTS": str(args.starts),
                "LINTS": str(args.lints),
                "HOME": folder,
            },
            capture_output=True,
            text=True,
            check=True,
        )
    server.shutdown()
    found = json.loads(measured.stdout)
    starts, lints = [start["total"] for start in found["starts"]], found["lints"]
    print(f"start-up, cold cache: {starts[0]:.0f} ms")
    warm = found["starts"][1:]
    if warm:
        median, best = statistics.median(starts[1:]), min(starts[1:])
        print(
            f"start-up, warm cache: median {median:.0f} ms, best {best:.0f} ms ({len(warm)} runs)"
        )
        parts = {
            "Pyodide started": [start["pyodide"] for start in warm],
            "wheels unpacked, tritonlint imported": [s["ready"] - s["pyodide"] for s in warm],
            "the first lint": [start["lint"] for start in warm],
        }
        for what, times in parts.items():
            print(f"  of which {what}: median {statistics.median(times):.0f} ms")
    lines = text.count("\n") + 1
    for key, what in (("check", "tritonlint's check"), ("lint", "the whole update")):
        times = [timings[key] for timings in lints]
        print(
            f"lint of a {lines}-line config ({found['findings']} finding), {what}: median "
            f"{statistics.median(times):.0f} ms, best {min(times):.0f} ms ({len(times)} runs)"
        )
    native = []
    for index in range(len(lints)):
        started = time.perf_counter()
        lint_text(Path("<stdin>"), f"{text}# {index}\n")
        native.append((time.perf_counter() - started) * 1000)
    print(
        f"the same lint in this process (CPython {sys.version_info[0]}.{sys.version_info[1]}): "
        f"median {statistics.median(native):.0f} ms, best {min(native):.0f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
