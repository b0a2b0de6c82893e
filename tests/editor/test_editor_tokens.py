"""Semantic tokens: field names, enum values, booleans, strings, numbers and comments."""

from __future__ import annotations

from tritonlint.editor.tokens import SemanticToken, TokenType, semantic_tokens
from tritonlint.span import Span


def _words(text: str) -> list[tuple[str, str]]:
    return [
        (token.type.value, text[token.span.start : token.span.end])
        for token in semantic_tokens(text)
    ]


def test_each_kind_of_word_with_its_span() -> None:
    text = '# top\nname: "a" "b"  # tail\ninput { data_type: TYPE_FP32 dims: [ -1 ] }\n'
    assert semantic_tokens(text) == [
        SemanticToken(Span(1, 1, 1, 6, 0, 5), TokenType.COMMENT),
        SemanticToken(Span(2, 1, 2, 5, 6, 10), TokenType.FIELD),
        SemanticToken(Span(2, 7, 2, 10, 12, 15), TokenType.STRING),
        SemanticToken(Span(2, 11, 2, 14, 16, 19), TokenType.STRING),
        SemanticToken(Span(2, 16, 2, 22, 21, 27), TokenType.COMMENT),
        SemanticToken(Span(3, 1, 3, 6, 28, 33), TokenType.FIELD),
        SemanticToken(Span(3, 9, 3, 18, 36, 45), TokenType.FIELD),
        SemanticToken(Span(3, 20, 3, 29, 47, 56), TokenType.ENUM_VALUE),
        SemanticToken(Span(3, 30, 3, 34, 57, 61), TokenType.FIELD),
        SemanticToken(Span(3, 38, 3, 40, 65, 67), TokenType.NUMBER),
    ]


def test_booleans_special_floats_and_nested_maps() -> None:
    text = (
        "input [ { allow_ragged_batch: true is_shape_tensor: False } ]\n"
        "parameters { key: \"k\" value { string_value: '4' } }\n"
        "optimization { x: -inf y: 1.5e3 }\n"
    )
    assert _words(text) == [
        ("field", "input"),
        ("field", "allow_ragged_batch"),
        ("keyword", "true"),
        ("field", "is_shape_tensor"),
        ("keyword", "False"),
        ("field", "parameters"),
        ("field", "key"),
        ("string", '"k"'),
        ("field", "value"),
        ("field", "string_value"),
        ("string", "'4'"),
        ("field", "optimization"),
        ("field", "x"),
        ("number", "-inf"),
        ("field", "y"),
        ("number", "1.5e3"),
    ]


def test_a_half_typed_file_has_no_tokens_for_what_the_parser_inserted() -> None:
    text = 'output { name: "unterminated\ninput { data_type: '
    assert _words(text) == [
        ("field", "output"),
        ("field", "name"),
        ("string", '"unterminated'),
        ("field", "input"),
        ("field", "data_type"),
    ]
