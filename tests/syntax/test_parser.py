"""The text-format parser: what it accepts, the spans it records, and how it recovers."""

from __future__ import annotations

import sys
import tracemalloc
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from tritonlint.span import Span
from tritonlint.syntax.cst import Field, ListValue, Message, Scalar, ScalarKind
from tritonlint.syntax.parser import MAX_SYNTAX_ERRORS, ParseResult, SyntaxProblem, parse


def clean(text: str) -> ParseResult:
    """Parse text that must have no syntax problem."""
    result = parse(text)
    assert result.problems == [], [(p.span, p.message) for p in result.problems]
    return result


def where(span: Span) -> tuple[int, int, int, int]:
    return (span.line, span.column, span.end_line, span.end_column)


def at(problem: SyntaxProblem) -> tuple[int, int]:
    return (problem.span.line, problem.span.column)


def reported(problems: list[SyntaxProblem]) -> list[tuple[tuple[int, int], str]]:
    """Where each problem is and the first part of its message (before any added hint)."""
    return [(at(p), p.message.split(" (", 1)[0]) for p in problems]


def names(fields: list[Field]) -> list[str]:
    return [f.name.text for f in fields]


def scalar(field: Field) -> Scalar:
    assert isinstance(field.value, Scalar), field.value
    return field.value


def message(field: Field) -> Message:
    assert isinstance(field.value, Message), field.value
    return field.value


def items(field: Field) -> ListValue:
    assert isinstance(field.value, ListValue), field.value
    return field.value


# --- What the grammar accepts -------------------------------------------------------------


def test_empty_and_comment_only_files_parse_without_problems() -> None:
    assert clean("").document.fields == []
    assert clean("\n\n   \n").document.fields == []
    only_comment = clean("# nothing but a comment\n")
    assert only_comment.document.fields == []
    assert [c.text for c in only_comment.document.trailing_comments] == ["# nothing but a comment"]


def test_scalar_field_has_exact_spans_for_name_value_and_field() -> None:
    field = clean('name: "resnet"\nmax_batch_size: 8\n').document.fields[1]
    assert field.name.text == "max_batch_size"
    assert where(field.name.span) == (2, 1, 2, 15)
    assert field.colon is not None and where(field.colon.span) == (2, 15, 2, 16)
    assert where(scalar(field).span) == (2, 17, 2, 18)
    assert where(field.span) == (2, 1, 2, 18)
    assert field.span.start == len('name: "resnet"\n')


def test_columns_count_code_points_not_bytes() -> None:
    field = clean('name: "café"  max_batch_size: 1').document.fields[1]
    assert where(field.name.span) == (1, 15, 1, 29)


@pytest.mark.parametrize(
    ("text", "open_text", "close_text"),
    [
        ('input { name: "a" }', "{", "}"),
        ('input: { name: "a" }', "{", "}"),
        ('input < name: "a" >', "<", ">"),
        ('input: < name: "a" >', "<", ">"),
    ],
)
def test_messages_take_braces_or_angles_and_an_optional_colon(
    text: str, open_text: str, close_text: str
) -> None:
    field = clean(text).document.fields[0]
    value = message(field)
    assert (value.open.text, value.close.text) == (open_text, close_text)
    assert (field.colon is not None) == (":" in text.split("name")[0])
    assert names(value.fields) == ["name"]
    assert scalar(value.fields[0]).text == '"a"'
    assert where(value.span) == (1, text.index(open_text) + 1, 1, len(text) + 1)


def test_nested_messages_keep_their_own_spans() -> None:
    text = "optimization {\n  cuda {\n    graphs: true\n  }\n}\n"
    outer = clean(text).document.fields[0]
    cuda = message(outer).fields[0]
    graphs = message(cuda).fields[0]
    assert where(message(outer).span) == (1, 14, 5, 2)
    assert where(cuda.span) == (2, 3, 4, 4)
    assert where(graphs.name.span) == (3, 5, 3, 11)
    assert where(scalar(graphs).span) == (3, 13, 3, 17)


