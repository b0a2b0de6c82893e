"""Error recovery: report each unexpected token or character, put the parser back on its feet.

On an unexpected token the parser reports what it expected there, then either inserts the
one token that lets parsing go on (a missing ``:``, ``,``, closing delimiter or value) or
drops the offending token, and carries on. Stray characters are reported and skipped (with a
missing value where one was expected). At the end of the input whatever is still open is
closed. Each step costs the same however long or deeply nested the input is.
"""

from __future__ import annotations

from collections.abc import Iterator

from tritonlint.span import Span
from tritonlint.syntax.cst import Token
from tritonlint.syntax.lalr import LalrParser
from tritonlint.syntax.lexer import STRAY
from tritonlint.syntax.problems import SyntaxProblem
from tritonlint.syntax.tables import END

_TERMINAL_NAMES = {
    "COLON": "':'",
    "COMMA": "','",
    "SEMICOLON": "';'",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "LANGLE": "'<'",
    "RANGLE": "'>'",
    "LBRACKET": "'['",
    "RBRACKET": "']'",
    "SLASH": "'/'",
    "DOT": "'.'",
    "IDENT": "identifier",
    "STRING": "string",
    "UNTERMINATED_STRING": "string",
    "DEC_INT": "number",
    "OCT_INT": "number",
    "HEX_INT": "number",
    "FLOAT": "number",
    "MALFORMED_NUMBER": "number",
    END: "end of file",
}

_CLOSER_OF = {"LBRACE": "'}'", "LANGLE": "'>'", "LBRACKET": "']'"}

#: Tokens the recovery may insert before an unexpected one, in the order they are tried.
_INSERTABLE = ("COLON", "RBRACKET", "COMMA", "RBRACE", "RANGLE", "IDENT")

#: What closes the input at its end, in the order tried: what is open, then a field name
#: without a value gets ':' and a missing value.
_CLOSING = ("RBRACE", "RANGLE", "RBRACKET", "IDENT", "COLON")


def _missing(kind: str, at: Span) -> Token:
    """A zero-width token of ``kind`` where ``at`` starts, that is not in the text."""
    return Token(kind, "", Span.point(at.line, at.column, at.start), missing=True)


def _expected_names(kinds: set[str]) -> tuple[str, ...]:
    return tuple(sorted({_TERMINAL_NAMES[kind] for kind in kinds if kind in _TERMINAL_NAMES}))


class Recovery:
    """Recovers one parse from its syntax errors, reporting at most ``limit`` of them."""

    def __init__(self, parser: LalrParser, tokens: Iterator[Token], limit: int) -> None:
        self._parser = parser
        self._tokens = tokens
        self._limit = limit
        self.problems: list[SyntaxProblem] = []

    def resume(self, refused: Token) -> None:
        """Go on from ``refused``, the token the parser could not take, to the end.

        Once ``limit`` problems are reported, the rest of the input is not read: what is
        open where the next problem is found is closed, and the tree ends there.
        """
        token: Token | None = refused
        while token is not None:
            if len(self.problems) >= self._limit:
                self._close_and_end(token)
                return
            if token.kind == STRAY:
                self._stray(token)
            elif token.kind == END:
                self._report_unexpected(token)
                self._close_and_end(token)
                return
            else:
                self._unexpected(token)
            token = self._parser.run(self._tokens)

    def _stray(self, token: Token) -> None:
        plural = "s" if len(token.text) > 1 else ""
        self.problems.append(
            SyntaxProblem(f"unexpected character{plural} {token.text!r}", token.span)
        )
        if self._value_expected():
            self._parser.feed(_missing("IDENT", token.span))

    def _unexpected(self, token: Token) -> None:
        self._report_unexpected(token)
        parser = self._parser
        inserted = next((kind for kind in _INSERTABLE if parser.takes((kind, token.kind))), None)
        if inserted is not None:
            parser.feed(_missing(inserted, token.span))
            parser.feed(token)
        elif self._value_expected():
            # Complete the field with a missing value and drop the token, so that what
            # follows is read as the next field rather than as this field's value.
            parser.feed(_missing("IDENT", token.span))

    def _report_unexpected(self, token: Token) -> None:
        names = _expected_names(self._parser.expected())
        found = "end of file" if token.kind == END else repr(token.text)
        message = (
            f"expected {names[0]}, found {found}"
            if len(names) == 1
            else f"expected one of {', '.join(names)}; found {found}"
        )
        opener = self._parser.unclosed()
        if opener is not None and _CLOSER_OF[opener.kind] in names:
            message += (
                f" (the '{opener.text}' at line {opener.span.line}, column "
                f"{opener.span.column} is not closed)"
            )
        self.problems.append(SyntaxProblem(message, token.span, names))

    def _value_expected(self) -> bool:
        """Whether the parser waits for a value (after ':' or in a list), not for more text.

        A number is the probe: a string would also be accepted right after another string,
        which adjacent literals continue.
        """
        return self._parser.takes(("DEC_INT",))

    def _close_and_end(self, at: Token) -> None:
        """Close whatever is open with missing tokens where ``at`` is, then end the input.

        The first of :data:`_CLOSING` the parser takes always leads to the end; were none
        taken, the parse would end without a tree.
        """
        parser = self._parser
        while not parser.takes((END,)):
            kind = next((kind for kind in _CLOSING if parser.takes((kind,))), None)
            if kind is None:
                return
            parser.feed(_missing(kind, at.span))
        parser.feed(_missing(END, at.span))
