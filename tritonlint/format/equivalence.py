"""Whether a formatted text says what the original said.

Two judges. The structural one compares the two syntax trees: the same fields with the same
names in the same order, the same values (strings by the bytes they stand for, numbers and
names by their text), lists where there were lists; it holds for any text-format file.
protobuf's own parser is the judge of a ModelConfig: when it reads the original, it must read
the formatted text into the same message (compared by its deterministic serialization, so a
NaN equals itself).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

from tritonlint.schema.scalars import c_unescape
from tritonlint.syntax.cst import Field, ListValue, Message, Scalar, ScalarKind, SyntaxTree


def same_structure(original: SyntaxTree, formatted: SyntaxTree) -> bool:
    return _fields(original.fields) == _fields(formatted.fields)


def _fields(fields: Sequence[Field]) -> tuple[Any, ...]:
    return tuple(
        (field.name.text, field.name.is_extension, _value(field.value)) for field in fields
    )


def _value(value: Scalar | Message | ListValue) -> Any:
    if isinstance(value, Message):
        return ("message", _fields(value.fields))
    if isinstance(value, ListValue):
        return ("list", tuple(_value(item) for item in value.items))
    if value.kind is ScalarKind.STRING:
        try:
            return ("string", b"".join(c_unescape(token.text[1:-1]) for token in value.tokens))
        except ValueError:
            return ("string as written", value.text)
    return (value.kind.value, value.text)


def protobuf_agrees(original: str, formatted: str) -> bool | None:
    """Whether protobuf reads ``formatted`` as the same ModelConfig as ``original``; None when
    it does not read ``original`` as a ModelConfig at all (another kind of file, or one with
    a mistake the linter reports), so has no say."""
    from google.protobuf import text_format

    from tritonlint.schema.releases import load_schema

    schema = load_schema()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # invalid escapes are read the same way twice
        try:
            before = text_format.Parse(original, schema.new_config())
        except Exception:  # whatever protobuf refuses, for whatever reason: no verdict
            return None
        try:
            after = text_format.Parse(formatted, schema.new_config())
        except Exception:
            return False
    return bool(
        before.SerializeToString(deterministic=True) == after.SerializeToString(deterministic=True)
    )