def test_commas_and_semicolons_separate_fields() -> None:
    fields = clean("a: 1, b: 2; c { d: 3; }, e: 4").document.fields
    assert names(fields) == ["a", "b", "c", "e"]
    assert [f.separator.text if f.separator else None for f in fields] == [",", ";", ",", None]
    # The separator is part of the field's span.
    assert where(fields[0].span) == (1, 1, 1, 6)
    assert names(message(fields[2]).fields) == ["d"]


def test_scalar_list_items_and_spans() -> None:
    field = clean("dims: [ 1, -1, 0x10 ]").document.fields[0]
    value = items(field)
    assert [item.text for item in value.items if isinstance(item, Scalar)] == ["1", "-1", "0x10"]
    assert [where(item.span) for item in value.items] == [
        (1, 9, 1, 10),
        (1, 12, 1, 14),
        (1, 16, 1, 20),
    ]
    assert where(value.span) == (1, 7, 1, 22)


def test_message_list_with_and_without_colon() -> None:
    for colon in ("", ":"):
        text = f'input{colon} [ {{ name: "a" }}, < name: "b" > ]'
        value = items(clean(text).document.fields[0])
        assert [type(item).__name__ for item in value.items] == ["Message", "Message"]
        assert [names(item.fields) for item in value.items if isinstance(item, Message)] == [
            ["name"],
            ["name"],
        ]


def test_empty_list() -> None:
    value = items(clean("dims: []").document.fields[0])
    assert value.items == []
    assert where(value.span) == (1, 7, 1, 9)


def test_double_and_single_quoted_strings_with_escapes() -> None:
    text = r"""a: "say \"hi\"\n" b: 'it\'s' c: "\x41\101\t" d: "#not a comment" """
    fields = clean(text).document.fields
    assert names(fields) == ["a", "b", "c", "d"]
    assert [scalar(f).kind for f in fields] == [ScalarKind.STRING] * 4
    assert scalar(fields[0]).text == r'"say \"hi\"\n"'
    assert scalar(fields[1]).text == r"'it\'s'"
    assert scalar(fields[2]).text == r'"\x41\101\t"'
    assert scalar(fields[3]).text == '"#not a comment"'


def test_adjacent_string_literals_are_one_value() -> None:
    field = clean('name: "first" \'second\'\n   "third"\nnext: 1').document.fields[0]
    value = scalar(field)
    assert value.kind is ScalarKind.STRING
    assert [token.text for token in value.tokens] == ['"first"', "'second'", '"third"']
    assert where(value.span) == (1, 7, 2, 11)


@pytest.mark.parametrize(
    "number",
    [
        "0", "8", "-5", "+5", "-0", "0x1F", "0X1f", "-0x10", "017", "-010",
        "1.5", "-1.5", "1e3", "1E+2", "1.5e-3", ".5", "5.", "2f", "1.0F", "-0.0",
        "10bar", "1.2.3",
    ],
)  # fmt: skip
def test_number_literals_are_one_token(number: str) -> None:
    field = clean(f"value: {number}\nnext: 1").document.fields[0]
    value = scalar(field)
    assert value.kind is ScalarKind.NUMBER
    assert [token.text for token in value.tokens] == [number]
    assert where(value.span) == (1, 8, 1, 8 + len(number))


@pytest.mark.parametrize("word", ["inf", "nan", "infinity", "true", "False", "t", "TYPE_FP32"])
def test_identifiers_as_values(word: str) -> None:
    value = scalar(clean(f"x: {word}").document.fields[0])
    assert (value.kind, value.text) == (ScalarKind.IDENTIFIER, word)


def test_signed_identifier_is_a_number_token() -> None:
    # `-inf` is one token, as in the reference tokenizer; the schema decides what it means.
    value = scalar(clean("x: -inf").document.fields[0])
    assert value.text == "-inf"
    assert value.kind is ScalarKind.NUMBER


