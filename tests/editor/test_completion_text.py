"""No completion item makes text that does not parse: accepted at any place of a config where
it is offered (and a value typed at its tab stop, where its snippet asks for one), the text has
no syntax error, and no field given twice, that it had not before."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from editor_texts import PIPELINE, at_cursor

from tritonlint.document import parse_config
from tritonlint.editor.completion import Completion, completions
from tritonlint.integrity import new_breakage
from tritonlint.schema.releases import Schema, load_schema

#: Configs written as people write them, finished or half typed.
CONFIGS = {
    "model": """\
name: "m"
platform: "onnxruntime_onnx"
max_batch_size: 8
input [
  {
    name: "x"  # pixels
    data_type: TYPE_FP32
    dims: [ 3, 4 ]
  }
]
output [ { name: "y", data_type: TYPE_FP32, dims: [ 10 ] } ]
instance_group [ { kind: KIND_CPU count: 1 } ]
dynamic_batching { max_queue_delay_microseconds: 100 }
parameters { key: "k" value: { string_value: "v" } }
""",
    "a list just opened": 'name: "m"\ninput [\n',
    "an element to add": 'input [\n  { name: "a" },\n  \n]\nversion_policy: { latest { num_versions: 1 } }\n',
    "a message just opened": "dynamic_batching {\n\n}\n",
    "an ensemble and comments": PIPELINE + "# a comment [ { input\noptimization { }\n",
}


def accepted(text: str, item: Completion) -> str:
    """``text`` with ``item`` accepted, a value typed at its tab stop where it waits for one
    (after a ``:`` or a ``[``), placeholders keeping their text."""
    insert = re.sub(r"\$\{\d+:([^}]*)\}", r"\1", item.insert_text)
    before, stop, after = insert.partition("$0")
    if stop and before.rstrip().endswith((":", "[")):
        insert = before + "1" + after
    insert = re.sub(r"\$\d+", "", insert)
    return text[: item.replace.start] + insert + text[item.replace.end :]


def line_and_column(text: str, offset: int) -> tuple[int, int]:
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_no_item_accepted_anywhere_breaks_the_text(name: str, schema: Schema) -> None:
    text = CONFIGS[name]
    before = parse_config(Path("config.pbtxt"), text, schema)
    broken = []
    offered = 0
    for offset in range(len(text) + 1):
        for item in completions(text, *line_and_column(text, offset), schema):
            offered += 1
            after = parse_config(Path("config.pbtxt"), accepted(text, item), schema)
            reason = new_breakage(before, after)
            if reason is not None:
                broken.append((offset, item.label, reason))
    assert offered > 0
    assert broken == []


def complete(marked: str, schema: Schema, typed: bool = False) -> list[Completion]:
    text, line, column = at_cursor(marked)
    return completions(text, line, column, schema, typed=typed)


def test_a_new_line_in_an_opened_list_of_messages_offers_an_element_only(
    schema: Schema,
) -> None:
    (item,) = complete('name: "m"\ninput [\n|', schema)
    assert (item.label, item.insert_text, item.snippet) == ("{ }", "{\n  $0\n}", True)
    assert item.detail == "an element of input, inference.ModelInput"


def test_an_element_before_another_gets_its_comma(schema: Schema) -> None:
    (item,) = complete('input [ | { name: "a" } ]', schema)
    assert item.insert_text == "{\n  $0\n},"


def test_no_element_where_one_cannot_begin(schema: Schema) -> None:
    assert complete('input [ { name: "a" } | ]', schema) == []


def test_typing_a_space_after_an_opening_brace_or_bracket_offers_nothing(
    schema: Schema,
) -> None:
    assert complete("input [ |", schema, typed=True) == []
    assert complete("dynamic_batching { |", schema, typed=True) == []
    assert [i.label for i in complete("dynamic_batching { |", schema)][:1] == [
        "preferred_batch_size"
    ]


def test_type_invalid_is_never_offered(schema: Schema) -> None:
    items = [item.label for item in complete("input [ { data_type: | } ]", schema)]
    assert "TYPE_INVALID" not in items
    assert items[:2] == ["TYPE_BOOL", "TYPE_UINT8"]


def test_changing_a_written_name_offers_the_names_its_value_fits_alone(schema: Schema) -> None:
    scalars = complete('na|me: "m"', schema)
    assert {item.insert_text for item in scalars} >= {"name", "backend", "max_batch_size"}
    assert not any(item.snippet for item in scalars)
    assert "input" not in [item.label for item in scalars]
    lists = [item.label for item in complete("inp|ut [ { } ]", schema)]
    assert "output" in lists and "name" not in lists and "dynamic_batching" not in lists


def test_nothing_between_a_name_and_its_value_nor_before_a_value(schema: Schema) -> None:
    assert complete("input | [ { } ]", schema) == []
    assert complete("max_batch_size:| 8", schema) == []
    assert complete("# a note: |", schema) == []


@pytest.fixture(scope="module")
def schema() -> Schema:
    return load_schema()


def test_after_a_name_waiting_for_its_value_no_name_is_offered(schema: Schema) -> None:
    # VS Code asks on the typed space of `input [`; a name accepted there (by the Enter
    # after the `[`) would make `input input [ ... ]`.
    assert complete('name: "m"\ninput |', schema, typed=True) == []
    assert complete('name: "m"\ninput  # the tensors\n|', schema) == []
    assert complete("dynamic_batching |", schema) == []
    for value in ("max_batch_size: 8", 'name: "m"', "platform: onnx", "x: -inf", "y: +1e-3"):
        assert "backend" in [item.label for item in complete(f"{value} |", schema)], value
    assert "backend" in [item.label for item in complete("input [ { } ]\n|", schema)]
