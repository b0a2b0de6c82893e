"""Text → concrete syntax tree, with the lark grammar in ``grammar/pbtxt.lark``.

The parser never stops at the first mistake: on an unexpected token it reports what was
expected and then either inserts the one token that lets parsing go on (a missing ``:``,
``,``, closing brace or value) or drops the offending token, and carries on.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar, cast

from lark import Lark, Transformer
from lark import Token as LarkToken
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from tritonlint.resources import data_path
from tritonlint.span import Span
from tritonlint.syntax.comments import attach_comments
from tritonlint.syntax.cst import (
    Comment,
    Document,
    Field,
    FieldName,
    ListValue,
    Message,
    Scalar,
    ScalarKind,
    Token,
)
from tritonlint.syntax.fast_path import FastParser, NotFast

#: A file with more syntax errors than this is not worth reading further.
MAX_SYNTAX_ERRORS = 50

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
    "$END": "end of file",
}

#: Tokens the recovery may insert, in the order they are tried.
_INSERTABLE = ("COLON", "RBRACKET", "COMMA", "RBRACE", "RANGLE")


@dataclass(frozen=True, slots=True)
class SyntaxProblem:
    """A syntax error: where, and what the parser expected there."""

    message: str
    span: Span
    expected: tuple[str, ...] = ()
    #: The rule that reports it: a plain syntax error unless the text is recognisably
    #: something else (an unfilled template placeholder).
    kind: str = "syntax-error"


@dataclass(slots=True)
class ParseResult:
    document: Document
    problems: list[SyntaxProblem]


def _span(token: LarkToken) -> Span:
    return Span(
        token.line or 1,
        token.column or 1,
        token.end_line or token.line or 1,
        token.end_column or token.column or 1,
        token.start_pos or 0,
        token.end_pos or token.start_pos or 0,
    )


class _MissingToken(LarkToken):
    """A token the recovery inserted; it has no text in the file."""


_TOKENS = (LarkToken, Token)


def _missing(kind: str, offset: int, line: int, column: int) -> _MissingToken:
    """A zero-width token of ``kind`` at a position, for the recovery to feed the parser."""
    return _MissingToken(kind, "", offset, line, column, line, column, offset)


def _token(token: LarkToken | Token) -> Token:
    """The CST token: the fast path makes them directly, lark's tokens are converted."""
    if isinstance(token, Token):
        return token
    return Token(token.type, token.value, _span(token), missing=isinstance(token, _MissingToken))


class _Builder(Transformer[LarkToken, Document]):
    """Called by the LALR parser on every reduction; builds CST nodes directly."""

    def start(self, children: list[Field]) -> Document:
        span = children[0].span.cover(children[-1].span) if children else Span(1, 1, 1, 1, 0, 0)
        return Document(children, [], span)

    def _field(self, children: list[Any]) -> Field:
        name: FieldName = children[0]
        colon: Token | None = None
        separator: Token | None = None
        value: Any = None
        for child in children[1:]:
            if isinstance(child, _TOKENS):
                token = _token(child)
                if token.kind == "COLON":
                    colon = token
                else:
                    separator = token
            else:
                value = child
        end = separator.span if separator else value.span
        return Field(name, colon, value, separator, name.span.cover(end))

    scalar_field = message_field = list_field = _field

    def separator(self, children: list[LarkToken]) -> Token:
        return _token(children[0])

    def plain_name(self, children: list[LarkToken]) -> FieldName:
        token = children[0]
        name = _token(token)
        return FieldName(name.text, name.span, missing=name.missing)

    def extension_name(self, children: list[Any]) -> FieldName:
        open_token, close_token = _token(children[0]), _token(children[-1])
        text = "".join(
            _token(child).text if isinstance(child, _TOKENS) else child for child in children[1:-1]
        )
        return FieldName(text, open_token.span.cover(close_token.span), is_extension=True)

    def type_name(self, children: list[LarkToken]) -> str:
        return "".join(_token(child).text for child in children)

    def string_value(self, children: list[LarkToken]) -> Scalar:
        tokens = [_token(child) for child in children]
        return Scalar(ScalarKind.STRING, tokens, tokens[0].span.cover(tokens[-1].span))

    def identifier_value(self, children: list[LarkToken]) -> Scalar:
        token = _token(children[0])
        return Scalar(ScalarKind.IDENTIFIER, [token], token.span)

    def number_value(self, children: list[LarkToken]) -> Scalar:
        token = _token(children[0])
        return Scalar(ScalarKind.NUMBER, [token], token.span)

    def template_placeholder(self, children: list[LarkToken]) -> Scalar:
        token = _token(children[0])
        _ProblemSink.current.append(
            SyntaxProblem(
                f"unfilled template placeholder {token.text}: this file is a template; "
                "fill it in (e.g. with the template's fill script) before Triton reads it",
                token.span,
                kind="template-placeholder",
            )
        )
        return Scalar(ScalarKind.TEMPLATE_PLACEHOLDER, [token], token.span)

    def unterminated_string(self, children: list[LarkToken]) -> Scalar:
        token = _token(children[0])
        _ProblemSink.current.append(
            SyntaxProblem("string literal is missing its closing quote", token.span)
        )
        return Scalar(ScalarKind.UNTERMINATED_STRING, [token], token.span)

    def number(self, children: list[LarkToken]) -> Token:
        return _token(children[0])

    def _message(self, children: list[Any]) -> Message:
        open_token, close_token = _token(children[0]), _token(children[-1])
        return Message(
            open_token, children[1:-1], close_token, open_token.span.cover(close_token.span)
        )

    brace_message = angle_message = _message

    def list_value(self, children: list[Any]) -> ListValue:
        open_token, close_token = _token(children[0]), _token(children[-1])
        items = [child for child in children[1:-1] if not isinstance(child, _TOKENS)]
        return ListValue(open_token, items, close_token, open_token.span.cover(close_token.span))


