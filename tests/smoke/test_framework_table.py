"""The table of frameworks that stand in for the embedded server's missing backends: which
backend each serves, how a status line names the device, whether an installed build has
CUDA (read from its files, never imported), and the extras that install them."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import make_tree

from tritonlint.smoke.runner import framework_gpu, framework_status
from tritonlint.tritonserver.framework_backends import (
    FRAMEWORKS,
    framework_for,
    framework_has_cuda,
)

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found, no-redef, unused-ignore]

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("backend", "platform", "served_by"),
    [
        ("pytorch", None, "pytorch"),
        (None, "pytorch_libtorch", "pytorch"),
        (None, "tensorflow_savedmodel", "tensorflow"),
        (None, "tensorflow_graphdef", "tensorflow"),
        (None, "tensorrt_plan", "tensorrt"),
        ("tensorrt", "tensorrt_plan", "tensorrt"),
        ("dali", None, None),
    ],
)
def test_each_backend_has_its_framework(
    backend: str | None, platform: str | None, served_by: str | None
) -> None:
    framework = framework_for(backend, platform)
    assert (framework.backend if framework else None) == served_by


def test_a_graphdef_is_not_stood_in_for_and_the_reason_says_so() -> None:
    tensorflow = FRAMEWORKS["tensorflow"]
    reason = tensorflow.not_stood_in_for("tensorflow_graphdef", None)
    assert reason is not None and reason.startswith("a GraphDef is not loaded")
    assert tensorflow.not_stood_in_for(None, "model.graphdef") == reason
    assert tensorflow.not_stood_in_for("tensorflow_savedmodel", None) is None
    assert tensorflow.not_stood_in_for(None, None) is None
    assert tensorflow.model_filename == "model.savedmodel"


@pytest.mark.parametrize(
    ("backend", "gpu", "words"),
    [
        ("onnxruntime", None, "(CPU execution provider)"),
        ("onnxruntime", 0, "(CUDA execution provider)"),
        ("openvino", 1, "(CPU)"),
        ("pytorch", None, "(on CPU)"),
        ("pytorch", 1, "(on cuda:1)"),
        ("tensorflow", 0, "(on GPU:0)"),
        ("tensorrt", 0, "(on cuda:0)"),
    ],
)
def test_the_status_line_names_the_device(backend: str, gpu: int | None, words: str) -> None:
    module = FRAMEWORKS[backend].module
    assert framework_status(backend, "1.0", gpu) == (
        f"loaded by {module} 1.0 standing in for Triton's {backend} backend {words}"
    )


def _package(root: Path, name: str, files: dict[str, str]) -> None:
    make_tree(root / name, {"__init__.py": "", **files}, verbatim=True)


@pytest.mark.parametrize(
    ("backend", "files", "cuda"),
    [
        ("pytorch", {"version.py": "cuda: Optional[str] = '12.4'\n"}, True),
        ("pytorch", {"version.py": "cuda: Optional[str] = None\n"}, False),
        ("pytorch", {}, False),
        (
            "tensorflow",
            {"python/platform/build_info.py": "build_info = {'is_cuda_build': True}\n"},
            True,
        ),
        (
            "tensorflow",
            {"python/platform/build_info.py": "build_info = {'is_cuda_build': False}\n"},
            False,
        ),
        ("onnxruntime", {"capi/libonnxruntime_providers_cuda.so": ""}, True),
        ("onnxruntime", {"capi/onnxruntime_pybind11_state.so": ""}, False),
        ("tensorrt", {}, True),
        ("openvino", {}, False),
    ],
)
def test_whether_a_build_has_cuda_is_read_from_its_files(
    backend: str,
    files: dict[str, str],
    cuda: bool,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    module = f"fake_{backend}_build"
    _package(tmp_path, module, files)
    monkeypatch.syspath_prepend(str(tmp_path))
    framework = dataclasses.replace(FRAMEWORKS[backend], module=module)
    assert framework_has_cuda(framework) is cuda
    assert module not in sys.modules  # read, not imported


def test_looking_for_the_frameworks_imports_none_of_them() -> None:
    code = (
        "import sys\n"
        "from tritonlint.tritonserver.framework_backends import FRAMEWORKS, framework_version, "
        "framework_has_cuda\n"
        "import tritonlint.smoke.runner\n"
        "for framework in FRAMEWORKS.values():\n"
        "    framework_version(framework), framework_has_cuda(framework)\n"
        "print(sorted(m for m in ('torch', 'tensorflow', 'tensorrt', 'onnxruntime', "
        "'openvino') if m in sys.modules))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert result.stdout.strip() == "[]"


def test_the_extras_install_each_framework_and_the_test_extra_none_of_the_big_ones() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    for framework in FRAMEWORKS.values():
        for extra in (framework.extra, framework.gpu_extra):
            if extra is not None:
                assert extras[extra], extra
    assert extras["smoke"] == ["onnxruntime", "openvino"]
    assert extras["smoke-torch"] == ["torch"]
    assert extras["smoke-tf"] == ["tensorflow-cpu"]
    assert extras["smoke-tf-gpu"] == ["tensorflow[and-cuda]"]
    assert extras["smoke-onnx-gpu"] == ["onnxruntime-gpu"]
    assert extras["smoke-tensorrt"][0] == "tensorrt-cu12"
    assert not [r for r in extras["test"] if r.split("[")[0] in ("torch", "tensorflow-cpu")]


@pytest.mark.parametrize(
    ("backend", "config", "gpu"),
    [
        ("tensorrt", 'platform: "tensorrt_plan"\n', 0),
        ("tensorrt", "instance_group [ { kind: KIND_GPU gpus: [ 2, 3 ] } ]\n", 2),
        ("tensorrt", "instance_group [ { count: 2 } ]\n", 0),
        ("tensorrt", "instance_group [ { kind: KIND_CPU } ]\n", None),
        ("tensorrt", "instance_group [ { kind: KIND_MODEL } ]\n", None),
        ("openvino", "instance_group [ { kind: KIND_GPU } ]\n", None),
    ],
)
def test_a_model_runs_on_the_gpu_its_instance_group_gives_on_a_server_with_gpus(
    backend: str, config: str, gpu: int | None
) -> None:
    assert framework_gpu(config, FRAMEWORKS[backend]) == gpu


def test_a_framework_built_without_cuda_runs_a_kind_gpu_model_on_the_cpu(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _package(tmp_path, "fake_cpu_torch", {"version.py": "cuda: Optional[str] = None\n"})
    monkeypatch.syspath_prepend(str(tmp_path))
    framework = dataclasses.replace(FRAMEWORKS["pytorch"], module="fake_cpu_torch")
    assert framework_gpu("instance_group [ { kind: KIND_GPU } ]\n", framework) is None
