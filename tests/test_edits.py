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


@pytest.mark.parametrize(
    ("text", "indexes", "edits", "result"),
    [
        pytest.param(
            'platform: "ensemble"\ninstance_group [ { count: 1 } ]\nmax_batch_size: 0\n',
            [1],
            [Span(1, 21, 2, 32, 20, 52)],
            'platform: "ensemble"\nmax_batch_size: 0\n',
            id="removing-a-field-takes-the-line-break-before-it",
        ),
        pytest.param(
            "# header\ninstance_group { count: 1 }\n\nmax_batch_size: 0\n",
            [0],
            [Span(2, 1, 4, 1, 9, 38)],
            "# header\nmax_batch_size: 0\n",
            id="removing-the-first-field-takes-the-space-up-to-the-next",
        ),
        pytest.param(
            "  instance_group { }  # two\n",
            [0],
            [Span(1, 3, 1, 28, 2, 27)],
            "  \n",
            id="removing-the-only-field-leaves-the-rest-of-the-text",
        ),
        pytest.param(
            "a: 1  # one\n# about b\nb: 2  # two\nc: 3\n",
            [1],
            [Span(2, 10, 3, 12, 21, 33)],
            "a: 1  # one\n# about b\nc: 3\n",
            id="a-removed-field-takes-its-trailing-comment-and-keeps-the-one-above",
        ),
        pytest.param(
            "a: 1\r\nb: 2  # two\r\nc: 3\r\n",
            [1],
            [Span(1, 5, 2, 12, 4, 17)],
            "a: 1\r\nc: 3\r\n",
            id="removing-a-field-keeps-windows-line-endings",
        ),
        pytest.param(
            "a: 1 b: 2 c: 3\n",
            [1],
            [Span(1, 5, 1, 10, 4, 9)],
            "a: 1 c: 3\n",
            id="removing-a-field-among-others-on-its-line",
        ),
        pytest.param(
            "a: 1\nb: 2\nb: 3\nc: 4\nb: 5\n",
            [1, 2, 4],
            [Span(1, 5, 3, 5, 4, 14), Span(4, 5, 5, 5, 19, 24)],
            "a: 1\nc: 4\n",
            id="adjacent-fields-are-removed-by-one-edit",
        ),
    ],
)
def test_removing_fields(text: str, indexes: list[int], edits: list[Span], result: str) -> None:
    """The edits that remove the fields (each empties a span), and the text they leave."""
    assert removed(text, *indexes) == (tuple(TextEdit(span, "") for span in edits), result)


@pytest.mark.parametrize(
    ("text", "index", "result"),
    [
        # A comment inside the list is among the field's leading comments, but not above it.
        pytest.param(
            "a: 1\n# about b\nb [\n  # in the list\n  { c: 2 }\n]\nd: 3\n",
            1,
            "a: 1\n# about b\nd: 3\n",
            id="a-removed-field-takes-the-comments-inside-its-list",
        ),
        pytest.param(
            "a: 1\nb [\n  # in the list\n  { c: 2 }\n]\n",
            0,
            "b [\n  # in the list\n  { c: 2 }\n]\n",
            id="removing-the-first-field-stops-before-the-next-when-a-comment-is-inside-it",
        ),
    ],
)
def test_removing_a_field_with_a_comment_inside_its_list(
    text: str, index: int, result: str
) -> None:
    assert removed(text, index)[1] == result


def inserted_after_model_name(text: str) -> TextEdit:
    """The edit that inserts ``model_version: -1`` after the ``model_name`` field of ``text``."""
    after = span_of(text, text.index("model_name"), text.index('"a"') + 3)
    return insert_field_after(text, after, "model_version: -1")


def test_a_field_goes_on_a_line_of_its_own_below_a_field_alone_on_its_line() -> None:
    text = 'step {\n    model_name: "a"  # the classifier\n    input_map { }\n}\n'
    edit = inserted_after_model_name(text)
    assert edit == TextEdit(Span(2, 38, 2, 38, 44, 44), "\n    model_version: -1")
    assert apply_edits(text, [edit]) == (
        'step {\n    model_name: "a"  # the classifier\n    model_version: -1\n'
        "    input_map { }\n}\n"
    )


def test_a_field_follows_on_the_same_line_when_others_share_it() -> None:
    text = 'step [ { model_name: "a" input_map { } } ]\n'
    edit = inserted_after_model_name(text)
    assert edit == TextEdit(Span(1, 25, 1, 25, 24, 24), " model_version: -1")


def test_inserting_keeps_windows_line_endings() -> None:
    text = 'step {\r\n  model_name: "a"\r\n}'
    edit = inserted_after_model_name(text)
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
