"""Differential test: tritonlint refuses a config exactly when protobuf's text_format does.

The reference is ``google.protobuf.text_format.Parse`` with the same ModelConfig descriptor.
tritonlint must report at least one error-severity syntax or schema problem (TL0xx/TL1xx) for
every input the reference refuses, and none for an input it accepts.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest
from google.protobuf import text_encoding, text_format
from google.protobuf.message import Message

from tritonlint.diagnostics import Severity
from tritonlint.document import ConfigDocument, parse_config
from tritonlint.rules.registry import by_name
from tritonlint.schema.releases import load_schema
from tritonlint.schema.scalars import c_unescape

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
SCHEMA = load_schema()

# protobuf's unescaping warns about the invalid escapes the mutations make on purpose.
pytestmark = pytest.mark.filterwarnings("ignore:invalid .*escape sequence:DeprecationWarning")

#: Tricky tokens for the mutations: delimiters, every number and string spelling, names.
SNIPPETS = [
    ":", "{", "}", "<", ">", "[", "]", ",", ";", '"x"', "'y'", "-1", "0x10", "010", "08",
    "1.5", "1e3", "inf", "-inf", "nan", "1f", "true", "t", "False", "TYPE_FP32", "KIND_GPU",
    "name", "dims", "max_batch_size", "input", "# c\n", "\n", '"\\x41"', '"\\q"', "1_0", "+5",
    "-0", ".5", "5.", '"\\xff"', "4294967296", "-2147483649", "dynamic_batching {}",
    "sequence_batching {}", "[a.b]", "-", "$", '""', "0.0", "-0.0", "${X}", "-0x10", "0X1f",
    "1.0f", "-nan", "infinity", "NaN", "1e", "0.", "'", '"', "\\", "@", 'name: "a"',
    "max_batch_size: 0", "max_batch_size: 4", 'backend: "python"', "9223372036854775808",
    "18446744073709551616", "01.5", "00", "TYPE_INVALID", "42", "f", "T", "key", "value",
    'parameters { key: "a" value { string_value: "b" } }', "version_policy { latest {} }",
    "all {}", "{}", "<>", "[]", "data_type:", "optional: 1", "2147483648", "-9223372036854775809",
]  # fmt: skip

#: Fragments of ModelConfig to build short configs from scratch, mixed with SNIPPETS.
FRAGMENTS = [
    "name: ", "max_batch_size: ", "input { ", "input [ {", "dims: [", "data_type: ", "output { ",
    "}", "]", "} ]", "instance_group { kind: ", "count: ", "parameters { key: ",
    "value { string_value: ", "dynamic_batching { ", "max_queue_delay_microseconds: ",
    "preferred_batch_size: ", "optional: ", "reshape { shape: ", "version_policy { ",
    "specific { versions: ", "model_warmup { ", "batch_size: ", "platform: ",
    "optimization { cuda { graphs: ", "input_map { key: ", "ensemble_scheduling { step { ",
    "model_version: ", "sequence_batching { direct { minimum_slot_utilization: ",
]  # fmt: skip

#: A rough tokenizer for mutations: strings, comments, words and numbers, blanks, one char.
_TOKEN = re.compile(
    r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|#[^\n]*|[A-Za-z0-9_.+\-]+|\s+|.', re.DOTALL
)


def corpus_files() -> list[Path]:
    if not CORPUS.is_dir():
        pytest.skip(f"the shared corpus is not there ({CORPUS})")
    return sorted(CORPUS.rglob("config.pbtxt"))


def tritonlint_document(data: str | bytes) -> ConfigDocument:
    return parse_config(Path("config.pbtxt"), data, SCHEMA)


def error_lines(document: ConfigDocument) -> list[int]:
    """Lines of the error-severity problems (0 for a problem of the whole file)."""
    return [
        p.span.line if p.span else 0
        for p in document.problems
        if by_name(p.rule).severity is Severity.ERROR
    ]


def tritonlint_refuses(data: str | bytes) -> bool:
    document = tritonlint_document(data)
    codes = {by_name(p.rule).code for p in document.problems}
    assert all(code.startswith(("TL0", "TL1")) for code in codes), codes
    return bool(error_lines(document))


def reference_parse(data: str | bytes) -> Message | str:
    """The message ``text_format.Parse`` reads from the text, or why it refuses it."""
    message = SCHEMA.new_config()
    try:
        text_format.Parse(data, message)
    except (text_format.ParseError, ValueError, UnicodeDecodeError) as error:
        # ValueError: an out-of-range int64 is refused by the message, not the tokenizer.
        return str(error) or type(error).__name__
    return message


def reference_error(data: str | bytes) -> str | None:
    """What ``text_format.Parse`` says about the text, or None when it accepts it."""
    result = reference_parse(data)
    return result if isinstance(result, str) else None


def same_message(document: ConfigDocument, reference: Message) -> bool:
    """Whether tritonlint bound the same values as the reference (NaN included)."""
    config = document.config
    return config is not None and config.SerializeToString(
        deterministic=True
    ) == reference.SerializeToString(deterministic=True)


def disagreement(text: str) -> str | None:
    """A description of the disagreement on ``text``, or None when both agree.

    Both must refuse it, or both accept it and read the same values from it.
    """
    parsed = reference_parse(text)
    reference = parsed if isinstance(parsed, str) else None
    ours = tritonlint_refuses(text)
    if ours and reference is not None:
        return None
    if not ours and reference is None:
        assert not isinstance(parsed, str)
        if same_message(tritonlint_document(text), parsed):
            return None
        reference = "accepts it, with other values"
    problems = [(p.rule, p.span and (p.span.line, p.span.column)) for p in
                tritonlint_document(text).problems]  # fmt: skip
    return f"{text!r}\n  text_format: {reference or 'accepts'}\n  tritonlint: {problems}"


@cache
def short_corpus_texts() -> tuple[str, ...]:
    texts = []
    for path in corpus_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        if len(text) < 4000:
            texts.append(text)
    return tuple(texts)


def rough_tokens(text: str) -> list[str]:
    """The text cut into strings, comments, words and numbers, blanks and single characters."""
    return [m.group(0) for m in _TOKEN.finditer(text)]


def mutate(text: str, rng: random.Random) -> str:
    tokens = rough_tokens(text)
    for _ in range(rng.randint(1, 3)):
        index = rng.randrange(len(tokens) + 1)
        operation = rng.random()
        if operation < 0.3 and index < len(tokens):
            del tokens[index]
        elif operation < 0.65 and index < len(tokens):
            tokens[index] = rng.choice(SNIPPETS)
        else:
            tokens.insert(index, f" {rng.choice(SNIPPETS)} ")
    return "".join(tokens)


def test_corpus_configs_are_refused_exactly_when_text_format_refuses_them() -> None:
    files = corpus_files()
    assert len(files) > 1000
    refused = 0
    mismatches = []
    for path in files:
        data = path.read_bytes()
        parsed = reference_parse(data)
        document = tritonlint_document(data)
        lines = error_lines(document)
        if not isinstance(parsed, str):
            if lines:
                mismatches.append(f"{path}: text_format accepts it, tritonlint reports {lines}")
            elif not same_message(document, parsed):
                mismatches.append(f"{path}: tritonlint binds other values than text_format")
            continue
        reference = parsed
        refused += 1
        position = re.match(r"(\d+):\d+", reference)
        if not lines:
            mismatches.append(f"{path}: text_format refuses it ({reference}), tritonlint does not")
        elif position and int(position.group(1)) not in lines:
            mismatches.append(f"{path}: text_format: {reference}; tritonlint errors on {lines}")
    assert mismatches == []
    # The corpus holds both kinds, so the comparison cannot pass vacuously.
    assert 0 < refused < len(files)


def test_mutated_corpus_configs_agree_with_text_format() -> None:
    texts = short_corpus_texts()
    rng = random.Random(20240611)
    disagreements = []
    refused = 0
    for _ in range(3000):
        mutant = mutate(rng.choice(texts), rng)
        refused += reference_error(mutant) is not None
        found = disagreement(mutant)
        if found:
            disagreements.append(found)
    assert disagreements[:5] == []
    assert 500 < refused < 3000


def test_configs_built_from_fragments_agree_with_text_format() -> None:
    rng = random.Random(1789)
    disagreements = []
    accepted = 0
    for _ in range(3000):
        pieces = [rng.choice(FRAGMENTS + SNIPPETS) for _ in range(rng.randint(1, 8))]
        text = " ".join(pieces)
        accepted += reference_error(text) is None
        found = disagreement(text)
        if found:
            disagreements.append(found)
    assert disagreements[:5] == []
    assert accepted > 20


@pytest.mark.parametrize(
    "text",
    [
        "",
        "# only a comment",
        "max_batch_size: 1 ;",
        "max_batch_size: 1;;",
        "; max_batch_size: 1",
        "input { dims: [1,] }",
        'input [ { name: "x" }; { name: "y" } ]',
        'input { name: "x" >',
        "dynamic_batching { preferred_batch_size [1] }",
        "dynamic_batching < >",
        'name: "a"\n"b"',
        'name: "\\400"',
        'name: "\\x"',
        'name: "\\U0001F600"',
        'name: "\\xff"',
        "name: a.b",
        "max_batch_size: 00",
        "max_batch_size: -0x80000000",
        "max_batch_size: 1-2",
        "input { optional: 01 }",
        "input { optional: T }",
        "input { data_type: 0x5 }",
        "input { data_type: -1 }",
        "input { data_type: 2147483648 }",
        'input { data_type: "TYPE_FP32" }',
        "instance_group { kind: kind_gpu }",
        "input { dims: 0xffffffffffffffff }",
        "sequence_batching { direct { minimum_slot_utilization: 00.5 } }",
        "sequence_batching { direct { minimum_slot_utilization: 08 } }",
        "sequence_batching { direct { minimum_slot_utilization: -nanf } }",
        "sequence_batching { direct { minimum_slot_utilization: 1e400 } }",
        "sequence_batching { direct { minimum_slot_utilization: -0.0 "
        "minimum_slot_utilization: 0.5 } }",
        "input { optional: false optional: true }",
        "input { optional: true optional: false }",
        'parameters { key: "a" key: "b" }',
        'parameters { value { string_value: "x" } }',
        'model_warmup { inputs { key: "x" value { zero_data: true random_data: true } } }',
        "[type.googleapis.com/inference.ModelInput] { }",
    ],
)
def test_edge_cases_agree_with_text_format(text: str) -> None:
    assert disagreement(text) is None


def unescaped(unescape: Callable[[str], bytes], literal: str) -> bytes | type[ValueError]:
    """What unescaping ``literal`` gives: its bytes, or ValueError when it is refused."""
    try:
        return unescape(literal)
    except ValueError:
        return ValueError


@pytest.mark.parametrize(
    "literal",
    [
        "", "plain", "\\\\" * 5000, "\\\\" * 3 + "xf", "\\\\" * 2 + "xf", "\\xf", "\\xfg", "\\x41",
        "\\x", "\\u00e9", "\\\\u00e9", "\\U0001F600", "\\N{BULLET}", "\\101", "\\400", "\\q",
        "é€", "\\\\\\xa", '\\"', "\\'",
    ],
)  # fmt: skip
def test_literals_are_unescaped_as_protobuf_unescapes_them(literal: str) -> None:
    assert unescaped(c_unescape, literal) == unescaped(text_encoding.CUnescape, literal)
