"""The torch, TensorFlow and TensorRT stand-ins run in this process, without a server: their
``initialize`` on the model-file fixtures (refusals in the backends' words) and their
``execute`` (outputs named and typed per the config). The TensorRT one runs on a fake
``tensorrt`` module, as this machine has no GPU: the choice of the plan, the refusals."""

from __future__ import annotations

import shutil
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from helpers import make_tree
from standin_harness import Request, TritonModelException, instance_args, load_standin

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "model_files"

TEXT_TORCH_CONFIG: dict[str, Any] = {
    "backend": "pytorch",
    "max_batch_size": 8,
    "input": [
        {"name": "INPUT__0", "data_type": "TYPE_INT64", "dims": ["-1"]},
        {"name": "INPUT__1", "data_type": "TYPE_INT64", "dims": ["-1"]},
    ],
    "output": [{"name": "OUTPUT__0", "data_type": "TYPE_FP32", "dims": ["2"]}],
}

TABULAR_TF_CONFIG: dict[str, Any] = {
    "platform": "tensorflow_savedmodel",
    "backend": "tensorflow",
    "max_batch_size": 16,
    "input": [
        {"name": "numeric", "data_type": "TYPE_FP32", "dims": ["4"]},
        {"name": "category", "data_type": "TYPE_INT64", "dims": ["1"]},
    ],
    "output": [{"name": "probability", "data_type": "TYPE_FP32", "dims": ["1"]}],
}


def _torch() -> None:
    pytest.importorskip(
        "torch", reason="torch is not installed (tritonlint's extra smoke-torch installs it)"
    )


def _tensorflow() -> None:
    pytest.importorskip(
        "tensorflow",
        reason="tensorflow is not installed (tritonlint's extra smoke-tf installs it)",
    )


def _copy(source: Path, tmp_path: Path, name: str) -> Path:
    return shutil.copytree(source, tmp_path / "repo" / name)


# -- pytorch ------------------------------------------------------------------------------


def test_the_torch_stand_in_runs_forward_and_answers_the_configured_outputs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _torch()
    module = load_standin("pytorch", tmp_path, monkeypatch)
    folder = _copy(FIXTURES / "repository" / "text_torch", tmp_path, "text")
    model = module.TritonPythonModel()
    model.initialize(instance_args(folder, TEXT_TORCH_CONFIG))
    ids = np.array([[1, 2, 3], [4, 5, 0]], dtype=np.int64)
    mask = np.array([[1, 1, 1], [1, 1, 0]], dtype=np.int64)
    [response] = model.execute([Request(INPUT__0=ids, INPUT__1=mask)])
    assert response.error is None
    [output] = response.output_tensors
    assert output.name == "OUTPUT__0"
    assert output.array.dtype == np.float32 and output.array.shape == (2, 2)
    assert np.isfinite(output.array).all()


def test_the_torch_stand_in_fails_a_request_whose_output_type_is_not_the_configs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _torch()
    module = load_standin("pytorch", tmp_path, monkeypatch)
    folder = _copy(FIXTURES / "repository" / "text_torch", tmp_path, "text")
    config = {**TEXT_TORCH_CONFIG, "output": [{"name": "OUTPUT__0", "data_type": "TYPE_FP64"}]}
    model = module.TritonPythonModel()
    model.initialize(instance_args(folder, config))
    ids = np.ones((1, 3), dtype=np.int64)
    [response] = model.execute([Request(INPUT__0=ids, INPUT__1=ids)])
    assert response.output_tensors == []
    assert response.error.message == (
        "configuration expects datatype TYPE_FP64 for output 'OUTPUT__0', model provides TYPE_FP32"
    )


