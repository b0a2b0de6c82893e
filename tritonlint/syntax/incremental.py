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

Moving what follows the stretch costs time in proportion to it; the messages around the
stretch are few, but what follows them can be most of the file. So the caller may name a
*focus*, one of the messages the walk went down through: the tree is then built only up to
that message, and the rest of it when it is first read (``ParseResult.document``); the next
edit inside the same message is re-read from it again, without the rest being built. A check
reads the tree's comments and problems, and binds the focus again (see
:mod:`tritonlint.schema.rebind`), and an editor's question about a place inside the focus is
answered from it (:func:`focus_at`): typing in one message of a large config costs in
proportion to that message.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import replace
from typing import NamedTuple

from tritonlint.span import Span
from tritonlint.syntax.comments import attach_to_run
from tritonlint.syntax.cst import Comment, Field, ListValue, Message, Scalar, SyntaxTree, Token
from tritonlint.syntax.foreign import foreign_problem
from tritonlint.syntax.lexer import tokenize
from tritonlint.syntax.limits import beyond_limits
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

    def index_among(self, siblings: list[Field]) -> int:
        """The index of the message among the messages of the fields of its field's name
        in ``siblings`` (the fields holding its field), as they are written."""
        name = self.field.name.text
        before = sum(
            sum(1 for _ in field.messages())
            for field in siblings[: self.at]
            if field.name.text == name and not field.name.is_extension
        )
        if self.item is None:
            return before
        mine = self.field.messages()
        return before + next(number for number, found in enumerate(mine) if found is self.message)


#: Chooses the focus among the messages the walk went down through: the index of one in the
#: levels given, or None to build the whole tree.
Chooser = Callable[[tuple[Level, ...]], int | None]


class Focus(NamedTuple):
    """The one message of a tree built later that is built now."""

    #: The messages from the top of ``base`` down to the focus (the last one's message).
    levels: tuple[Level, ...]
    #: The focus in the new tree.
    message: Message
    #: How the nodes of ``base`` outside the focus moved.
    shift: Shift
    #: Whether the old tree had the same focus (the edit was inside it).
    kept: bool


class _Pending(NamedTuple):
    """A tree built when first read: ``base`` with the focus replaced, the rest moved."""

    base: SyntaxTree
    focus: Focus

    def build(self, comments: list[Comment]) -> SyntaxTree:
        focus = self.focus
        fields, leftover = _rise(
            focus.levels, self.base.fields, self.base.trailing_comments, focus.message, focus.shift
        )
        return _document(fields, comments, leftover)


class Reparsed(NamedTuple):
    """The new tree, and how it was made from the old one."""

    result: ParseResult
    #: The focus (None: the tree is built whole).
    focus: Focus | None


def focus_at(
    result: ParseResult, offset: int
) -> tuple[tuple[tuple[str, int], ...], Message] | None:
    """Where ``offset`` is, when it is inside the focus of a tree not built yet: the name of
    each field holding the focus, outermost first, with the index of its message among the
    messages of the fields of that name (see :meth:`Level.index_among`); and the focus.
    None when the tree is built, or ``offset`` is elsewhere (the tree answers then)."""
    pending = result.pending
    if not isinstance(pending, _Pending) or result.built:
        return None
    focus = pending.focus
    if not _holds(focus.message, offset, offset):
        return None
    path = []
    siblings = pending.base.fields
    for level in focus.levels:
        path.append((level.field.name.text, level.index_among(siblings)))
        siblings = level.message.fields
    return tuple(path), focus.message


def changed_stretch(old: str, new: str) -> tuple[int, int, int] | None:
    """Where ``new`` differs from ``old``: the stretch of ``old`` from the first offset to
    the second was replaced by that of ``new`` from the first to the third (None: they are
    the same text)."""
    if old == new:
        return None
    start = _common_prefix(old, new)
    tail = _common_suffix(old, new, min(len(old), len(new)) - start)
    return start, len(old) - tail, len(new) - tail


