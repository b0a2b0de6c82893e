#!/usr/bin/env python3
"""Time and memory of reading a large ONNX model's inputs and outputs: read_onnx against onnx.

Usage: python benchmarks/onnx_metadata.py [--gib SIZE] [--repeat N] [--folder DIR] [--limits]

Writes an ONNX model of about ``--gib`` GiB with its weights embedded: a chain of MatMul
layers, each with a 1024x1024 float weight as an initializer holding ``raw_data``, the layout
exporters write (initializers before the inputs). The default, 1.9, is under the 2 GiB that
protobuf, and so ``onnx.load``, reads at most; from 2 on, onnx's failure is printed. The file
is written piece by piece, so the script itself holds no more than one layer's weight; it goes
to a temporary folder (in ``--folder`` where given) that is deleted at the end.

Then reads the model's inputs and outputs ``--repeat`` times (default 3) each way, each run in
a new process:

* ``tritonlint.modelfiles.onnx.read_onnx(path)``;
* ``onnx.load(path, load_external_data=False)``, then the graph's inputs and outputs.

and prints the best time of each, the peak resident memory of its process (from
``resource.getrusage``) after the read and before it, the peak of the memory Python allocated
during a second read (``tracemalloc``: it sees no allocation of protobuf's C code), and the
ratios. The file is read from the page cache in every run (it was just written, and each run
reads it again).

With ``--limits``, also times read_onnx on small files made to cost it the most for their
size, each up to one of its limits: the time a hostile file can take.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
GIB = 1024**3
LAYER = 1024


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        low, value = value & 0x7F, value >> 7
        out.append(low | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _tag(number: int) -> bytes:
    """The tag of length-delimited field ``number``."""
    return _varint(number << 3 | 2)


def write_model(path: Path, size: int) -> int:
    """Write a model of about ``size`` bytes to ``path``; its number of layers."""
    import numpy
    import onnx
    from onnx import TensorProto, helper

    weight_bytes = LAYER * LAYER * 4
    layers = max(1, size // (weight_bytes + 256))
    nodes = [
        helper.make_node("MatMul", [f"h{index}", f"w{index}"], [f"h{index + 1}"])
        for index in range(layers)
    ]
    nodes.append(helper.make_node("Identity", [f"h{layers}"], ["logits"]))
    head = helper.make_graph(nodes, "chain", [], []).SerializeToString()
    tail = helper.make_graph(
        [],
        "chain",
        [helper.make_tensor_value_info("h0", TensorProto.FLOAT, ["batch", LAYER])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", LAYER])],
    ).SerializeToString()
    # One layer's weight, written as every layer's.
    weight = numpy.random.default_rng(0).standard_normal(LAYER * LAYER, dtype=numpy.float32)
    raw_data = weight.tobytes()

    def initializer(index: int) -> tuple[bytes, int]:
        """The start of initializer ``index`` (its raw_data follows) and its whole length."""
        header = onnx.TensorProto(
            name=f"w{index}", dims=[LAYER, LAYER], data_type=TensorProto.FLOAT
        )
        start = header.SerializeToString() + _tag(9) + _varint(weight_bytes)
        return start, len(start) + weight_bytes

    sizes = [initializer(index)[1] for index in range(layers)]
    graph_size = len(head) + len(tail)
    graph_size += sum(len(_tag(5)) + len(_varint(length)) + length for length in sizes)
    model = helper.make_model(helper.make_graph([], "chain", [], []))
    model.ClearField("graph")
    with path.open("wb") as out:
        out.write(model.SerializeToString())
        out.write(_tag(7) + _varint(graph_size) + head)
        for index in range(layers):
            start, length = initializer(index)
            out.write(_tag(5) + _varint(length) + start)
            out.write(raw_data)
        out.write(tail)
    return layers


def measure(how: str, path: Path) -> dict[str, Any]:
    """Read the inputs and outputs of ``path`` ``how`` (``tritonlint`` or ``onnx``), in this
    process: the seconds it took, the peak resident memory before and after, in MiB, and the
    peak of the memory Python allocated, in KiB; or the error the read raised."""
    if how == "tritonlint":
        from tritonlint.modelfiles.onnx import read_onnx
        from tritonlint.modelfiles.signature import ModelSignature

        def read() -> tuple[list[str], list[str]]:
            found = read_onnx(path)
            assert isinstance(found, ModelSignature), found
            return [i.name for i in found.inputs], [o.name for o in found.outputs]

    else:
        import onnx

        def read() -> tuple[list[str], list[str]]:
            graph = onnx.load(path, load_external_data=False).graph
            weights = {tensor.name for tensor in graph.initializer}
            inputs = [i.name for i in graph.input if i.name not in weights]
            return inputs, [o.name for o in graph.output]

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    start = time.perf_counter()
    try:
        inputs, outputs = read()
    except Exception as error:  # onnx.load of a file of 2 GiB or more: protobuf's DecodeError
        return {"error": f"{type(error).__name__}: {error}"}
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    assert (inputs, outputs) == (["h0"], ["logits"]), (inputs, outputs)
    tracemalloc.start()
    read()
    traced = tracemalloc.get_traced_memory()[1] / 1024
    tracemalloc.stop()
    return {"seconds": seconds, "before": before, "peak": after, "traced": traced}


def _run(*args: str) -> str:
    """This script run with ``args`` in a new process: its output. (Linux keeps a process's
    peak memory across exec: the processes are started from this one, which stays small.)"""
    return subprocess.run(
        [sys.executable, __file__, *args],
        check=True,
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    ).stdout


def limit_files() -> dict[str, bytes]:
    """Small files that make the reader walk as much as its limits let it, each its own way."""

    def field(number: int, payload: bytes) -> bytes:
        return _tag(number) + _varint(len(payload)) + payload

    def model(graph: bytes) -> bytes:
        return b"\x08\x08" + field(7, graph)

    nested = b"\x0a\x00"  # a tensor type with nothing in it
    for _ in range(31):
        nested = field(4, field(1, nested))  # a sequence of it
    deep_input = field(1, b"x") + field(2, nested)
    dims = b"".join(field(1, b"\x08\x01") for _ in range(100_001))
    return {
        "1,000,001 fields of one number each": b"\x08\x08" + b"\x18\x00" * 1_000_000,
        "100,001 inputs with nothing in them": model(b"\x5a\x00" * 100_001),
        "100,001 dimensions of one input": model(field(11, field(2, field(1, field(2, dims))))),
        "inputs of types nested 32 deep": model(field(11, deep_input) * 20_000),
        "280 names of 60,000 bytes": model(field(5, field(8, b"w" * 60_000)) * 280),
    }


def limits(folder: Path) -> None:
    """Time read_onnx on each of :func:`limit_files`, written in ``folder``."""
    from tritonlint.modelfiles.onnx import read_onnx

    print("files at the reader's limits, one read each:")
    print(f"  {'file':<38} {'bytes':>10} {'seconds':>8}  finding")
    path = folder / "model.onnx"
    for label, data in limit_files().items():
        path.write_bytes(data)
        start = time.perf_counter()
        found = read_onnx(path)
        seconds = time.perf_counter() - start
        finding = getattr(found, "message", "read")
        print(f"  {label:<38} {len(data):>10,} {seconds:8.2f}  {finding}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--gib", type=float, default=1.9)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--folder", type=Path)
    parser.add_argument("--limits", action="store_true", help="also time files at the limits")
    parser.add_argument("--measure", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--write", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--limits-in", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.limits_in:
        limits(args.limits_in)
        return
    if args.measure:
        print(json.dumps(measure(args.measure[0], Path(args.measure[1]))))
        return
    if args.write:
        print(write_model(Path(args.write[0]), int(args.write[1])))
        return
    with tempfile.TemporaryDirectory(dir=args.folder) as folder:
        path = Path(folder) / "model.onnx"
        start = time.perf_counter()
        layers = int(_run("--write", str(path), str(int(args.gib * GIB))))
        size = path.stat().st_size
        print(
            f"model: {size:,} bytes ({size / GIB:.2f} GiB), {layers} MatMul layers with "
            f"1024x1024 float weights embedded; written in {time.perf_counter() - start:.1f} s"
        )
        runs: dict[str, list[dict[str, Any]]] = {"tritonlint": [], "onnx": []}
        for _ in range(args.repeat):
            for how, results in runs.items():
                results.append(json.loads(_run("--measure", how, str(path))))
    print(f"best of {args.repeat} runs each, each in a new process")
    print(f"  {'reader':<37} {'seconds':>8} {'peak RSS MiB':>13} {'before':>7} {'traced KiB':>12}")
    labels = {"tritonlint": "tritonlint read_onnx", "onnx": "onnx.load(load_external_data=False)"}
    best = {}
    for how, results in runs.items():
        read = [result for result in results if "error" not in result]
        if not read:
            print(f"  {labels[how]:<37} failed: {results[0]['error'][:90]}")
            continue
        result = best[how] = min(read, key=lambda r: float(r["seconds"]))
        print(
            f"  {labels[how]:<37} {result['seconds']:8.4f} {result['peak']:13.0f} "
            f"{result['before']:7.0f} {result['traced']:12,.0f}"
        )
    if len(best) == 2:
        ours, theirs = best["tritonlint"], best["onnx"]
        print(f"time, onnx / read_onnx: {theirs['seconds'] / ours['seconds']:,.0f}x")
        added = {how: result["peak"] - result["before"] for how, result in best.items()}
        print(f"memory the read added: read_onnx {added['tritonlint']:.1f} MiB, ", end="")
        print(f"onnx {added['onnx']:,.0f} MiB")
    if args.limits:
        with tempfile.TemporaryDirectory(dir=args.folder) as folder:
            print(_run("--limits-in", folder), end="")


if __name__ == "__main__":
    main()
