"""Semantic tokens: what each word of a config is, for an editor to colour.

Read from the syntax tree alone (no schema), so that a half-typed file is coloured as far as
it is written; tokens the parser inserted while recovering are left out.
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

from tritonlint.editor.context import Source, syntax_tree
from tritonlint.span import Span
from tritonlint.syntax.cst import Field, ListValue, Message, Scalar, ScalarKind, Value


class TokenType(Enum):
    FIELD = "field"
    ENUM_VALUE = "enum value"
    #: ``true`` and ``false``.
    KEYWORD = "keyword"
    STRING = "string"
    NUMBER = "number"
    COMMENT = "comment"


class SemanticToken(NamedTuple):
    span: Span
    type: TokenType


#: Identifiers that are not enum values: booleans, and the special floats.
_BOOLEANS = frozenset({"true", "false", "True", "False", "t", "f"})
_FLOATS = frozenset({"inf", "infinity", "nan"})


def semantic_tokens(source: Source) -> list[SemanticToken]:
    """Field names, enum values, booleans, strings, numbers and comments, in document order."""
    _, document = syntax_tree(source)
    found = [SemanticToken(comment.span, TokenType.COMMENT) for comment in document.comments]
    stack: list[Field | Value] = list(reversed(document.fields))
    while stack:
        node = stack.pop()
        if isinstance(node, Field):
            if not node.name.missing:
                found.append(SemanticToken(node.name.span, TokenType.FIELD))
            stack.append(node.value)
        elif isinstance(node, Message):
            stack.extend(reversed(node.fields))
        elif isinstance(node, ListValue):
            stack.extend(reversed(node.items))
        else:
            found.extend(_scalar_tokens(node))
    return sorted(found, key=lambda token: token.span.start)


def _scalar_tokens(scalar: Scalar) -> list[SemanticToken]:
    if scalar.missing:
        return []
    kind = scalar.kind
    if kind in (ScalarKind.STRING, ScalarKind.UNTERMINATED_STRING):
        # Adjacent literals ("a" "b") are one value; each is coloured where it is.
        return [SemanticToken(token.span, TokenType.STRING) for token in scalar.tokens]
    if kind is ScalarKind.NUMBER:
        return [SemanticToken(scalar.span, TokenType.NUMBER)]
    if kind is ScalarKind.IDENTIFIER:
        word = scalar.text
        if word in _BOOLEANS:
            return [SemanticToken(scalar.span, TokenType.KEYWORD)]
        if word.lstrip("-").lower() in _FLOATS:
            return [SemanticToken(scalar.span, TokenType.NUMBER)]
        return [SemanticToken(scalar.span, TokenType.ENUM_VALUE)]
    return []