def test_the_torch_stand_in_refuses_three_inputs_for_forwards_two_in_the_backends_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _torch()
    module = load_standin("pytorch", tmp_path, monkeypatch)
    folder = _copy(FIXTURES / "repository" / "text_torch", tmp_path, "text_torch")
    third = {"name": "INPUT__2", "data_type": "TYPE_INT64", "dims": ["-1"]}
    config = {**TEXT_TORCH_CONFIG, "input": [*TEXT_TORCH_CONFIG["input"], third]}
    with pytest.raises(TritonModelException) as refused:
        module.TritonPythonModel().initialize(instance_args(folder, config))
    assert str(refused.value) == (
        "unable to load model 'text_torch', configuration expects 3 inputs, model provides 2"
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"output": []},
            "model configuration must contain at least one output, none were specified.",
        ),
        (
            {"output": [{"name": "OUTPUT__0", "data_type": "TYPE_UINT32", "dims": ["2"]}]},
            "unsupported datatype TYPE_UINT32 for output 'OUTPUT__0' for model 'text'",
        ),
    ],
)
def test_the_torch_stand_in_refuses_what_the_backend_refuses_in_the_config(
    change: dict[str, Any], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _torch()
    module = load_standin("pytorch", tmp_path, monkeypatch)
    folder = _copy(FIXTURES / "repository" / "text_torch", tmp_path, "text")
    with pytest.raises(TritonModelException) as refused:
        module.TritonPythonModel().initialize(
            instance_args(folder, {**TEXT_TORCH_CONFIG, **change})
        )
    assert str(refused.value) == message


def test_the_torch_stand_in_refuses_a_cut_model_file_with_torchs_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _torch()
    module = load_standin("pytorch", tmp_path, monkeypatch)
    folder = _copy(FIXTURES / "repository" / "text_torch", tmp_path, "text")
    pt = folder / "1" / "model.pt"
    pt.write_bytes(pt.read_bytes()[:3000])
    with pytest.raises(TritonModelException) as refused:
        module.TritonPythonModel().initialize(instance_args(folder, TEXT_TORCH_CONFIG))
    assert str(refused.value).startswith(
        "failed to load model 'text': PytorchStreamReader failed reading zip archive"
    ), refused.value


def test_the_torch_stand_in_feeds_inputs_by_the_backends_naming_rules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _torch()
    module = load_standin("pytorch", tmp_path, monkeypatch)
    by_argument = module.input_positions(["mask", "ids"], ["ids", "mask"])
    assert by_argument == {"mask": 1, "ids": 0}
    assert module.input_positions(["B__1", "A__0"], ["ids", "mask"]) == {"B__1": 1, "A__0": 0}
    assert module.input_positions(["b", "a"], ["ids", "mask"]) == {"b": 0, "a": 1}
    assert module.output_positions(["Y__1", "X__0"]) == {"Y__1": 1, "X__0": 0}
    assert module.output_positions(["logits", "X__0"]) == {"logits": 0, "X__0": 1}


# -- tensorflow ---------------------------------------------------------------------------


def test_the_tensorflow_stand_in_runs_the_signature_and_answers_the_configured_outputs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _tensorflow()
    module = load_standin("tensorflow", tmp_path, monkeypatch)
    folder = _copy(FIXTURES / "repository" / "tabular_tf", tmp_path, "tabular")
    model = module.TritonPythonModel()
    model.initialize(instance_args(folder, TABULAR_TF_CONFIG))
    numeric = np.zeros((3, 4), dtype=np.float32)
    category = np.zeros((3, 1), dtype=np.int64)
    [response] = model.execute([Request(numeric=numeric, category=category)])
    assert response.error is None
    [output] = response.output_tensors
    assert output.name == "probability"
    assert output.array.dtype == np.float32 and output.array.shape == (3, 1)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"name": "numbers"},
            "unexpected inference input 'numbers', allowed inputs are: category, numeric",
        ),
        (
            {"data_type": "TYPE_FP64"},
            "unable to load model 'tabular', configuration expects datatype TYPE_FP64 for input "
            "'numeric', model provides TYPE_FP32",
        ),
        (
            {"dims": ["5"]},
            "model 'tabular', tensor 'numeric': the model expects 2 dimensions (shape [-1,4]) "
            "but the model configuration specifies 2 dimensions (an initial batch dimension "
            "because max_batch_size > 0 followed by the explicit tensor shape, making complete "
            "shape [-1,5])",
        ),
    ],
)
def test_the_tensorflow_stand_in_refuses_an_input_the_signature_lacks_in_the_backends_words(
    change: dict[str, Any], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _tensorflow()
    module = load_standin("tensorflow", tmp_path, monkeypatch)
    folder = _copy(FIXTURES / "repository" / "tabular_tf", tmp_path, "tabular")
    numeric, category = TABULAR_TF_CONFIG["input"]
    config = {**TABULAR_TF_CONFIG, "input": [{**numeric, **change}, category]}
    with pytest.raises(TritonModelException) as refused:
        module.TritonPythonModel().initialize(instance_args(folder, config))
    assert str(refused.value) == message


def test_the_tensorflow_stand_in_refuses_a_broken_savedmodel_with_tensorflows_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _tensorflow()
    module = load_standin("tensorflow", tmp_path, monkeypatch)
    folder = _copy(FIXTURES / "repository" / "tabular_tf", tmp_path, "tabular")
    (folder / "1" / "model.savedmodel" / "saved_model.pb").write_bytes(b"not a SavedModel")
    with pytest.raises(TritonModelException) as refused:
        module.TritonPythonModel().initialize(instance_args(folder, TABULAR_TF_CONFIG))
    message = str(refused.value)
    assert message.startswith(
        "unable to auto-complete model configuration for 'tabular', failed to load model: "
    ), message


def test_the_tensorflow_stand_in_chooses_the_signature_as_the_backend_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _tensorflow()
    module = load_standin("tensorflow", tmp_path, monkeypatch)
    assert module.choose_signature(["serving_default", "other"], "") == "serving_default"
    assert module.choose_signature(["__saved_model_init_op", "predict"], "") == "predict"
    assert module.choose_signature(["serving_default", "other"], "other") == "other"
    assert module.choose_signature(["serving_default"], "missing") is None


# -- tensorrt (a fake tensorrt: no GPU here) ---------------------------------------------


class _Severity:
    INTERNAL_ERROR, ERROR, WARNING, INFO = range(4)


class _ILogger:
    Severity = _Severity

    def __init__(self) -> None:
        pass


class _Runtime:
    """Deserializes nothing, logging TensorRT's words for a plan of another version."""

    def __init__(self, logger: Any) -> None:
        self.logger = logger

    def deserialize_cuda_engine(self, plan: bytes) -> None:
        self.logger.log(_Severity.WARNING, "Using an engine plan file across different models")
        self.logger.log(
            _Severity.ERROR,
            "IRuntime::deserializeCudaEngine: Error Code 6: API Usage Error (The engine plan "
            "file is not compatible with this version of TensorRT, expecting library version "
            "10.3.0.26 got 10.5.0.18, please rebuild.)",
        )


class _Buffers:
    def set_device(self, gpu: int) -> None:
        pass

    def capability(self, gpu: int) -> tuple[int, int]:
        return (8, 6)


def _fake_tensorrt() -> types.ModuleType:
    module = types.ModuleType("tensorrt")
    module.ILogger = _ILogger  # type: ignore[attr-defined]
    module.Runtime = _Runtime  # type: ignore[attr-defined]
    module.TensorIOMode = types.SimpleNamespace(INPUT="INPUT", OUTPUT="OUTPUT")  # type: ignore[attr-defined]
    return module


PLAN_CONFIG: dict[str, Any] = {
    "platform": "tensorrt_plan",
    "max_batch_size": 8,
    "input": [{"name": "images", "data_type": "TYPE_FP32", "dims": ["3", "16", "16"]}],
    "output": [{"name": "scores", "data_type": "TYPE_FP32", "dims": ["4"]}],
}


def test_the_tensorrt_stand_in_takes_the_plan_of_the_gpus_compute_capability(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = load_standin("tensorrt", tmp_path, monkeypatch, tensorrt=_fake_tensorrt())
    config = {"cc_model_filenames": {"8.6": "ampere.plan", "9.0": "hopper.plan"}}
    assert module.plan_filename(config, (8, 6)) == "ampere.plan"
    assert module.plan_filename(config, (9, 0)) == "hopper.plan"
    assert module.plan_filename(config, (7, 5)) == "model.plan"
    named = {**config, "default_model_filename": "detector.plan"}
    assert module.plan_filename(named, (7, 5)) == "detector.plan"


def test_the_tensorrt_stand_in_refuses_a_cpu_instance_in_the_backends_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = load_standin("tensorrt", tmp_path, monkeypatch, tensorrt=_fake_tensorrt())
    folder = make_tree(tmp_path / "repo" / "detector", {"1": None})
    with pytest.raises(TritonModelException) as refused:
        module.TritonPythonModel().initialize(instance_args(folder, PLAN_CONFIG, kind="CPU"))
    assert str(refused.value) == (
        "unable to load model 'detector', TensorRT backend supports only GPU device"
    )


def test_the_tensorrt_stand_in_refuses_a_plan_tensorrt_cannot_read_with_its_logged_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = load_standin("tensorrt", tmp_path, monkeypatch, tensorrt=_fake_tensorrt())
    monkeypatch.setattr(module, "device_buffers", _Buffers)
    folder = make_tree(tmp_path / "repo" / "detector", {"1/ampere.plan": b"ftrt" + bytes(40)})
    config = {**PLAN_CONFIG, "cc_model_filenames": {"8.6": "ampere.plan"}}
    with pytest.raises(TritonModelException) as refused:
        module.TritonPythonModel().initialize(instance_args(folder, config, kind="GPU"))
    assert str(refused.value) == (
        "unable to create TensorRT engine: IRuntime::deserializeCudaEngine: Error Code 6: API "
        "Usage Error (The engine plan file is not compatible with this version of TensorRT, "
        "expecting library version 10.3.0.26 got 10.5.0.18, please rebuild.)"
    )


def test_the_tensorrt_stand_in_looks_for_the_chosen_plan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = load_standin("tensorrt", tmp_path, monkeypatch, tensorrt=_fake_tensorrt())
    monkeypatch.setattr(module, "device_buffers", _Buffers)
    folder = make_tree(tmp_path / "repo" / "detector", {"1/model.plan": b"ftrt"})
    config = {**PLAN_CONFIG, "cc_model_filenames": {"8.6": "ampere.plan"}}
    with pytest.raises(TritonModelException) as refused:
        module.TritonPythonModel().initialize(instance_args(folder, config, kind="GPU"))
    assert str(refused.value) == (
        f"unable to find '{folder}/1/ampere.plan' for model instance 'detector_0_0'"
    )


@pytest.mark.parametrize(
    ("tensors", "message"),
    [
        (
            {"image": ("INPUT", "FP32", [-1, 3, 16, 16]), "scores": ("OUTPUT", "FP32", [-1, 4])},
            "input 'images' not found for detector",
        ),
        (
            {"images": ("INPUT", "FP16", [-1, 3, 16, 16]), "scores": ("OUTPUT", "FP32", [-1, 4])},
            "unexpected datatype TYPE_FP16 for inference input 'images', expecting TYPE_FP32 "
            "for detector",
        ),
        (
            {"images": ("INPUT", "FP32", [-1, 3, 16, 16]), "scores": ("INPUT", "FP32", [-1, 4])},
            "output 'scores' is expected to be an input in model for detector",
        ),
        (
            {"images": ("INPUT", "FP32", [-1, 16, 16]), "scores": ("OUTPUT", "FP32", [-1, 4])},
            "model 'detector', tensor 'images': the model expects 3 dimensions (shape "
            "[-1,16,16]) but the model configuration specifies 4 dimensions (shape "
            "[-1,3,16,16])",
        ),
        (
            {"images": ("INPUT", "FP32", [-1, 3, 16, 16]), "scores": ("OUTPUT", "FP32", [-1, 4])},
            None,
        ),
    ],
)
def test_the_tensorrt_stand_in_compares_the_engines_tensors_with_the_config(
    tensors: dict[str, tuple[str, str, list[int]]],
    message: str | None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    module = load_standin("tensorrt", tmp_path, monkeypatch, tensorrt=_fake_tensorrt())
    assert module.check("detector", PLAN_CONFIG, tensors) == message


def test_the_tensorflow_stand_in_leaves_inputs_and_outputs_the_config_omits_to_auto_complete(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _tensorflow()
    module = load_standin("tensorflow", tmp_path, monkeypatch)
    folder = _copy(FIXTURES / "repository" / "tabular_tf", tmp_path, "tabular")
    model = module.TritonPythonModel()
    model.initialize(instance_args(folder, {"platform": "tensorflow_savedmodel"}))
    numeric = np.ones((1, 4), dtype=np.float32)
    [response] = model.execute([Request(numeric=numeric, category=np.ones((1, 1), np.int64))])
    assert [tensor.name for tensor in response.output_tensors] == ["probability"]