def test_enum_given_by_name_and_by_number() -> None:
    fields = clean("data_type: TYPE_FP32\ndata_type: 11").document.fields
    assert [(scalar(f).kind, scalar(f).text) for f in fields] == [
        (ScalarKind.IDENTIFIER, "TYPE_FP32"),
        (ScalarKind.NUMBER, "11"),
    ]


def test_extension_field_names() -> None:
    fields = clean("[ext.name]: 1\n[type.googleapis.com/pkg.Type] { a: 1 }").document.fields
    assert [(f.name.text, f.name.is_extension) for f in fields] == [
        ("ext.name", True),
        ("type.googleapis.com/pkg.Type", True),
    ]
    assert where(fields[0].name.span) == (1, 1, 1, 11)
    assert where(fields[1].name.span) == (2, 1, 2, 31)
    assert names(message(fields[1]).fields) == ["a"]


def test_plain_names_are_not_extensions() -> None:
    field = clean("a: 1").document.fields[0]
    assert field.name.is_extension is False
    assert field.name.missing is False


# --- Comments -------------------------------------------------------------------------------

COMMENTED = """\
# header
name: "x"  # after name
# before input
input {
  # before dims
  dims: [ 16 ]  # after dims
  # last in input
}
# end of file
"""


def test_comments_attach_to_the_fields_they_belong_to() -> None:
    document = clean(COMMENTED).document
    name, input_field = document.fields
    assert [c.text for c in name.leading_comments] == ["# header"]
    assert name.trailing_comment is not None
    assert name.trailing_comment.text == "# after name"
    assert where(name.trailing_comment.span) == (2, 12, 2, 24)
    assert [c.text for c in input_field.leading_comments] == ["# before input"]
    dims = message(input_field).fields[0]
    assert [c.text for c in dims.leading_comments] == ["# before dims"]
    assert dims.trailing_comment is not None and dims.trailing_comment.text == "# after dims"
    assert [c.text for c in message(input_field).inner_comments] == ["# last in input"]
    assert [c.text for c in document.trailing_comments] == ["# end of file"]


def test_every_comment_is_kept_once() -> None:
    document = clean(COMMENTED).document
    assert [c.text for c in document.comments] == [
        "# header",
        "# after name",
        "# before input",
        "# before dims",
        "# after dims",
        "# last in input",
        "# end of file",
    ]


def test_comment_between_name_and_value_and_inside_scalar_list_stays_with_the_field() -> None:
    field = clean('dims: [ 1, # one\n 2 ]\nname: # why\n  "x"').document.fields
    assert [c.text for c in field[0].leading_comments] == ["# one"]
    assert [c.text for c in field[1].leading_comments] == ["# why"]


def test_comment_in_an_otherwise_empty_message_is_inner() -> None:
    field = clean("dynamic_batching {\n  # defaults\n}").document.fields[0]
    assert [c.text for c in message(field).inner_comments] == ["# defaults"]
    assert field.leading_comments == []


def test_comments_kept_with_a_message_list_are_in_source_order() -> None:
    text = 'input [\n  # first\n  { name: "a" },\n  { name: "b" }\n  # last\n]\n'
    field = clean(text).document.fields[0]
    assert [c.text for c in field.leading_comments] == ["# first", "# last"]


# --- Syntax errors and recovery -------------------------------------------------------------

SEVERAL_ERRORS = """\
name: "a"
input {
  name "x"
  dims: [1 2]
}
max_batch_size: 8
"""


