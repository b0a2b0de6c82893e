"""One inference per model on the real (embedded) Triton 2.51 server: one smoke run over one
repository of small models, each showing one verdict; and the python backend's stub answering
with the right data (numpy<2 in its own environment)."""

from __future__ import annotations

import json
import shutil
import struct
from pathlib import Path

import pytest
from helpers import make_tree

from tritonlint.smoke import SmokeOptions, SmokeResult, run_smoke
from tritonlint.smoke.inference import InferenceState
from tritonlint.smoke.report import smoke_object
from tritonlint.smoke.requests import InferRequest, build_request
from tritonlint.tritonserver import TritonInstall
from tritonlint.tritonserver.process import TritonServer
from tritonlint.tritonserver.stub_packages import stub_environment, stub_packages_dir

pytestmark = [pytest.mark.server, pytest.mark.usefixtures("no_tritonserver_on_path")]

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "model_files" / "repository"

_IO = """max_batch_size: 8
input [ { name: "X", data_type: TYPE_FP32, dims: [ 3 ] } ]
output [ { name: "Y", data_type: TYPE_FP32, dims: [ 3 ] } ]
"""
_HEAD = "import numpy as np\nimport triton_python_backend_utils as pb_utils\n\n\n"


def _python(name: str, execute: str, io: str = _IO, more: str = "") -> dict[str, str]:
    body = _HEAD + "class TritonPythonModel:\n    def execute(self, requests):\n" + execute
    config = f'name: "{name}"\nbackend: "python"\n{io}{more}'
    return {f"{name}/config.pbtxt": config, f"{name}/1/model.py": body}


_PLUS_ONE = """        out = []
        for request in requests:
            x = pb_utils.get_input_tensor_by_name(request, "X").as_numpy()
            out.append(pb_utils.InferenceResponse([pb_utils.Tensor("Y", x + 1.0)]))
        return out
"""
_ANSWER = "        return [pb_utils.InferenceResponse([{}]) for _ in requests]\n"
_STRINGS_IO = """max_batch_size: 0
input [
  { name: "T", data_type: TYPE_STRING, dims: [ 2 ] },
  { name: "H", data_type: TYPE_FP16, dims: [ 2, -1 ] }
]
output [
  { name: "U", data_type: TYPE_STRING, dims: [ 2 ] },
  { name: "G", data_type: TYPE_FP16, dims: [ 2, -1 ] }
]
"""
_STRINGS = """        out = []
        for request in requests:
            t = pb_utils.get_input_tensor_by_name(request, "T").as_numpy()
            h = pb_utils.get_input_tensor_by_name(request, "H").as_numpy()
            u = np.array([s + b"!" for s in t], dtype=np.object_)
            out.append(pb_utils.InferenceResponse([pb_utils.Tensor("U", u), pb_utils.Tensor("G", h)]))
        return out
"""
_STREAM_IO = """max_batch_size: 0
model_transaction_policy { decoupled: true }
input [ { name: "PROMPT", data_type: TYPE_STRING, dims: [ 1 ] } ]
output [ { name: "TEXT", data_type: TYPE_STRING, dims: [ 1 ] } ]
"""
_STREAM = """        for request in requests:
            sender = request.get_response_sender()
            for word in (b"a", b"b"):
                text = pb_utils.Tensor("TEXT", np.array([word], dtype=np.object_))
                sender.send(pb_utils.InferenceResponse([text]))
            sender.send(flags=pb_utils.TRITONSERVER_RESPONSE_COMPLETE_FINAL)
        return None
"""
_ENSEMBLE = """name: "pipeline"
platform: "ensemble"
max_batch_size: 8
input [ { name: "IN", data_type: TYPE_FP32, dims: [ 3 ] } ]
output [ { name: "OUT", data_type: TYPE_FP32, dims: [ 3 ] } ]
ensemble_scheduling {
  step [
    {
      model_name: "good"
      model_version: -1
      input_map { key: "X" value: "IN" }
      output_map { key: "Y" value: "OUT" }
    }
  ]
}
"""


@pytest.fixture(scope="module")
def inferred(tmp_path_factory: pytest.TempPathFactory) -> SmokeResult:
    """One smoke run over every model of this file's cases."""
    files: dict[str, str] = {}
    files |= _python("good", _PLUS_ONE)
    files |= _python("raises", '        raise ValueError("no vocabulary loaded")\n')
    files |= _python(
        "misnamed", _ANSWER.format('pb_utils.Tensor("Z", np.zeros((1, 3), np.float32))')
    )
    files |= _python(
        "dynamic",
        _ANSWER.format('pb_utils.Tensor("Y", np.zeros((1, 5), np.float32))'),
    )  # the model makes 5 values; the config fixes 3
    files |= _python("strings", _STRINGS, _STRINGS_IO)
    files |= _python("stream", _STREAM, _STREAM_IO)
    files["pipeline/config.pbtxt"] = _ENSEMBLE
    files["pipeline/1/.keep"] = ""
    files["torch/config.pbtxt"] = 'name: "torch"\nbackend: "pytorch"\n' + _IO
    files["torch/1/model.pt"] = ""
    root = make_tree(tmp_path_factory.mktemp("inference") / "models", files)
    shutil.copytree(FIXTURES / "resnet_onnx", root / "resnet_onnx")
    return run_smoke(root, SmokeOptions())


