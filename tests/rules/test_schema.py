"""Schema pack through the whole pipeline: related places, echoes of a binding problem, and
fixes. Every rule's cases are in tests/rules/cases/."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import Files, assert_fix_resolves, codes, codes_at, lint, only, position

from tritonlint.diagnostics import Applicability, Fix, TextEdit
from tritonlint.span import Span

Repo = Callable[[Files], Path]

HEAD = 'platform: "onnxruntime_onnx"\n'
IO = (
    'input [ { name: "I" data_type: TYPE_FP32 dims: [ 16 ] } ]\n'
    'output [ { name: "O" data_type: TYPE_FP32 dims: [ 16 ] } ]\n'
)


def test_duplicate_field_points_back_at_the_first_one(repo: Repo) -> None:
    text = 'max_batch_size: 8\nplatform: "onnxruntime_onnx"\nmax_batch_size: 16\n' + IO
    root = repo({"m/config.pbtxt": text, "m/1/model.onnx": b""})
    found = only(lint(root), "TL107")
    assert position(found) == (3, 1)
    [related] = found.related
    assert related.path == root / "m" / "config.pbtxt"
    assert related.span is not None and (related.span.line, related.span.column) == (1, 1)
    assert related.message == "first given here"


def test_schema_warnings_alone_do_not_stop_content_rules(repo: Repo) -> None:
    # A warning (TL108) leaves the config usable: TL201 still judges the name.
    text = 'name: ""\nname: "other"\n' + HEAD + IO
    root = repo({"m/config.pbtxt": text, "m/1/model.onnx": b""})
    assert sorted(codes(lint(root))) == ["TL108", "TL201"]


def test_schema_errors_do_not_hide_the_other_findings(repo: Repo) -> None:
    # A typo in one input, a negative max_batch_size and a zero output dimension: all at once.
    text = (
        HEAD
        + "max_batch_size: -1\n"
        + 'input [ { name: "I" data_type: TYPE_FP32 dim: [ 3 ] } ]\n'
        + 'output [ { name: "O" data_type: TYPE_FP32 dims: [ 0 ] } ]\n'
    )
    root = repo({"m/config.pbtxt": text, "m/1/model.onnx": b""})
    assert codes_at(lint(root)) == [("TL501", 2, 17), ("TL101", 3, 42), ("TL404", 4, 51)]


@pytest.mark.parametrize(
    ("mistake", "expected", "echo"),
    [
        # "no dims" would only repeat that `dim` is not a field.
        ('input [ { name: "I" data_type: TYPE_FP32 dim: [ 16 ] } ]', ("TL101", 1, 42), "TL403"),
        # "no data_type" would only repeat that TYPE_FLOAT is not a data type.
        ('input [ { name: "I" data_type: TYPE_FLOAT dims: [ 16 ] } ]', ("TL105", 1, 32), "TL402"),
        # "dynamic batching without max_batch_size" would only repeat the wrong value.
        ('max_batch_size: "8"\ndynamic_batching { }', ("TL103", 1, 17), "TL506"),
    ],
)
def test_a_finding_that_echoes_a_binding_problem_is_not_reported(
    repo: Repo, mistake: str, expected: tuple[str, int, int], echo: str
) -> None:
    inputs = "" if mistake.startswith("input") else IO.split("\n")[0] + "\n"
    text = mistake + "\n" + inputs + IO.split("\n")[1] + "\n" + HEAD
    root = repo({"m/config.pbtxt": text, "m/1/model.onnx": b""})
    found = codes_at(lint(root))
    assert expected in found
    assert echo not in [code for code, _, _ in found]
    assert [code for code, _, _ in found if code.startswith("TL1")] == [expected[0]]


def test_a_name_that_is_not_a_field_of_any_kind_doubts_only_unset_fields(repo: Repo) -> None:
    # `colour` means nothing; the fields that are set are still judged (TL201: the name).
    text = 'name: "other"\ncolour: "red"\n' + HEAD + IO
    root = repo({"m/config.pbtxt": text, "m/1/model.onnx": b""})
    assert codes_at(lint(root)) == [("TL201", 1, 7), ("TL101", 2, 1)]


# --- fixes -------------------------------------------------------------------------------------

#: code, config, the fix's title, applicability and edit (span, new text), the fixed config.
FIXES = [
    (
        "TL101",
        HEAD + IO.replace("dims:", "dim:", 1),
        "Replace 'dim' with 'dims'", Applicability.UNSAFE,
        TextEdit(Span(2, 42, 2, 45, 70, 73), "dims"),
        HEAD + IO,
    ),
    (
        "TL105",
        HEAD + IO.replace("TYPE_FP32", "TYPE_FLOAT32", 1),
        "Replace TYPE_FLOAT32 with TYPE_FP32", Applicability.UNSAFE,
        TextEdit(Span(2, 32, 2, 44, 60, 72), "TYPE_FP32"),
        HEAD + IO,
    ),
    (
        "TL105",
        HEAD + IO.replace("TYPE_FP32", "FP32", 1),
        "Replace FP32 with TYPE_FP32", Applicability.UNSAFE,
        TextEdit(Span(2, 32, 2, 36, 60, 64), "TYPE_FP32"),
        HEAD + IO,
    ),
    (
        "TL102",
        HEAD + IO + 'parameters { key: "model_type" value: "Transformer" }\n',
        'Write { string_value: "Transformer" }', Applicability.SAFE,
        TextEdit(Span(4, 39, 4, 52, 184, 197), '{ string_value: "Transformer" }'),
        HEAD + IO + 'parameters { key: "model_type" value: { string_value: "Transformer" } }\n',
    ),
    (
        "TL102",
        HEAD + "max_batch_size: [ 8 ]\n" + IO + "dynamic_batching { }\n",
        "Write 8", Applicability.SAFE,
        TextEdit(Span(2, 17, 2, 22, 45, 50), "8"),
        HEAD + "max_batch_size: 8\n" + IO + "dynamic_batching { }\n",
    ),
    (
        "TL103",
        "name: m\n" + HEAD + IO,
        'Write "m"', Applicability.SAFE,
        TextEdit(Span(1, 7, 1, 8, 6, 7), '"m"'),
        'name: "m"\n' + HEAD + IO,
    ),
    (
        "TL103",
        HEAD + 'max_batch_size: "8"\n' + IO + "dynamic_batching { }\n",
        "Write 8", Applicability.SAFE,
        TextEdit(Span(2, 17, 2, 20, 45, 48), "8"),
        HEAD + "max_batch_size: 8\n" + IO + "dynamic_batching { }\n",
    ),
    (
        "TL103",
        HEAD + "max_batch_size: 8.0\n" + IO + "dynamic_batching { }\n",
        "Write 8", Applicability.SAFE,
        TextEdit(Span(2, 17, 2, 20, 45, 48), "8"),
        HEAD + "max_batch_size: 8\n" + IO + "dynamic_batching { }\n",
    ),
    (
        "TL105",
        HEAD + IO.replace("TYPE_FP32", '"TYPE_FP32"', 1),
        'Replace "TYPE_FP32" with TYPE_FP32', Applicability.SAFE,
        TextEdit(Span(2, 32, 2, 43, 60, 71), "TYPE_FP32"),
        HEAD + IO,
    ),
    (
        "TL107",
        HEAD + "max_batch_size: 8\n" + IO + "max_batch_size: 8  # again\n",
        "Remove the repeated 'max_batch_size'", Applicability.SAFE,
        TextEdit(Span(4, 59, 5, 27, 163, 190), ""),
        HEAD + "max_batch_size: 8\n" + IO,
    ),
    (
        "TL107",
        HEAD + IO + "dynamic_batching { max_queue_delay_microseconds: 100 "
        "preserve_ordering: true max_queue_delay_microseconds: 100 }\n",
        "Remove the repeated 'max_queue_delay_microseconds'", Applicability.SAFE,
        TextEdit(Span(4, 77, 4, 111, 222, 256), ""),
        HEAD + IO + "dynamic_batching { max_queue_delay_microseconds: 100 preserve_ordering: true }\n",
    ),
    (
        "TL108",
        "max_batch_size: 0\nmax_batch_size: 8\n" + HEAD + IO,
        "Remove the earlier 'max_batch_size'", Applicability.SAFE,
        TextEdit(Span(1, 1, 2, 1, 0, 18), ""),
        "max_batch_size: 8\n" + HEAD + IO,
    ),
    (
        "TL108",
        HEAD + "max_batch_size: 0\n" + IO + "max_batch_size: 8\n",
        "Remove the earlier 'max_batch_size'", Applicability.SAFE,
        TextEdit(Span(1, 29, 2, 18, 28, 46), ""),
        HEAD + IO + "max_batch_size: 8\n",
    ),
]  # fmt: skip


@pytest.mark.parametrize(
    ("code", "bad", "title", "applicability", "edit", "good"),
    FIXES,
    ids=[
        "TL101",
        "TL105",
        "TL105-prefix",
        "TL102-parameter",
        "TL102-list",
        "TL103-quote",
        "TL103-unquote",
        "TL103-whole-number",
        "TL105-quoted",
        "TL107",
        "TL107-nested",
        "TL108-first",
        "TL108",
    ],
)
def test_schema_fix(
    repo: Repo,
    code: str,
    bad: str,
    title: str,
    applicability: Applicability,
    edit: TextEdit,
    good: str,
) -> None:
    root = repo({"m/config.pbtxt": bad, "m/1/model.onnx": b""})
    found = only(lint(root), code)
    assert found.fixes == (Fix(title, (edit,), applicability),)
    assert assert_fix_resolves(found, root) == good


@pytest.mark.parametrize(
    ("code", "text"),
    [
        # No field is close enough to suggest.
        ("TL101", HEAD + IO + "colour: 2\n"),
        # A field of a later release: the fix is to target that release, not to rename.
        ("TL101", HEAD + IO + "model_metrics { }\n"),
        ("TL105", HEAD + IO.replace("TYPE_FP32", "TYPE_XYZ", 1)),
        # Two different values: which one is meant is not for a tool to say.
        ("TL107", HEAD + "max_batch_size: 8\n" + IO + "max_batch_size: 16\n"),
        ("TL107", HEAD + "dynamic_batching { }\n" + IO + "dynamic_batching { }\n"),
        # 8.5 is no integer; "x" is no number, in a list or not.
        ("TL103", HEAD + "max_batch_size: 8.5\n" + IO),
        ("TL103", HEAD + 'max_batch_size: "x"\n' + IO),
        ("TL102", HEAD + 'max_batch_size: [ "x" ]\n' + IO),
        ("TL102", HEAD + "max_batch_size: [ 8, 16 ]\n" + IO),
    ],
    ids=[
        "no-suggestion",
        "later-release",
        "no-enum-suggestion",
        "different-values",
        "messages",
        "fraction",
        "word",
        "list-of-a-word",
        "list-of-two",
    ],
)
def test_schema_findings_without_a_certain_edit_have_no_fix(
    repo: Repo, code: str, text: str
) -> None:
    root = repo({"m/config.pbtxt": text, "m/1/model.onnx": b""})
    found = only(lint(root, triton_version="2.51"), code)
    assert found.fixes == ()
