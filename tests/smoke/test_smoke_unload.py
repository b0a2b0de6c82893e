"""The smoke stage unloads the models no later model needs, on the real server: a python
model's finalize() runs when it is unloaded, and an ensemble still answers after the models it
runs were loaded before it."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import make_tree

from tritonlint.smoke import SmokeOptions, run_smoke
from tritonlint.smoke.inference import InferenceState

pytestmark = pytest.mark.server

_IO = (
    'input [ { name: "X" data_type: TYPE_FP32 dims: [ 2 ] } ]\n'
    'output [ { name: "Y" data_type: TYPE_FP32 dims: [ 2 ] } ]\n'
)

_MODEL = """\
import pathlib
import triton_python_backend_utils as pb_utils


class TritonPythonModel:
    def initialize(self, args):
        self.name = args["model_name"]

    def execute(self, requests):
        return [
            pb_utils.InferenceResponse(
                [pb_utils.Tensor("Y", pb_utils.get_input_tensor_by_name(r, "X").as_numpy())]
            )
            for r in requests
        ]

    def finalize(self):
        pathlib.Path({marks!r}, self.name).write_text("unloaded")
"""

_ENSEMBLE = """\
name: "pipeline"
platform: "ensemble"
{io}ensemble_scheduling {{ step [
  {{ model_name: "a" model_version: -1
    input_map {{ key: "X" value: "X" }} output_map {{ key: "Y" value: "between" }} }},
  {{ model_name: "b" model_version: -1
    input_map {{ key: "X" value: "between" }} output_map {{ key: "Y" value: "Y" }} }}
] }}
"""


def test_models_nothing_needs_are_unloaded_and_ensembles_still_answer(tmp_path: Path) -> None:
    marks = tmp_path / "marks"
    marks.mkdir()
    files: dict[str, str] = {"pipeline/config.pbtxt": _ENSEMBLE.format(io=_IO)}
    files["pipeline/1/.keep"] = ""
    for name in ("a", "b", "c"):
        files[f"{name}/config.pbtxt"] = f'name: "{name}"\nbackend: "python"\n{_IO}'
        files[f"{name}/1/model.py"] = _MODEL.format(marks=str(marks))
    root = make_tree(tmp_path / "models", files)

    result = run_smoke(root, SmokeOptions(resident_limit=1))

    assert {m.name: m.status.loaded for m in result.models} == dict.fromkeys(
        ("a", "b", "c", "pipeline"), True
    )
    for model in result.models:
        assert model.inference is not None
        assert model.inference.state is InferenceState.ANSWERED, model.inference
    # Every python model was unloaded by the smoke stage (the server is killed at the end,
    # which runs no finalize()): a and b once the ensemble was judged, c after its own turn.
    assert sorted(p.name for p in marks.iterdir()) == ["a", "b", "c"]
