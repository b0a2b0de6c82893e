"""Recovery reports what a person would: a pasted note, an ellipsis, a list without its name
once each; a file in another language once as a whole; and still each real mistake."""

from __future__ import annotations

import re

import pytest
from schema.test_text_format_parity import reference_error

from tritonlint.diagnostics import Applicability, TextEdit
from tritonlint.span import Span
from tritonlint.syntax.cst import Field, ListValue, Message, Scalar
from tritonlint.syntax.parser import MAX_SYNTAX_ERRORS, SyntaxProblem, parse

NOTE = "this reads as a note, not as text format: make it a comment by starting it with '#'"


def elided(text: str) -> str:
    return (
        f"'{text}' is a placeholder for elided content, not text format: fill in what it "
        "stands for, or remove it"
    )


def found(problems: list[SyntaxProblem]) -> list[tuple[tuple[int, int, int, int], str]]:
    """Where each problem is (line, column, end line, end column) and its whole message."""
    return [
        ((p.span.line, p.span.column, p.span.end_line, p.span.end_column), p.message)
        for p in problems
    ]


def fields_of(value: object) -> list[Field]:
    assert isinstance(value, Message), value
    return value.fields


def names(fields: list[Field]) -> list[str]:
    return [f.name.text for f in fields]


def text_of(field: Field) -> str:
    assert isinstance(field.value, Scalar), field.value
    return field.value.text


def apply_fixes(text: str, problems: list[SyntaxProblem]) -> str:
    """``text`` with the edit of every problem's fix applied (inserts only, last one first)."""
    edits = [edit for p in problems for fix in p.fixes for edit in fix.edits]
    for edit in sorted(edits, key=lambda e: e.span.start, reverse=True):
        assert edit.span.start == edit.span.end
        text = text[: edit.span.start] + edit.new_text + text[edit.span.end :]
    return text


# --- Notes in prose ---------------------------------------------------------------------------

#: An ensemble as a tutorial shows it: notes after some lines, and parts elided with `{...}`.
TUTORIAL_ENSEMBLE = """\
name: "ensemble_model"
platform: "ensemble"
max_batch_size: 8
input [ { name: "TEXT" data_type: TYPE_STRING dims: [ 1 ] } ]
output [ { name: "EMBEDDING" data_type: TYPE_FP32 dims: [ 768 ] } ]
ensemble_scheduling {
  step [
    {
      model_name: "tokenizer"
      model_version: -1
      input_map {
        key: "TEXT"  <- 토크나이저 모델의 입력 이름과 같아야 합니다
        value: "TEXT"
      }
      output_map {...}
    },
    {
      model_name: "embedding"
      model_version: -1
      input_map {
        key: "input_ids"  <- must match the tokenizer's output
        value: "input_ids"
      }
      input_map {...}
      output_map {
        key: "last_hidden_state"
        value: "EMBEDDING"
      }
    }
  ]
}
"""


def test_each_pasted_note_and_ellipsis_is_one_problem() -> None:
    result = parse(TUTORIAL_ENSEMBLE)
    assert found(result.problems) == [
        ((12, 22, 12, 49), NOTE),
        ((15, 19, 15, 22), elided("...")),
        ((21, 27, 21, 63), NOTE),
        ((24, 18, 24, 21), elided("...")),
    ]
    assert [p.kind for p in result.problems] == ["syntax-error"] * 4


def test_the_first_note_is_where_protobufs_own_parser_stops() -> None:
    # tritonserver refuses this file with one error, at the same place: "Expected
    # identifier, got: <".
    reference = reference_error(TUTORIAL_ENSEMBLE)
    assert reference is not None
    position = re.match(r"(\d+):(\d+) ", reference)
    assert position is not None
    first = parse(TUTORIAL_ENSEMBLE).problems[0]
    assert (first.span.line, first.span.column) == (int(position[1]), int(position[2]))


def test_what_is_read_around_notes_and_ellipses_is_what_the_author_wrote() -> None:
    document = parse(TUTORIAL_ENSEMBLE).document
    assert names(document.fields) == [
        "name",
        "platform",
        "max_batch_size",
        "input",
        "output",
        "ensemble_scheduling",
    ]
    [step] = fields_of(document.fields[5].value)
    assert isinstance(step.value, ListValue)
    first, second = (fields_of(item) for item in step.value.items)
    assert names(first) == ["model_name", "model_version", "input_map", "output_map"]
    assert [text_of(f) for f in fields_of(first[2].value)] == ['"TEXT"', '"TEXT"']
    assert fields_of(first[3].value) == []
    assert names(second) == ["model_name", "model_version", "input_map", "input_map", "output_map"]
    assert [text_of(f) for f in fields_of(second[2].value)] == ['"input_ids"', '"input_ids"']
    assert fields_of(second[3].value) == []