def reparse(
    old: ParseResult, old_text: str, text: str, choose: Chooser | None = None
) -> Reparsed | None:
    """The parse of ``text``, made from ``old``, the parse of ``old_text``; None when it
    cannot be made so with certainty (see the module's text) or the texts are the same.

    ``choose`` names the focus among the messages holding the edit (by default there is
    none). An edit inside the focus of ``old`` keeps it as the focus.
    """
    if old.recovered:
        return None
    stretch = changed_stretch(old_text, text)
    if stretch is None:
        return None
    edit = stretch[:2]
    pending = old.pending
    if isinstance(pending, _Pending) and _holds(pending.focus.message, *edit):
        focus = pending.focus.message
        below = len(pending.focus.levels)
        again = _reread(focus.fields, _inside(focus), focus.close.kind, edit, old_text, text, below)
        if again is None:
            return None
        fields, leftover = _rise(
            again.levels, focus.fields, None, again.fields, again.shift, again.leftover
        )
        message = _message(focus, fields, leftover, again.shift)
        base = pending.focus.levels[-1].message
        kept = Focus(pending.focus.levels, message, _total(base, message), kept=True)
        return _reparsed(old, again, text, _Pending(pending.base, kept))
    tree = old.document
    found = _reread(tree.fields, (0, len(old_text), 1, 1), END, edit, old_text, text, 0)
    if found is None:
        return None
    depth = choose(found.levels) if choose is not None and found.levels else None
    if depth is None:
        fields, leftover = _rise(
            found.levels,
            tree.fields,
            tree.trailing_comments,
            found.fields,
            found.shift,
            found.leftover,
        )
        return _reparsed(old, found, text, _document(fields, [], leftover))
    levels = found.levels[: depth + 1]
    inner = found.levels[depth + 1 :]
    top = levels[-1].message
    fields, leftover = _rise(inner, top.fields, None, found.fields, found.shift, found.leftover)
    message = _message(top, fields, leftover, found.shift)
    chosen = Focus(levels, message, _total(top, message), kept=False)
    return _reparsed(old, found, text, _Pending(tree, chosen))


class _Reread(NamedTuple):
    """The stretch read again, inside some fields (of a message or of the file)."""

    #: The messages down to the one holding the stretch (below those fields).
    levels: tuple[Level, ...]
    #: The new fields of the message holding the stretch (or the new fields given).
    fields: list[Field]
    #: The comments ending that message, when the stretch reaches its end (else None).
    leftover: list[Comment] | None
    shift: Shift
    #: The comments and the token problems of the stretch.
    comments: list[Comment]
    problems: list[SyntaxProblem]


def _reparsed(
    old: ParseResult, found: _Reread, text: str, tree: SyntaxTree | _Pending
) -> Reparsed | None:
    """The new parse result: ``tree`` (or what builds it), the comments and problems of the
    old one with those of the stretch replaced."""
    problems = _problems(old.problems, found.problems, found.shift)
    if problems and foreign_problem(text) is not None:
        return None
    comments = _all_comments(old.comments, found.comments, found.shift)
    if isinstance(tree, SyntaxTree):
        tree.comments = comments
        return Reparsed(ParseResult(tree, problems), None)
    return Reparsed(ParseResult(None, problems, comments=comments, pending=tree), tree.focus)


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
        old_part = old[old_size - tail - step : old_size - tail]
        if old_part != new[new_size - tail - step : new_size - tail]:
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


def _holds(message: Message, start: int, end: int) -> bool:
    """Whether the edit of the old text from ``start`` to ``end`` is inside ``message``."""
    return message.open.span.end <= start and end <= message.close.span.start


def _inside(message: Message) -> tuple[int, int, int, int]:
    """Where the inside of ``message`` begins and ends, and the line and column it begins."""
    opening = message.open.span
    return opening.end, message.close.span.start, opening.end_line, opening.end_column


def _field_start(field: Field) -> int:
    return field.span.start


def _field_end(field: Field) -> int:
    return field.span.end


def _item_start(item: Scalar | Message) -> int:
    return item.span.start


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
    if isinstance(found, Message) and _holds(found, start, end):
        return item, found
    return None


def _column(text: str, offset: int) -> int:
    return offset - (text.rfind("\n", 0, offset) + 1) + 1


# -- reading the stretch ---------------------------------------------------------------------


