"""git's wildmatch (``wildmatch.c``, with ``WM_PATHNAME``) in pure Python, in linear time.

git matches a glob by recursion that backtracks at each star; so would a translation to
Python's :mod:`re`, and ``*a*a*a*a*a*a*a*a*a*a*b`` against a folder name of 40 ``a`` takes
seconds there. Here a pattern is compiled to its tokens and matched as a
nondeterministic automaton: the set of token positions reached so far, kept as the bits of
one integer, advanced by each byte of the path. The work is at most proportional to the
length of the pattern times the length of the path, whatever the pattern.

The semantics are git's, byte for byte (paths and patterns are matched as bytes, as git
matches them):

- ``?`` is any byte but ``/``; ``*`` any run of bytes without ``/``;
- ``**`` crosses ``/`` where it stands alone between slashes (or at the start or end of the
  pattern): ``**/`` also matches nothing at all, so ``a/**/b`` matches ``a/b``; elsewhere
  ``**`` is ``*``;
- ``[...]`` a byte of a set (``!`` or ``^`` first negates it; ranges ``a-z``; POSIX classes
  ``[:alpha:]`` and the others of the C locale; ``\\`` escapes; ``]`` first is a member),
  never ``/``; a set without its ``]`` or with an unknown class matches nothing;
- ``\\`` makes the next byte literal; a pattern ending in a lone ``\\`` matches nothing.
"""

from __future__ import annotations

_SLASH = ord("/")
_BACKSLASH = ord("\\")
_OPEN = ord("[")
_CLOSE = ord("]")
_COLON = ord(":")
_DASH = ord("-")

#: The bytes that start a glob (git's ``is_glob_special``).
GLOB_SPECIAL = frozenset(b"*?[\\")