def test_the_fix_of_a_note_makes_it_a_comment() -> None:
    result = parse(TUTORIAL_ENSEMBLE)
    notes = [p for p in result.problems if p.message == NOTE]
    assert [(fix.title, fix.applicability) for p in notes for fix in p.fixes] == [
        ("Make the note a comment", Applicability.SAFE)
    ] * 2
    assert [fix.edits for fix in notes[0].fixes] == [
        (TextEdit(Span.point(12, 22, TUTORIAL_ENSEMBLE.index("<- 토")), "# "),)
    ]
    fixed = apply_fixes(TUTORIAL_ENSEMBLE, notes)
    assert '        key: "TEXT"  # <- 토크나이저 모델의 입력 이름과 같아야 합니다\n' in fixed
    assert '        key: "input_ids"  # <- must match the tokenizer\'s output\n' in fixed
    # What is left are the ellipses, at the same places.
    assert found(parse(fixed).problems) == found(result.problems)[1::2]


def test_a_whole_line_of_prose_is_one_problem_from_its_first_word() -> None:
    text = (
        'name: "m"\nThis configuration serves the tokenizer for the ensemble.\nbackend: "python"\n'
    )
    result = parse(text)
    assert found(result.problems) == [((2, 1, 2, 58), NOTE)]
    assert names(result.document.fields) == ["name", "backend"]
    assert apply_fixes(text, result.problems).splitlines()[1].startswith("# This configuration")


@pytest.mark.parametrize(
    ("line", "column"),
    [
        ("max_batch_size: 8  // the largest batch", 20),
        ("max_batch_size: 8  -- the largest batch", 20),
        ("max_batch_size: 8  -> the largest batch", 20),
        ("max_batch_size: 8  /* the largest batch */", 20),
        ("max_batch_size: 8  => the largest batch", 20),
    ],
)
def test_another_languages_comment_or_an_arrow_starts_a_note(line: str, column: int) -> None:
    result = parse(f'name: "m"\n{line}\nbackend: "python"\n')
    assert found(result.problems) == [((2, column, 2, len(line) + 1), NOTE)]
    assert names(result.document.fields) == ["name", "max_batch_size", "backend"]
    assert text_of(result.document.fields[1]) == "8"


def test_a_note_where_a_value_goes_leaves_the_value_missing() -> None:
    result = parse('max_batch_size: <- the largest batch\nname: "m"\n')
    assert found(result.problems) == [((1, 17, 1, 37), NOTE)]
    assert names(result.document.fields) == ["max_batch_size", "name"]
    value = result.document.fields[0].value
    assert isinstance(value, Scalar) and value.missing


def test_a_note_longer_than_recovery_looks_ahead_is_still_one_problem() -> None:
    note = " ".join(["word"] * 200)
    result = parse(f'name: "m"  <- {note}\nbackend: "python"\n')
    assert found(result.problems) == [((1, 12, 1, 15 + len(note)), NOTE)]
    assert names(result.document.fields) == ["name", "backend"]


def test_two_typos_on_one_line_are_two_problems_not_a_note() -> None:
    result = parse('output [ { name "y" data_type TYPE_FP32 } ]\n')
    assert [(p.span.line, p.span.column) for p in result.problems] == [(1, 17), (1, 31)]
    assert all(p.message.startswith("expected one of ':'") for p in result.problems)
    assert all(p.fixes == () for p in result.problems)


def test_a_missing_colon_before_more_fields_is_still_one_precise_problem() -> None:
    result = parse("input { data_type TYPE_FP32 dims [ 1 ] }\n")
    assert found(result.problems) == [
        ((1, 19, 1, 28), "expected one of ':', '<', '[', '{'; found 'TYPE_FP32'")
    ]


def test_a_mistake_after_a_note_is_still_reported() -> None:
    text = 'name: "m"  <- the model\'s name\nmax_batch_size: 8\ninput { data_type TYPE_FP32 }\n'
    result = parse(text)
    assert [(p.span.line, p.span.column) for p in result.problems] == [(1, 12), (3, 19)]
    assert result.problems[0].message == NOTE
    assert result.problems[1].message.startswith("expected one of ':'")


def test_a_single_word_of_letters_is_a_stray_not_a_note() -> None:
    result = parse('name: "m" 설명\nbackend: "python"\n')
    assert found(result.problems) == [((1, 11, 1, 13), "unexpected characters '설명'")]
    assert names(result.document.fields) == ["name", "backend"]


def test_notes_count_towards_the_cap_on_problems() -> None:
    result = parse('name: "m"  <- a note about it\n' * (MAX_SYNTAX_ERRORS + 5))
    assert len(result.problems) == MAX_SYNTAX_ERRORS
    assert {p.message for p in result.problems} == {NOTE}