def test_several_syntax_errors_are_each_reported_at_their_place_and_parsing_goes_on() -> None:
    result = parse(SEVERAL_ERRORS)
    assert [(at(p), p.kind) for p in result.problems] == [
        ((3, 8), "syntax-error"),
        ((4, 12), "syntax-error"),
    ]
    missing_comma = result.problems[1]
    assert reported(result.problems) == [
        ((3, 8), "expected one of ':', '<', '[', '{'; found '\"x\"'"),
        ((4, 12), "expected one of ',', ']'; found '2'"),
    ]
    assert missing_comma.expected == ("','", "']'")
    # What follows each error is still read.
    assert names(result.document.fields) == ["name", "input", "max_batch_size"]
    inner = message(result.document.fields[1])
    assert names(inner.fields) == ["name", "dims"]
    assert scalar(inner.fields[0]).text == '"x"'
    assert [i.text for i in items(inner.fields[1]).items if isinstance(i, Scalar)] == ["1", "2"]
    assert scalar(result.document.fields[2]).text == "8"


def test_missing_colon_before_an_enum_value_is_inserted() -> None:
    result = parse("input {\n  data_type TYPE_FP32\n  dims: [ 1 ]\n}\n")
    assert reported(result.problems) == [
        ((2, 13), "expected one of ':', '<', '[', '{'; found 'TYPE_FP32'")
    ]
    field = message(result.document.fields[0]).fields[0]
    assert field.colon is not None and field.colon.missing
    assert scalar(field).text == "TYPE_FP32"


def test_missing_closing_brace_is_reported_at_end_of_file() -> None:
    result = parse('input {\n  name: "x"\n')
    [problem] = result.problems
    assert at(problem) == (3, 1)
    assert reported([problem]) == [
        ((3, 1), "expected one of '[', '}', identifier; found end of file")
    ]
    assert "'}'" in problem.expected
    value = message(result.document.fields[0])
    assert value.close.missing
    assert names(value.fields) == ["name"]


def test_missing_closing_brace_on_the_last_line_without_newline() -> None:
    [problem] = parse("a { b: 1").problems
    assert at(problem) == (1, 9)
    assert problem.span.start == problem.span.end == 8


def test_stray_closing_brace_is_reported_and_the_next_field_is_read() -> None:
    result = parse('input {\n  name: "x"\n}\n}\nmax_batch_size: 4\n')
    [problem] = result.problems
    assert at(problem) == (4, 1)
    assert where(problem.span) == (4, 1, 4, 2)
    assert reported([problem]) == [
        ((4, 1), "expected one of '[', end of file, identifier; found '}'")
    ]
    assert names(result.document.fields) == ["input", "max_batch_size"]


def test_missing_comma_in_a_list() -> None:
    result = parse('dims: [ 1 2 3 ]\nname: "x"')
    assert reported(result.problems) == [
        ((1, 11), "expected one of ',', ']'; found '2'"),
        ((1, 13), "expected one of ',', ']'; found '3'"),
    ]
    assert names(result.document.fields) == ["dims", "name"]
    value = items(result.document.fields[0])
    assert [i.text for i in value.items if isinstance(i, Scalar)] == ["1", "2", "3"]


def test_missing_comma_between_messages_of_a_list() -> None:
    result = parse('input [ { name: "a" } { name: "b" } ]')
    assert [at(p) for p in result.problems] == [(1, 23)]
    assert len(items(result.document.fields[0]).items) == 2


def test_unterminated_string_is_reported_once_and_the_next_line_is_read() -> None:
    result = parse('name: "resnet\nmax_batch_size: 8\n')
    [problem] = result.problems
    assert problem.message == "string literal is missing its closing quote"
    assert where(problem.span) == (1, 7, 1, 14)
    assert scalar(result.document.fields[0]).kind is ScalarKind.UNTERMINATED_STRING
    assert names(result.document.fields) == ["name", "max_batch_size"]


@pytest.mark.parametrize("value", ['"resnet', "${NAME}"])
def test_a_value_followed_by_an_unexpected_token_is_reported_once(value: str) -> None:
    result = parse(f'name: {value}\n  "stray"\n')
    assert [(at(p), p.kind) for p in result.problems] == [
        ((1, 7), "template-placeholder" if value.startswith("$") else "syntax-error"),
        ((2, 3), "syntax-error"),
    ]


