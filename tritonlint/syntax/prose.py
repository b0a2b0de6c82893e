"""What a stretch of a line that the parser refuses looks like: a note in prose, or an ellipsis.

People paste configs from tutorials with the tutorial's notes left in (``key: "TEXT"  <- must
match the tokenizer``) and with parts left out (``output_map {...}``). Read token by token,
such a note is a cascade of syntax errors, one per word; recognised, it is one mistake with
an obvious remedy (make it a ``#`` comment, or write out what the ellipsis stands for).

The tests look only at the tokens of one line, from where the parser stopped.
"""

from __future__ import annotations

from collections.abc import Sequence

from tritonlint.syntax.cst import Token
from tritonlint.syntax.lexer import STRAY

#: Consecutive words (identifiers and runs of letters the grammar does not know) that no text
#: format can hold: a value, then a field name, then that field's ':' or '{' at the latest.
_WORDS_IN_A_ROW = 3


def _adjacent(first: Token, second: Token) -> bool:
    return first.span.end == second.span.start


def _is_dashes(token: Token) -> bool:
    return token.kind == "MALFORMED_NUMBER" and set(token.text) == {"-"}


def _is_word(token: Token) -> bool:
    """A word of prose: an identifier, letters no terminal matches, or ``'s ...`` to the end."""
    if token.kind == "IDENT":
        return True
    if token.kind == STRAY:
        return any(character.isalpha() for character in token.text)
    return token.kind == "UNTERMINATED_STRING" and token.text.startswith("'")


def starts_with_note_marker(tokens: Sequence[Token]) -> bool:
    """Whether the tokens start with an arrow or another language's comment opener.

    ``<-``, ``->``, ``=>``, ``--``, ``//`` and ``/*`` never start anything in text format.
    """
    if not tokens:
        return False
    first = tokens[0]
    if _is_dashes(first) and len(first.text) > 1:
        return True
    if len(tokens) < 2 or not _adjacent(first, tokens[1]):
        return False
    second = tokens[1]
    if first.kind == "LANGLE":
        return second.kind == "MALFORMED_NUMBER" and second.text.startswith("-")
    if first.kind == "SLASH":
        return second.kind == "SLASH" or (second.kind == STRAY and second.text.startswith("*"))
    if _is_dashes(first) or (first.kind == STRAY and first.text == "="):
        return second.kind == "RANGLE"
    return False


def looks_like_prose(tokens: Sequence[Token]) -> bool:
    """Whether these tokens (the rest of a line) read as a note rather than as text format."""
    if starts_with_note_marker(tokens):
        return True
    words = in_a_row = 0
    lettered = False
    for token in tokens:
        if _is_word(token):
            words += 1
            in_a_row += 1
            lettered = lettered or token.kind == STRAY
            if in_a_row >= _WORDS_IN_A_ROW:
                return True
        else:
            in_a_row = 0
    return lettered and words >= 2


def ellipsis_length(tokens: Sequence[Token]) -> int:
    """How many of the first tokens make up an ellipsis (``...``, ``..``, ``…``); 0 if none."""
    if not tokens:
        return 0
    first = tokens[0]
    if first.kind == STRAY:
        return 1 if set(first.text) == {"…"} else 0
    if first.kind != "DOT":
        return 0
    count = 1
    while (
        count < len(tokens)
        and tokens[count].kind == "DOT"
        and _adjacent(tokens[count - 1], tokens[count])
    ):
        count += 1
    return count if count > 1 else 0
