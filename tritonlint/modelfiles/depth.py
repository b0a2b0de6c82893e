"""How deeply a piece of Python source nests, measured without recursion.

Python parses source nested some hundreds of levels deep (an attribute chain ``a.b.c...``, a
sum of many terms), but reading such a tree back (:func:`ast.unparse`, a recursive walk)
exhausts the interpreter's recursion limit. The readers measure the expressions they read back
first, and give what nests deeper than :data:`MAX_DEPTH` as a model file too deeply nested to
read.
"""

from __future__ import annotations

import ast

#: Levels of nesting of an expression a reader reads back: a base class ``a.b.C`` nests 3,
#: an annotation ``Dict[str, List[Tensor]]`` some 6.
MAX_DEPTH = 100


def deeper_than(node: ast.AST, limit: int = MAX_DEPTH) -> bool:
    """Whether the tree under ``node`` (``node`` itself is level 1) nests more than ``limit``
    levels deep."""
    stack = [(node, 1)]
    while stack:
        current, depth = stack.pop()
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(current))
    return False
