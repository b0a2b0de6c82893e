"""The text edits fixes are made of: each checked for its exact span and its result."""

from __future__ import annotations

import pytest
from helpers import apply_edits, span_of

from tritonlint.diagnostics import TextEdit
from tritonlint.edits import insert_field_after, quote, remove_fields
from tritonlint.span import Span
from tritonlint.syntax.parser import parse


def removed(text: str, *indexes: int) -> tuple[tuple[TextEdit, ...], str]:
    """The edits that remove top-level fields of ``text``, and the text they leave."""
    result = parse(text)
    assert not result.problems
    fields = result.document.fields
    edits = remove_fields(fields, set(indexes))
    return edits, apply_edits(text, edits)


def test_removing_a_field_takes_the_line_break_before_it() -> None:
    text = 'platform: "ensemble"\ninstance_group [ { count: 1 } ]\nmax_batch_size: 0\n'
    edits, result = removed(text, 1)
    assert edits == (TextEdit(Span(1, 21, 2, 32, 20, 52), ""),)
    assert result == 'platform: "ensemble"\nmax_batch_size: 0\n'


def test_removing_the_first_field_takes_the_space_up_to_the_next() -> None:
    text = "# header\ninstance_group { count: 1 }\n\nmax_batch_size: 0\n"
    edits, result = removed(text, 0)
    assert edits == (TextEdit(Span(2, 1, 4, 1, 9, 38), ""),)
    assert result == "# header\nmax_batch_size: 0\n"


def test_removing_the_only_field_leaves_the_rest_of_the_text() -> None:
    edits, result = removed("  instance_group { }  # two\n", 0)
    assert edits == (TextEdit(Span(1, 3, 1, 28, 2, 27), ""),)
    assert result == "  \n"


def test_a_removed_field_takes_its_trailing_comment_and_keeps_the_one_above() -> None:
    text = "a: 1  # one\n# about b\nb: 2  # two\nc: 3\n"
    edits, result = removed(text, 1)
    assert edits == (TextEdit(Span(2, 10, 3, 12, 21, 33), ""),)
    assert result == "a: 1  # one\n# about b\nc: 3\n"


def test_a_removed_field_takes_the_comments_inside_its_list() -> None:
    """A comment inside the list is among the field's leading comments, but not above it."""
    text = "a: 1\n# about b\nb [\n  # in the list\n  { c: 2 }\n]\nd: 3\n"
    _, result = removed(text, 1)
    assert result == "a: 1\n# about b\nd: 3\n"


def test_removing_the_first_field_stops_before_the_next_when_a_comment_is_inside_it() -> None:
    text = "a: 1\nb [\n  # in the list\n  { c: 2 }\n]\n"
    _, result = removed(text, 0)
    assert result == "b [\n  # in the list\n  { c: 2 }\n]\n"


def test_removing_a_field_keeps_windows_line_endings() -> None:
    edits, result = removed("a: 1\r\nb: 2  # two\r\nc: 3\r\n", 1)
    assert edits == (TextEdit(Span(1, 5, 2, 12, 4, 17), ""),)
    assert result == "a: 1\r\nc: 3\r\n"


def test_removing_a_field_among_others_on_its_line() -> None:
    edits, result = removed("a: 1 b: 2 c: 3\n", 1)
    assert edits == (TextEdit(Span(1, 5, 1, 10, 4, 9), ""),)
    assert result == "a: 1 c: 3\n"


def test_adjacent_fields_are_removed_by_one_edit() -> None:
    text = "a: 1\nb: 2\nb: 3\nc: 4\nb: 5\n"
    edits, result = removed(text, 1, 2, 4)
    assert edits == (
        TextEdit(Span(1, 5, 3, 5, 4, 14), ""),
        TextEdit(Span(4, 5, 5, 5, 19, 24), ""),
    )
    assert result == "a: 1\nc: 4\n"


def test_a_field_goes_on_a_line_of_its_own_below_a_field_alone_on_its_line() -> None:
    text = 'step {\n    model_name: "a"  # the classifier\n    input_map { }\n}\n'
    after = span_of(text, text.index("model_name"), text.index('"a"') + 3)
    edit = insert_field_after(text, after, "model_version: -1")
    assert edit == TextEdit(Span(2, 38, 2, 38, 44, 44), "\n    model_version: -1")
    assert apply_edits(text, [edit]) == (
        'step {\n    model_name: "a"  # the classifier\n    model_version: -1\n'
        "    input_map { }\n}\n"
    )


def test_a_field_follows_on_the_same_line_when_others_share_it() -> None:
    text = 'step [ { model_name: "a" input_map { } } ]\n'
    after = span_of(text, text.index("model_name"), text.index('"a"') + 3)
    edit = insert_field_after(text, after, "model_version: -1")
    assert edit == TextEdit(Span(1, 25, 1, 25, 24, 24), " model_version: -1")


def test_inserting_keeps_windows_line_endings() -> None:
    text = 'step {\r\n  model_name: "a"\r\n}'
    after = span_of(text, text.index("model_name"), text.index('"a"') + 3)
    edit = insert_field_after(text, after, "model_version: -1")
    assert edit == TextEdit(Span(2, 18, 2, 18, 25, 25), "\r\n  model_version: -1")
    assert apply_edits(text, [edit]) == 'step {\r\n  model_name: "a"\r\n  model_version: -1\r\n}'


@pytest.mark.parametrize(
    ("value", "literal"),
    [
        ("resnet", '"resnet"'),
        ('say "hi"', '"say \\"hi\\""'),
        ("naïve", '"naïve"'),
        ("a\nb", '"a\\nb"'),
    ],
)
def test_quote_writes_a_text_format_string(value: str, literal: str) -> None:
    assert quote(value) == literal


def test_quote_refuses_text_that_is_not_unicode() -> None:
    assert quote("caf\udce9") is None
