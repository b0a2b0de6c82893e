"""The canonical layout: what ``format_text`` makes of a text, byte for byte."""

from __future__ import annotations

import textwrap

import pytest

from tritonlint.format import Formatted, Refusal, api, format_text
from tritonlint.format.api import UNSAFE


def formatted(source: str) -> str:
    result = format_text(textwrap.dedent(source))
    assert isinstance(result, Formatted), result
    return result.text


def dedent(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def test_one_field_per_line_two_space_indent_and_colon_less_messages() -> None:
    source = """\
        name:"resnet" platform :'onnxruntime_onnx'  max_batch_size:8
        dynamic_batching: { max_queue_delay_microseconds: 100; preferred_batch_size: [4,8] }
        sequence_batching: {}
        optimization < cuda < graphs: true > >
        """
    assert formatted(source) == dedent("""
        name: "resnet"
        platform: "onnxruntime_onnx"
        max_batch_size: 8
        dynamic_batching {
          max_queue_delay_microseconds: 100
          preferred_batch_size: [ 4, 8 ]
        }
        sequence_batching { }
        optimization {
          cuda {
            graphs: true
          }
        }
        """)


def test_a_list_of_messages_stays_a_list_one_block_per_element() -> None:
    source = """\
        input: [ { name: "x", data_type: TYPE_FP32, dims: [ 3,224,224 ] }, { name: "y" dims: [] } ]
        output { name: "a" }
        output { name: "b" }
        """
    assert formatted(source) == dedent("""
        input [
          {
            name: "x"
            data_type: TYPE_FP32
            dims: [ 3, 224, 224 ]
          },
          {
            name: "y"
            dims: [ ]
          }
        ]
        output {
          name: "a"
        }
        output {
          name: "b"
        }
        """)


def test_numbers_and_enum_names_are_kept_as_written() -> None:
    source = "a: 1.0\nb: 1\nc: 0x10\nd: -inf\ne: 1e3f\nf: 2\nkind: KIND_GPU\ng: t\n"
    assert formatted(source) == source


@pytest.mark.parametrize(
    ("literal", "canonical"),
    [
        ("'single'", '"single"'),
        ("'it\\'s'", '"it\'s"'),
        ('"a" \'b\' "c"', '"abc"'),
        ('"\\x41\\102"', '"AB"'),
        ('"tab\\there"', '"tab\\there"'),
        ('"quote \\" and \\\\"', '"quote \\" and \\\\"'),
        ('"\\303\\251t\\303\\251"', '"été"'),
        ('"été"', '"été"'),
        ('"\\377\\0"', '"\\377\\000"'),
        ('"\\001"', '"\\001"'),
    ],
)
def test_strings_are_double_quoted_with_the_shortest_escapes(literal: str, canonical: str) -> None:
    assert formatted(f"v: {literal}\n") == f"v: {canonical}\n"


def test_a_long_scalar_list_gets_one_element_per_line() -> None:
    labels = [f'"label_{i}"' for i in range(12)]
    short = f"x: [ {', '.join(labels[:8])} ]\n"
    assert formatted(short) == short
    assert formatted(f"x: [{','.join(labels)}]") == (
        "x: [\n" + ",\n".join(f"  {label}" for label in labels) + "\n]\n"
    )


def test_comments_stay_with_what_they_annotate() -> None:
    source = """\
        # The model.

        name: "m"   # its name
        input [ # the inputs
          { # first
            name: "x" # x
            dims: [ 1, # one
                    2 ]
          }, # after the first
          # before the second
          { name: "y" }
        ]
        instance_group { # on the GPU
          # nothing set
        }
        dynamic_batching {
          max_queue_delay_microseconds: 100
          # the end of the message
        }
        # the end of the file
        """
    assert formatted(source) == dedent("""
        # The model.

        name: "m"  # its name
        input [  # the inputs
          {  # first
            name: "x"  # x
            dims: [
              1,  # one
              2
            ]
          },  # after the first
          # before the second
          {
            name: "y"
          }
        ]
        instance_group {  # on the GPU
          # nothing set
        }
        dynamic_batching {
          max_queue_delay_microseconds: 100
          # the end of the message
        }
        # the end of the file
        """)


def test_a_comment_between_a_name_and_its_value_goes_before_the_field() -> None:
    assert formatted('name: # why\n  "x"\n') == '# why\nname: "x"\n'


def test_blank_lines_are_kept_one_at_most_none_at_the_edges() -> None:
    source = '\n\nname: "m"\n\n\n\n# next\nbackend: "python"\ninput [\n\n  { },\n\n  { }\n\n]\n\n'
    assert formatted(source) == dedent("""
        name: "m"

        # next
        backend: "python"
        input [
          { },

          { }
        ]
        """)


def test_a_format_off_region_is_kept_exactly_as_written() -> None:
    source = dedent("""
        name:"m"
        # tritonlint: format-off
        input [ { name: "x",   dims: [ 1 ] } ]
            output{name:"y"}
        # tritonlint: format-on
        instance_group{count:1}
        """)
    assert formatted(source) == dedent("""
        name: "m"
        # tritonlint: format-off
        input [ { name: "x",   dims: [ 1 ] } ]
            output{name:"y"}
        # tritonlint: format-on
        instance_group {
          count: 1
        }
        """)


def test_a_format_off_without_format_on_runs_to_the_end_of_its_message() -> None:
    source = "a {\n  b:1\n  # tritonlint: format-off\n  c  :  2\n  d{e:1}\n}\nf:1\n"
    assert (
        formatted(source)
        == "a {\n  b: 1\n  # tritonlint: format-off\n  c  :  2\n  d{e:1}\n}\nf: 1\n"
    )


def test_line_endings_stay_crlf_and_the_file_ends_with_one_newline() -> None:
    assert formatted('name: "m"\r\ninput {name:"x"}\r\n\r\n') == (
        'name: "m"\r\ninput {\r\n  name: "x"\r\n}\r\n'
    )
    assert formatted('name: "m"') == 'name: "m"\n'
    assert formatted("") == ""
    assert formatted("\n\n") == ""


def test_extension_names_and_separators() -> None:
    assert formatted("[a.b]: 1; c: 2,\n") == "[a.b]: 1\nc: 2\n"


def test_a_scalar_list_without_its_colon_is_left_for_the_linter_to_report() -> None:
    # protobuf refuses `dims [ 1 ]`; formatting does not change what a file means.
    assert formatted("input { dims [1] }\n") == "input {\n  dims [ 1 ]\n}\n"


def test_a_scalar_field_given_a_message_keeps_its_colon() -> None:
    """``default_model_filename { }`` would be a syntax error (a scalar field needs its
    ':'); ``default_model_filename: { }`` is a value of the wrong type, which the linter
    reports. A message field still loses its colon, in the same file."""
    source = (
        "default_model_filename: { }\n"
        'input: [ { name: "x" dims: [ { } ] } ]\n'
        "optimization: { cuda: { graphs: true } }\n"
    )
    assert formatted(source) == dedent(
        """
        default_model_filename: { }
        input [
          {
            name: "x"
            dims: [
              { }
            ]
          }
        ]
        optimization {
          cuda {
            graphs: true
          }
        }
        """
    )


def test_a_layout_that_would_lose_a_needed_colon_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The binder checks the result too: had the printer dropped the colon, the text would
    have been refused, not written."""
    monkeypatch.setattr(api, "scalar_fields", lambda *_: frozenset())
    assert format_text('name: "m"\ndefault_model_filename: { }\n') == Refusal(UNSAFE)


def test_formatting_twice_changes_nothing() -> None:
    once = formatted('input: [{name:"x" # c\n}, {name:"y"}] # t\n')
    result = format_text(once)
    assert result == Formatted(once, False)


def test_a_syntax_error_is_refused_where_it_is() -> None:
    result = format_text('name: "m"\ninput [ { name: "x" }\n')
    assert isinstance(result, Refusal)
    assert result.span is not None and (result.span.line, result.span.column) == (3, 1)
    assert result.message.startswith("syntax error: expected one of ',', ']'; found end of file")


def test_a_template_placeholder_is_refused() -> None:
    result = format_text("max_batch_size: ${BATCH}\n")
    assert isinstance(result, Refusal)
    assert result.span is not None and (result.span.line, result.span.column) == (1, 17)


def test_nesting_too_deep_to_read_is_refused() -> None:
    refusal = format_text("a {" * 3000 + "}" * 3000)
    assert isinstance(refusal, Refusal)
    assert refusal.message == (
        "syntax error: message nested more than 100 levels deep; what this '{' opens is not read"
    )
    assert refusal.span is not None and refusal.span.column == 303


def test_the_deepest_nesting_read_is_formatted() -> None:
    formatted = format_text("a {" * 100 + "}" * 100)
    assert isinstance(formatted, Formatted)
    assert formatted.text.splitlines()[99] == " " * 198 + "a { }"
