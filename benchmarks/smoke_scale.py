#!/usr/bin/env python3
"""The smoke stage's time per model on a large repository of python and ONNX models.

Usage: python benchmarks/smoke_scale.py [--models 1000] [--no-infer] [--keep DIR]

A repository of ``--models`` models is generated, half python models (an echo ``model.py``),
half ONNX models (a two-input Add graph served by ONNX Runtime standing in for the onnxruntime
backend); every tenth pair batches. ``tritonlint smoke REPOSITORY --format json`` is run once
as a whole process, as a user runs it. From its JSON report, the time is split into the
server's own work (the load requests, each model's inference request) and the rest (staging
the copy, starting the server, tritonlint's own bookkeeping), per model and in all.
Needs the ``onnx`` package (to write the ONNX files) and ``onnxruntime`` (to stand in);
without onnxruntime the ONNX models get the config-only stand-in, and the report says so.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ECHO = """\
import triton_python_backend_utils as pb_utils


class TritonPythonModel:
    def execute(self, requests):
        return [
            pb_utils.InferenceResponse(
                output_tensors=[
                    pb_utils.Tensor(
                        "OUTPUT0", pb_utils.get_input_tensor_by_name(r, "INPUT0").as_numpy()
                    )
                ]
            )
            for r in requests
        ]
"""


def _onnx_add(shape: list[int]) -> bytes:
    """Two inputs added, of ``shape`` (a leading -1 for a model that batches)."""
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        [helper.make_node("Add", ["INPUT0", "INPUT1"], ["OUTPUT0"])],
        "add",
        [
            helper.make_tensor_value_info("INPUT0", TensorProto.FLOAT, shape),
            helper.make_tensor_value_info("INPUT1", TensorProto.FLOAT, shape),
        ],
        [helper.make_tensor_value_info("OUTPUT0", TensorProto.FLOAT, shape)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    return bytes(model.SerializeToString())


def _tensor(kind: str, name: str) -> str:
    return f'{kind} [ {{ name: "{name}" data_type: TYPE_FP32 dims: [ 16 ] }} ]\n'


def generate(root: Path, count: int) -> None:
    onnx_files = {True: _onnx_add([-1, 16]), False: _onnx_add([16])}
    for index in range(count):
        batching = "max_batch_size: 8\n" if index % 20 < 2 else ""
        folder = root / f"model_{index:05d}"
        (folder / "1").mkdir(parents=True)
        if index % 2 == 0:
            config = f'name: "{folder.name}"\nbackend: "python"\n{batching}'
            config += _tensor("input", "INPUT0") + _tensor("output", "OUTPUT0")
            (folder / "1" / "model.py").write_text(ECHO, encoding="utf-8")
        else:
            config = f'name: "{folder.name}"\nbackend: "onnxruntime"\n{batching}'
            config += _tensor("input", "INPUT0") + _tensor("input", "INPUT1")
            config += _tensor("output", "OUTPUT0")
            (folder / "1" / "model.onnx").write_bytes(onnx_files[bool(batching)])
        config += "instance_group [ { kind: KIND_CPU count: 1 } ]\n"
        (folder / "config.pbtxt").write_text(config, encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=1000)
    parser.add_argument("--no-infer", action="store_true", help="pass --no-infer")
    parser.add_argument("--keep", type=Path, help="generate the repository here and keep it")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="smoke-scale-") as scratch:
        root = (args.keep or Path(scratch)) / "model_repository"
        generate(root, args.models)
        command = [sys.executable, "-m", "tritonlint", "smoke", str(root), "--format", "json"]
        command += ["--exit-zero", "--total-timeout", "36000"]
        if args.no_infer:
            command.append("--no-infer")
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        wall = time.perf_counter() - start
    if done.returncode != 0:
        print(done.stderr[-3000:], file=sys.stderr)
        raise SystemExit(f"tritonlint smoke exited with {done.returncode}")
    report = json.loads(done.stdout)
    models = report["models"]
    loads = sum(model["seconds"] for model in models)
    inferences = [model["inference"] for model in models if model.get("inference")]
    infer_seconds = sum(inference["seconds"] for inference in inferences)
    statuses = Counter(model["status"] for model in models)
    states = Counter(inference["state"] for inference in inferences)
    count = len(models)
    rest = wall - loads - infer_seconds
    print(f"cores: {os.cpu_count()}, server: {report['server']['description']}")
    print(f"frameworks: {report['server']['frameworks'] or 'none'}")
    print(f"models: {count}  statuses: {dict(statuses)}  inference: {dict(states) or 'none'}")
    print(f"{'':<28}{'seconds':>10}{'ms/model':>10}{'share':>8}")
    for label, seconds in (
        ("whole run (wall)", wall),
        ("server: load requests", loads),
        ("server: inference requests", infer_seconds),
        ("rest (stage, start, report)", rest),
    ):
        print(f"{label:<28}{seconds:>10.1f}{1000 * seconds / count:>10.1f}{seconds / wall:>8.0%}")
    for status in statuses:
        kind = [model["seconds"] for model in models if model["status"] == status]
        mean = 1000 * sum(kind) / len(kind)
        print(f"  load of one model, {status + ':':<12} {mean:8.1f} ms mean")
    findings = Counter(finding["code"] for finding in report["findings"])
    print(f"findings: {dict(findings) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
