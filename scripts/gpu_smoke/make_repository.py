#!/usr/bin/env python3
"""Build the model repository that ``scripts/gpu_smoke.sh`` runs the smoke stage on.

Each model is made with the framework that serves it, on this machine, so that a GPU model is
built for the GPU it then runs on::

    gpu_python    python backend, KIND_GPU (needs nothing but numpy)
    gpu_onnx      ONNX model (onnx.helper), onnxruntime, KIND_GPU
    gpu_torch     TorchScript (torch.jit.script), pytorch_libtorch, KIND_GPU      [torch]
    gpu_plan      TensorRT plan built here from gpu_onnx's graph, tensorrt_plan  [tensorrt]
    absent_gpu    python backend with an instance group on a GPU this machine lacks
    gpu_ensemble  ensemble: gpu_python -> gpu_onnx -> gpu_torch (those that could be built)

A model whose framework is not importable is left out, and the reason printed. Run
``python make_repository.py DEST``; it prints one line per model and writes
``DEST.expected.json`` beside it (each model's expected outcome, read by gpu_smoke.sh).
"""

from __future__ import annotations

import importlib.util
import json
import sys
import textwrap
from pathlib import Path

SHAPE = [4]

PYTHON_MODEL = textwrap.dedent(
    """\
    import numpy as np
    import triton_python_backend_utils as pb_utils


    class TritonPythonModel:
        def execute(self, requests):
            responses = []
            for request in requests:
                data = pb_utils.get_input_tensor_by_name(request, "INPUT0").as_numpy()
                responses.append(
                    pb_utils.InferenceResponse(
                        output_tensors=[pb_utils.Tensor("OUTPUT0", (data + 1).astype(np.float32))]
                    )
                )
            return responses
    """
)


def io(name: str, kind: str) -> str:
    return f'{kind} [ {{ name: "{name}" data_type: TYPE_FP32 dims: [ {SHAPE[0]} ] }} ]\n'


def write(folder: Path, config: str, files: dict[str, bytes | str]) -> None:
    (folder / "1").mkdir(parents=True)
    (folder / "config.pbtxt").write_text(config, encoding="utf-8")
    for relative, content in files.items():
        path = folder / "1" / relative
        if isinstance(content, str):
            path.write_text(content, encoding="utf-8")
        else:
            path.write_bytes(content)


def gpu_count() -> int:
    """The GPUs visible here, by the driver's own count (torch's where importable)."""
    if importlib.util.find_spec("torch") is not None:
        import torch

        return int(torch.cuda.device_count())
    try:
        import ctypes

        cuda = ctypes.CDLL("libcuda.so.1")
        count = ctypes.c_int(0)
        if cuda.cuInit(0) == 0 and cuda.cuDeviceGetCount(ctypes.byref(count)) == 0:
            return count.value
    except OSError:
        pass
    return 0