@lru_cache(maxsize=1)
def _parser() -> Lark:
    grammar = (data_path("grammar") / "pbtxt.lark").read_text(encoding="utf-8")
    return Lark(
        grammar,
        parser="lalr",
        lexer="basic",
        transformer=_Builder(),
        lexer_callbacks={"COMMENT": _CommentSink.receive},
        cache=False,
    )


@lru_cache(maxsize=1)
def _fast_parser() -> FastParser:
    return FastParser(_parser())


class _CommentSink:
    """Collects the comments the lexer skips, for the parse in progress."""

    current: ClassVar[list[Comment]] = []

    @classmethod
    def receive(cls, token: LarkToken) -> LarkToken:
        cls.current.append(Comment(str(token), _span(token)))
        return token


class _ProblemSink:
    """Collects the problems the tree builder finds in tokens, for the parse in progress."""

    current: ClassVar[list[SyntaxProblem]] = []


_CLOSERS = {"LBRACE": "'}'", "LANGLE": "'>'", "LBRACKET": "']'"}


def _unclosed(parser: Any) -> LarkToken | None:
    """The innermost opening delimiter still waiting for its closing one."""
    closed = 0
    for value in reversed(parser.parser_state.value_stack):
        if not isinstance(value, LarkToken):
            continue
        if value.type in ("RBRACE", "RANGLE", "RBRACKET"):
            closed += 1
        elif value.type in _CLOSERS:
            if not closed:
                return value
            closed -= 1
    return None


def _describe(token: LarkToken) -> str:
    if token.type == "$END":
        return "end of file"
    return repr(str(token))


def _expected_names(terminals: set[str]) -> tuple[str, ...]:
    return tuple(sorted({_TERMINAL_NAMES[name] for name in terminals if name in _TERMINAL_NAMES}))