def _model(result: SmokeResult, name: str):  # type: ignore[no-untyped-def]
    return next(m for m in result.models if m.name == name)


def _findings(result: SmokeResult, name: str) -> list[tuple[str, str, int | None, int | None]]:
    found = []
    for d in result.diagnostics:
        if d.path.is_relative_to(result.repository / name):
            place = (d.span.line, d.span.column) if d.span else (None, None)
            found.append((d.code, str(d.path.relative_to(result.repository)), *place))
    return found


@pytest.mark.parametrize("name", ["good", "strings", "resnet_onnx", "pipeline"])
def test_a_model_that_answers_as_configured_has_no_finding(
    inferred: SmokeResult, name: str
) -> None:
    model = _model(inferred, name)
    assert model.inference is not None, model
    assert model.inference.state is InferenceState.ANSWERED, model.inference
    assert model.inference.text.startswith("answered: "), model.inference
    assert _findings(inferred, name) == []


def test_an_exception_in_execute_is_at_its_line_in_model_py(inferred: SmokeResult) -> None:
    assert _findings(inferred, "raises") == [("TL035", "raises/1/model.py", 7, 9)]
    model = _model(inferred, "raises")
    assert (
        model.inference is not None and "ValueError: no vocabulary loaded" in model.inference.text
    )


def test_a_misnamed_output_is_missing_at_the_configs_output(inferred: SmokeResult) -> None:
    assert _findings(inferred, "misnamed") == [("TL037", "misnamed/config.pbtxt", 5, 12)]
    [finding] = [d for d in inferred.diagnostics if d.code == "TL037"]
    assert "output 'Y' did not come back (the outputs that did: none)" in finding.message


def test_output_dims_the_model_does_not_produce_are_a_mismatch(inferred: SmokeResult) -> None:
    assert _findings(inferred, "dynamic") == [("TL036", "dynamic/config.pbtxt", 5, 12)]
    [finding] = [d for d in inferred.diagnostics if d.code == "TL036"]
    assert finding.message == (
        "output 'Y' came back as FP32 [1, 5]; the config says TYPE_FP32 [ 3 ]"
    )


def test_a_decoupled_model_answers_through_generate_stream(inferred: SmokeResult) -> None:
    model = _model(inferred, "stream")
    assert model.inference is not None
    assert model.inference.state is InferenceState.ANSWERED, model.inference
    assert "streamed responses with every output" in model.inference.text


def test_a_config_only_stand_in_is_not_inferred(inferred: SmokeResult) -> None:
    model = _model(inferred, "torch")
    assert model.inference is not None
    assert model.inference.state is InferenceState.NOT_INFERRED
    assert "stand-in that answers nothing" in model.inference.text


def test_the_stub_answers_with_the_right_data(
    triton_install: TritonInstall, tmp_path: Path
) -> None:
    """numpy<2 in the stub's own environment: a python model's answer holds its data."""
    root = make_tree(tmp_path / "models", _python("good", _PLUS_ONE))
    python = stub_environment(tmp_path / "env", stub_packages_dir())
    with TritonServer(triton_install, root, python_executable=python) as server:
        assert server.client is not None
        assert server.load("good", timeout=60).loaded
        config = server.client.model_config("good")
        assert config is not None
        request = build_request(config, root / "good")
        assert isinstance(request, InferRequest)
        answer = server.client.infer("good", *request.body(), timeout=30)
    assert answer.status == 200, answer.error
    assert answer.header_length is not None
    header = json.loads(answer.body[: answer.header_length])
    assert header["outputs"][0]["shape"] == [1, 3]
    assert struct.unpack("<3f", answer.body[answer.header_length :]) == (1.0, 1.0, 1.0)


def test_without_numpy_1_python_backend_models_are_not_inferred(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_tree(tmp_path / "models", _python("good", _PLUS_ONE))
    shutil.copytree(FIXTURES / "resnet_onnx", root / "resnet_onnx")
    empty = tmp_path / "no-packages"
    empty.mkdir()
    monkeypatch.setenv("TRITONLINT_STUB_PACKAGES", str(empty))
    result = run_smoke(root, SmokeOptions())
    assert result.diagnostics == []
    for model in result.models:
        assert model.status.loaded, model
        assert model.inference is not None
        assert model.inference.state is InferenceState.NOT_INFERRED
        assert model.inference.text.startswith(
            "not inferred: the python backend's stub has no numpy<2: $TRITONLINT_STUB_PACKAGES "
        )
        assert "pip install --target DIR 'numpy<2'" in model.inference.text


def test_each_loaded_model_names_its_instances_and_where_they_run(
    inferred: SmokeResult,
) -> None:
    assert _model(inferred, "good").instances == (("good_0", "CPU"),)
    assert _model(inferred, "resnet_onnx").instances == (("resnet_onnx_0_0", "CPU"),)
    assert _model(inferred, "pipeline").instances == ()  # an ensemble makes no instance
    report = smoke_object(inferred)
    good = next(m for m in report["models"] if m["name"] == "good")
    assert good["instances"] == [{"name": "good_0", "device": "CPU"}]