# --- Ellipses ---------------------------------------------------------------------------------


def test_an_ellipsis_in_a_list_is_a_missing_value() -> None:
    result = parse('dims: [ 1, ... ]\nname: "m"\n')
    assert found(result.problems) == [((1, 12, 1, 15), elided("..."))]
    [dims, name] = result.document.fields
    assert isinstance(dims.value, ListValue)
    assert [item.missing for item in dims.value.items if isinstance(item, Scalar)] == [
        False,
        True,
    ]
    assert text_of(name) == '"m"'


def test_an_ellipsis_character_is_an_ellipsis() -> None:
    result = parse('input { name: "x" … }\noutput { … }\n')
    assert found(result.problems) == [
        ((1, 19, 1, 20), elided("…")),
        ((2, 10, 2, 11), elided("…")),
    ]
    assert names(result.document.fields) == ["input", "output"]


def test_an_ellipsis_for_a_list_of_messages_and_a_value() -> None:
    result = parse("input [ {...}, ... ]\nname: ...\n")
    assert found(result.problems) == [
        ((1, 10, 1, 13), elided("...")),
        ((1, 16, 1, 19), elided("...")),
        ((2, 7, 2, 10), elided("...")),
    ]
    assert names(result.document.fields) == ["input", "name"]


# --- A list with no field name ----------------------------------------------------------------


def test_a_list_first_in_a_message_is_one_problem_at_its_bracket() -> None:
    text = 'input {\n  name: "x"\n  reshape: {[1,-1]}\n}\noutput { name: "y" }\n'
    result = parse(text)
    assert found(result.problems) == [
        (
            (3, 13, 3, 14),
            "expected a field name before '[': a list is the value of a field, written "
            "`name: [ ... ]`",
        )
    ]
    assert names(result.document.fields) == ["input", "output"]
    inner = fields_of(result.document.fields[0].value)
    assert names(inner) == ["name", "reshape"]
    [nameless] = fields_of(inner[1].value)
    assert nameless.name.missing
    assert isinstance(nameless.value, ListValue)
    assert [i.text for i in nameless.value.items if isinstance(i, Scalar)] == ["1", "-1"]


def test_a_bracket_after_a_field_is_not_taken_for_a_list_without_a_name() -> None:
    # The value of max_batch_size is what is missing; `input` was read as that value.
    result = parse('max_batch_size:\ninput [\n  { name: "x" }\n]\n')
    assert result.problems[0].message.startswith("expected identifier, found '{'")


def test_an_extension_name_in_brackets_is_still_an_extension_name() -> None:
    result = parse("input { [my.ext]: 1 }\n")
    assert result.problems == []
    [extension] = fields_of(result.document.fields[0].value)
    assert extension.name.is_extension and extension.name.text == "my.ext"


# --- Another language's file ------------------------------------------------------------------

MODEL_PY = """\
# Preprocessing for the ensemble.
import json

import numpy as np
import triton_python_backend_utils as pb_utils


class TritonPythonModel:
    def initialize(self, args):
        self.model_config = json.loads(args["model_config"])

    def execute(self, requests):
        responses = []
        for request in requests:
            text = pb_utils.get_input_tensor_by_name(request, "TEXT")
            responses.append(pb_utils.InferenceResponse(output_tensors=[]))
        return responses
"""

PYTHON = (
    "this file is Python source, not a model configuration: a Python backend's code goes in "
    "the model's version folder as model.py (e.g. 1/model.py), and config.pbtxt holds the "
    "configuration in protobuf text format"
)


def test_python_source_is_one_problem_at_its_first_line_of_code() -> None:
    result = parse(MODEL_PY)
    assert found(result.problems) == [((2, 1, 2, 12), PYTHON)]
    assert result.problems[0].kind == "python-source"
    assert result.document.fields == []
    assert [c.text for c in result.document.trailing_comments] == [
        "# Preprocessing for the ensemble."
    ]


def test_python_source_starting_with_a_class_is_python_source() -> None:
    text = "class TritonPythonModel:\n    def execute(self, requests):\n        return []\n"
    assert found(parse(text).problems) == [((1, 1, 1, 25), PYTHON)]


def test_a_config_with_one_python_like_line_is_not_python_source() -> None:
    text = 'import json\nname: "m"\n'
    result = parse(text)
    assert [p.kind for p in result.problems] == ["syntax-error"]
    assert names(result.document.fields) == ["import", "name"]


def test_a_config_whose_first_line_is_text_format_is_not_python_source() -> None:
    text = 'name: "m"\nimport json\nclass Model:\n'
    assert {p.kind for p in parse(text).problems} == {"syntax-error"}
