"""Build CST nodes on each reduction of the LALR parser.

A :class:`TreeBuilder` belongs to one parse: it collects the problems it finds in tokens
(unfilled template placeholders, unterminated strings) for that parse alone. The
:func:`reducers`, one per grammar rule, are shared by every parse: the parser calls them
with its tree builder and the values the rule's symbols produced.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tritonlint.span import Span
from tritonlint.stage_rules import StageRule
from tritonlint.syntax.cst import (
    Field,
    FieldName,
    ListValue,
    Message,
    Scalar,
    ScalarKind,
    SyntaxTree,
    Token,
)
from tritonlint.syntax.problems import SyntaxProblem
from tritonlint.syntax.tables import Rule

#: Called with the tree builder and the values of a rule's symbols; returns the rule's value.
Reducer = Callable[["TreeBuilder", list[Any]], Any]


class _Spliced(list[Any]):
    """The children of a helper rule (``__start_star_0`` ...), spliced into its parent's."""


def _extend(target: list[Any], children: list[Any]) -> None:
    for child in children:
        if type(child) is _Spliced:
            target.extend(child)
        else:
            target.append(child)


def _splice(_builder: TreeBuilder, children: list[Any]) -> _Spliced:
    """The value of a helper rule.

    lark makes helper rules left-recursive (``__x: item | __x item``), so the first child
    is usually the helper's value so far: it grows in place, and a list of n items costs
    O(n), not the O(n²) of copying it at each item.
    """
    if children and type(children[0]) is _Spliced:
        head: _Spliced = children[0]
        _extend(head, children[1:])
        return head
    spliced = _Spliced()
    _extend(spliced, children)
    return spliced


def _flatten(children: list[Any]) -> list[Any]:
    if not any(type(child) is _Spliced for child in children):
        return children
    flat: list[Any] = []
    _extend(flat, children)
    return flat


def _only_child(_builder: TreeBuilder, children: list[Any]) -> Any:
    return children[0]


def _reducer(rule: Rule) -> Reducer:
    """What lark's tree builder does for ``rule``, with the tree builder's method for it.

    Helper rules are spliced into their parent; a ``?rule`` alternative of one symbol is
    that symbol's value; any other rule is built by its method, with the children of the
    helper rules among its symbols spliced in.
    """
    if rule.is_helper:
        return _splice
    if rule.expand1 and len(rule.expansion) == 1:
        return _only_child
    method: Reducer = getattr(TreeBuilder, rule.builder)
    if any(symbol.startswith("_") for symbol in rule.expansion):
        return lambda builder, children: method(builder, _flatten(children))
    return method


def reducers(rules: Sequence[Rule]) -> tuple[Reducer, ...]:
    """One reducer per rule, in the order of ``rules``."""
    return tuple(_reducer(rule) for rule in rules)


class TreeBuilder:
    """Builds CST nodes for one parse, and collects the problems found in its tokens."""

    def __init__(self) -> None:
        self.problems: list[SyntaxProblem] = []

    def start(self, children: list[Field]) -> SyntaxTree:
        span = children[0].span.cover(children[-1].span) if children else Span(1, 1, 1, 1, 0, 0)
        return SyntaxTree(children, [], span)

    def _field(self, children: list[Any]) -> Field:
        name: FieldName = children[0]
        colon: Token | None = None
        separator: Token | None = None
        value: Any = None
        for child in children[1:]:
            if isinstance(child, Token):
                if child.kind == "COLON":
                    colon = child
                else:
                    separator = child
            else:
                value = child
        end = separator.span if separator else value.span
        return Field(name, colon, value, separator, name.span.cover(end))

    scalar_field = message_field = list_field = _field

    def separator(self, children: list[Token]) -> Token:
        return children[0]

    def plain_name(self, children: list[Token]) -> FieldName:
        name = children[0]
        return FieldName(name.text, name.span, missing=name.missing)

    def extension_name(self, children: list[Any]) -> FieldName:
        open_token, close_token = children[0], children[-1]
        text = "".join(
            child.text if isinstance(child, Token) else child for child in children[1:-1]
        )
        return FieldName(text, open_token.span.cover(close_token.span), is_extension=True)

    def type_name(self, children: list[Token]) -> str:
        return "".join(child.text for child in children)

    def string_value(self, children: list[Token]) -> Scalar:
        return Scalar(ScalarKind.STRING, children, children[0].span.cover(children[-1].span))

    def identifier_value(self, children: list[Token]) -> Scalar:
        return Scalar(ScalarKind.IDENTIFIER, children, children[0].span)

    def number_value(self, children: list[Token]) -> Scalar:
        return Scalar(ScalarKind.NUMBER, children, children[0].span)

    def template_placeholder(self, children: list[Token]) -> Scalar:
        token = children[0]
        self.problems.append(
            SyntaxProblem(
                f"unfilled template placeholder {token.text}: this file is a template; "
                "fill it in (e.g. with the template's fill script) before Triton reads it",
                token.span,
                kind=StageRule.TEMPLATE_PLACEHOLDER,
            )
        )
        return Scalar(ScalarKind.TEMPLATE_PLACEHOLDER, children, token.span)

    def unterminated_string(self, children: list[Token]) -> Scalar:
        token = children[0]
        self.problems.append(
            SyntaxProblem("string literal is missing its closing quote", token.span)
        )
        return Scalar(ScalarKind.UNTERMINATED_STRING, children, token.span)

    def number(self, children: list[Token]) -> Token:
        return children[0]

    def _message(self, children: list[Any]) -> Message:
        open_token, close_token = children[0], children[-1]
        return Message(
            open_token, children[1:-1], close_token, open_token.span.cover(close_token.span)
        )

    brace_message = angle_message = _message

    def list_value(self, children: list[Any]) -> ListValue:
        open_token, close_token = children[0], children[-1]
        items = [child for child in children[1:-1] if not isinstance(child, Token)]
        return ListValue(open_token, items, close_token, open_token.span.cover(close_token.span))
