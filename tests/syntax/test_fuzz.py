"""Property-based tests: whatever the text, linting it never raises, and agrees with protobuf.

Texts come from two places: real configs of the shared corpus with tokens and characters
deleted, duplicated, swapped, inserted or cut off; and configs generated over the ModelConfig
schema, with fields of every type given right and wrong values, nested messages in ``{}`` and
``<>``, lists, maps and comments. For each, ``parse_config`` must not raise, and tritonlint
must report an error exactly when ``google.protobuf.text_format.Parse`` refuses the text (and
read the same values when both accept it), the rule of ``tests/schema/test_text_format_parity``.
"""

from __future__ import annotations

import string

import pytest
from google.protobuf import text_encoding
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schema.test_text_format_parity import (
    SCHEMA,
    SNIPPETS,
    disagreement,
    rough_tokens,
    short_corpus_texts,
    unescaped,
)

from tritonlint.schema.scalars import c_unescape

# protobuf's unescaping warns about the invalid escapes generated on purpose.
pytestmark = pytest.mark.filterwarnings("ignore:invalid .*escape sequence:DeprecationWarning")

FUZZ = settings(
    max_examples=400,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

#: Short pieces of text to insert: delimiters, quotes, escapes, numbers, names, comments.
PIECES = [*SNIPPETS, "{", "<", "[", '"', "'", "\\", "#", "\n", "@", "`", "${", "}}", "]]"]


# --- Mutated corpus configs ------------------------------------------------------------------


@st.composite
def mutated_configs(draw: st.DrawFn) -> str:
    texts = short_corpus_texts()
    text = draw(st.sampled_from(texts))
    for _ in range(draw(st.integers(1, 4))):
        text = draw(_mutation(text))
    return text


def _mutation(text: str) -> st.SearchStrategy[str]:
    tokens = rough_tokens(text) or [""]
    index = st.integers(0, len(tokens) - 1)
    at = st.integers(0, len(text))
    return st.one_of(
        index.map(lambda i: "".join(tokens[:i] + tokens[i + 1 :])),  # delete a token
        index.map(lambda i: "".join(tokens[: i + 1] + tokens[i:])),  # duplicate a token
        st.tuples(index, index).map(lambda ij: "".join(_swapped(tokens, *ij))),
        st.tuples(index, st.sampled_from(PIECES)).map(
            lambda ip: "".join([*tokens[: ip[0]], f" {ip[1]} ", *tokens[ip[0] :]])
        ),
        st.tuples(at, st.sampled_from(PIECES)).map(
            lambda ap: text[: ap[0]] + ap[1] + text[ap[0] :]  # insert inside a token too
        ),
        at.map(lambda a: text[:a] + text[a + 1 :]),  # delete a character
        at.map(lambda a: text[:a]),  # cut off
    )


def _swapped(tokens: list[str], i: int, j: int) -> list[str]:
    swapped = list(tokens)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    return swapped


@FUZZ
@given(mutated_configs())
def test_mutated_corpus_configs_agree_with_text_format(text: str) -> None:
    found = disagreement(text)  # parse_config raising fails the test too
    assert found is None, found


# --- Configs generated over the schema -------------------------------------------------------

_INT_TYPES = {
    FieldDescriptor.TYPE_INT32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_INT64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_UINT32: (0, 2**32 - 1),
    FieldDescriptor.TYPE_UINT64: (0, 2**64 - 1),
}
_FLOAT_TYPES = (FieldDescriptor.TYPE_FLOAT, FieldDescriptor.TYPE_DOUBLE)
_STRING_TYPES = (FieldDescriptor.TYPE_STRING, FieldDescriptor.TYPE_BYTES)

#: Escapes, valid and not, and text that means something outside a string.
_ESCAPES = [
    "\\n", "\\t", "\\\\", "\\'", '\\"', "\\x41", "\\xf", "\\101", "\\0", "\\400", "\\q", "\\x",
    "\\u00e9", "\\U0001F600", "\\xff", "\\N{BULLET}", "${X}", "#",
]  # fmt: skip
_LITERAL_PIECES = st.one_of(
    st.text(string.ascii_letters + string.digits + " _-./:é€", max_size=6),
    st.sampled_from(_ESCAPES),
)


@st.composite
def _string_literal(draw: st.DrawFn) -> str:
    quote = draw(st.sampled_from(['"', "'"]))
    body = "".join(draw(st.lists(_LITERAL_PIECES, max_size=4)))
    body = body.replace(quote, "\\" + quote)
    closing = quote if draw(st.integers(0, 30)) else ""  # now and then, unterminated
    return quote + body + closing


def _integer_text(value: int) -> st.SearchStrategy[str]:
    forms = [str(value)]
    if value >= 0:
        forms += [hex(value), f"0{value:o}" if value else "0", f"+{value}"]
    else:
        forms += [f"-{-value:#x}"]
    return st.sampled_from(forms)


def _integer(low: int, high: int) -> st.SearchStrategy[str]:
    edges = [low, high, low - 1, high + 1, 0, 1, -1]
    return st.one_of(st.sampled_from(edges), st.integers(low, high)).flatmap(_integer_text)


_FLOAT_SPELLINGS = [
    "inf", "-inf", "nan", "-nan", "Infinity", "1e400", "1f", "1.5F", ".5", "5.", "-0.0", "1e",
    "01.5", "08", "0x10", "1_0",
]  # fmt: skip
_FLOAT = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False, width=32).map(repr),
    st.sampled_from(_FLOAT_SPELLINGS),
)
_BOOL = st.sampled_from(["true", "false", "True", "False", "t", "f", "1", "0", "yes", "2"])


