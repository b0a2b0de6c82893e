"""Syntax pack through the whole pipeline: TL010 syntax-error, TL011 template-placeholder."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from helpers import ONNX_MODEL, Files, codes, codes_at, lint, locate, model, only, position

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
