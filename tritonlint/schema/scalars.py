"""Turn the text of a scalar token into the value a field of a given type holds.

The accepted spellings are those of protobuf's reference text-format parser, so that a file
tritonlint accepts is a file ``text_format.Parse`` accepts: integers in decimal, ``0x`` hex or
C-style ``0``-prefixed octal; floats with exponent, ``f`` suffix, ``inf``/``infinity``/``nan``
(any case); booleans ``true``/``True``/``t``/``1`` and their false twins; quoted strings with
C escapes, adjacent literals concatenated.
"""

from __future__ import annotations

import math
import re
from typing import NamedTuple

from google.protobuf.descriptor import EnumDescriptor, FieldDescriptor

_OCTAL = re.compile(r"(-?)0(\d+)$")
_OCTAL_FLOAT = re.compile(r"-?0[0-9]+")
_INFINITY = re.compile(r"-?inf(?:inity)?f?$", re.IGNORECASE)
_NAN = re.compile(r"nanf?$", re.IGNORECASE)

_TRUE = frozenset({"true", "True", "t", "1"})
_FALSE = frozenset({"false", "False", "f", "0"})

_INTEGER_RANGES: dict[int, tuple[str, int, int]] = {
    FieldDescriptor.TYPE_INT32: ("int32", -(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_SINT32: ("int32", -(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_SFIXED32: ("int32", -(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_UINT32: ("uint32", 0, 2**32 - 1),
    FieldDescriptor.TYPE_FIXED32: ("uint32", 0, 2**32 - 1),
    FieldDescriptor.TYPE_INT64: ("int64", -(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_SINT64: ("int64", -(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_SFIXED64: ("int64", -(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_UINT64: ("uint64", 0, 2**64 - 1),
    FieldDescriptor.TYPE_FIXED64: ("uint64", 0, 2**64 - 1),
}

ScalarValue = int | float | bool | str | bytes


class Converted(NamedTuple):
    value: ScalarValue


class Rejected(NamedTuple):
    """Why a token cannot be a value of the field; ``kind`` picks the diagnostic."""

    kind: str  # "literal" | "range" | "enum"
    message: str


def _integer(text: str) -> int | None:
    octal = _OCTAL.match(text)
    if octal:
        text = f"{octal.group(1)}0o{octal.group(2)}"
    try:
        return int(text, 0)
    except ValueError:
        return None


def _float(text: str) -> float | None:
    if _OCTAL_FLOAT.match(text):
        return None
    try:
        return float(text)
    except ValueError:
        pass
    if _INFINITY.match(text):
        return -math.inf if text.startswith("-") else math.inf
    if _NAN.match(text):
        return math.nan
    try:
        return float(text.rstrip("fF"))
    except ValueError:
        return None


#: A ``\x`` escape with one hex digit, and the backslashes before it. protobuf's own
#: expression (``text_encoding._CUNESCAPE_HEX``) tries every backslash of a run as the start
#: of the run, which is quadratic in a long run of escaped backslashes; matching only where a
#: run starts finds the same escapes in linear time.
_ONE_DIGIT_HEX = re.compile(r"(?<!\\)(\\+)x([0-9a-fA-F])(?![0-9a-fA-F])")


def _widen_hex(match: re.Match[str]) -> str:
    """``\\xf`` → ``\\x0f`` (Python's codecs want two digits), unless the ``\\`` is escaped."""
    backslashes, digit = match.groups()
    return f"{backslashes}x0{digit}" if len(backslashes) % 2 else match.group(0)


def c_unescape(text: str) -> bytes:
    """What ``text_format.Parse`` makes of a literal's text, as ``text_encoding.CUnescape`` does.

    The same steps, with the same results and errors (a ``ValueError``), in linear time.
    """
    widened = _ONE_DIGIT_HEX.sub(_widen_hex, text)
    decoded = widened.encode("raw_unicode_escape").decode("raw_unicode_escape")
    return decoded.encode("utf-8").decode("unicode_escape").encode("latin-1")


def unescape(literals: list[str]) -> bytes | str:
    """Concatenate quoted literals; a ``str`` is an error message."""
    parts: list[bytes] = []
    for literal in literals:
        try:
            parts.append(c_unescape(literal[1:-1]))
        except ValueError as error:
            return f"invalid escape in string literal {literal}: {error}"
    return b"".join(parts)


def convert(field: FieldDescriptor, texts: list[str], quoted: bool) -> Converted | Rejected:
    """Convert a scalar's token text(s) for ``field``; ``quoted`` when they are string literals."""
    kind = field.type
    text = texts[0]
    if kind in (FieldDescriptor.TYPE_STRING, FieldDescriptor.TYPE_BYTES):
        if not quoted:
            return Rejected("literal", f"field '{field.name}' takes a quoted string, found {text}")
        if kind == FieldDescriptor.TYPE_STRING and len(texts) == 1 and "\\" not in text:
            return Converted(text[1:-1])  # nothing to unescape: the common case
        raw = unescape(texts)
        if isinstance(raw, str):
            return Rejected("literal", raw)
        if kind == FieldDescriptor.TYPE_BYTES:
            return Converted(raw)
        try:
            return Converted(raw.decode("utf-8"))
        except UnicodeDecodeError:
            return Rejected("literal", f"string for field '{field.name}' is not valid UTF-8")
    if len(texts) > 1:
        return Rejected("literal", f"field '{field.name}' takes one value, found several strings")
    if kind in _INTEGER_RANGES:
        type_name, low, high = _INTEGER_RANGES[kind]
        number = _integer(text)
        if number is None:
            return Rejected(
                "literal", f"field '{field.name}' takes an integer ({type_name}), found {text}"
            )
        if not low <= number <= high:
            bound = "an unsigned" if low == 0 else "a"
            return Rejected(
                "range",
                f"{text} is out of range for field '{field.name}', {bound} {type_name} "
                f"({low}..{high})",
            )
        return Converted(number)
    if kind in (FieldDescriptor.TYPE_FLOAT, FieldDescriptor.TYPE_DOUBLE):
        number_value = None if quoted else _float(text)
        if number_value is None:
            return Rejected("literal", f"field '{field.name}' takes a number, found {text}")
        return Converted(number_value)
    if kind == FieldDescriptor.TYPE_BOOL:
        if text in _TRUE:
            return Converted(True)
        if text in _FALSE:
            return Converted(False)
        return Rejected("literal", f"field '{field.name}' takes true or false, found {text}")
    if kind == FieldDescriptor.TYPE_ENUM:
        assert field.enum_type is not None
        return _enum(field, field.enum_type, text)
    raise AssertionError(f"unexpected scalar type {kind}")


def _enum(field: FieldDescriptor, enum: EnumDescriptor, text: str) -> Converted | Rejected:
    try:
        number = int(text, 0)
    except ValueError:
        value = enum.values_by_name.get(text)
        if value is None:
            return Rejected("enum", text)
        return Converted(value.number)
    if enum.is_closed and number not in enum.values_by_number:
        return Rejected("enum", text)
    if not -(2**31) <= number < 2**31:
        return Rejected(
            "range", f"{text} is out of range for field '{field.name}', an enum (an int32)"
        )
    return Converted(number)