def test_template_placeholders_are_reported_as_such() -> None:
    result = parse('max_batch_size: ${triton_max_batch_size}\nname: "${model}"\nbackend: ${b}')
    assert [(where(p.span), p.kind) for p in result.problems] == [
        ((1, 17, 1, 41), "template-placeholder"),
        ((3, 10, 3, 14), "template-placeholder"),
    ]
    assert "${triton_max_batch_size}" in result.problems[0].message
    # Inside a string a placeholder is just text.
    assert scalar(result.document.fields[1]).kind is ScalarKind.STRING
    assert names(result.document.fields) == ["max_batch_size", "name", "backend"]


def test_json_pasted_in_is_reported_without_crashing() -> None:
    result = parse('name: "a"\n{"name": "x", "max_batch_size": 8}\nbackend: "python"\n')
    assert result.problems
    assert at(result.problems[0]) == (2, 1)
    assert result.problems[0].message.startswith("expected one of")
    assert all(p.span.line == 2 for p in result.problems)
    assert names(result.document.fields)[0] == "name"
    assert names(result.document.fields)[-1] == "backend"


def test_a_whole_json_file_is_reported_at_its_first_brace() -> None:
    result = parse('{\n  "name": "resnet",\n  "max_batch_size": 8\n}\n')
    assert at(result.problems[0]) == (1, 1)
    [problem] = result.problems
    assert problem.kind == "json-config"
    assert problem.message.startswith("this file is JSON")


def test_deeply_nested_json_is_reported_as_json() -> None:
    [problem] = parse('{"a": ' * 100_000).problems
    assert problem.kind == "json-config"


def test_unexpected_characters_are_reported_and_skipped() -> None:
    result = parse('max_batch_size: 2 @@ name: "a"')
    [problem] = result.problems
    assert where(problem.span) == (1, 19, 1, 21)
    assert "'@@'" in problem.message
    assert names(result.document.fields) == ["max_batch_size", "name"]


def test_a_stray_character_after_a_string_value_is_one_problem() -> None:
    result = parse('name: "a" @ max_batch_size: 2')
    assert [where(p.span) for p in result.problems] == [(1, 11, 1, 12)]
    assert names(result.document.fields) == ["name", "max_batch_size"]


def test_value_missing_at_end_of_file() -> None:
    result = parse('name: "a"\nmax_batch_size:')
    [problem] = result.problems
    assert at(problem) == (2, 16)
    assert problem.message.startswith("expected one of") and "found end of file" in problem.message
    assert names(result.document.fields) == ["name", "max_batch_size"]
    assert scalar(result.document.fields[1]).missing


def test_a_bare_name_at_end_of_file_keeps_the_fields_before_it() -> None:
    result = parse('name: "a"\nmax_batch_size: 8\nfoo')
    assert [at(p) for p in result.problems] == [(3, 4)]
    assert names(result.document.fields)[:2] == ["name", "max_batch_size"]


def test_each_error_of_many_lines_is_reported_on_its_own_line() -> None:
    text = "".join(f"field{n} value{n}\n" for n in range(1, 11))
    result = parse(text)
    assert [at(p) for p in result.problems] == [(n, len(f"field{n} ") + 1) for n in range(1, 11)]
    assert len(result.document.fields) == 10


def test_the_number_of_reported_syntax_errors_is_capped() -> None:
    result = parse("a b\n" * (MAX_SYNTAX_ERRORS + 10))
    assert len(result.problems) == MAX_SYNTAX_ERRORS
    assert at(result.problems[-1]) == (MAX_SYNTAX_ERRORS, 3)


# --- Deep nesting -------------------------------------------------------------------------


TOO_DEEP = "message nested more than 100 levels deep; what this '{' opens is not read"


