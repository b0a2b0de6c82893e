"""What the syntax stage reports."""

from __future__ import annotations

from typing import NamedTuple

from tritonlint.diagnostics import Fix
from tritonlint.span import Span
from tritonlint.stage_rules import StageRule


class SyntaxProblem(NamedTuple):
    """A syntax error: where, and what the parser expected there."""

    message: str
    span: Span
    expected: tuple[str, ...] = ()
    #: The rule that reports it: a plain syntax error unless the text is recognisably
    #: something else (an unfilled template placeholder).
    kind: StageRule = StageRule.SYNTAX_ERROR
    #: Edits of the file that resolve it.
    fixes: tuple[Fix, ...] = ()
