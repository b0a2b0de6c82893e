"""Error recovery: report each mistake once, put the parser back on its feet.

Where the parser refuses a token, recovery looks at the rest of that token's line and tells
apart:

* an ellipsis (``{...}``, ``[1, ...]``): content left out, reported once and skipped;
* a list with no field name before it (``reshape: {[1, -1]}``): reported at its ``[``,
  and read as the list of a field whose name is missing;
* a note in prose (``key: "TEXT"  <- must match the tokenizer``): reported once, with a fix
  that makes it a comment, and skipped to the end of the line, as if it were that comment;
* anything else: the parser reports what it expected there, then either inserts the one
  token that lets parsing go on (a missing ``:``, ``,``, closing delimiter or value) or drops
  the offending token. Stray characters are reported and skipped (with a missing value where
  one was expected).

At the end of the input whatever is still open is closed. Each step looks at most
:data:`_WINDOW` tokens ahead and costs the same however long or deeply nested the input is.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Sequence
from itertools import chain, islice

from tritonlint.diagnostics import Applicability, Fix, TextEdit
from tritonlint.span import Span
from tritonlint.syntax.cst import Token
from tritonlint.syntax.lalr import LalrParser
from tritonlint.syntax.lexer import STRAY
from tritonlint.syntax.problems import SyntaxProblem
from tritonlint.syntax.prose import ellipsis_length, looks_like_prose, starts_with_note_marker
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

#: How many tokens of the rest of a line recovery reads ahead to judge a mistake.
_WINDOW = 64


def _point(at: Span) -> Span:
    """The empty span where ``at`` starts."""
    return Span.point(at.line, at.column, at.start)


def _missing(kind: str, at: Span) -> Token:
    """A zero-width token of ``kind`` where ``at`` starts, that is not in the text."""
    return Token(kind, "", _point(at), missing=True)


def _expected_names(kinds: set[str]) -> tuple[str, ...]:
    return tuple(sorted({_TERMINAL_NAMES[kind] for kind in kinds if kind in _TERMINAL_NAMES}))


class Recovery:
    """Recovers one parse from its syntax errors, reporting at most ``limit`` of them."""

    def __init__(self, parser: LalrParser, tokens: Iterator[Token], limit: int) -> None:
        self._parser = parser
        self._source = tokens
        #: Tokens read from ``tokens`` ahead of the parser, to be fed before the rest.
        self._pending: deque[Token] = deque()
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
            if token.kind == END:
                self._report_unexpected(token)
                self._close_and_end(token)
                return
            self._recover(token)
            token = self._run()

    def _run(self) -> Token | None:
        """Feed the pending tokens, then the rest of the input, until one is refused."""
        pending = iter(self._pending)
        self._pending = deque()
        refused = self._parser.run(chain(pending, self._source))
        self._pending.extend(pending)  # those after the refused one
        return refused

    def _recover(self, token: Token) -> None:
        line = self._rest_of_line(token)
        count = ellipsis_length([token, *line])
        if count:
            self._ellipsis([token, *line[: count - 1]])
        elif not self._list_without_name(token) and not self._note(token, line):
            if token.kind == STRAY:
                self._stray(token)
            else:
                self._unexpected(token)

    def _rest_of_line(self, token: Token) -> list[Token]:
        """The tokens after ``token`` on its line, up to :data:`_WINDOW` of them.

        They are read into the pending tokens (with the first one past them), not consumed.
        """
        pending, line = self._pending, token.span.line
        count = 0
        while count < _WINDOW:
            if count == len(pending):
                following = next(self._source, None)
                if following is None:
                    break
                pending.append(following)
            following = pending[count]
            if following.kind == END or following.span.line != line:
                break
            count += 1
        return list(islice(pending, count))

    def _ellipsis(self, dots: Sequence[Token]) -> None:
        """Content left out (``...``): reported and skipped, a missing value in its place."""
        first, last = dots[0], dots[-1]
        text = "".join(dot.text for dot in dots)
        self.problems.append(
            SyntaxProblem(
                f"'{text}' is a placeholder for elided content, not text format: fill in "
                "what it stands for, or remove it",
                first.span.cover(last.span),
            )
        )
        for _ in dots[1:]:
            self._pending.popleft()
        if self._value_expected():
            self._parser.feed(_missing("IDENT", first.span))

    def _list_without_name(self, token: Token) -> bool:
        """A list first in a message (``reshape: {[1, -1]}``), where a field name goes.

        The parser took the ``[`` as the start of an extension's name (``[package.ext]``);
        it is taken back and read as the list of a field with a missing name, which the
        binder passes over. After another field a ``[`` is left to the plain recovery: there
        the mistake is as likely in that field (``max_batch_size:`` with its value left out,
        then ``input [``).
        """
        parser = self._parser
        opener = parser.last_token()
        if (
            opener is None
            or opener.kind != "LBRACKET"
            or token.kind == "IDENT"
            or not parser.takes(("IDENT", "DOT"))  # only the name of an extension goes on so
        ):
            return False
        parser.retract()
        outer = parser.last_token()
        if outer is None or outer.kind not in ("LBRACE", "LANGLE"):
            parser.feed(opener)
            return False
        self.problems.append(
            SyntaxProblem(
                "expected a field name before '[': a list is the value of a field, written "
                "`name: [ ... ]`",
                opener.span,
                ("identifier",),
            )
        )
        parser.feed(_missing("IDENT", opener.span))
        self._pending.extendleft((token, opener))
        return True

    def _note(self, token: Token, line: list[Token]) -> bool:
        """A note in prose from ``token`` (or the word before it) to the end of the line.

        It is reported once and skipped, so that parsing goes on where it would had the note
        been a comment. Prose is told from mistakes in text format by its words (see
        :func:`looks_like_prose`) and by one thing more: no single token inserted or dropped
        lets the parser read the rest of the line.
        """
        parser = self._parser
        before = self._note_start(token)
        words = [before, token, *line] if before is not None else [token, *line]
        if not looks_like_prose(words) or self._one_token_repairs(token, line):
            return False
        if before is not None:
            parser.retract()
        first, last = words[0], self._skip_line(token)
        self.problems.append(
            SyntaxProblem(
                "this reads as a note, not as text format: make it a comment by starting it "
                "with '#'",
                first.span.cover(last.span),
                fixes=(
                    Fix(
                        "Make the note a comment",
                        (TextEdit(_point(first.span), "# "),),
                        Applicability.SAFE,
                    ),
                ),
            )
        )
        if self._value_expected():
            parser.feed(_missing("IDENT", first.span))
        return True

    def _note_start(self, token: Token) -> Token | None:
        """The token the parser took just before ``token`` if a note starts with it.

        That is a word the parser took as a field name (``This is a note``), or the ``<`` of
        an arrow it took as the start of a message (``name: <- the model's name``).
        """
        parser = self._parser
        previous = parser.last_token()
        if previous is None or previous.span.line != token.span.line:
            return None
        if previous.kind == "IDENT" and parser.takes(("COLON",)):
            return previous
        if previous.kind == "LANGLE" and starts_with_note_marker((previous, token)):
            return previous
        return None

    def _one_token_repairs(self, token: Token, line: list[Token]) -> bool:
        """Whether inserting one token before ``token``, or dropping it, mends ``line``."""
        parser, kinds = self._parser, [following.kind for following in line]
        return parser.takes(kinds) or any(
            parser.takes((kind, token.kind, *kinds)) for kind in _INSERTABLE
        )

    def _skip_line(self, token: Token) -> Token:
        """Drop the tokens after ``token`` on its line; returns the last one (or ``token``)."""
        pending, line = self._pending, token.span.line
        last = token
        while True:
            if not pending:
                following = next(self._source, None)
                if following is None:
                    return last
                pending.append(following)
            if pending[0].kind == END or pending[0].span.line != line:
                return last
            last = pending.popleft()

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