_DIGITS = frozenset(range(0x30, 0x3A))
_UPPER = frozenset(range(0x41, 0x5B))
_LOWER = frozenset(range(0x61, 0x7B))
_PUNCTUATION = frozenset(b"!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
#: git's own ASCII classes (``sane-ctype.h``): a space is tab, newline, carriage return or
#: space (not vertical tab or form feed); nothing at or above 0x80 is in any class.
_CLASSES: dict[bytes, frozenset[int]] = {
    b"alnum": _DIGITS | _UPPER | _LOWER,
    b"alpha": _UPPER | _LOWER,
    b"blank": frozenset(b" \t"),
    b"cntrl": frozenset(range(0x20)) | {0x7F},
    b"digit": _DIGITS,
    b"graph": frozenset(range(0x21, 0x7F)),
    b"lower": _LOWER,
    b"print": frozenset(range(0x20, 0x7F)),
    b"punct": _PUNCTUATION,
    b"space": frozenset(b" \t\n\r"),
    b"upper": _UPPER,
    b"xdigit": _DIGITS | frozenset(b"abcdefABCDEF"),
}
_EVERY_BYTE = frozenset(range(256))


def _bracket(pattern: bytes, start: int) -> tuple[frozenset[int], int] | None:
    """The bytes the set opening at ``pattern[start]`` (a ``[``) accepts, and the index after
    its ``]``; None where git aborts on it. A step-by-step reading of git's own loop, whose
    quirks (``[]a]``, ``[a-]``, ``[[:x]``) it keeps."""

    def at(index: int) -> int:
        return pattern[index] if index < len(pattern) else 0

    index = start + 1
    char = at(index)
    negated = char in (ord("!"), ord("^"))
    if negated:
        index += 1
        char = at(index)
    members: set[int] = set()
    previous = 0
    while True:
        if not char:
            return None
        if char == _BACKSLASH:
            index += 1
            char = at(index)
            if not char:
                return None
            members.add(char)
        elif char == _DASH and previous and at(index + 1) and at(index + 1) != _CLOSE:
            index += 1
            char = at(index)
            if char == _BACKSLASH:
                index += 1
                char = at(index)
                if not char:
                    return None
            members.update(range(previous, char + 1))
            char = 0  # a range's end does not start another range
        elif char == _OPEN and at(index + 1) == _COLON:
            name_start = index + 2
            end = name_start
            while at(end) and at(end) != _CLOSE:
                end += 1
            if not at(end):
                return None
            if end - name_start - 1 < 0 or pattern[end - 1] != _COLON:
                # No ":]": the "[" is a member like any other, and the reading goes on
                # after it.
                index = name_start - 2
                char = _OPEN
                members.add(char)
            else:
                named = _CLASSES.get(pattern[name_start : end - 1])
                if named is None:
                    return None
                members.update(named)
                index = end
                char = 0
        else:
            members.add(char)
        previous = char
        index += 1
        char = at(index)
        if char == _CLOSE:
            break
    accepted = (_EVERY_BYTE - members) if negated else frozenset(members)
    return accepted - {_SLASH}, index + 1


class Wildmatch:
    """One compiled pattern; :meth:`match` says whether it matches a whole path.

    Position ``i`` of the state is "the first ``i`` tokens are matched"; a byte moves each
    position past a token that accepts it, or keeps it on a star that does. The positions
    reached without reading a byte (past a star that matches no more, past a ``**/`` that
    matches nothing) are added after each byte, in a few steps at most: stars in a row are
    one token, and so are ``**/`` in a row."""

    __slots__ = (
        "_accept",
        "_cache",
        "_classes",
        "_literals",
        "_one",
        "_skip1",
        "_skip2",
        "_star",
        "_starstar",
        "_start",
    )

    def __init__(self, pattern: bytes) -> None:
        """Raises :class:`ValueError` where the pattern can match nothing (git aborts)."""
        literals: dict[int, int] = {}
        classes: list[tuple[int, frozenset[int]]] = []
        one = star = starstar = skip2 = 0
        position = 0
        index = 0
        #: Where a "**/" just read ends: another one there repeats it.
        repeats = -1
        while index < len(pattern):
            char = pattern[index]
            bit = 1 << position
            if char == ord("?"):
                one |= bit
                index += 1
            elif char == ord("*"):
                end = index + 1
                while end < len(pattern) and pattern[end] == ord("*"):
                    end += 1
                after = pattern[end : end + 2]
                alone = (index == 0 or pattern[index - 1] == _SLASH) and (
                    after[:1] in (b"", b"/") or after == b"\\/"
                )
                if end - index > 1 and alone and after[:1] == b"/" and index == repeats:
                    # "**/**/" is "**/": kept as one, so that no chain of positions reached
                    # without reading a byte grows with the pattern.
                    index = repeats = end + 1
                    continue
                if end - index > 1 and alone:
                    starstar |= bit
                    if after[:1] == b"/":
                        skip2 |= bit  # "**/" may match nothing, its slash included
                        repeats = end + 1
                else:
                    star |= bit
                index = end
            elif char == _OPEN:
                bracket = _bracket(pattern, index)
                if bracket is None:
                    raise ValueError(f"unterminated or unknown set in {pattern!r}")
                accepted, index = bracket
                classes.append((bit, accepted))
            else:
                if char == _BACKSLASH:
                    index += 1
                    if index == len(pattern):
                        raise ValueError(f"{pattern!r} ends in a lone backslash")
                    char = pattern[index]
                literals[char] = literals.get(char, 0) | bit
                index += 1
            position += 1
        self._literals = literals
        self._classes = classes
        self._one = one
        self._star = star
        self._starstar = starstar
        #: A star may match nothing: from its position to the next one.
        self._skip1 = star | starstar
        self._skip2 = skip2
        self._accept = 1 << position
        #: Per byte: the positions it advances, the positions it stays in (a star's).
        self._cache: dict[int, tuple[int, int]] = {}
        self._start = self._closure(1)

    def _closure(self, state: int) -> int:
        """``state``, positions just entered, with every position reachable from them
        without reading a byte. (Only on entering may ``**/`` match nothing: once its ``**``
        has matched a byte, its slash must follow.)"""
        while True:
            grown = state | ((state & self._skip1) << 1) | ((state & self._skip2) << 2)
            if grown == state:
                return state
            state = grown

    def _step(self, byte: int) -> tuple[int, int]:
        advance = self._literals.get(byte, 0)
        stay = self._starstar
        if byte != _SLASH:
            advance |= self._one
            stay |= self._star
        for bit, accepted in self._classes:
            if byte in accepted:
                advance |= bit
        self._cache[byte] = step = (advance, stay)
        return step

    def match(self, text: bytes) -> bool:
        """Whether the pattern matches the whole of ``text``."""
        state = self._start
        cache = self._cache
        for byte in text:
            advance, stay = cache.get(byte) or self._step(byte)
            stayed = state & stay
            entered = ((state & advance) << 1) | ((stayed & self._skip1) << 1)
            if not (entered or stayed):
                return False
            state = self._closure(entered) | stayed
        return bool(state & self._accept)


def wildmatch(pattern: bytes, text: bytes) -> bool:
    """Whether git's ``wildmatch(pattern, text, WM_PATHNAME)`` matches."""
    try:
        compiled = Wildmatch(pattern)
    except ValueError:
        return False
    return compiled.match(text)
