"""Whatever a model file is, each reader answers with a result or a problem: random bytes,
real files with random stretches overwritten, and a folder or a named pipe where the file
should be (which no reader opens)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

import onnx
import pytest
from framework_files import DATA
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tritonlint.modelfiles.onnx import read_onnx
from tritonlint.modelfiles.openvino import read_openvino
from tritonlint.modelfiles.python import PythonModel, read_python
from tritonlint.modelfiles.savedmodel import read_savedmodel
from tritonlint.modelfiles.signature import ModelFileProblem, ModelSignature
from tritonlint.modelfiles.torchscript import read_torchscript

Reader = Callable[[Path], object]

#: Each reader, the name its file has, and a real file of its format.
READERS: dict[str, tuple[Reader, str, Path]] = {
    "torchscript": (read_torchscript, "model.pt", DATA / "torchscript" / "traced.pt"),
    "savedmodel": (
        read_savedmodel,
        "saved_model.pb",
        DATA / "savedmodel" / "types" / "saved_model.pb",
    ),
    "openvino": (read_openvino, "model.xml", DATA / "openvino" / "names.xml"),
    # A real network with light weights, from the onnx package's backend test data.
    "onnx": (
        read_onnx,
        "model.onnx",
        Path(onnx.__file__).parent
        / "backend"
        / "test"
        / "data"
        / "light"
        / "light_bvlc_alexnet.onnx",
    ),
    "python": (read_python, "model.py", Path(__file__)),
}


@st.composite
def damaged(draw: st.DrawFn, original: bytes) -> bytes:
    """``original`` with one stretch of it replaced by other bytes (or cut there)."""
    start = draw(st.integers(0, len(original)))
    end = draw(st.integers(start, min(len(original), start + 64)))
    filler = draw(st.binary(max_size=64))
    cut = draw(st.booleans())
    return original[:start] + filler + (b"" if cut else original[end:])


def answers(reader: Reader, name: str, data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(data)
        result = reader(path)
    assert isinstance(result, (ModelSignature, ModelFileProblem, PythonModel))


@pytest.mark.parametrize("fmt", sorted(READERS))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_bytes(fmt: str, data: st.DataObject) -> None:
    reader, name, _ = READERS[fmt]
    answers(reader, name, data.draw(st.binary(max_size=4096)))


@pytest.mark.parametrize("fmt", sorted(READERS))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_damaged_real_files(fmt: str, data: st.DataObject) -> None:
    reader, name, real = READERS[fmt]
    answers(reader, name, data.draw(damaged(real.read_bytes())))


#: What a reader says of a named pipe (and, but for ONNX, of a folder) where its file should be.
NOT_A_REGULAR_FILE = {
    "torchscript": "the TorchScript model is not a regular file",
    "openvino": "the OpenVINO model is not a regular file",
    "onnx": "the ONNX model is not a regular file",
    "python": "the Python model is not a regular file",
}


@pytest.mark.parametrize("fmt", ["torchscript", "openvino", "python"])
def test_a_folder_is_not_a_regular_file(fmt: str, tmp_path: Path) -> None:
    reader, _, _ = READERS[fmt]
    assert reader(tmp_path) == ModelFileProblem(tmp_path, NOT_A_REGULAR_FILE[fmt])


@pytest.mark.parametrize("fmt", sorted(NOT_A_REGULAR_FILE))
def test_a_named_pipe_is_not_opened(fmt: str, tmp_path: Path) -> None:
    reader, name, _ = READERS[fmt]
    path = tmp_path / name
    os.mkfifo(path)
    assert reader(path) == ModelFileProblem(path, NOT_A_REGULAR_FILE[fmt])
