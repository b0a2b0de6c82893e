"""The hover over an input or output and the modelfile rules judge its shape alike: both ask
the backends' comparison (``tritonlint.rules.model_comparison.shapes``), so a shape the hover
calls a match is one no rule reports, and a shape a rule reports the hover shows as differing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import codes, lint, make_tree
from model_notation import ModelDescription, onnx_model, write_model

from tritonlint.editor.hover import hover
from tritonlint.engine import Workspace
from tritonlint.schema.releases import Schema


def _hover_verdict(root: Path, schema: Schema, text: str, word: str) -> str:
    """The hover's last paragraph about the model file, over the entry named ``word``."""
    workspace = Workspace(root)
    path = root / "m" / "config.pbtxt"
    line = next(n for n, content in enumerate(text.split("\n"), 1) if f'"{word}"' in content)
    column = text.split("\n")[line - 1].index(f'"{word}"') + 2
    shown = hover(workspace.document(path), line, column, schema, workspace.repository, path)
    assert shown is not None
    return shown.text.split("\n\n")[2]


ONNX_SCALAR = 'input "scale" FP32 []\noutput "y" FP32 [4]\n'
ONNX_CONFIG = """\
backend: "onnxruntime"
max_batch_size: 0
input [ {{ name: "scale" data_type: TYPE_FP32 dims: [ {dims} ] }} ]
output [ {{ name: "y" data_type: TYPE_FP32 dims: [ 4 ] }} ]
"""


@pytest.mark.parametrize(
    ("dims", "verdict", "expected"),
    [
        # ONNX Runtime refuses dims other than 1 for a scalar; the hover used to skip scalars.
        (
            "3",
            "Differs from the config:\n- shape: the config's [3] has 1 dimensions, "
            "the model file's 0",
            ["TL905"],
        ),
        ("1", "Matches the config.", []),
    ],
)
def test_an_onnx_scalar_takes_only_dims_of_one(
    tmp_path: Path, schema: Schema, dims: str, verdict: str, expected: list[str]
) -> None:
    text = ONNX_CONFIG.format(dims=dims)
    root = make_tree(tmp_path / "models", {"m/config.pbtxt": text, "m/1/model.onnx": b""})
    (root / "m/1/model.onnx").write_bytes(onnx_model(ONNX_SCALAR))
    assert _hover_verdict(root, schema, text, "scale") == verdict
    found = [code for code in codes(lint(root)) if code.startswith("TL9")]
    assert found == expected


def test_openvino_sets_the_batch_dimension_itself(tmp_path: Path, schema: Schema) -> None:
    # The backend does not compare the batch dimension: a model whose first dimension is
    # fixed batches; the hover used to call it a model that cannot batch.
    text = """\
backend: "openvino"
max_batch_size: 4
input [ { name: "x" data_type: TYPE_FP32 dims: [ 3 ] } ]
output [ { name: "y" data_type: TYPE_FP32 dims: [ 3 ] } ]
"""
    root = make_tree(tmp_path / "models", {"m/config.pbtxt": text, "m/1": None})
    description = 'input "x" FP32 [1, 3]\noutput "y" FP32 [1, 3]\n'
    write_model(root / "m/1/model.xml", ModelDescription("OpenVINO", description))
    assert _hover_verdict(root, schema, text, "x") == "Matches the config."
    assert [code for code in codes(lint(root)) if code.startswith("TL9")] == []
