"""Runs a framework stand-in's ``model.py`` in this process, as the python backend's stub
would: a fake ``triton_python_backend_utils`` (the few names the stand-ins use) and the
``args`` the python backend passes to ``initialize``."""

from __future__ import annotations

import importlib.util
import json
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from tritonlint.tritonserver.framework_backends import FRAMEWORKS, backend_source


class TritonModelException(Exception):
    pass


class TritonError:
    def __init__(self, message: str) -> None:
        self.message = message


class Tensor:
    def __init__(self, name: str, array: Any) -> None:
        self.name = name
        self.array = array

    def as_numpy(self) -> Any:
        return self.array


class InferenceResponse:
    def __init__(self, output_tensors: list[Tensor], error: TritonError | None = None) -> None:
        self.output_tensors = output_tensors
        self.error = error


class Request:
    def __init__(self, **inputs: Any) -> None:
        self.inputs = {name: Tensor(name, array) for name, array in inputs.items()}


def get_input_tensor_by_name(request: Request, name: str) -> Tensor | None:
    return request.inputs.get(name)


def fake_pb_utils() -> types.ModuleType:
    module = types.ModuleType("triton_python_backend_utils")
    for value in (TritonModelException, TritonError, Tensor, InferenceResponse):
        setattr(module, value.__name__, value)
    module.get_input_tensor_by_name = get_input_tensor_by_name  # type: ignore[attr-defined]
    return module


def load_standin(
    backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **fakes: types.ModuleType
) -> Any:
    """The stand-in of ``backend`` imported as a module (with fake modules for ``fakes``)."""
    monkeypatch.setitem(sys.modules, "triton_python_backend_utils", fake_pb_utils())
    for name, module in fakes.items():
        monkeypatch.setitem(sys.modules, name, module)
    path = tmp_path / f"standin_{backend}.py"
    path.write_text(backend_source(FRAMEWORKS[backend]), encoding="utf-8")
    spec = importlib.util.spec_from_file_location(f"standin_{backend}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def instance_args(
    model_folder: Path, config: dict[str, Any], kind: str = "CPU", device: int = 0
) -> dict[str, str]:
    """What the python backend passes to ``initialize`` for version 1 of the model."""
    name = model_folder.name
    return {
        "model_config": json.dumps({"name": name, **config}),
        "model_name": name,
        "model_instance_name": f"{name}_0_0",
        "model_instance_kind": kind,
        "model_instance_device_id": str(device),
        "model_repository": str(model_folder),
        "model_version": "1",
    }
