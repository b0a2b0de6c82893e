"""A fast way through lark's LALR tables for files without syntax errors.

Most files parse cleanly. For them, tokens come from one compiled regular expression built
from the grammar's own terminals (in the order lark's lexer tries them), and are fed to the
same LALR(1) tables and tree-building callbacks lark uses, in a loop without lark's
per-token bookkeeping. The resulting tree is identical. On the first unexpected character
or token the fast path gives up (:class:`NotFast`), and the caller parses the file again
with lark itself, whose error recovery reports every problem.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from lark import Lark
from lark.parsers.lalr_analysis import Shift

from tritonlint.span import Span
from tritonlint.syntax.cst import Comment, Token


class NotFast(Exception):
    """The input has a syntax error: parse it with lark's error recovery instead."""


class _Spliced(list[Any]):
    """The children of a helper rule (``__start_star_0`` ...), spliced into its parent's."""


def _flatten(children: list[Any]) -> list[Any]:
    if not any(type(child) is _Spliced for child in children):
        return children
    flat: list[Any] = []
    for child in children:
        if type(child) is _Spliced:
            flat.extend(child)
        else:
            flat.append(child)
    return flat


def _callback(rule: Any, builder: Any) -> Callable[[list[Any]], Any]:
    """What lark's tree builder does for ``rule``, calling the tree builder's method directly.

    Helper rules that lark generates for repetitions are spliced into their parent; a ``?``
    rule with one child is that child; otherwise the method named by the rule's alias (or
    the rule itself) builds the node.
    """
    origin = str(rule.origin.name)
    # Only a rule with a helper rule among its symbols can receive children to splice.
    splices = any(str(symbol.name).startswith("_") for symbol in rule.expansion)
    if origin.startswith("_"):
        if splices:
            return lambda children: _Spliced(_flatten(children))
        return _Spliced
    name = rule.alias or origin
    method = getattr(builder, name, None) or (
        lambda children: builder.__default__(name, children, None)
    )
    if rule.options.expand1:
        return lambda children: children[0] if len(children) == 1 else method(_flatten(children))
    if splices:
        return lambda children: method(_flatten(children))
    return method


class FastParser:
    def __init__(self, lark: Lark) -> None:
        ordered = sorted(
            lark.terminals,
            key=lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name),
        )
        # Whitespace is skipped as a prefix of each match rather than as a token of its own.
        alternatives = [
            f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in ordered if t.name != "WHITESPACE"
        ]
        self._token_re = re.compile(r"\s*(?:" + "|".join(alternatives) + ")")
        self._trailing_space = re.compile(r"\s*\Z")
        table = lark.parser.parser.parser.parse_table
        callbacks = {rule: _callback(rule, lark.options.transformer) for rule in lark.rules}
        # Plain tables: (True, next state) to shift, (False, (size, goto symbol, callback))
        # to reduce. Plain ``str`` keys hash and compare faster than lark's symbol objects.
        self._states: dict[int, dict[str, tuple[bool, Any]]] = {
            state: {
                str(symbol): (
                    (True, argument)
                    if action is Shift
                    else (
                        False,
                        (len(argument.expansion), str(argument.origin.name), callbacks[argument]),
                    )
                )
                for symbol, (action, argument) in row.items()
            }
            for state, row in table.states.items()
        }
        self._start: int = table.start_states["start"]
        self._end: int = table.end_states["start"]

    def _tokens(self, text: str, comments: list[Comment]) -> tuple[list[str], list[Token]]:
        """Token kinds, and the tokens themselves (built directly as CST tokens).

        No token of the grammar spans lines (strings and comments end at a newline), so
        lines are counted only in the whitespace skipped before each token.
        """
        kinds: list[str] = []
        tokens: list[Token] = []
        match = self._token_re.match
        count = text.count
        make_span = tuple.__new__
        position, line, line_start = 0, 1, 0
        size = self._trailing_space.search(text).start()  # type: ignore[union-attr]
        while position < size:
            found = match(text, position)
            if found is None:
                raise NotFast
            kind: str = found.lastgroup  # type: ignore[assignment]
            start = found.start(kind)
            if start != position:  # whitespace skipped before the token
                newlines = count("\n", position, start)
                if newlines:
                    line += newlines
                    line_start = text.rfind("\n", position, start) + 1
            end = found.end()
            span = make_span(
                Span, (line, start - line_start + 1, line, end - line_start + 1, start, end)
            )
            if kind == "COMMENT":
                comments.append(Comment(text[start:end], span))
            else:
                kinds.append(kind)
                tokens.append(Token(kind, text[start:end], span))
            position = end
        kinds.append("$END")
        return kinds, tokens

    def parse(self, text: str, comments: list[Comment]) -> Any:
        """The tree lark would build; raises NotFast on a syntax error."""
        states, end_state = self._states, self._end
        state_stack = [self._start]
        value_stack: list[Any] = []
        kinds, tokens = self._tokens(text, comments)
        for index, kind in enumerate(kinds):
            while True:
                try:
                    shift, argument = states[state_stack[-1]][kind]
                except KeyError:
                    raise NotFast from None
                if shift:
                    state_stack.append(argument)
                    value_stack.append(tokens[index])
                    break
                size, goto, callback = argument
                if size:
                    children = value_stack[-size:]
                    del state_stack[-size:]
                    del value_stack[-size:]
                else:
                    children = []
                value_stack.append(callback(children))
                state_stack.append(states[state_stack[-1]][goto][1])
                if state_stack[-1] == end_state and kind == "$END":
                    return value_stack[-1]
        raise NotFast
