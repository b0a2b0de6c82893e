"""The concrete syntax tree of a text-format file: every node keeps its span, comments are kept."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import Enum
from typing import NamedTuple

from tritonlint.span import Span


class Token(NamedTuple):
    kind: str
    text: str
    span: Span
    #: True for a token the parser inserted while recovering from a syntax error.
    missing: bool = False


class Comment(NamedTuple):
    text: str
    span: Span


class ScalarKind(Enum):
    STRING = "string"
    IDENTIFIER = "identifier"
    NUMBER = "number"
    UNTERMINATED_STRING = "unterminated string"
    #: ``${name}`` left in a file by a template that was never filled in.
    TEMPLATE_PLACEHOLDER = "template placeholder"


@dataclass(slots=True)
class Scalar:
    kind: ScalarKind
    #: One token, or several adjacent string literals that are concatenated.
    tokens: list[Token]
    span: Span

    @property
    def text(self) -> str:
        return " ".join(token.text for token in self.tokens)

    @property
    def missing(self) -> bool:
        # The parser only ever inserts a lone token as a missing value.
        return self.tokens[0].missing


@dataclass(slots=True)
class Message:
    open: Token
    fields: list[Field]
    close: Token
    span: Span
    #: Comments after the last field, before the closing delimiter.
    inner_comments: list[Comment] = field(default_factory=list)


@dataclass(slots=True)
class ListValue:
    open: Token
    items: list[Scalar | Message]
    close: Token
    span: Span


Value = Scalar | Message | ListValue


class FieldName(NamedTuple):
    text: str
    span: Span
    #: ``[package.extension]`` or ``[type.googleapis.com/package.Type]``.
    is_extension: bool = False
    #: True for a name the parser inserted while recovering from a syntax error.
    missing: bool = False


@dataclass(slots=True)
class Field:
    name: FieldName
    colon: Token | None
    value: Value
    separator: Token | None
    span: Span
    leading_comments: list[Comment] = field(default_factory=list)
    trailing_comment: Comment | None = None

    def messages(self) -> Iterator[Message]:
        """The message values of this field: one, or each message of a list."""
        if isinstance(self.value, Message):
            yield self.value
        elif isinstance(self.value, ListValue):
            for item in self.value.items:
                if isinstance(item, Message):
                    yield item


@dataclass(slots=True)
class SyntaxTree:
    """A whole config file's text as parsed: its top-level fields and every comment."""

    fields: list[Field]
    comments: list[Comment]
    span: Span
    #: Comments after the last field of the file.
    trailing_comments: list[Comment] = field(default_factory=list)
