"""Where the cursor is: message path and type, name or value, the field, the ensemble step."""

from __future__ import annotations

import pytest
from editor_texts import at_cursor, marked_in

from tritonlint.editor.context import Position, context_at
from tritonlint.schema.releases import Schema
from tritonlint.span import Span


def where(marked: str, schema: Schema) -> tuple[object, ...]:
    text, line, column = at_cursor(marked)
    context = context_at(text, line, column, schema)
    message = context.message.full_name if context.message is not None else None
    return context.path, message, context.position, context.field, context.prefix, context.step


@pytest.mark.parametrize(
    ("needle", "expected"),
    [
        ('|name: "pipeline"', ((), "inference.ModelConfig", Position.NAME, "name", "", None)),
        ('na|me: "pipeline"', ((), "inference.ModelConfig", Position.NAME, "name", "na", None)),
        ('name: |"pipeline"', ((), "inference.ModelConfig", Position.VALUE, "name", "", None)),
        (
            "data_type: TYPE_F|P32 dims: [ 1000 ]",
            (("output", 0), "inference.ModelOutput", Position.VALUE, "data_type", "TYPE_F", None),
        ),
        (
            "dims: [ 10|00 ]",
            (("output", 0), "inference.ModelOutput", Position.VALUE, "dims", "10", None),
        ),
        (
            'model_name: "class|ifier"',
            (
                ("ensemble_scheduling", "step", 1),
                "inference.ModelEnsembling.Step",
                Position.VALUE,
                "model_name",
                '"class',
                1,
            ),
        ),
        (
            'key: "RAW" value: "IMA|GE"',
            (
                ("ensemble_scheduling", "step", 0, "input_map", 0),
                "inference.ModelEnsembling.Step.InputMapEntry",
                Position.VALUE,
                "value",
                '"IMA',
                0,
            ),
        ),
        (
            "  |step [",
            (
                ("ensemble_scheduling",),
                "inference.ModelEnsembling",
                Position.NAME,
                "step",
                "",
                None,
            ),
        ),
    ],
)
def test_context_in_a_complete_file(
    needle: str, expected: tuple[object, ...], schema: Schema
) -> None:
    assert where(marked_in(needle), schema) == expected


@pytest.mark.parametrize(
    ("marked", "expected"),
    [
        pytest.param(
            'input [ { name: "x" | dims: [ 3 ] } ]',
            (("input", 0), "inference.ModelInput", Position.NAME, None, "", None),
            id="a-blank-between-fields-is-a-name-position",
        ),
        pytest.param(
            "max_batch_size: : 4\ninstance_group [ { kind: KIND_| } ]",
            (
                ("instance_group", 0),
                "inference.ModelInstanceGroup",
                Position.VALUE,
                "kind",
                "KIND_",
                None,
            ),
            id="a-syntax-error-before-the-cursor",
        ),
    ],
)
def test_context_in_a_short_text(marked: str, expected: tuple[object, ...], schema: Schema) -> None:
    assert where(marked, schema) == expected


@pytest.mark.parametrize(
    ("marked", "expected"),
    [
        pytest.param(
            'output { name: "a" }\noutput { name: "b" | }',
            (("output", 1), "inference.ModelOutput", Position.NAME),
            id="the-second-element-of-a-repeated-field-written-twice",
        ),
        pytest.param(
            "dynamic_batching {\n  |\n",
            (("dynamic_batching",), "inference.ModelDynamicBatching", Position.NAME),
            id="an-unclosed-message-runs-to-the-end",
        ),
        pytest.param(
            "no_such_field { | }",
            (("no_such_field",), None, Position.NAME),
            id="inside-an-unknown-field-the-message-is-unknown",
        ),
    ],
)
def test_message_and_position_in_a_short_text(
    marked: str, expected: tuple[object, ...], schema: Schema
) -> None:
    assert where(marked, schema)[:3] == expected


def test_a_half_typed_name_at_the_end_of_the_file(schema: Schema) -> None:
    text, line, column = at_cursor('input [ { name: "x" data_t|')
    context = context_at(text, line, column, schema)
    assert context.path == ("input", 0)
    assert context.position is Position.NAME
    assert (context.field, context.prefix) == ("data_t", "data_t")
    assert context.replace == Span(1, 21, 1, 27, 20, 26)
    # The name being typed does not count as already written.
    assert context.present == frozenset({"name"})


def test_a_missing_value_then_a_new_line(schema: Schema) -> None:
    # The parser takes ``dims`` for the missing value; the cursor after the colon is still a
    # value position, and on the next line it is a name again.
    text = "input {\n  data_type: \n  dims: [ 1 ]\n}\n"
    after_colon = context_at(text, 2, 14, schema)
    assert (after_colon.position, after_colon.field, after_colon.prefix) == (
        Position.VALUE,
        "data_type",
        "",
    )
    assert after_colon.replace == Span(2, 14, 2, 14, 21, 21)
    on_next = context_at(text, 3, 4, schema)
    assert (on_next.path, on_next.position, on_next.prefix) == (("input", 0), Position.NAME, "d")
