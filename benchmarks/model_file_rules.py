#!/usr/bin/env python3
"""What reading the model files (the modelfile rules, TL901-TL911) adds to a lint.

Usage: python benchmarks/model_file_rules.py [--models 400] [--weights-kib 1024] [--repeat 3]

Two repositories of ``--models`` models are generated, alike but for their model files: half
the models are ONNX models (three inputs, two outputs, ``--weights-kib`` of weights as
initializers, as an exported network holds them), half Python models (a model.py of some
eighty lines); in the other repository every model file is an empty placeholder, which no
rule reads. ``tritonlint REPOSITORY`` runs as a whole process, as a user runs it (worker
processes included); the runs on the two alternate, and the best of ``--repeat`` of each is
kept. The real files lint clean: the time is that of reading and comparing, not of reporting.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CONFIG_ONNX = """\
name: "{name}"
platform: "onnxruntime_onnx"
max_batch_size: 8
dynamic_batching {{ }}
input [
  {{ name: "input_ids" data_type: TYPE_INT64 dims: [ 128 ] }},
  {{ name: "attention_mask" data_type: TYPE_INT64 dims: [ 128 ] }},
  {{ name: "token_type_ids" data_type: TYPE_INT64 dims: [ 128 ] }}
]
output [
  {{ name: "logits" data_type: TYPE_FP32 dims: [ 2 ] }},
  {{ name: "hidden" data_type: TYPE_FP32 dims: [ 128, 768 ] }}
]
"""

CONFIG_PYTHON = """\
name: "{name}"
backend: "python"
max_batch_size: 8
dynamic_batching {{ }}
input [ {{ name: "TEXT" data_type: TYPE_STRING dims: [ 1 ] }} ]
output [ {{ name: "IDS" data_type: TYPE_INT64 dims: [ -1 ] }} ]
"""

MODEL_PY = (
    "import json\n\nimport numpy as np\nimport triton_python_backend_utils as pb_utils\n\n\n"
    "class TritonPythonModel:\n"
    "    def initialize(self, args):\n"
    "        self.config = json.loads(args['model_config'])\n\n"
    "    def execute(self, requests):\n"
    "        responses = []\n"
    "        for request in requests:\n"
    "            text = pb_utils.get_input_tensor_by_name(request, 'TEXT').as_numpy()\n"
    "            ids = np.array([[len(t) for t in text.flatten()]], dtype=np.int64)\n"
    "            out = pb_utils.Tensor('IDS', ids)\n"
    "            responses.append(pb_utils.InferenceResponse(output_tensors=[out]))\n"
    "        return responses\n\n"
    "    def finalize(self):\n"
    "        pass\n"
) + "".join(f"\n\ndef helper_{i}(value):\n    return value * {i}\n" for i in range(15))


def _onnx_model(weights_kib: int) -> bytes:
    import numpy
    from onnx import TensorProto, helper, numpy_helper

    ids = [
        helper.make_tensor_value_info(name, TensorProto.INT64, ["batch", 128])
        for name in ("input_ids", "attention_mask", "token_type_ids")
    ]
    outputs = [
        helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", 2]),
        helper.make_tensor_value_info("hidden", TensorProto.FLOAT, ["batch", 128, 768]),
    ]
    weights = numpy_helper.from_array(
        numpy.zeros(weights_kib * 256, dtype=numpy.float32), "embeddings"
    )
    graph = helper.make_graph([], "encoder", ids, outputs, [weights])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    return bytes(model.SerializeToString())


def generate(root: Path, models: int, weights_kib: int, placeholders: bool) -> Path:
    onnx = b"" if placeholders else _onnx_model(weights_kib)
    for index in range(models):
        name = f"model_{index:05d}"
        folder = root / name / "1"
        folder.mkdir(parents=True)
        if index % 2 == 0:
            (root / name / "config.pbtxt").write_text(CONFIG_ONNX.format(name=name))
            (folder / "model.onnx").write_bytes(onnx)
        else:
            (root / name / "config.pbtxt").write_text(CONFIG_PYTHON.format(name=name))
            (folder / "model.py").write_text("" if placeholders else MODEL_PY)
    return root


def _run(repository: Path, environment: dict[str, str]) -> float:
    command = [sys.executable, "-m", "tritonlint", str(repository)]
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.PIPE, env=environment)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{repository.name} does not lint clean:\n{done.stdout.decode()}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=400)
    parser.add_argument("--weights-kib", type=int, default=1024)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        environment = dict(os.environ, PYTHONPYCACHEPREFIX=str(Path(scratch) / "pycache"))
        environment.pop("PYTHONDONTWRITEBYTECODE", None)
        real = generate(Path(scratch) / "real", args.models, args.weights_kib, False)
        empty = generate(Path(scratch) / "placeholders", args.models, args.weights_kib, True)
        size = sum(p.stat().st_size for p in real.rglob("*") if p.is_file())
        print(
            f"cores: {os.cpu_count()}, models: {args.models} (half ONNX with "
            f"{args.weights_kib} KiB of weights, half Python), {size / 2**20:.0f} MiB, "
            f"repeat: {args.repeat} (best kept)"
        )
        for repository in (real, empty):
            _run(repository, environment)  # warm the file system cache and the bytecode
        times: dict[Path, list[float]] = {real: [], empty: []}
        for _ in range(args.repeat):
            for repository in (real, empty):
                times[repository].append(_run(repository, environment))
        best, base = min(times[real]), min(times[empty])
        print(f"{'model files':<26} {'seconds':>8} {'ms/model':>9}")
        print(f"{'empty placeholders':<26} {base:>8.2f} {base / args.models * 1000:>9.2f}")
        print(f"{'real, read and compared':<26} {best:>8.2f} {best / args.models * 1000:>9.2f}")
        print(f"reading and comparing adds {(best - base) / args.models * 1000:.2f} ms per model")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