def _scalar(field: FieldDescriptor) -> st.SearchStrategy[str]:
    """A value for a scalar field: usually of its type, sometimes of another."""
    if field.type in _STRING_TYPES:
        right = st.lists(_string_literal(), min_size=1, max_size=3).map(" ".join)
    elif field.type in _INT_TYPES:
        right = _integer(*_INT_TYPES[field.type])
    elif field.type in _FLOAT_TYPES:
        right = _FLOAT
    elif field.type == FieldDescriptor.TYPE_BOOL:
        right = _BOOL
    else:
        assert field.enum_type is not None
        names = [value.name for value in field.enum_type.values]
        right = st.one_of(
            st.sampled_from(names),
            st.sampled_from([*(n.lower() for n in names), "TYPE_NOPE", "1", "-1", "99", "0x1"]),
        )
    wrong = st.one_of(_string_literal(), _integer(-5, 5), _FLOAT, _BOOL, st.just("{ }"))
    return st.one_of(right, right, right, wrong)


@st.composite
def _comment(draw: st.DrawFn) -> str:
    return " # " + draw(st.text(string.printable.replace("\n", "").replace("\r", ""), max_size=8))


@st.composite
def _fields(draw: st.DrawFn, message: Descriptor, depth: int) -> str:
    """Some fields of ``message``, each with separators, comments and layout drawn too."""
    names = [field.name for field in message.fields] or ["nope"]
    chosen = draw(st.lists(st.sampled_from(names), max_size=4 if depth < 3 else 1))
    parts = []
    for name in chosen:
        if not draw(st.integers(0, 20)):
            name = draw(st.sampled_from(["nope", name.upper(), name + "s", "[ext.x]"]))
        descriptor = message.fields_by_name.get(name)
        parts.append(draw(_field(name, descriptor, depth)))
        parts.append(draw(st.sampled_from(["", "", ",", ";", "\n", " "])))
        if not draw(st.integers(0, 8)):
            parts.append(draw(_comment()) + "\n")
    return " ".join(parts)


@st.composite
def _field(draw: st.DrawFn, name: str, field: FieldDescriptor | None, depth: int) -> str:
    if field is None or field.message_type is None:
        value = draw(_scalar(field)) if field is not None else draw(_integer(0, 3))
        if field is not None and field.is_repeated and draw(st.booleans()):
            values = draw(st.lists(_scalar(field), max_size=3))
            value = "[" + ", ".join(values) + "]"
        colon = ":" if draw(st.integers(0, 15)) else ""
        return f"{name}{colon} {value}"
    colon = draw(st.sampled_from(["", ":"]))
    if field.is_repeated and draw(st.booleans()):
        messages = draw(st.lists(_message(field.message_type, depth + 1), max_size=2))
        return f"{name}{colon} [ {', '.join(messages)} ]"
    if not draw(st.integers(0, 20)):
        return f"{name}: {draw(_integer(0, 3))}"  # a scalar where a message goes
    return f"{name}{colon} {draw(_message(field.message_type, depth + 1))}"


@st.composite
def _message(draw: st.DrawFn, message: Descriptor, depth: int) -> str:
    opening, closing = draw(st.sampled_from([("{", "}"), ("{", "}"), ("<", ">")]))
    body = draw(_fields(message, depth)) if depth < 4 else ""
    if not draw(st.integers(0, 30)):
        closing = draw(st.sampled_from(["", ">" if closing == "}" else "}"]))
    return f"{opening} {body} {closing}"


@st.composite
def schema_configs(draw: st.DrawFn) -> str:
    return draw(_fields(SCHEMA.model_config, 0))


@FUZZ
@given(schema_configs())
def test_configs_generated_over_the_schema_agree_with_text_format(text: str) -> None:
    found = disagreement(text)  # parse_config raising fails the test too
    assert found is None, found


# --- String literals ------------------------------------------------------------------------


@FUZZ
@given(st.text(alphabet="\\xuUN{}0123456789abcdefABCDEFé\"' ", max_size=30))
def test_unescaping_a_literal_matches_protobuf(text: str) -> None:
    assert unescaped(c_unescape, text) == unescaped(text_encoding.CUnescape, text)
