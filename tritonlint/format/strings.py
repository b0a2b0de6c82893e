"""The canonical spelling of a string value: one double-quoted literal, shortest escapes.

A value written as several adjacent literals (``"a" 'b'``) is one literal here, as protobuf
concatenates them. The bytes protobuf reads from the result are the bytes it read from the
original: printable text, non-ASCII text included, is written as it is; only the quote, the
backslash, line breaks, tabs and other control characters are escaped, and bytes that are not
valid UTF-8 are written as three-digit octal escapes (three digits, so that a digit after one
is never taken for part of it).
"""

from __future__ import annotations

from tritonlint.schema.scalars import c_unescape

_SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}

#: Characters that editors and Python's ``str.splitlines`` take for a line break.
_LINE_BREAKS = frozenset("\x85\u2028\u2029")


def canonical_string(literals: list[str]) -> str | None:
    """The one double-quoted literal for adjacent ``literals`` (each with its quotes), or
    None when one of them has an escape protobuf refuses (the value is then kept as written)."""
    if len(literals) == 1 and _plain(literals[0]):
        return literals[0]
    try:
        value = b"".join(c_unescape(literal[1:-1]) for literal in literals)
    except ValueError:
        return None
    return '"' + _escape(value) + '"'


def _plain(literal: str) -> bool:
    """A double-quoted literal with nothing to unescape and nothing to escape."""
    body = literal[1:-1]
    return (
        literal[0] == '"'
        and "\\" not in body
        and all(" " <= char != "\x7f" for char in body)
        and not _LINE_BREAKS.intersection(body)
    )


def _escape(value: bytes) -> str:
    # Bytes that are not valid UTF-8 decode to lone surrogates U+DC80..U+DCFF.
    return "".join(_escape_char(char) for char in value.decode("utf-8", "surrogateescape"))


def _escape_char(char: str) -> str:
    short = _SHORT_ESCAPES.get(char)
    if short is not None:
        return short
    if "\udc80" <= char <= "\udcff":
        return f"\\{ord(char) - 0xDC00:03o}"
    if char < " " or char == "\x7f" or char in _LINE_BREAKS:
        return "".join(f"\\{byte:03o}" for byte in char.encode("utf-8"))
    return char
