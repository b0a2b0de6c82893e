"""Whether a rewritten config is worse than the text it was made from.

``check --fix`` and ``format`` both rewrite files, and neither may write a text that reads
worse than the one it started from: a new syntax error (the parser's, or a ``:`` the binder
finds missing before a scalar value), or a non-repeated field (or a second member of a oneof)
given twice where it was given once. Two judges say so: the project's own parser and binder,
which read any text, and protobuf's ``text_format.Parse`` against the ModelConfig descriptor,
which has the last word on what the server reads: when it reads the original, it must read
the rewritten text too.
"""

from __future__ import annotations

import warnings
from collections import Counter
from typing import TYPE_CHECKING

from google.protobuf.message import Message

from tritonlint.stage_rules import StageRule

if TYPE_CHECKING:
    from tritonlint.document import ConfigDocument, FileProblem
    from tritonlint.schema.releases import Schema

#: The problems a rewrite may not add, by kind: the parser's, which leave the text's structure
#: uncertain (syntax); and those of the binder that protobuf's parser refuses a text for,
#: besides a ``:`` missing before a scalar (a syntax error): a non-repeated field given twice
#: (a second value that replaces a default is given twice as well, though protobuf lets it
#: by), and two members of a oneof.
_KINDS = {
    StageRule.SYNTAX_ERROR: "syntax",
    StageRule.TEMPLATE_PLACEHOLDER: "syntax",
    StageRule.JSON_CONFIG: "syntax",
    StageRule.PYTHON_SOURCE: "syntax",
    StageRule.DUPLICATE_FIELD: "twice",
    StageRule.OVERRIDDEN_FIELD: "twice",
    StageRule.ONEOF_CONFLICT: "oneof",
}


def breakage_kind(problem: FileProblem) -> str | None:
    """``syntax``, ``twice`` or ``oneof`` for a problem a rewrite may not add; else None."""
    return _KINDS.get(problem.rule)


def new_breakage(
    before: ConfigDocument, after: ConfigDocument, what: str = "the new text"
) -> str | None:
    """What ``after`` (``what``, in the message) breaks that ``before`` did not, in words, or
    None.

    The problems are counted kind by kind: syntax errors (the parser's, and a ``:`` the
    binder finds missing), non-repeated fields given twice (whether or not the first value
    is a default: a fix that makes a bad first value good turns one into the other), oneofs
    given two members. A rewrite may resolve a problem of a kind, never add one.
    """
    old = Counter(breakage_kind(problem) for problem in before.problems)
    new = Counter(breakage_kind(problem) for problem in after.problems)
    for problem in after.problems:
        kind = breakage_kind(problem)
        if kind is not None and new[kind] > old[kind]:
            where = f"{problem.span.line}:{problem.span.column}: " if problem.span else ""
            if kind == "syntax":
                return f"{what} would not parse ({where}{problem.message})"
            return f"{what} would give a field twice ({where}{problem.message})"
    return None


def protobuf_reads(text: str, schema: Schema) -> Message | None:
    """The ModelConfig protobuf's own text-format parser reads from ``text``, or None when it
    refuses the text (for whatever reason)."""
    from google.protobuf import text_format

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # invalid escapes, read the same way every time
        try:
            return text_format.Parse(text, schema.new_config())
        except Exception:  # a mistake protobuf refuses, or a recursion too deep
            return None


def protobuf_refusal(
    before: str, after: str, schema: Schema, what: str = "the new text"
) -> str | None:
    """Why protobuf reads ``before`` but refuses ``after`` (``what``), or None."""
    if protobuf_reads(before, schema) is None:
        return None
    from google.protobuf import text_format

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            text_format.Parse(after, schema.new_config())
        except text_format.ParseError as error:
            return f"protobuf would not read {what} ({error})"
        except Exception as error:  # a recursion too deep, say: a refusal all the same
            return f"protobuf would not read {what} ({type(error).__name__})"
    return None
