"""Binding a syntax tree to ModelConfig: values, problems, and where each value came from."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest
from google.protobuf import text_format
from google.protobuf.message import Message

from tritonlint.rules.registry import by_name
from tritonlint.schema.binder import BoundConfig, SchemaProblem, bind
from tritonlint.schema.releases import Schema, load_schema
from tritonlint.span import Span
from tritonlint.syntax.parser import parse

SCHEMA = load_schema()


def bind_text(text: str) -> BoundConfig:
    """Bind text that has no syntax error."""
    result = parse(text)
    assert result.problems == [], result.problems
    return bind(result.document, SCHEMA.new_config())


def start(span: Span) -> tuple[int, int]:
    return (span.line, span.column)


Span4 = tuple[int, int, int, int]


def where(span: Span) -> Span4:
    return (span.line, span.column, span.end_line, span.end_column)


def summary(problems: list[SchemaProblem]) -> list[tuple[str, int, int]]:
    return [(p.rule, p.span.line, p.span.column) for p in problems]


def one(bound: BoundConfig, rule: str) -> SchemaProblem:
    found = [p for p in bound.problems if p.rule == rule]
    assert len(found) == 1, summary(bound.problems)
    return found[0]


def pointing_back(
    text: str, rule: str, at: Span4, earlier: Span4
) -> tuple[BoundConfig, SchemaProblem]:
    """``text`` bound, and its one ``rule`` problem: at ``at``, pointing back at one place,
    ``earlier``."""
    bound = bind_text(text)
    problem = one(bound, rule)
    assert where(problem.span) == at
    assert [where(span) for span, _ in problem.related] == [earlier]
    return bound, problem


def reference_accepts(schema: Schema, text: str) -> bool:
    try:
        text_format.Parse(text, schema.new_config())
    except (text_format.ParseError, ValueError):
        return False
    return True


# --- The bound message ----------------------------------------------------------------------

VALID = """\
name: "resnet"
platform: "onnxruntime_onnx"
max_batch_size: 0x10
input [
  { name: "INPUT0" data_type: TYPE_FP32 format: FORMAT_NCHW dims: [ 3, 224, 224 ] },
  { name: "MASK" data_type: 9 dims: [ -1 ] optional: t }
]
output { name: "OUT" data_type: TYPE_FP32 dims: [ 1000 ] label_filename: 'labels.txt' }
instance_group [ { kind: KIND_GPU count: 2 gpus: [ 0, 1 ] } ]
dynamic_batching { preferred_batch_size: [ 4, 8 ] max_queue_delay_microseconds: 0100 }
parameters { key: "k" value { string_value: "a" "b" } }
parameters: { key: "n" value: { string_value: "\\x41\\101" } }
version_policy { specific { versions: [ 1, 3 ] } }
"""


def test_a_valid_config_binds_to_a_real_model_config(schema: Schema) -> None:
    text = VALID
    bound = bind_text(text)
    assert bound.problems == []
    config = bound.message
    assert isinstance(config, Message)
    assert config.DESCRIPTOR.full_name == "inference.ModelConfig"
    # The same values protobuf's own parser reads.
    reference = schema.new_config()
    text_format.Parse(text, reference)
    assert config == reference
    assert config.max_batch_size == 16
    assert list(config.input[0].dims) == [3, 224, 224]
    assert config.input[1].data_type == 9
    assert config.input[1].optional is True
    assert config.output[0].label_filename == "labels.txt"
    assert list(config.instance_group[0].gpus) == [0, 1]
    assert config.dynamic_batching.max_queue_delay_microseconds == 64  # octal
    assert config.parameters["k"].string_value == "ab"
    assert config.parameters["n"].string_value == "AA"
    assert list(config.version_policy.specific.versions) == [1, 3]


def test_source_map_points_at_fields_names_and_values() -> None:
    source_map = bind_text(VALID).source_map
    dims_1 = source_map.get(("input", 0, "dims", 1))
    assert dims_1 is not None
    assert where(dims_1.value) == (5, 72, 5, 75)
    assert where(dims_1.name) == (5, 61, 5, 65)
    first_input = source_map.get(("input", 0))
    second_input = source_map.get(("input", 1))
    assert first_input is not None and second_input is not None
    assert where(first_input.value) == (5, 3, 5, 84)
    assert start(second_input.value) == (6, 3)
    assert where(source_map.get(("max_batch_size",)).value) == (3, 17, 3, 21)  # type: ignore[union-attr]
    # Map entries are addressed by key.
    entry = source_map.get(("parameters", "k", "value", "string_value"))
    assert entry is not None and where(entry.value) == (11, 45, 11, 52)
    assert start(source_map.get(("parameters", "n")).field) == (12, 1)  # type: ignore[union-attr]
    # A path that was never set resolves to its closest recorded parent.
    assert source_map.get(("input", 0, "reshape")) is None
    nearest = source_map.nearest(("input", 0, "reshape"))
    assert nearest is not None and nearest.value == first_input.value
    nearest = source_map.nearest(("output", 0, "label_filename"))
    assert nearest is not None and nearest.name is not None


def test_bound_string_escapes_and_special_floats() -> None:
    bound = bind_text(
        "name: \"tab\\there\" '\\101'\n"
        "sequence_batching { direct { minimum_slot_utilization: -inf } }"
    )
    assert bound.problems == []
    assert bound.message.name == "tab\thereA"
    assert math.isinf(bound.message.sequence_batching.direct.minimum_slot_utilization)


# --- Problems -------------------------------------------------------------------------------


def test_unknown_field_suggests_the_closest_name() -> None:
    bound = bind_text('input {\n  name: "x"\n  dim: [ 16 ]\n}\n')
    problem = one(bound, "unknown-field")
    assert where(problem.span) == (3, 3, 3, 6)
    assert 'no field named "dim"' in problem.message
    assert "did you mean 'dims'?" in problem.message
    assert "inference.ModelInput" in problem.message
    assert summary(bound.problems) == [("unknown-field", 3, 3)]


def test_unknown_field_without_a_close_match_has_no_suggestion() -> None:
    problem = one(bind_text("zzzzzzzzz: 1"), "unknown-field")
    assert "did you mean" not in problem.message
    assert "(valid fields: name, platform" in problem.message


def test_extension_names_are_unknown_fields() -> None:
    problem = one(bind_text("[inference.x]: 1"), "unknown-field")
    assert where(problem.span) == (1, 1, 1, 14)
    assert "has no extensions" in problem.message


def test_parameter_value_given_as_a_string_is_a_wrong_value_type() -> None:
    bound = bind_text('parameters { key: "model_type" value: "Transformer" }')
    problem = one(bound, "wrong-value-type")
    assert where(problem.span) == (1, 39, 1, 52)
    assert "inference.ModelParameter" in problem.message


@pytest.mark.parametrize(
    ("text", "column"),
    [
        ("input: 5", 8),  # a scalar for a message
        ("name { }", 6),  # a message for a scalar
        ("max_batch_size: [ 1, 2 ]", 17),  # a list for a single field
    ],
)
def test_wrong_value_types(schema: Schema, text: str, column: int) -> None:
    bound = bind(parse(text).document, schema.new_config())
    problem = one(bound, "wrong-value-type")
    assert start(problem.span) == (1, column)


@pytest.mark.parametrize(
    ("text", "span", "phrase"),
    [
        ("name: resnet50", (1, 7, 1, 15), "takes a quoted string, found resnet50"),
        ("max_batch_size: 8.0", (1, 17, 1, 20), "takes an integer (int32), found 8.0"),
        ('max_batch_size: "8"', (1, 17, 1, 20), 'found "8"'),
        ("input { is_shape_tensor: 2 }", (1, 26, 1, 27), "takes true or false, found 2"),
        ("input { optional: yes }", (1, 19, 1, 22), "takes true or false, found yes"),
        ("max_batch_size: 08", (1, 17, 1, 19), "found 08"),
        ('name: "\\xff"', (1, 7, 1, 13), "not valid UTF-8"),
        ("sequence_batching { direct { minimum_slot_utilization: 0x10 } }", (1, 56, 1, 60), "0x10"),
    ],
)
def test_invalid_values(
    schema: Schema, text: str, span: tuple[int, int, int, int], phrase: str
) -> None:
    problem = one(bind_text(text), "invalid-value")
    assert where(problem.span) == span
    assert phrase in problem.message
    assert not reference_accepts(schema, text)


@pytest.mark.parametrize(
    ("text", "column", "phrase"),
    [
        ("dynamic_batching { max_queue_delay_microseconds: -1 }", 50, "an unsigned uint64"),
        ("version_policy { latest { num_versions: 4294967296 } }", 41, "an unsigned uint32"),
        ("max_batch_size: 2147483648", 17, "int32 (-2147483648..2147483647)"),
        ("max_batch_size: -2147483649", 17, "int32"),
        ("max_batch_size: 0x80000000", 17, "int32"),
        ("input { dims: 9223372036854775808 }", 15, "int64"),
    ],
)
def test_integers_out_of_range(schema: Schema, text: str, column: int, phrase: str) -> None:
    problem = one(bind_text(text), "integer-out-of-range")
    assert start(problem.span) == (1, column)
    assert phrase in problem.message
    assert by_name(problem.rule).code == "TL104"
    assert not reference_accepts(schema, text)


@pytest.mark.parametrize(
    "text",
    [
        "max_batch_size: 2147483647",
        "max_batch_size: -2147483648",
        "version_policy { latest { num_versions: 4294967295 } }",
        "input { dims: -9223372036854775808 }",
    ],
)
def test_integers_at_the_limits_are_accepted(text: str) -> None:
    assert bind_text(text).problems == []


def test_unknown_enum_name_is_an_error_listing_the_values() -> None:
    problem = one(bind_text("input { data_type: TYPE_FLOAT32 }"), "unknown-enum-value")
    assert where(problem.span) == (1, 20, 1, 32)
    assert "TYPE_FLOAT32 is not a value of inference.DataType" in problem.message
    assert "TYPE_FP32" in problem.message


@pytest.mark.parametrize(
    ("text", "guess"),
    [("input { data_type: FP32 }", "TYPE_FP32"), ("instance_group { kind: GPU }", "KIND_GPU")],
)
def test_enum_name_without_its_prefix_gets_a_suggestion(text: str, guess: str) -> None:
    problem = one(bind_text(text), "unknown-enum-value")
    assert f"did you mean {guess}?" in problem.message


@pytest.mark.parametrize(
    ("text", "guess"),
    [
        ("input { data_type: TYPE_FLOAT32 }", "TYPE_FP32"),
        ("instance_group { kind: KIND_CPUS }", "KIND_CPU"),
    ],
)
def test_misspelt_enum_name_gets_a_suggestion(text: str, guess: str) -> None:
    problem = one(bind_text(text), "unknown-enum-value")
    assert f"did you mean {guess}?" in problem.message


def test_unknown_enum_number_is_a_warning_and_the_value_is_kept(schema: Schema) -> None:
    text = "input { data_type: 42 }"
    bound = bind_text(text)
    problem = one(bound, "unknown-enum-number")
    assert where(problem.span) == (1, 20, 1, 22)
    assert by_name(problem.rule).severity.value == "warning"
    assert bound.message.input[0].data_type == 42
    assert reference_accepts(schema, text)


def test_enum_number_beyond_int32_is_only_an_error() -> None:
    bound = bind_text("input { data_type: 2147483648 }")
    assert [p.rule for p in bound.problems] == ["integer-out-of-range"]


def test_duplicate_non_repeated_field_is_an_error_pointing_at_the_first(schema: Schema) -> None:
    text = 'max_batch_size: 8\nname: "a"\nmax_batch_size: 16\n'
    bound, problem = pointing_back(text, "duplicate-field", (3, 1, 3, 15), (1, 1, 1, 15))
    assert "'max_batch_size' is specified more than once" in problem.message
    assert [note for _, note in problem.related] == ["first given here"]
    assert bound.message.max_batch_size == 8
    assert not reference_accepts(schema, text)


def test_duplicate_message_field_is_an_error() -> None:
    bound = bind_text("dynamic_batching { }\ndynamic_batching { }")
    problem = one(bound, "duplicate-field")
    assert start(problem.span) == (2, 1)
    assert [start(span) for span, _ in problem.related] == [(1, 1)]


@pytest.mark.parametrize(
    ("text", "where_second", "read"),
    [
        ("max_batch_size: 0\nmax_batch_size: 16", (2, 1), lambda c: c.max_batch_size == 16),
        ('name: ""\nname: "x"', (2, 1), lambda c: c.name == "x"),
        (
            "input { optional: false\n  optional: true }",
            (2, 3),
            lambda c: c.input[0].optional is True,
        ),
    ],
)
def test_default_then_value_is_a_warning_and_the_later_value_wins(
    schema: Schema,
    text: str,
    where_second: tuple[int, int],
    read: Callable[[Any], bool],
) -> None:
    bound = bind_text(text)
    problem = one(bound, "overridden-field")
    assert start(problem.span) == where_second
    assert by_name(problem.rule).severity.value == "warning"
    assert [(span.line, note) for span, note in problem.related] == [(1, "first given here")]
    assert read(bound.message)
    # protobuf's parser accepts it, with the same result.
    reference = schema.new_config()
    text_format.Parse(text, reference)
    assert bound.message == reference


def test_value_then_default_is_a_duplicate(schema: Schema) -> None:
    text = "max_batch_size: 4\nmax_batch_size: 0"
    assert [p.rule for p in bind_text(text).problems] == ["duplicate-field"]
    assert not reference_accepts(schema, text)


def test_scheduling_oneof_conflict(schema: Schema) -> None:
    text = "dynamic_batching { }\nsequence_batching { }\n"
    bound = bind_text(text)
    problem = one(bound, "oneof-conflict")
    assert where(problem.span) == (2, 1, 2, 18)
    assert "'sequence_batching' is specified along with field 'dynamic_batching'" in (
        problem.message
    )
    assert "oneof 'scheduling_choice'" in problem.message
    [(first, note)] = problem.related
    assert start(first) == (1, 1)
    assert note == "'dynamic_batching' is set here"
    assert bound.message.WhichOneof("scheduling_choice") == "dynamic_batching"
    assert not reference_accepts(schema, text)


def test_version_policy_oneof_conflict() -> None:
    bound = bind_text("version_policy {\n  latest { num_versions: 2 }\n  all { }\n}")
    problem = one(bound, "oneof-conflict")
    assert where(problem.span) == (3, 3, 3, 6)
    assert "oneof 'policy_choice'" in problem.message
    assert [start(span) for span, _ in problem.related] == [(2, 3)]


def test_duplicate_map_key_is_a_warning_and_the_last_entry_wins(schema: Schema) -> None:
    text = (
        'parameters { key: "a" value { string_value: "1" } }\n'
        'parameters { key: "b" value { string_value: "x" } }\n'
        'parameters { key: "a" value { string_value: "2" } }\n'
    )
    bound, problem = pointing_back(text, "duplicate-map-key", (3, 12, 3, 52), (1, 12, 1, 52))
    assert "key 'a' appears more than once in 'parameters'" in problem.message
    assert [note for _, note in problem.related] == ["first entry with this key"]
    assert by_name(problem.rule).severity.value == "warning"
    assert bound.message.parameters["a"].string_value == "2"
    assert reference_accepts(schema, text)


def test_every_schema_problem_names_a_declared_rule() -> None:
    bound = bind_text(
        "dim: 1\nname: x\nmax_batch_size: 0\nmax_batch_size: 1\ninput { data_type: NOPE }\n"
        "input { dims: -9223372036854775809 }\ninput { data_type: 99 }\n"
        "dynamic_batching {} sequence_batching {}\n"
        'parameters { key: "a" } parameters { key: "a" }\ninput: 1\n'
    )
    rules = {p.rule for p in bound.problems}
    assert rules == {
        "unknown-field",
        "invalid-value",
        "integer-out-of-range",
        "unknown-enum-value",
        "unknown-enum-number",
        "overridden-field",
        "oneof-conflict",
        "duplicate-map-key",
        "wrong-value-type",
    }
    assert all(by_name(rule).pack == "schema" for rule in rules)
