"""fixtures/model_files/: real small models whose configs match them exactly, broken copies of
them, and the script that makes them all (scripts/make_model_fixtures.py).

The configs are compared with what tritonlint's own readers find in the model files; the
script is run again into a temporary folder and its output compared with the checked-in files.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple

import pytest

from tritonlint.cli import main
from tritonlint.document import load_config
from tritonlint.modelfiles.onnx import read_onnx
from tritonlint.modelfiles.openvino import read_openvino
from tritonlint.modelfiles.python import read_python
from tritonlint.modelfiles.savedmodel import read_savedmodel
from tritonlint.modelfiles.signature import ModelFileProblem, ModelSignature, TensorSpec
from tritonlint.modelfiles.torchscript import read_torchscript
from tritonlint.schema.datatypes import data_types
from tritonlint.schema.releases import load_schema

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures" / "model_files"
REPOSITORY = FIXTURES / "repository"
BROKEN = FIXTURES / "broken"

Reader = Callable[[Path], ModelSignature | ModelFileProblem]

#: Each model of the valid repository that has a model file with tensors, and how to read it.
MODEL_FILES: dict[str, tuple[Reader, str]] = {
    "resnet_onnx": (read_onnx, "1/model.onnx"),
    "detector_onnx": (read_onnx, "1/model.onnx"),
    "detector_openvino": (read_openvino, "1/model.xml"),
    "tabular_tf": (read_savedmodel, "1/model.savedmodel/saved_model.pb"),
}

#: Files of the parts whose framework writes different bytes on every run.
UNSTABLE = re.compile(r"(^|/)(text_torch/1/model\.pt|tabular_tf/1/model\.savedmodel/.*)$")


class Tensor(NamedTuple):
    name: str
    data_type: str | None
    dims: tuple[int, ...] | None


class Declared(NamedTuple):
    """A config's inputs and outputs, each sorted by name."""

    max_batch_size: int
    inputs: list[Tensor]
    outputs: list[Tensor]


def declared(model: str) -> Declared:
    document = load_config(REPOSITORY / model / "config.pbtxt", load_schema())
    config = document.config
    assert config is not None and not document.has_syntax_errors

    def tensors(fields: Any) -> list[Tensor]:
        types = data_types(config)
        found = [Tensor(f.name, types.name(f.data_type), tuple(f.dims)) for f in fields]
        return sorted(found)

    return Declared(config.max_batch_size, tensors(config.input), tensors(config.output))


def unbatched(specs: tuple[TensorSpec, ...], max_batch_size: int) -> list[Tensor]:
    """The model's tensors as a config writes them: without the batch dimension, which must
    be variable, when the config batches."""
    tensors = []
    for spec in specs:
        assert spec.dims is not None, spec
        dims = spec.dims
        if max_batch_size > 0:
            assert dims[0] == -1, f"{spec.name} cannot batch: {dims}"
            dims = dims[1:]
        tensors.append(Tensor(spec.name, spec.data_type, dims))
    return sorted(tensors)


def generator() -> ModuleType:
    """scripts/make_model_fixtures.py, imported (it imports a framework only when asked)."""
    name = "make_model_fixtures"
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    return module


