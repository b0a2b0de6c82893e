"""Syntax pack through the whole pipeline: every finding of a file, the end of a span, a fix's
kind (each rule's cases are in tests/rules/cases/)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from helpers import (
    ONNX_MODEL,
    Files,
    assert_fix_resolves,
    codes,
    codes_at,
    lint,
    locate,
    model,
    only,
    position,
)

from tritonlint.diagnostics import Severity

Repo = Callable[[Files], Path]

BROKEN = """\
name: "m"
platform: "onnxruntime_onnx"
max_batch_size: 8
input [ { name: "I" data_type TYPE_FP32 dims: [ 16 ] } ]
output [ { name: "O" data_type: TYPE_FP32 dims: [ 16 ] }
"""


def test_tl010_every_syntax_error_of_a_file_is_reported(repo: Repo) -> None:
    root = repo({**model("m", ONNX_MODEL), "m/config.pbtxt": BROKEN})
    result = lint(root)
    found = [d for d in result.diagnostics if d.code == "TL010"]
    assert [position(d) for d in found] == [locate(BROKEN, "TYPE_FP32"), (6, 1)]
    assert all(d.severity is Severity.ERROR and d.name == "syntax-error" for d in found)
    assert all(d.path == root / "m" / "config.pbtxt" for d in found)
    assert found[0].message.startswith("expected one of ':', '<', '[', '{'; found 'TYPE_FP32'")
    assert "end of file" in found[1].message


TEMPLATE = """\
name: "m"
backend: "python"
max_batch_size: ${triton_max_batch_size}
input [ { name: "I" data_type: TYPE_FP32 dims: [ 16 ] } ]
output [ { name: "O" data_type: TYPE_FP32 dims: [ 16 ] } ]
dynamic_batching { }
"""


def test_tl011_unfilled_template_placeholder(repo: Repo) -> None:
    root = repo({"m/config.pbtxt": TEMPLATE, "m/1/model.py": ""})
    found = only(lint(root), "TL011")
    assert found.severity is Severity.ERROR
    assert found.name == "template-placeholder"
    assert position(found) == (3, 17)
    assert found.span is not None and found.span.end_column == 41
    assert "${triton_max_batch_size}" in found.message
    # Reported as what it is, not also as a syntax error.
    assert "TL010" not in codes(lint(root))


PASTED_FROM_A_TUTORIAL = """\
name: "pipeline"
platform: "ensemble"
max_batch_size: 8
input [ { name: "TEXT" data_type: TYPE_STRING dims: [ 1 ] } ]
output [ { name: "EMBEDDING" data_type: TYPE_FP32 dims: [ 768 ] } ]
ensemble_scheduling {
  step [
    {
      model_name: "tokenizer"
      model_version: -1
      input_map { key: "TEXT" value: "TEXT" }
      output_map {
        key: "input_ids"  <- 토크나이저 모델의 출력 이름과 같아야 합니다
        value: "input_ids"
      }
    },
    {
      model_name: "embedding"
      model_version: -1
      input_map { key: "input_ids" value: "input_ids" }  <- must match the tokenizer's output
      output_map {...}
    }
  ]
}
"""

NOTE = "this reads as a note, not as text format: make it a comment by starting it with '#'"


def test_tl010_a_pasted_note_or_ellipsis_is_one_finding_each(repo: Repo) -> None:
    root = repo({"pipeline/config.pbtxt": PASTED_FROM_A_TUTORIAL, "pipeline/1": None})
    result = lint(root)
    assert [(code, line, column) for code, line, column in codes_at(result)] == [
        ("TL010", 13, 27),
        ("TL010", 20, 58),
        ("TL010", 21, 19),
    ]
    note, _, ellipsis = result.diagnostics
    assert note.message == NOTE
    assert note.span is not None and (note.span.end_line, note.span.end_column) == (13, 54)
    assert ellipsis.message == (
        "'...' is a placeholder for elided content, not text format: fill in what it stands "
        "for, or remove it"
    )
    assert ellipsis.fixes == ()


def test_tl010_the_fix_of_a_note_makes_it_a_comment(repo: Repo) -> None:
    root = repo({"pipeline/config.pbtxt": PASTED_FROM_A_TUTORIAL, "pipeline/1": None})
    note = lint(root).diagnostics[1]
    [fix] = note.fixes
    assert (fix.title, fix.applicability.value) == ("Make the note a comment", "safe")
    fixed = assert_fix_resolves(note, root)
    assert "}  # <- must match the tokenizer's output\n" in fixed


MODEL_PY = """\
import json

import triton_python_backend_utils as pb_utils


class TritonPythonModel:
    def initialize(self, args):
        self.model_config = json.loads(args["model_config"])

    def execute(self, requests):
        responses = []
        for request in requests:
            text = pb_utils.get_input_tensor_by_name(request, "TEXT")
            responses.append(pb_utils.InferenceResponse(output_tensors=[text]))
        return responses
"""


def test_tl013_python_source_saved_as_config_pbtxt_is_one_finding(repo: Repo) -> None:
    root = repo({"m/config.pbtxt": MODEL_PY, "m/1/model.py": MODEL_PY})
    result = lint(root)
    found = only(result, "TL013")
    assert codes_at(result) == [("TL013", 1, 1)]
    assert found.severity is Severity.ERROR
    assert found.name == "python-source"
    assert found.span is not None and found.span.end_column == len("import json") + 1
    assert found.message.startswith("this file is Python source, not a model configuration")
    assert "1/model.py" in found.message


def test_tl013_a_config_is_not_python_source(repo: Repo) -> None:
    text = 'name: "m"\nbackend: "python"\nimport json\n'
    root = repo({"m/config.pbtxt": text, "m/1/model.py": MODEL_PY})
    assert codes_at(lint(root)) == [("TL101", 3, 1), ("TL010", 3, 8)]