def onnx_add_one() -> bytes:
    import onnx
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        [helper.make_node("Add", ["INPUT0", "one"], ["OUTPUT0"])],
        "add_one",
        [helper.make_tensor_value_info("INPUT0", TensorProto.FLOAT, [-1, *SHAPE])],
        [helper.make_tensor_value_info("OUTPUT0", TensorProto.FLOAT, [-1, *SHAPE])],
        [helper.make_tensor("one", TensorProto.FLOAT, [1], [1.0])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model.SerializeToString()


def torchscript_times_two(path: Path) -> None:
    import torch

    class TimesTwo(torch.nn.Module):
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return x * 2

    torch.jit.save(torch.jit.script(TimesTwo()), str(path))


def tensorrt_plan(onnx_bytes: bytes) -> bytes:
    """A plan built on this GPU by TensorRT's ONNX parser, for batch 1..8."""
    import tensorrt as trt

    logger = trt.Logger(trt.Logger.WARNING)
    builder = trt.Builder(logger)
    network = builder.create_network(0)
    parser = trt.OnnxParser(network, logger)
    if not parser.parse(onnx_bytes):
        errors = [str(parser.get_error(i)) for i in range(parser.num_errors)]
        raise RuntimeError("; ".join(errors))
    profile = builder.create_optimization_profile()
    profile.set_shape("INPUT0", (1, *SHAPE), (4, *SHAPE), (8, *SHAPE))
    config = builder.create_builder_config()
    config.add_optimization_profile(profile)
    plan = builder.build_serialized_network(network, config)
    if plan is None:
        raise RuntimeError("TensorRT could not build the plan")
    return bytes(plan)


def batching(config: str) -> str:
    return "max_batch_size: 8\n" + config


def main(dest: Path) -> int:
    dest.mkdir(parents=True, exist_ok=False)
    gpus = gpu_count()
    print(f"GPUs visible: {gpus}")
    gpu = "instance_group [ { kind: KIND_GPU count: 1 } ]\n"
    expected: dict[str, str] = {}
    skipped: dict[str, str] = {}

    write(
        dest / "gpu_python",
        'name: "gpu_python"\nbackend: "python"\n'
        + batching(io("INPUT0", "input") + io("OUTPUT0", "output") + gpu),
        {"model.py": PYTHON_MODEL},
    )
    expected["gpu_python"] = "loaded"

    onnx_bytes: bytes | None = None
    if importlib.util.find_spec("onnx") is not None:
        onnx_bytes = onnx_add_one()
        write(
            dest / "gpu_onnx",
            'name: "gpu_onnx"\nbackend: "onnxruntime"\n'
            + batching(io("INPUT0", "input") + io("OUTPUT0", "output") + gpu),
            {"model.onnx": onnx_bytes},
        )
        expected["gpu_onnx"] = "framework"
    else:
        skipped["gpu_onnx"] = "the onnx package is not installed (pip install onnx)"

    if importlib.util.find_spec("torch") is not None:
        write(
            dest / "gpu_torch",
            'name: "gpu_torch"\nplatform: "pytorch_libtorch"\n'
            + batching(io("INPUT__0", "input") + io("OUTPUT__0", "output") + gpu),
            {},
        )
        torchscript_times_two(dest / "gpu_torch" / "1" / "model.pt")
        expected["gpu_torch"] = "framework"
    else:
        skipped["gpu_torch"] = "torch is not installed (pip install torch)"

    if onnx_bytes is not None and importlib.util.find_spec("tensorrt") is not None and gpus:
        try:
            plan = tensorrt_plan(onnx_bytes)
        except Exception as error:  # reported; the other models are still run
            skipped["gpu_plan"] = f"TensorRT could not build a plan here: {error}"
        else:
            write(
                dest / "gpu_plan",
                'name: "gpu_plan"\nplatform: "tensorrt_plan"\n'
                + batching(io("INPUT0", "input") + io("OUTPUT0", "output") + gpu),
                {"model.plan": plan},
            )
            expected["gpu_plan"] = "framework"
    else:
        skipped["gpu_plan"] = (
            "no GPU visible" if not gpus else "tensorrt (or onnx) is not installed"
        )

    write(
        dest / "absent_gpu",
        'name: "absent_gpu"\nbackend: "python"\n'
        + batching(io("INPUT0", "input") + io("OUTPUT0", "output"))
        + f"instance_group [ {{ kind: KIND_GPU count: 1 gpus: [ {max(gpus, 1)} ] }} ]\n",
        {"model.py": PYTHON_MODEL},
    )
    # Without a GPU the smoke stage runs with --cpu-only, which makes every group KIND_CPU.
    expected["absent_gpu"] = "refused" if gpus else "loaded"

    steps = [name for name in ("gpu_python", "gpu_onnx", "gpu_torch") if name in expected]
    step_io = {
        "gpu_python": ("INPUT0", "OUTPUT0"),
        "gpu_onnx": ("INPUT0", "OUTPUT0"),
        "gpu_torch": ("INPUT__0", "OUTPUT__0"),
    }
    lines = []
    tensor = "ENSEMBLE_INPUT"
    for index, step in enumerate(steps):
        given, produced = step_io[step]
        result = "ENSEMBLE_OUTPUT" if index == len(steps) - 1 else f"between_{index}"
        lines.append(
            f'    {{ model_name: "{step}" model_version: -1\n'
            f'      input_map {{ key: "{given}" value: "{tensor}" }}\n'
            f'      output_map {{ key: "{produced}" value: "{result}" }} }}'
        )
        tensor = result
    ensemble = (
        'name: "gpu_ensemble"\nplatform: "ensemble"\n'
        + batching(io("ENSEMBLE_INPUT", "input") + io("ENSEMBLE_OUTPUT", "output"))
        + "ensemble_scheduling { step [\n"
        + ",\n".join(lines)
        + "\n] }\n"
    )
    (dest / "gpu_ensemble" / "1").mkdir(parents=True)
    (dest / "gpu_ensemble" / "config.pbtxt").write_text(ensemble, encoding="utf-8")
    expected["gpu_ensemble"] = "loaded"

    for name, outcome in expected.items():
        print(f"  {name:<14} expected: {outcome}")
    for name, reason in skipped.items():
        print(f"  {name:<14} left out: {reason}")
    dest.with_name(dest.name + ".expected.json").write_text(
        json.dumps({"gpus": gpus, "expected": expected, "skipped": skipped}, indent=2),
        encoding="utf-8",
    )
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: make_repository.py DEST")
    sys.exit(main(Path(sys.argv[1])))
