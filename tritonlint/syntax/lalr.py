"""The LALR(1) automaton of the grammar, run over a stream of tokens.

The loop is lark's own (the same tables, the same reductions, the same tree), without its
per-token bookkeeping. It stops at the first token the tables refuse, and goes on with the
tokens after it once the caller has put things right: that is how error recovery works
(``tritonlint.syntax.recovery``). Recovery also asks what the parser would do with some
tokens without doing it; :meth:`LalrParser.takes` answers from the state stack alone, in
time that does not depend on how deep the stack is.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from tritonlint.syntax.builder import Reducer, TreeBuilder
from tritonlint.syntax.cst import SyntaxTree, Token
from tritonlint.syntax.tables import END, ParseTables

_OPENERS = frozenset({"LBRACE", "LANGLE", "LBRACKET"})
_CLOSERS = frozenset({"RBRACE", "RANGLE", "RBRACKET"})


class LalrParser:
    """One parse: the state and value stacks, fed token by token."""

    def __init__(
        self, tables: ParseTables, reducers: Sequence[Reducer], builder: TreeBuilder
    ) -> None:
        self._actions = tables.actions
        self._gotos = tables.gotos
        self._end = tables.end
        self._reducers = reducers
        self._builder = builder
        self._states: list[int] = [tables.start]
        self._values: list[Any] = []
        #: The tree, once the end of the input has been accepted.
        self.result: SyntaxTree | None = None

    def run(self, tokens: Iterator[Token]) -> Token | None:
        """Feed tokens from ``tokens`` in turn, until one cannot come where it comes.

        Returns that token (the reductions it called for are done; the next token is the
        one after it), or None once every token was taken. Taking :data:`END` accepts the
        input, and the tree is then :attr:`result`.
        """
        actions, gotos, reducers, end = self._actions, self._gotos, self._reducers, self._end
        builder, states, values = self._builder, self._states, self._values
        for token in tokens:
            kind = token.kind
            while True:
                try:
                    shift, argument = actions[states[-1]][kind]
                except KeyError:
                    return token
                if shift:
                    states.append(argument)
                    values.append(token)
                    break
                size, origin, rule = argument
                if size:
                    children = values[-size:]
                    del states[-size:]
                    del values[-size:]
                else:
                    children = []
                values.append(reducers[rule](builder, children))
                states.append(gotos[states[-1]][origin])
                if states[-1] == end and kind == END:
                    self.result = values[-1]
                    return None
        return None

    def feed(self, token: Token) -> bool:
        """Feed one token; whether the tables took it."""
        return self.run(iter((token,))) is None

    def takes(self, kinds: Sequence[str]) -> bool:
        """Whether the parser would take tokens of these kinds in turn; it is left as it was.

        The reductions are played on a few states stacked over the real stack rather than on
        a copy of it. Nesting only ever grows through tokens that open a message or list, so
        a token pops at most a few states and the answer costs the same at any depth.
        """
        actions, gotos = self._actions, self._gotos
        below = len(self._states)  # how much of the real stack is still under ``above``
        above: list[int] = []
        for kind in kinds:
            while True:
                action = actions[above[-1] if above else self._states[below - 1]].get(kind)
                if action is None:
                    return False
                shift, argument = action
                if shift:
                    above.append(argument)
                    break
                size, origin, _ = argument
                popped = min(size, len(above))
                del above[len(above) - popped :]
                below -= size - popped
                target = gotos[above[-1] if above else self._states[below - 1]][origin]
                if target == self._end and kind == END:
                    return True
                above.append(target)
        return True

    def last_token(self) -> Token | None:
        """The token on top of the value stack: the last one fed, until a rule takes it in."""
        top = self._values[-1] if self._values else None
        return top if isinstance(top, Token) else None

    def retract(self) -> Token:
        """Take back :meth:`last_token`, as if it had never been fed.

        Shifting a token pushes one state and one value and changes nothing below them (a
        rule of one token that passes it on as its value swaps the state for another), so
        popping both puts the parser back where it was before the token.
        """
        token = self._values.pop()
        assert isinstance(token, Token), token
        self._states.pop()
        return token

    def expected(self) -> set[str]:
        """The kinds of token the parser would take next."""
        return {kind for kind in self._actions[self._states[-1]] if self.takes((kind,))}

    def unclosed(self) -> Token | None:
        """The innermost opening delimiter still waiting for its closing one.

        A closed message or list is reduced to one value as soon as the token after it is
        read, so the search back from the top of the stack meets the innermost opening
        delimiter within a few values (or the bottom of the stack, outside of any).
        """
        closed = 0
        for value in reversed(self._values):
            if not isinstance(value, Token):
                continue
            if value.kind in _CLOSERS:
                closed += 1
            elif value.kind in _OPENERS:
                if not closed:
                    return value
                closed -= 1
        return None
