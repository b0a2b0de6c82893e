"""The smoke stage's summary says what the static checks read of each model file that a
stand-in backend did not load (fake server: fast)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import make_tree
from onnx import TensorProto, helper
from smoke_helpers import FakeServer

from tritonlint.cli import main
from tritonlint.smoke import model_file_notes

TORCHSCRIPT = Path(__file__).parents[1] / "data/modelfiles/torchscript/three_inputs.pt"


def onnx_model() -> bytes:
    graph = helper.make_graph(
        [helper.make_node("Identity", ["images"], ["scores"])],
        "classifier",
        [
            helper.make_tensor_value_info("images", TensorProto.FLOAT, ["batch", 4]),
            helper.make_tensor_value_info("mask", TensorProto.INT64, ["batch", 4]),
        ],
        [helper.make_tensor_value_info("scores", TensorProto.FLOAT, ["batch", 4])],
    )
    return helper.make_model(graph).SerializeToString()


def config(name: str, backend: str, extra: str = "") -> str:
    return f'name: "{name}"\nbackend: "{backend}"\nmax_batch_size: 8\n{extra}'


ONNX_TENSORS = """input [
  { name: "images" data_type: TYPE_FP32 dims: [ 4 ] },
  { name: "mask" data_type: TYPE_INT64 dims: [ 4 ] }
]
output [ { name: "scores" data_type: TYPE_FP32 dims: [ 4 ] } ]
"""
TORCH_TENSORS = """input [
  { name: "INPUT__0" data_type: TYPE_INT64 dims: [ -1 ] },
  { name: "INPUT__1" data_type: TYPE_INT64 dims: [ -1 ] },
  { name: "INPUT__2" data_type: TYPE_INT64 dims: [ -1 ] }
]
output [
  { name: "OUTPUT__0" data_type: TYPE_FP32 dims: [ -1 ] },
  { name: "OUTPUT__1" data_type: TYPE_FP32 dims: [ -1 ] }
]
"""
PYTHON_MODEL = """import triton_python_backend_utils as pb_utils


class TritonPythonModel:
    def execute(self, requests):
        return []
"""


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    """Models of each kind of model file: read, unreadable, a placeholder, not read, none."""
    return make_tree(
        tmp_path / "models",
        {
            "classifier/config.pbtxt": config("classifier", "onnxruntime", ONNX_TENSORS),
            "classifier/1/model.onnx": onnx_model(),
            "encoder/config.pbtxt": config("encoder", "pytorch", TORCH_TENSORS),
            "encoder/1/model.pt": TORCHSCRIPT.read_bytes(),
            "junk/config.pbtxt": config("junk", "onnxruntime"),
            "junk/1/model.onnx": "not a model at all",
            "placeholder/config.pbtxt": config("placeholder", "onnxruntime"),
            "placeholder/1/model.onnx": "",
            "engine/config.pbtxt": config("engine", "tensorrt"),
            "engine/1/model.plan": "an engine",
            "echo/config.pbtxt": config("echo", "python"),
            "echo/1/model.py": PYTHON_MODEL,
            "missing/config.pbtxt": config("missing", "onnxruntime"),
            "missing/1": None,
        },
    )


def summary(out: str) -> list[str]:
    """The lines from the model files' heading on."""
    lines = out.splitlines()
    start = next(
        number for number, line in enumerate(lines) if line.startswith("Model files checked")
    )
    return lines[start:]


@pytest.fixture
def stubbed(fake_server: FakeServer) -> list[str]:
    """The smoke command on the fake server, with stand-ins for the missing backends."""
    return ["smoke", "--server", str(fake_server.path), "--stub-missing-backends"]


@pytest.fixture
def tl872_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Which rules are the model-file rules is fixed here (the registry's ``modelfile`` pack
    grows): TL872, a pytorch config without outputs, which no config here is."""
    monkeypatch.setattr(model_file_notes, "model_file_rules", lambda: frozenset({"TL872"}))


@pytest.fixture
def no_model_file_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(model_file_notes, "model_file_rules", frozenset)


@pytest.mark.usefixtures("gpu", "tl872_only")
def test_each_stubbed_model_says_what_was_read_of_its_model_file(
    stubbed: list[str], repository: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*stubbed, "--stub-python-models", str(repository)]) == 0
    assert summary(capsys.readouterr().out) == [
        "Model files checked statically (the stand-ins did not load them):",
        "  classifier: ONNX 1/model.onnx read, 2 inputs / 1 output, compared with the config: "
        "no finding.",
        "  echo: Python 1/model.py read: TritonPythonModel defines execute, checked: no finding.",
        "  encoder: TorchScript 1/model.pt read, 3 inputs / 2 outputs, compared with the "
        "config: no finding.",
        "  engine: no model file compared (the tensorrt backend's files are not read statically).",
        "  junk: ONNX 1/model.onnx could not be read: the ONNX model is a text file, not in "
        "ONNX's format.",
        "  missing: no model file to compare (none in the version folders).",
        "  placeholder: no model file to compare (empty placeholder 1/model.onnx).",
    ]


@pytest.mark.usefixtures("gpu", "tl872_only")
def test_the_findings_of_the_model_file_rules_are_counted(
    stubbed: list[str], repository: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repository / "encoder/config.pbtxt").write_text(config("encoder", "pytorch"))
    main([*stubbed, "--format", "json", str(repository)])
    report = json.loads(capsys.readouterr().out)
    notes = {model["name"]: model["model_file"] for model in report["models"]}
    assert notes["encoder"] == (
        "TorchScript 1/model.pt read, 3 inputs / 2 outputs, compared with the config: "
        "1 finding (TL872)"
    )
    # The python model ran its own model.py: no stand-in, nothing to say.
    assert notes["echo"] is None


@pytest.mark.usefixtures("gpu", "no_model_file_rules")
def test_without_model_file_rules_the_summary_says_what_was_read(
    stubbed: list[str], repository: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main([*stubbed, str(repository)])
    lines = summary(capsys.readouterr().out)
    assert lines[1] == (
        "  classifier: ONNX 1/model.onnx read, 2 inputs / 1 output (no model-file rule checks "
        "it in this version)."
    )


@pytest.mark.usefixtures("gpu")
def test_no_model_file_line_without_a_stand_in(
    fake_server: FakeServer, repository: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["smoke", "--server", str(fake_server.path), str(repository)])
    assert "Model files checked statically" not in capsys.readouterr().out