class _Recovery:
    """The ``on_error`` handler: records each problem and puts the parser back on its feet."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.problems: list[SyntaxProblem] = []

    def __call__(self, error: UnexpectedInput) -> bool:
        if len(self.problems) >= MAX_SYNTAX_ERRORS:
            return False
        if isinstance(error, UnexpectedCharacters):
            return self._unexpected_character(error)
        if isinstance(error, UnexpectedToken):
            return self._unexpected_token(error)
        return False

    def _unexpected_character(self, error: UnexpectedCharacters) -> bool:
        offset: int = error.pos_in_stream or 0
        line, column = error.line, error.column
        previous = self.problems[-1] if self.problems else None
        if (
            previous is not None
            and previous.kind == "unexpected-characters"
            and (previous.span.end == offset and self.text[offset] != "\n")
        ):
            # Several stray characters in a row are one problem.
            start = previous.span
            span = Span(start.line, start.column, line, column + 1, start.start, offset + 1)
            chars = self.text[start.start : offset + 1]
            self.problems[-1] = SyntaxProblem(
                f"unexpected characters {chars!r}", span, kind="unexpected-characters"
            )
            return True
        span = Span(line, column, line, column + 1, offset, offset + 1)
        self.problems.append(
            SyntaxProblem(
                f"unexpected character {self.text[offset]!r}", span, kind="unexpected-characters"
            )
        )
        parser = error.interactive_parser
        if parser is not None and self._value_expected(parser):
            parser.feed_token(_missing("IDENT", offset, line, column))
        return True

    def _unexpected_token(self, error: UnexpectedToken) -> bool:
        parser = error.interactive_parser
        token: LarkToken = error.token
        names = _expected_names(cast(set[str], parser.accepts()))  # type: ignore[no-untyped-call]
        found = _describe(token)
        message = (
            f"expected {names[0]}, found {found}"
            if len(names) == 1
            else f"expected one of {', '.join(names)}; found {found}"
        )
        opener = _unclosed(parser)
        if opener is not None and _CLOSERS[opener.type] in names:
            message += (
                f" (the '{opener.value}' at line {opener.line}, column {opener.column} is not "
                "closed)"
            )
        span = self._token_span(token)
        self.problems.append(SyntaxProblem(message, span, names))
        if token.type == "$END":
            return self._close_everything(parser, token)
        inserted = self._insertion_that_accepts(parser, token)
        if inserted is not None:
            parser.feed_token(self._virtual(inserted, token))
            parser.feed_token(token)
        elif self._value_expected(parser):
            # Complete the field with a missing value and drop the token, so that what
            # follows is read as the next field rather than as this field's value.
            parser.feed_token(self._virtual("IDENT", token))
        return True

    def _value_expected(self, parser: Any) -> bool:
        """Whether the parser waits for a value (after ':' or in a list), not for more text.

        A number is the probe: a string would also be accepted right after another string,
        which adjacent literals continue.
        """
        trial = parser.copy(deepcopy_values=False)
        try:
            trial.feed_token(LarkToken("DEC_INT", "0"))
        except UnexpectedToken:
            return False
        return True

    def _token_span(self, token: LarkToken) -> Span:
        if token.type == "$END":
            lines = self.text.split("\n")
            return Span.point(len(lines), len(lines[-1]) + 1, len(self.text))
        return _span(token)

    @staticmethod
    def _virtual(kind: str, at: LarkToken) -> _MissingToken:
        return _missing(kind, at.start_pos or 0, at.line or 1, at.column or 1)

    def _insertion_that_accepts(self, parser: Any, token: LarkToken) -> str | None:
        for kind in (*_INSERTABLE, "IDENT"):
            trial = parser.copy(deepcopy_values=False)
            try:
                trial.feed_token(self._virtual(kind, token))
                trial.feed_token(token)
            except UnexpectedToken:
                continue
            return kind
        return None

    def _close_everything(self, parser: Any, end: LarkToken) -> bool:
        for _ in range(10_000):
            accepts = cast(set[str], parser.accepts())
            if "$END" in accepts:
                return True
            # Close what is open; a field name without a value gets ':' and a missing value.
            closers = ("RBRACE", "RANGLE", "RBRACKET", "IDENT", "COLON")
            kind = next((k for k in closers if k in accepts), None)
            if kind is None:
                return False
            parser.feed_token(self._virtual(kind, end))
        return False


def parse(text: str) -> ParseResult:
    """Parse text-format source into a CST; never raises on bad input."""
    comments: list[Comment] = []
    token_problems: list[SyntaxProblem] = []
    _ProblemSink.current = token_problems
    try:
        document = cast(Document, _fast_parser().parse(text, comments))
        problems: list[SyntaxProblem] = []
    except NotFast:
        comments.clear()
        token_problems.clear()
        document, problems = _parse_recovering(text, comments)
    finally:
        _ProblemSink.current = []
    document.comments = comments
    attach_comments(document)
    # Recovery tries parses that build some nodes twice: keep each problem once.
    unique = dict.fromkeys([*problems, *token_problems])
    problems = sorted(unique, key=lambda p: p.span.start)
    if problems and _looks_like_json(text):
        problems = [_json_problem(text)]
    # Stray characters are syntax errors like any other for the rules.
    problems = [
        SyntaxProblem(p.message, p.span, p.expected) if p.kind == "unexpected-characters" else p
        for p in problems
    ]
    return ParseResult(document, problems)


_JSON_KEY = re.compile(r'^\s*\{\s*"[A-Za-z_]+"\s*:', re.DOTALL)


def _looks_like_json(text: str) -> bool:
    """A JSON object (what the server's config endpoint returns), not text format."""
    if _JSON_KEY.match(text) is None:
        return False
    try:
        return isinstance(json.loads(text), dict)
    except (ValueError, RecursionError):
        return True  # JSON-shaped, with a mistake of its own (or nested too deep to read)


def _json_problem(text: str) -> SyntaxProblem:
    offset = len(text) - len(text.lstrip())
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return SyntaxProblem(
        "this file is JSON (as GET /v2/models/<model>/config returns it), not protobuf text "
        'format: write `name: "x"` for `"name": "x"`, `input [ { ... } ]` for `"input": '
        "[ { ... } ]`, and drop the outer braces",
        Span(line, column, line, column + 1, offset, offset + 1),
        kind="json-config",
    )


def _parse_recovering(text: str, comments: list[Comment]) -> tuple[Document, list[SyntaxProblem]]:
    """Parse with lark, recovering from each syntax error to report them all."""
    recovery = _Recovery(text)
    _CommentSink.current = comments
    try:
        document = cast(Document, _parser().parse(text, on_error=recovery))
    except UnexpectedInput as error:
        # Recovery gave up (too many errors, or nothing sensible left to do).
        if not recovery.problems:
            line = getattr(error, "line", 1) or 1
            column = getattr(error, "column", 1) or 1
            recovery.problems.append(
                SyntaxProblem("cannot parse this file", Span.point(line, column, 0))
            )
        document = Document([], [], Span(1, 1, 1, 1, 0, 0))
    finally:
        _CommentSink.current = []
    return document, recovery.problems