def _reread(
    fields: list[Field],
    inside: tuple[int, int, int, int],
    closing: str,
    edit: tuple[int, int],
    old_text: str,
    text: str,
    depth: int,
) -> _Reread | None:
    """Find the stretch of an edit within ``fields`` (the fields of a message whose inside
    is ``inside``, or of the file) and read it again; ``depth``: how deep that message is
    (0 for the file).

    ``closing``: the kind of the token after ``fields`` (the message's closing delimiter,
    or the end of the file).
    """
    edit_start, edit_end = edit
    low, high, line, column = inside
    levels: list[Level] = []
    while True:
        first = bisect_left(fields, edit_start, key=_field_end)
        last = bisect_right(fields, edit_end, key=_field_start) - 1
        inner = _inner_message(fields, first, last, edit_start, edit_end)
        if inner is None:
            break
        item, message = inner
        levels.append(Level(fields[first], first, item, message))
        fields = message.fields
        low, high, line, column = _inside(message)
        closing = message.close.kind
    before = fields[first - 1] if first > 0 else None
    after = fields[last + 1] if last + 1 < len(fields) else None
    if before is not None:
        low, line, column = before.span.end, before.span.end_line, before.span.end_column
    if after is not None:
        high = after.span.start
        closing = "LBRACKET" if after.name.is_extension else "IDENT"
    delta = len(text) - len(old_text)
    depth += len(levels)
    found = _read_stretch(text, low, high + delta, line, low - column + 1, closing, depth)
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
    spliced, leftover = _splice(fields, first, last, run, comments, shift)
    return _Reread(tuple(levels), spliced, leftover, shift, comments, problems)


def _read_stretch(
    text: str, start: int, end: int, line: int, line_start: int, next_kind: str, depth: int
) -> tuple[list[Field], list[Comment], list[SyntaxProblem]] | None:
    """The fields, comments and token problems of ``text[start:end]``, when it is a sequence
    of fields and the token after it begins at ``end`` and is of kind ``next_kind``, and
    they are within the parser's limits (they are in messages ``depth`` deep)."""
    comments: list[Comment] = []
    tokens: list[Token] = []
    for token in tokenize(text, comments, start, line, line_start):
        if token.span.start >= end:
            if token.span.start != end or token.kind != next_kind:
                return None
            tokens.append(Token(END, "", Span.point(token.span.line, token.span.column, end)))
            break
        tokens.append(token)
    if beyond_limits(tokens, depth):
        return None
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
    spliced.append(replace(following, leading_comments=rest + inside))
    spliced.extend(map(shift.moved.field, fields[last + 2 :]))
    return spliced, None


def _rise(
    levels: tuple[Level, ...],
    top: list[Field],
    top_leftover: list[Comment] | None,
    fields: list[Field] | Message,
    shift: Shift,
    leftover: list[Comment] | None = None,
) -> tuple[list[Field], list[Comment] | None]:
    """The new ``top`` fields (those holding ``levels``, outermost first) and the comments
    after them (``top_leftover`` moved; None where they are not needed).

    ``fields``: the new fields of the innermost message of ``levels`` (with ``leftover``,
    the comments ending it, if it has new ones), or that message made anew; with no levels,
    the new ``top`` fields.
    """
    if not levels:
        assert isinstance(fields, list)
        if leftover is None and top_leftover is not None:
            leftover = shift.comments(top_leftover)
        return fields, leftover
    message = fields if isinstance(fields, Message) else None
    if message is None:
        assert isinstance(fields, list)
        message = _message(levels[-1].message, fields, leftover, shift)
    for depth in range(len(levels) - 1, 0, -1):
        holder = levels[depth - 1].message
        message = _message(holder, _with(levels[depth], holder.fields, message, shift), None, shift)
    moved = None if top_leftover is None else shift.comments(top_leftover)
    return _with(levels[0], top, message, shift), moved


def _message(
    old: Message, fields: list[Field], leftover: list[Comment] | None, shift: Shift
) -> Message:
    """``old`` with ``fields`` (new), ending with the comments ``leftover`` (None: its own)."""
    if leftover is None:
        leftover = shift.comments(old.inner_comments)
    return Message(old.open, fields, shift.moved.token(old.close), shift.span(old.span), leftover)


def _with(level: Level, siblings: list[Field], message: Message, shift: Shift) -> list[Field]:
    """``siblings`` (the fields holding ``level``'s field) with that field's message replaced
    by ``message``, and the fields after it moved."""
    return [
        *siblings[: level.at],
        _rebuilt_field(level, message, shift),
        *map(shift.moved.field, siblings[level.at + 1 :]),
    ]


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


def _total(before: Message, after: Message) -> Shift:
    """How the text around a message moved, from ``before`` to ``after`` (the same message,
    edited inside): as its closing delimiter moved."""
    old, new = before.close.span, after.close.span
    return Shift(
        before.open.span.end,
        old.start,
        new.start - old.start,
        new.line - old.line,
        old.line,
        new.column - old.column,
    )


def _document(
    fields: list[Field], comments: list[Comment], leftover: list[Comment] | None
) -> SyntaxTree:
    span = fields[0].span.cover(fields[-1].span) if fields else Span(1, 1, 1, 1, 0, 0)
    return SyntaxTree(fields, comments, span, leftover or [])


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
