#!/usr/bin/env python3
"""Time and memory of the TorchScript, SavedModel, OpenVINO IR and Python readers on large
model files, at sizes growing tenfold.

Usage: python benchmarks/model_file_readers.py [--repeat N] [FORMAT ...]

The files are generated in a temporary folder, shaped like those of large real models:

- ``savedmodel``: a saved_model.pb whose meta graph holds a graph of N bytes (the constants of
  a large model) before its signatures, as TensorFlow writes them; the graph's bytes are a
  hole in a sparse file, so making a 2 GB one is instant and reading its bytes would show;
- ``torchscript``: a model.pt archive with N tensor members beside the code, as a model with N
  weights has;
- ``openvino``: a model.xml of N layers with two ports each, a few inputs and outputs;
- ``python``: a model.py of N methods in its TritonPythonModel class.

For each size the table shows the file's size, the best time of ``--repeat`` runs and the
peak memory allocated during one run (``tracemalloc``).
"""

from __future__ import annotations

import argparse
import tempfile
import time
import tracemalloc
import zipfile
from collections.abc import Callable
from pathlib import Path

from tritonlint.modelfiles.openvino import read_openvino
from tritonlint.modelfiles.python import read_python
from tritonlint.modelfiles.savedmodel import read_savedmodel
from tritonlint.modelfiles.signature import ModelFileProblem
from tritonlint.modelfiles.torchscript import read_torchscript

MiB = 1024 * 1024


def _varint(value: int) -> bytes:
    out = bytearray()
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _field(number: int, payload: bytes) -> bytes:
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def savedmodel(folder: Path, size: int) -> Path:
    """A SavedModel whose graph_def is ``size`` bytes, all of them a hole in the file."""
    dim = _field(2, _varint(1 << 3) + _varint(3))  # Dim { size: 3 }
    info = _field(3, dim) + _varint(2 << 3) + _varint(1)  # TensorInfo { tensor_shape, DT_FLOAT }
    signature = _field(1, _field(1, b"x") + _field(2, info)) + _field(
        2, _field(1, b"y") + _field(2, info)
    )
    entry = _field(1, b"serving_default") + _field(2, signature)
    info_def = _field(1, _field(4, b"serve"))
    graph_header = _varint(2 << 3 | 2) + _varint(size)
    tail = _field(5, entry)
    meta_graph_length = len(info_def) + len(graph_header) + size + len(tail)
    head = _varint(2 << 3 | 2) + _varint(meta_graph_length) + info_def + graph_header
    path = folder / f"savedmodel-{size}" / "saved_model.pb"
    path.parent.mkdir()
    with path.open("wb") as file:
        file.write(head)
        file.seek(size, 1)
        file.write(tail)
    return path.parent


def torchscript(folder: Path, members: int) -> Path:
    """A TorchScript archive with ``members`` tensor members of 64 bytes each."""
    path = folder / f"model-{members}.pt"
    code = (
        b"class Model(Module):\n"
        b"  def forward(self: __torch__.Model,\n    x: Tensor) -> Tensor:\n"
        b"    return x\n"
    )
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("model/data.pkl", b"\x80\x02c__torch__\nModel\nq\x00)\x81q\x01}q\x02b.")
        archive.writestr("model/code/__torch__.py", code)
        for index in range(members):
            archive.writestr(f"model/data/{index}", bytes(64))
    return path


def openvino(folder: Path, layers: int) -> Path:
    """An IR of ``layers`` Relu layers in a chain between one Parameter and one Result."""
    port = '<port id="{id}" precision="FP32"{names}><dim>-1</dim><dim>768</dim></port>'
    parts = ['<?xml version="1.0"?>\n<net name="big" version="11">\n<layers>\n']
    parts.append(
        '<layer id="0" name="x" type="Parameter" version="opset1">'
        '<data shape="?,768" element_type="f32"/><output>'
        + port.format(id=0, names=' names="x"')
        + "</output></layer>\n"
    )
    for index in range(1, layers + 1):
        parts.append(
            f'<layer id="{index}" name="relu_{index}" type="ReLU" version="opset1"><input>'
            + port.format(id=0, names="")
            + "</input><output>"
            + port.format(id=1, names=f' names="relu_{index}"')
            + "</output></layer>\n"
        )
    parts.append(
        f'<layer id="{layers + 1}" name="y" type="Result" version="opset1" output_names="y">'
        "<input>" + port.format(id=0, names="") + "</input></layer>\n</layers>\n<edges>\n"
    )
    for index in range(layers + 1):
        source_port = 0 if index == 0 else 1
        parts.append(
            f'<edge from-layer="{index}" from-port="{source_port}" '
            f'to-layer="{index + 1}" to-port="0"/>\n'
        )
    parts.append("</edges>\n</net>\n")
    path = folder / f"model-{layers}.xml"
    path.write_text("".join(parts), encoding="utf-8")
    return path


def python(folder: Path, methods: int) -> Path:
    """A model.py whose TritonPythonModel class has ``methods`` small methods."""
    body = "".join(
        f"    def step_{index}(self, value):\n        return value * {index} + self.offset\n\n"
        for index in range(methods)
    )
    path = folder / f"model-{methods}.py"
    path.write_text(
        "class TritonPythonModel:\n"
        + body
        + "    def execute(self, requests):\n        return []\n",
        encoding="utf-8",
    )
    return path


#: For each format: the file maker, its reader, and the sizes (of what the maker makes).
FORMATS: dict[str, tuple[Callable[[Path, int], Path], Callable[[Path], object], list[int]]] = {
    "savedmodel": (savedmodel, read_savedmodel, [20 * MiB, 200 * MiB, 2000 * MiB]),
    "torchscript": (torchscript, read_torchscript, [1_000, 10_000, 100_000]),
    "openvino": (openvino, read_openvino, [1_000, 10_000, 100_000]),
    "python": (python, read_python, [100, 1_000, 10_000]),
}

UNITS = {
    "savedmodel": "graph bytes",
    "torchscript": "members",
    "openvino": "layers",
    "python": "methods",
}


def measure(reader: Callable[[Path], object], path: Path, repeat: int) -> tuple[float, int]:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        result = reader(path)
        best = min(best, time.perf_counter() - start)
        if isinstance(result, ModelFileProblem):
            raise SystemExit(f"{path}: {result.message}")
    tracemalloc.start()
    reader(path)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return best, peak


def file_size(path: Path) -> int:
    if path.is_dir():
        return sum(item.stat().st_size for item in path.rglob("*") if item.is_file())
    return path.stat().st_size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("formats", nargs="*", metavar="FORMAT", help=", ".join(FORMATS))
    arguments = parser.parse_args()
    unknown = sorted(set(arguments.formats) - set(FORMATS))
    if unknown:
        parser.error(f"unknown format(s): {', '.join(unknown)}")
    formats = arguments.formats or list(FORMATS)
    print(f"repeat: {arguments.repeat} (best kept)")
    print(f"  {'format':<12} {'size':>12} {'unit':<12} {'file MiB':>9} {'ms':>9} {'peak MiB':>9}")
    with tempfile.TemporaryDirectory() as scratch:
        for name in formats:
            make, reader, sizes = FORMATS[name]
            for size in sizes:
                path = make(Path(scratch), size)
                seconds, peak = measure(reader, path, arguments.repeat)
                print(
                    f"  {name:<12} {size:>12} {UNITS[name]:<12} {file_size(path) / MiB:>9.1f} "
                    f"{seconds * 1000:>9.2f} {peak / MiB:>9.2f}"
                )


if __name__ == "__main__":
    main()
