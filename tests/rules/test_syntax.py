"""Syntax pack through the whole pipeline: TL010 syntax-error, TL011 template-placeholder."""

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


def test_tl010_fixed_file_has_no_syntax_error(repo: Repo) -> None:
    fixed = (
        BROKEN.replace("data_type TYPE_FP32", "data_type: TYPE_FP32") + "]\ndynamic_batching { }\n"
    )
    root = repo({**model("m", ONNX_MODEL), "m/config.pbtxt": fixed})
    assert codes(lint(root)) == []


def test_tl010_syntax_errors_keep_content_rules_quiet(repo: Repo) -> None:
    # The name differs from the folder (TL201), but the file does not parse: only TL010.
    text = BROKEN.replace('name: "m"', 'name: "other"')
    root = repo({**model("m", ONNX_MODEL), "m/config.pbtxt": text})
    assert set(codes(lint(root))) == {"TL010"}


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


def test_tl011_filled_template_is_clean(repo: Repo) -> None:
    filled = TEMPLATE.replace("${triton_max_batch_size}", "64")
    root = repo({"m/config.pbtxt": filled, "m/1/model.py": ""})
    assert codes_at(lint(root)) == []


JSON_CONFIG = """\
{
  "name": "m",
  "backend": "python",
  "max_batch_size": 8
}
"""


def test_tl012_json_pasted_into_config_pbtxt_is_reported_once_as_json(repo: Repo) -> None:
    root = repo({"m/config.pbtxt": JSON_CONFIG, "m/1/model.py": ""})
    result = lint(root)
    found = only(result, "TL012")
    assert found.severity is Severity.ERROR
    assert position(found) == (1, 1)
    assert "this file is JSON" in found.message
    assert "TL010" not in codes(result)


def test_tl012_text_format_with_braces_is_not_json(repo: Repo) -> None:
    root = repo({"m/config.pbtxt": "{ name: 'm' }\n", "m/1/model.py": ""})
    result = lint(root)
    assert "TL012" not in codes(result)
    assert "TL010" in codes(result)


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


A_LIST_WITHOUT_ITS_NAME = """\
name: "m"
platform: "onnxruntime_onnx"
max_batch_size: 8
input [
  {
    name: "input_ids"
    data_type: TYPE_INT64
    dims: [ -1 ]
    reshape: {[1,-1]}
  }
]
output [
  {
    name: "logits"
    data_type: TYPE_FP32
    dims: [ -1 ]
    reshape: {[1,-1]}
  }
]
"""


def test_tl010_a_list_without_its_field_name_is_the_only_finding(repo: Repo) -> None:
    # Read as an extension's name, the '[' used to swallow the rest of the file: a field
    # given twice, "[] is not a field" and a syntax error for every token after it.
    root = repo({**model("m", ONNX_MODEL), "m/config.pbtxt": A_LIST_WITHOUT_ITS_NAME})
    result = lint(root)
    assert codes_at(result) == [("TL010", 9, 15), ("TL010", 17, 15)]
    assert {d.message for d in result.diagnostics} == {
        "expected a field name before '[': a list is the value of a field, written `name: [ ... ]`"
    }


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
