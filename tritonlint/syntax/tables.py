"""The LALR(1) tables of the text-format grammar, as shipped in ``grammar/pbtxt.tables.json``.

``scripts/build_parser_tables.py`` derives the file from ``grammar/pbtxt.lark`` with lark;
reading it here needs neither lark nor a grammar analysis, so the first parse of a process
costs a JSON read and one regular expression compile. The tables are loaded once, on the
first parse, and never change: every parse, in any thread, shares them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from tritonlint.resources import data_path

#: The end of the input, as the tables name it.
END = "$END"

#: The terminals the tokenizer handles itself: whitespace separates tokens, comments are kept
#: apart from them.
WHITESPACE, COMMENT = "WHITESPACE", "COMMENT"


class Rule(NamedTuple):
    #: The rule's name; names starting with ``_`` are helper rules lark made for ``*``/``+``.
    origin: str
    #: The symbols of this alternative.
    expansion: tuple[str, ...]
    #: The tree builder's method for it: the alternative's alias, or the rule's name.
    builder: str
    #: A ``?rule``: an alternative with one child is that child, not a node of its own.
    expand1: bool

    @property
    def is_helper(self) -> bool:
        return self.origin.startswith("_")


#: What to do with the next token in a state: ``(True, state)`` to shift it and go to that
#: state, ``(False, (length, origin, rule number))`` to reduce by a rule first.
Action = tuple[bool, Any]


class ParseTables(NamedTuple):
    #: Terminal names and regular expressions, in the order the lexer tries them.
    terminals: tuple[tuple[str, str], ...]
    rules: tuple[Rule, ...]
    #: For each state: terminal → action.
    actions: tuple[Mapping[str, Action], ...]
    #: For each state: rule name → the state after a reduction to that rule.
    gotos: tuple[Mapping[str, int], ...]
    start: int
    #: The state in which the whole input has been read.
    end: int


def _action(code: int, rules: tuple[Rule, ...]) -> Action:
    if code >= 0:
        return (True, code)
    rule = rules[~code]
    return (False, (len(rule.expansion), rule.origin, ~code))


@lru_cache(maxsize=1)
def load_tables() -> ParseTables:
    raw = json.loads((data_path("grammar") / "pbtxt.tables.json").read_text(encoding="utf-8"))
    rules = tuple(
        Rule(origin, tuple(expansion), builder, expand1)
        for origin, expansion, builder, expand1 in raw["rules"]
    )
    return ParseTables(
        terminals=tuple((name, pattern) for name, pattern in raw["terminals"]),
        rules=rules,
        actions=tuple(
            {terminal: _action(code, rules) for terminal, code in row.items()}
            for row in raw["actions"]
        ),
        gotos=tuple(raw["gotos"]),
        start=raw["start"],
        end=raw["end"],
    )


@lru_cache(maxsize=1)
def token_pattern() -> re.Pattern[str]:
    """One expression for every token: whitespace to skip, then the first terminal that matches.

    Whitespace is skipped as a prefix of each match rather than as a token of its own; each
    terminal is a named group, so ``lastgroup`` names the token's kind.
    """
    alternatives = [
        f"(?P<{name}>{pattern})" for name, pattern in load_tables().terminals if name != WHITESPACE
    ]
    return re.compile(r"\s*(?:" + "|".join(alternatives) + ")")