@pytest.mark.parametrize("depth", [1000, 5000])
def test_deeply_nested_unclosed_messages_do_not_raise(depth: int) -> None:
    result = parse("a { " * depth)
    too_deep, unclosed = result.problems
    assert (at(too_deep), too_deep.message) == ((1, 403), TOO_DEEP)
    assert at(unclosed) == (1, 4 * depth + 1)
    assert unclosed.message == (
        "expected one of '[', '}', identifier; found end of file "
        "(the '{' at line 1, column 403 is not closed)"
    )
    assert result.recovered


def test_messages_nested_100_deep_are_read_whole() -> None:
    result = clean("a < " * 99 + "b < c: 1 >" + ">" * 99)
    node = result.document.fields[0]
    for _ in range(99):
        node = message(node).fields[0]
    assert names(message(node).fields) == ["c"]


def test_a_message_nested_deeper_than_100_is_read_empty() -> None:
    depth = 5000
    result = parse("a < " * depth + ">" * depth + "\nname: 'm'")
    assert reported(result.problems) == [((1, 403), TOO_DEEP.replace("'{'", "'<'"))]
    node = result.document.fields[0]
    for _ in range(100):
        node = message(node).fields[0]
    assert message(node).fields == []
    assert message(node).close.span.start == 4 * depth + depth - 101
    assert names(result.document.fields) == ["a", "name"]
    assert result.recovered


def test_messages_nested_too_deep_cost_no_memory_for_their_inside() -> None:
    """The inside of a message nested too deep is passed over, not kept: ten times deeper
    costs no more memory (deterministic: the objects the parse keeps)."""
    sizes = []
    for depth in (10_000, 100_000):
        text = "a { " * depth + "}" * depth
        tracemalloc.start()
        parse(text)
        sizes.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    assert sizes[1] < 2 * sizes[0] + 100_000, sizes


def test_ten_thousand_adjacent_string_literals_are_one_value() -> None:
    result = clean("name: " + '"a" ' * 10_000)
    assert len(scalar(result.document.fields[0]).tokens) == 10_000


def test_adjacent_string_literals_after_ten_thousand_are_left_out() -> None:
    result = parse("name: " + '"a" ' * 10_003 + "\nmax_batch_size: 1")
    [problem] = result.problems
    assert where(problem.span) == (1, 6 + 4 * 10_000 + 1, 1, 6 + 4 * 10_003)
    assert problem.message == (
        "more than 10,000 adjacent string literals make one value; the 3 after them are not read"
    )
    assert len(scalar(result.document.fields[0]).tokens) == 10_000
    assert names(result.document.fields) == ["name", "max_batch_size"]
    assert result.recovered


def test_adjacent_string_literals_left_out_cost_no_memory() -> None:
    """Ten times as many literals cost no more memory: those after the limit are not kept."""
    sizes = []
    for count in (20_000, 200_000):
        text = "name: " + '"" ' * count
        tracemalloc.start()
        parse(text)
        sizes.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    assert sizes[1] < sizes[0] * 1.2, sizes


def test_deeply_nested_lists_do_not_raise() -> None:
    result = parse("a: [" * 5000)
    assert result.problems
    assert at(result.problems[0]) == (1, 6)


def test_deeply_nested_messages_with_a_comment_do_not_raise() -> None:
    depth = 5000
    result = parse("a { " * depth + "# deep\n" + "}" * depth)
    assert reported(result.problems) == [((1, 403), TOO_DEEP)]
    assert [c.text for c in result.document.comments] == ["# deep"]


# --- Recovery keeps the tree it recovers ----------------------------------------------------


def test_recovery_builds_each_node_once() -> None:
    result = parse('name: "a" "" -1 max_batch_size: 2')
    assert reported(result.problems) == [
        ((1, 14), "expected one of ',', ';', '[', end of file, identifier, string; found '-1'")
    ]
    assert names(result.document.fields) == ["name", "max_batch_size"]
    assert [token.text for token in scalar(result.document.fields[0]).tokens] == ['"a"', '""']


