"""The modelfile pack where a case file cannot say it: any bytes in a model file, the span of a
Python syntax error, and what a model.py that does not compile means for the inputs/outputs
rules."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from helpers import codes, lint, make_tree, only
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from model_notation import ModelDescription, write_model

#: A config of each backend whose files are read, and its model file.
CONFIGS = {
    "m/1/model.onnx": 'platform: "onnxruntime_onnx"\n'
    'input [ { name: "x" data_type: TYPE_FP32 dims: [ 3 ] } ]\n'
    'output [ { name: "y" data_type: TYPE_FP32 dims: [ 3 ] } ]\n',
    "m/1/model.pt": 'platform: "pytorch_libtorch"\n'
    'input [ { name: "INPUT__0" data_type: TYPE_FP32 dims: [ 3 ] } ]\n'
    'output [ { name: "OUTPUT__0" data_type: TYPE_FP32 dims: [ 3 ] } ]\n',
    "m/1/model.xml": 'backend: "openvino"\n'
    'input [ { name: "x" data_type: TYPE_FP32 dims: [ 3 ] } ]\n'
    'output [ { name: "y" data_type: TYPE_FP32 dims: [ 3 ] } ]\n',
    "m/1/model.savedmodel/saved_model.pb": 'platform: "tensorflow_savedmodel"\n'
    'input [ { name: "x" data_type: TYPE_FP32 dims: [ 3 ] } ]\n'
    'output [ { name: "y" data_type: TYPE_FP32 dims: [ 3 ] } ]\n',
    "m/1/model.py": 'backend: "python"\n'
    'input [ { name: "x" data_type: TYPE_FP32 dims: [ 3 ] } ]\n'
    'output [ { name: "y" data_type: TYPE_FP32 dims: [ 3 ] } ]\n',
}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(CONFIGS)), st.binary(min_size=1, max_size=512))
def test_whatever_bytes_a_model_file_holds_the_rules_report_and_go_on(
    model_file: str, data: bytes
) -> None:
    """Bytes that are no model are at most TL901 (a Python file's may be a model.py that does
    not compile, or lacks its class): never an exception, never a finding of another rule of
    the pack."""
    with tempfile.TemporaryDirectory() as folder:
        root = make_tree(Path(folder), {"m/config.pbtxt": CONFIGS[model_file], model_file: data})
        found = {code for code in codes(lint(root)) if code.startswith("TL9")}
    allowed = {"TL910", "TL911", "TL901"} if model_file.endswith(".py") else {"TL901"}
    assert found <= allowed


def test_a_python_syntax_error_covers_the_rest_of_its_line(tmp_path: Path) -> None:
    root = make_tree(
        tmp_path,
        {
            "m/config.pbtxt": CONFIGS["m/1/model.py"],
            "m/1/model.py": "import os\nx = [1, 2,, 3]\n",
        },
    )
    span = only(lint(root), "TL910").span
    assert span is not None
    assert (span.line, span.column, span.end_line, span.end_column) == (2, 11, 2, 15)
    assert "import os\nx = [1, 2,, 3]\n"[span.start : span.end] == ", 3]"


def test_a_model_py_that_does_not_compile_says_nothing_of_its_tensors(tmp_path: Path) -> None:
    """Whether its class would complete the config's data types and dims cannot be told: no
    TL402/TL403 (missing), no TL406 (completed); TL910 reports the file."""
    root = make_tree(
        tmp_path,
        {
            "m/config.pbtxt": 'backend: "python"\noutput [ { name: "y" } ]\n',
            "m/1/model.py": "class TritonPythonModel:\n    def auto_complete_config(c)\n",
        },
    )
    assert codes(lint(root)) == ["TL910"]


def test_the_model_file_of_an_editor_check_is_read_again_once_it_changes(tmp_path: Path) -> None:
    onnx = ModelDescription("ONNX", 'input "x" FP32 [3]\noutput "y" FP32 [3]')
    root = make_tree(tmp_path, {"m/config.pbtxt": CONFIGS["m/1/model.onnx"], "m/1/": None})
    write_model(root / "m/1/model.onnx", onnx)
    assert codes(lint(root)) == []
    write_model(
        root / "m/1/model.onnx", onnx._replace(text='input "x" FP32 [4]\noutput "y" FP32 [3]')
    )
    assert codes(lint(root)) == ["TL906"]


FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "model_files"

#: Each broken copy of fixtures/model_files/ that a model-file rule is about, and that rule.
BROKEN = {
    "batch-dim-in-dims": "TL905",
    "batching-a-batch-1-model": "TL907",
    "fixed-dim-mismatch": "TL906",
    "fp16-config-for-fp32-model": "TL904",
    "input-name-typo": "TL902",
    "labels-one-line-short": "TL909",
    "lfs-pointer-instead-of-model": "TL901",
    "output-not-in-model": "TL902",
    "python-model-without-execute": "TL911",
    "python-syntax-error": "TL910",
    "pytorch-three-inputs-for-two": "TL908",
    "rank-mismatch-leading-1-dropped": "TL905",
    "truncated-onnx": "TL901",
}


def test_the_model_file_fixtures_are_clean() -> None:
    """Real models, made by their frameworks, whose configs match them."""
    assert codes(lint(FIXTURES / "repository")) == []


@pytest.mark.parametrize(("case", "code"), BROKEN.items(), ids=list(BROKEN))
def test_each_broken_model_file_fixture_gets_its_rule_alone(case: str, code: str) -> None:
    assert codes(lint(FIXTURES / "broken" / case)) == [code]
