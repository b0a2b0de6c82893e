#!/usr/bin/env python3
"""Derive ``grammar/pbtxt.tables.json`` from ``grammar/pbtxt.lark``.

The parser (``tritonlint/syntax/``) drives lark's LALR(1) tables for the grammar itself,
without importing lark: building the tables takes lark longer than parsing a whole
repository, and importing lark alone costs more than the parse of a typical file. This
script asks lark for what the parser needs and writes it as JSON:

* ``terminals``: ``[name, regular expression]`` in the order lark's lexer tries them (the
  first that matches wins);
* ``rules``: ``[origin, expansion (its symbols), name of the tree builder's method (the
  rule's alias, or its origin), expand1]`` (``expand1``: a ``?rule`` with one child is
  that child);
* ``actions``: for each state, terminal → a state to shift to (``>= 0``) or ``~rule``, the
  rule to reduce by (``< 0``);
* ``gotos``: for each state, rule origin → the state after reducing to it;
* ``start`` and ``end``: the states the parse starts in and accepts in.

lark numbers its states in an order that changes from one run to the next (it depends on
string hashing); here they are numbered breadth-first from the start state, following
symbols in sorted order, so that the same grammar always gives the same file.

Usage: python scripts/build_parser_tables.py [--check]   (--check: fail when stale)
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import deque
from pathlib import Path
from typing import Any

from lark import Lark
from lark.grammar import Rule
from lark.parsers.lalr_analysis import Shift

ROOT = Path(__file__).resolve().parents[1]
#: The terminals the grammar ignores, which the tokenizer knows by name: it skips whitespace
#: and keeps comments apart.
IGNORED = {"COMMENT", "WHITESPACE"}
GRAMMAR = ROOT / "grammar" / "pbtxt.lark"
TABLES = ROOT / "grammar" / "pbtxt.tables.json"


def _lexer_order(lark: Lark) -> list[list[str]]:
    """Terminals in the order lark's basic lexer tries them."""
    ordered = sorted(
        lark.terminals,
        key=lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name),
    )
    return [[t.name, t.pattern.to_regexp()] for t in ordered]


def _canonical_states(states: dict[int, dict[str, tuple[Any, Any]]], start: int) -> dict[int, int]:
    """lark's state number → its number in breadth-first order from ``start``."""
    numbers = {start: 0}
    queue = deque([start])
    while queue:
        row = states[queue.popleft()]
        for symbol in sorted(row):
            action, argument = row[symbol]
            if action is Shift and argument not in numbers:
                numbers[argument] = len(numbers)
                queue.append(argument)
    return numbers


def build_tables(grammar: str) -> str:
    """The JSON text of the tables for ``grammar`` (always the same for the same grammar)."""
    lark = Lark(grammar, parser="lalr", lexer="basic", cache=False)
    if set(lark.ignore_tokens) != IGNORED:
        raise ValueError(f"the grammar must %ignore exactly {sorted(IGNORED)}")
    table = lark.parser.parser.parser.parse_table
    rules: list[Rule] = list(lark.rules)
    rule_numbers = {id(rule): number for number, rule in enumerate(rules)}
    numbers = _canonical_states(table.states, table.start_states["start"])
    actions: list[dict[str, int]] = [{} for _ in numbers]
    gotos: list[dict[str, int]] = [{} for _ in numbers]
    for state, row in table.states.items():
        for symbol, (action, argument) in sorted(row.items()):
            if symbol.isupper():
                shift = action is Shift
                target = numbers[argument] if shift else ~rule_numbers[id(argument)]
                actions[numbers[state]][symbol] = target
            else:
                gotos[numbers[state]][symbol] = numbers[argument]
    tables = {
        "terminals": _lexer_order(lark),
        "rules": [
            [
                rule.origin.name,
                [symbol.name for symbol in rule.expansion],
                rule.alias or rule.origin.name,
                bool(rule.options.expand1),
            ]
            for rule in rules
        ],
        "start": numbers[table.start_states["start"]],
        "end": numbers[table.end_states["start"]],
        "actions": actions,
        "gotos": gotos,
    }
    return _render(tables)


def _render(tables: dict[str, Any]) -> str:
    """JSON with one terminal, rule or state per line, so that a change reads as a small diff."""
    lines = ["{"]
    for position, (key, value) in enumerate(tables.items()):
        comma = "," if position < len(tables) - 1 else ""
        if isinstance(value, list) and value and isinstance(value[0], list | dict):
            items = [json.dumps(item, separators=(",", ":")) for item in value]
            body = ",\n    ".join(items)
            lines.append(f'  "{key}": [\n    {body}\n  ]{comma}')
        else:
            lines.append(f'  "{key}": {json.dumps(value)}{comma}')
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the tables are stale")
    args = parser.parse_args()
    built = build_tables(GRAMMAR.read_text(encoding="utf-8"))
    if args.check:
        if TABLES.read_text(encoding="utf-8") != built:
            print(f"{TABLES} is stale: run {Path(__file__).name}", file=sys.stderr)
            return 1
        return 0
    TABLES.write_text(built, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