def test_fields_after_several_errors_are_each_kept_once() -> None:
    result = parse('KIND_GPU\nt\n<>\nmax_batch_size: 0\n"')
    assert [at(p) for p in result.problems] == [(2, 1), (3, 1), (5, 1)]
    assert names(result.document.fields) == ["KIND_GPU", "", "max_batch_size"]
    assert [type(f.value).__name__ for f in result.document.fields] == [
        "Scalar",
        "Message",
        "Scalar",
    ]


def test_what_is_closed_at_the_end_of_the_file_ends_there() -> None:
    text = "input {\n  dims: [ 1\n  # last\n"
    result = parse(text)
    value = message(result.document.fields[0])
    dims = items(value.fields[0])
    end = (4, 1, 4, 1)
    assert dims.close.missing and where(dims.close.span) == end
    assert value.close.missing and where(value.close.span) == end
    assert where(value.span) == (1, 7, 4, 1)
    assert [c.text for c in value.fields[0].leading_comments] == ["# last"]


def test_after_the_last_reported_error_the_tree_ends_where_the_next_one_is() -> None:
    result = parse("a b\n" * (MAX_SYNTAX_ERRORS + 10))
    fields = result.document.fields
    assert names(fields) == ["a"] * (MAX_SYNTAX_ERRORS + 1)
    assert [scalar(f).text for f in fields] == ["b"] * MAX_SYNTAX_ERRORS + [""]
    last = fields[-1]
    assert last.colon is not None and last.colon.missing
    assert where(last.colon.span) == (MAX_SYNTAX_ERRORS + 1, 3, MAX_SYNTAX_ERRORS + 1, 3)


def test_a_long_run_of_stray_characters_is_one_problem() -> None:
    result = parse('name: "a" ' + "@" * 100_000 + " max_batch_size: 2")
    [problem] = result.problems
    assert where(problem.span) == (1, 11, 1, 100_011)
    assert problem.message == f"unexpected characters {'@' * 100_000!r}"
    assert names(result.document.fields) == ["name", "max_batch_size"]


def test_a_stray_character_where_a_value_goes_is_a_missing_value() -> None:
    result = parse("max_batch_size: @ name: 1")
    assert reported(result.problems) == [((1, 17), "unexpected character '@'")]
    assert names(result.document.fields) == ["max_batch_size", "name"]
    assert scalar(result.document.fields[0]).missing


# --- Parses in several threads at once -------------------------------------------------------


def _many_texts() -> list[str]:
    texts = [
        SEVERAL_ERRORS,
        COMMENTED,
        'name: "resnet\nmax_batch_size: 8\n',
        "a { " * 50,
        'input [ { name: "a" } { name: "b" } ]',
        "max_batch_size: ${B}\nname: 'x' @@ \"y\"",
        "a b\n" * (MAX_SYNTAX_ERRORS + 5),
        '{"name": "x"}',
    ]
    for n in range(60):
        texts.append(f'name: "m{n}"  # model {n}\ninput {{ dims: [ {n}, {n + 1} ] }}\n')
        texts.append(f"field{n} value{n}\n" + "x { " * (n % 7) + f"y: {n} ]\n")
    return texts


@pytest.fixture
def frequent_thread_switches() -> Iterator[None]:
    """Threads take turns every few microseconds, so that parses interleave mid-way."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(interval)


@pytest.mark.usefixtures("frequent_thread_switches")
def test_parses_in_eight_threads_give_what_serial_parses_give() -> None:
    texts = _many_texts() * 4
    serial = [parse(text) for text in texts]
    with ThreadPoolExecutor(max_workers=8) as pool:
        threaded = list(pool.map(parse, texts))
    assert threaded == serial
    assert [r.document.comments for r in threaded] == [r.document.comments for r in serial]
    assert sum(bool(r.problems) for r in serial) > len(texts) / 3
