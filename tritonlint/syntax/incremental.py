"""Parse a text again after an edit, re-reading only the fields the edit touched.

The edit is found by comparing the old text with the new one (what they begin and end with
alike). From the top of the old tree, the walk goes down into the message whose braces hold
the edit, as deep as it can; there, the fields the edit touches, with the space and comments
around them up to their neighbours, are the *stretch* read again, as a sequence of fields of
its own. The new tree is the old one with those fields replaced: the nodes before the
stretch are the old ones, those after it are moved (:mod:`tritonlint.syntax.shift`), and the
messages, lists and fields around it are made anew.

This gives exactly the tree a full parse gives, for these reasons, each checked here (when
one does not hold, :func:`reparse` answers None and the caller parses the whole text):

* the old text parsed without a syntax error to recover from, and the stretch parses as a
  sequence of fields without one: replacing, in a sentence of the grammar, the tokens of
  one sequence of fields by those of another gives a sentence of the grammar, and the
  grammar (LALR(1), without conflicts) has one tree for it;
* the tokens are those a full tokenization makes: the stretch begins where a token ends
  (or where the text or a message's inside begins), and a token of the text after the
  stretch is found exactly where it begins, of the kind it was; what the tokenizer reads
  depends only on the text from where it is, and its lookaheads read one character;
* comments are given to fields as :mod:`tritonlint.syntax.comments` gives them, which
  depends only on the fields next to each comment: those of the stretch, the field before
  it (whose trailing comment may be in it) and the one after it (whose leading comments
  may be in it) are given theirs again;
* the problems found in tokens (unfilled placeholders, unterminated strings) are those of
  the stretch and the moved ones from outside it; a text with any of them is not taken for
  another language (the check a full parse makes, :mod:`tritonlint.syntax.foreign`).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import replace
from typing import NamedTuple

from tritonlint.span import Span
from tritonlint.syntax.comments import attach_to_run
from tritonlint.syntax.cst import Comment, Document, Field, ListValue, Message, Scalar, Token
from tritonlint.syntax.foreign import foreign_problem
from tritonlint.syntax.lexer import tokenize
from tritonlint.syntax.parser import ParseResult, parse_fields
from tritonlint.syntax.problems import SyntaxProblem
from tritonlint.syntax.shift import Shift
from tritonlint.syntax.tables import END

#: How many characters the search for the edit compares at a time.
_CHUNK = 4096


class Level(NamedTuple):
    """A message on the way down from the top of the tree to the stretch read again."""

    #: The field whose value (or an item of whose list) the message is.
    field: Field
    #: Where ``field`` is among the fields of its own message (or of the file).
    at: int
    #: The index of the message among the items of the list, when it is in one.
    item: int | None
    #: The message (of the old tree).
    message: Message


class Reparsed(NamedTuple):
    """The new tree, and how it was made from the old one."""

    result: ParseResult
    shift: Shift
    #: The messages the walk went down through, of the old tree, outermost first; the last
    #: one holds the stretch (none: the fields of the file did).
    levels: tuple[Level, ...]
    #: The new tree's message at each of ``levels``.
    messages: tuple[Message, ...]


def changed_stretch(old: str, new: str) -> tuple[int, int, int] | None:
    """Where ``new`` differs from ``old``: the stretch of ``old`` from the first offset to
    the second was replaced by that of ``new`` from the first to the third (None: they are
    the same text)."""
    if old == new:
        return None
    start = _common_prefix(old, new)
    tail = _common_suffix(old, new, min(len(old), len(new)) - start)
    return start, len(old) - tail, len(new) - tail


def reparse(old: ParseResult, old_text: str, text: str) -> Reparsed | None:
    """The parse of ``text``, made from ``old``, the parse of ``old_text``; None when it
    cannot be made so with certainty (see the module's text) or the texts are the same."""
    if old.recovered:
        return None
    stretch = changed_stretch(old_text, text)
    if stretch is None:
        return None
    edit_start, edit_end, _ = stretch
    levels: list[Level] = []
    fields = old.document.fields
    low, high = 0, len(old_text)
    line, column = 1, 1  # where ``low`` is
    while True:
        first = bisect_left(fields, edit_start, key=_field_end)
        last = bisect_right(fields, edit_end, key=_field_start) - 1
        inner = _inner_message(fields, first, last, edit_start, edit_end)
        if inner is None:
            break
        item, message = inner
        levels.append(Level(fields[first], first, item, message))
        fields = message.fields
        low, high = message.open.span.end, message.close.span.start
        line, column = message.open.span.end_line, message.open.span.end_column
    before = fields[first - 1] if first > 0 else None
    after = fields[last + 1] if last + 1 < len(fields) else None
    if before is not None:
        low, line, column = before.span.end, before.span.end_line, before.span.end_column
    if after is not None:
        high = after.span.start
    delta = len(text) - len(old_text)
    found = _read_stretch(text, low, high + delta, line, low - column + 1, _kind_at(after, levels))
    if found is None:
        return None
    run, comments, problems = found
    shift = Shift(
        low,
        high,
        delta,
        text.count("\n", low, high + delta) - old_text.count("\n", low, high),
        line + old_text.count("\n", low, high),
        _column(text, high + delta) - _column(old_text, high),
    )
    fields, leftover = _splice(fields, first, last, run, comments, shift)
    messages: list[Message] = []
    for depth in range(len(levels) - 1, -1, -1):
        level = levels[depth]
        message = level.message
        if leftover is None:
            leftover = shift.comments(message.inner_comments)
        close = shift.moved.token(message.close)
        rebuilt = Message(message.open, fields, close, shift.span(message.span), leftover)
        messages.append(rebuilt)
        siblings = levels[depth - 1].message.fields if depth else old.document.fields
        fields = [
            *siblings[: level.at],
            _rebuilt_field(level, rebuilt, shift),
            *map(shift.moved.field, siblings[level.at + 1 :]),
        ]
        leftover = None
    messages.reverse()
    if leftover is None:
        leftover = shift.comments(old.document.trailing_comments)
    found_problems = _problems(old.problems, problems, shift)
    if found_problems and foreign_problem(text) is not None:
        return None
    span = fields[0].span.cover(fields[-1].span) if fields else Span(1, 1, 1, 1, 0, 0)
    tree = Document(fields, _all_comments(old.document.comments, comments, shift), span, leftover)
    return Reparsed(ParseResult(tree, found_problems), shift, tuple(levels), tuple(messages))


# -- finding the edit ------------------------------------------------------------------------


def _common_prefix(old: str, new: str) -> int:
    size = min(len(old), len(new))
    start = 0
    while start < size and old[start : start + _CHUNK] == new[start : start + _CHUNK]:
        start += _CHUNK
    if start >= size:
        return size
    low, high = start, min(start + _CHUNK, size)  # old[:low] == new[:low]; they differ by high
    while low < high:
        middle = (low + high + 1) // 2
        if old[low:middle] == new[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _common_suffix(old: str, new: str, limit: int) -> int:
    """How many characters ``old`` and ``new`` end with alike, up to ``limit``."""
    old_size, new_size = len(old), len(new)
    tail = 0
    while tail < limit:
        step = min(_CHUNK, limit - tail)
        if (
            old[old_size - tail - step : old_size - tail]
            != new[new_size - tail - step : new_size - tail]
        ):
            break
        tail += step
    else:
        return limit
    low, high = tail, min(tail + _CHUNK, limit)
    while low < high:
        middle = (low + high + 1) // 2
        if old[old_size - middle : old_size - low] == new[new_size - middle : new_size - low]:
            low = middle
        else:
            high = middle - 1
    return low


def _field_start(field: Field) -> int:
    return field.span.start


def _field_end(field: Field) -> int:
    return field.span.end


def _item_start(item: object) -> int:
    return item.span.start  # type: ignore[attr-defined, no-any-return]


def _inner_message(
    fields: list[Field], first: int, last: int, start: int, end: int
) -> tuple[int | None, Message] | None:
    """The message whose braces hold the edit, when it is in the one field the edit touches
    (with its index in that field's list, if it is an item of one)."""
    if first != last:
        return None
    value = fields[first].value
    item: int | None = None
    if isinstance(value, ListValue):
        item = bisect_right(value.items, start, key=_item_start) - 1
        if item < 0:
            return None
        found: Scalar | Message = value.items[item]
    elif isinstance(value, Message):
        found = value
    else:
        return None
    if not isinstance(found, Message):
        return None
    if found.open.span.end <= start and end <= found.close.span.start:
        return item, found
    return None


def _kind_at(after: Field | None, levels: list[Level]) -> str:
    """The kind of the token that follows the stretch."""
    if after is not None:
        return "LBRACKET" if after.name.is_extension else "IDENT"
    return levels[-1].message.close.kind if levels else END


def _column(text: str, offset: int) -> int:
    return offset - (text.rfind("\n", 0, offset) + 1) + 1


# -- reading the stretch ---------------------------------------------------------------------


def _read_stretch(
    text: str, start: int, end: int, line: int, line_start: int, next_kind: str
) -> tuple[list[Field], list[Comment], list[SyntaxProblem]] | None:
    """The fields, comments and token problems of ``text[start:end]``, when it is a sequence
    of fields and the token after it begins at ``end`` and is of kind ``next_kind``."""
    comments: list[Comment] = []
    tokens: list[Token] = []
    for token in tokenize(text, comments, start, line, line_start):
        if token.span.start >= end:
            if token.span.start != end or token.kind != next_kind:
                return None
            tokens.append(Token(END, "", Span.point(token.span.line, token.span.column, end)))
            break
        tokens.append(token)
    parsed = parse_fields(iter(tokens))
    if parsed is None:
        return None
    fields, problems = parsed
    return fields, comments, problems


# -- the new tree ------------------------------------------------------------------------------


def _splice(
    fields: list[Field],
    first: int,
    last: int,
    run: list[Field],
    comments: list[Comment],
    shift: Shift,
) -> tuple[list[Field], list[Comment] | None]:
    """The fields of the message holding the stretch, ``fields[first:last + 1]`` replaced by
    ``run`` (which the stretch's ``comments`` are given to); and the comments that end that
    message, when the stretch reaches its end (else None)."""
    previous = fields[first - 1] if first > 0 else None
    fresh = None if previous is None else replace(previous, trailing_comment=None)
    rest = attach_to_run(run, comments, fresh)
    spliced = fields[: max(first - 1, 0)]
    if previous is not None and fresh is not None:
        spliced.append(previous if fresh.trailing_comment == previous.trailing_comment else fresh)
    spliced.extend(run)
    if last + 1 >= len(fields):
        return spliced, rest
    following = shift.moved.field(fields[last + 1])
    # Its leading comments: those of the stretch before it, then those inside it.
    inside = [c for c in following.leading_comments if c.span.start >= following.span.start]
    following.leading_comments = rest + inside
    spliced.append(following)
    spliced.extend(map(shift.moved.field, fields[last + 2 :]))
    return spliced, None


def _rebuilt_field(level: Level, message: Message, shift: Shift) -> Field:
    """``level``'s field with its message (or the item of its list) replaced by ``message``
    and what follows it moved."""
    old = level.field
    value: Message | ListValue = message
    if isinstance(old.value, ListValue):
        assert level.item is not None
        items = old.value.items
        value = ListValue(
            old.value.open,
            [*items[: level.item], message, *map(shift.moved.item, items[level.item + 1 :])],
            shift.moved.token(old.value.close),
            shift.span(old.value.span),
        )
    separator, trailing = old.separator, old.trailing_comment
    return Field(
        old.name,
        old.colon,
        value,
        None if separator is None else shift.moved.token(separator),
        shift.span(old.span),
        shift.comments(old.leading_comments),
        None if trailing is None else shift.moved.comment(trailing),
    )


def _problems(
    old: list[SyntaxProblem], found: list[SyntaxProblem], shift: Shift
) -> list[SyntaxProblem]:
    """The problems of the new text: those found in the stretch, and the others moved."""
    kept = [
        shift.problem(problem)
        for problem in old
        if not (shift.start <= problem.span.start and problem.span.end <= shift.end)
    ]
    return sorted([*kept, *found], key=lambda problem: problem.span.start)


def _all_comments(old: list[Comment], found: list[Comment], shift: Shift) -> list[Comment]:
    """Every comment of the new text, in order: those of the stretch, and the others."""
    first = bisect_left(old, shift.start, key=_comment_start)
    last = bisect_left(old, shift.end, key=_comment_start)
    return [*old[:first], *found, *map(shift.moved.comment, old[last:])]


def _comment_start(comment: Comment) -> int:
    return comment.span.start