def files_under(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


# --- The valid repository -------------------------------------------------------------------------


@pytest.mark.parametrize("model", sorted(MODEL_FILES))
def test_each_config_declares_its_model_file_s_tensors(model: str) -> None:
    reader, relative = MODEL_FILES[model]
    signature = reader(REPOSITORY / model / relative)
    assert isinstance(signature, ModelSignature), signature
    config = declared(model)
    assert config.inputs == unbatched(signature.inputs, config.max_batch_size)
    assert config.outputs == unbatched(signature.outputs, config.max_batch_size)


def test_the_torchscript_config_names_forward_s_arguments_by_position() -> None:
    # TorchScript code gives neither element types nor shapes: only the count and order of
    # forward's arguments, which the INPUT__<index> names follow, and the number of outputs.
    signature = read_torchscript(REPOSITORY / "text_torch" / "1" / "model.pt")
    assert isinstance(signature, ModelSignature), signature
    assert [spec.name for spec in signature.inputs] == ["input_ids", "attention_mask"]
    config = declared("text_torch")
    assert [tensor.name for tensor in config.inputs] == ["INPUT__0", "INPUT__1"]
    assert [tensor.name for tensor in config.outputs] == [
        f"OUTPUT__{spec.name}" for spec in signature.outputs
    ]


def test_the_python_model_defines_what_the_backend_calls() -> None:
    model = read_python(REPOSITORY / "preprocess_python" / "1" / "model.py")
    assert not isinstance(model, ModelFileProblem)
    assert model.syntax_error is None and model.model_class is not None
    assert model.model_class.methods == {"initialize", "execute", "finalize"}


def test_the_repository_lints_clean_with_every_rule(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["check", "--select", "ALL", "--format", "text", str(REPOSITORY)])
    assert (status, capsys.readouterr().out) == (0, "All checks passed (7 models checked).\n")


# --- The broken cases ---------------------------------------------------------------------------


def test_every_broken_case_has_its_readme_row_and_every_row_its_case() -> None:
    readme = (BROKEN / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([^`]+)` \|", readme, flags=re.MULTILINE)
    folders = sorted(path.name for path in BROKEN.iterdir() if path.is_dir())
    assert sorted(rows) == folders
    assert len(rows) == len(set(rows))
    assert folders == sorted(case.name for case in generator().BROKEN)


# --- The script -----------------------------------------------------------------------------------


def test_the_script_writes_the_checked_in_files_again(tmp_path: Path) -> None:
    pytest.importorskip("onnx", reason="onnx is not installed")
    pytest.importorskip("openvino", reason="OpenVINO is not installed")
    # In a fresh interpreter, as a user runs it: other tests' OpenVINO and ONNX state in this
    # process must not shape what the script writes.
    script = Path(__file__).resolve().parents[1] / "scripts" / "make_model_fixtures.py"
    command = [sys.executable, str(script), "--out", str(tmp_path), "onnx", "openvino"]
    subprocess.run(command, check=True, capture_output=True)
    written = files_under(tmp_path)
    checked_in = {
        path: data for path, data in files_under(FIXTURES).items() if not path.endswith("README.md")
    }
    # Everything but the TorchScript and TensorFlow files, which those parts alone write.
    assert written == {path: data for path, data in checked_in.items() if not UNSTABLE.search(path)}
    assert {path for path in checked_in if path not in written} == {
        path for path in checked_in if UNSTABLE.search(path)
    }


@pytest.mark.filterwarnings("ignore:`torch.jit:DeprecationWarning")
def test_the_torchscript_part_writes_a_model_that_declares_the_same(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="torch is not installed (CI does not install it)")
    generator().make_torchscript(tmp_path)
    relative = Path("text_torch", "1", "model.pt")
    fresh = read_torchscript(tmp_path / relative)
    kept = read_torchscript(REPOSITORY / relative)
    assert isinstance(fresh, ModelSignature) and isinstance(kept, ModelSignature)
    assert (fresh.inputs, fresh.outputs) == (kept.inputs, kept.outputs)


def test_the_savedmodel_part_writes_a_model_that_declares_the_same(tmp_path: Path) -> None:
    pytest.importorskip("tensorflow", reason="TensorFlow is not installed (CI does not install it)")
    generator().make_savedmodel(tmp_path)
    relative = Path("tabular_tf", "1", "model.savedmodel", "saved_model.pb")
    fresh = read_savedmodel(tmp_path / relative)
    kept = read_savedmodel(REPOSITORY / relative)
    assert isinstance(fresh, ModelSignature) and isinstance(kept, ModelSignature)
    assert (fresh.inputs, fresh.outputs) == (kept.inputs, kept.outputs)
