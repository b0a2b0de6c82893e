"""Mapping a server message to the rule that predicts it and to a line of config.pbtxt."""

from __future__ import annotations

from pathlib import Path

from tritonlint.diagnostics import Diagnostic, Severity
from tritonlint.smoke.mapping import (
    Attribution,
    attribute,
    find_token,
    locate,
    parse_position,
    predicting_rules,
    quoted_names,
    templates,
)
from tritonlint.span import Span

PARSE_ERROR = (
    "Poll failed for model directory 'classifier': failed to read text proto from "
    "/r/classifier/config.pbtxt (Error parsing text-format inference.ModelConfig: 8:8: "
    'Message type "inference.ModelInput" has no field named "dim".)'
)


def test_the_most_specific_template_wins() -> None:
    rules = [rule.code for rule in predicting_rules(PARSE_ERROR)]
    assert rules[0] == "TL101"
    assert "TL010" in rules  # "failed to read text proto from {path}" matches too


def test_a_rule_static_lint_reported_comes_first() -> None:
    message = "failed to read text proto from /r/m/config.pbtxt (... Expected integer, got: $)"
    assert predicting_rules(message, ["TL011"])[0].code == "TL011"
    assert predicting_rules(message)[0].code in {"TL001", "TL002", "TL010", "TL011", "TL012"}


def test_placeholders_and_ellipses_are_wildcards() -> None:
    message = (
        "load failed for model 'c': version 1 is at UNAVAILABLE state: Invalid argument: "
        "[request id: <id_unknown>] expected 1 inputs but got 0 inputs for model 'c'. Got "
        "input(s) [], but missing required input(s) ['input']. Please provide all required "
        "input(s).;"
    )
    assert predicting_rules(message)[0].code == "TL801"


def test_no_rule_for_an_unknown_message() -> None:
    assert predicting_rules("something went wrong") == []


def test_templates_with_too_little_fixed_text_are_left_out() -> None:
    assert all(t.fixed >= 12 for t in templates())


def test_parse_position() -> None:
    assert parse_position(PARSE_ERROR) == (8, 8)
    assert parse_position("no position here") is None


def test_quoted_names_leave_paths_out() -> None:
    message = "unable to find '/r/m/1/model.onnx' for model instance 'm_0'; 'max_batch_size'"
    assert quoted_names(message) == ["m_0", "max_batch_size"]


CONFIG = """\
name: "m"
# max_batch_size: 4 in a comment
max_batch_size: -1
input [ { name: "input" data_type: TYPE_FP32 dims: [ 3 ] } ]
"""


def test_find_token_prefers_code_to_comments() -> None:
    span = find_token(CONFIG, ["max_batch_size"])
    assert span is not None and (span.line, span.column, span.end_column) == (3, 1, 15)
    span = find_token(CONFIG, ["input"])
    assert span is not None and span.line == 4 and CONFIG[span.start : span.end] == '"input"'
    assert find_token(CONFIG, ["nowhere"]) is None


def _finding(code: str, line: int, column: int) -> Diagnostic:
    return Diagnostic(
        code=code,
        name="x",
        severity=Severity.ERROR,
        message="",
        path=Path("config.pbtxt"),
        span=Span(line, column, line, column + 3, 0, 3),
    )


def test_locate_uses_the_parser_position_or_the_static_finding() -> None:
    rule = predicting_rules(PARSE_ERROR)[0]
    text = "\n" * 7 + "    dim: [ 3 ]\n"
    # The static finding on the parser's line is more precise (the field name).
    span = locate(text, PARSE_ERROR, [_finding("TL101", 8, 5)], rule)
    assert span is not None and (span.line, span.column) == (8, 5)
    span = locate(text, PARSE_ERROR, [], rule)
    assert span is not None and (span.line, span.column) == (8, 8)


def test_locate_falls_back_to_a_quoted_name_but_not_the_model_name() -> None:
    message = "'max_batch_size' must be non-negative value for m"
    span = locate(CONFIG, message, [], None, skip=["m"])
    assert span is not None and span.line == 3
    assert locate(None, message, [], None) is None


def test_each_line_of_a_rules_server_message_is_a_template() -> None:
    # TL503 mirrors two server checks: it predicts both messages.
    for message in (
        "default priority level must be in range [1, 2] for m",
        "priority queue policy must have priority level in range [1, 2] for m",
    ):
        assert [rule.code for rule in predicting_rules(message)] == ["TL503"]


# -- which rule a refusal is reported with ----------------------------------------------------

MISSING_FILE = (
    "load failed for model 'm': version -1 is at UNAVAILABLE state: Unavailable: unable to "
    "find '/r/m/18446744073709551615/model.onnx' for model instance 'm_0';"
)


def _static(code: str, severity: Severity, path: str = "/r/m/config.pbtxt") -> Diagnostic:
    return Diagnostic(code, "x", severity, "", Path(path), None)


def test_a_reported_rule_that_predicts_the_message_is_chosen() -> None:
    found = attribute(MISSING_FILE, [_static("TL217", Severity.ERROR, "/r/m/1")])
    assert (found.rule and found.rule.code, found.how) == ("TL217", Attribution.PREDICTED)


def test_a_reported_error_wins_over_a_rule_static_lint_did_not_report() -> None:
    # A -1 version folder: the server's words are TL217's, static lint said TL214.
    static = [
        _static("TL505", Severity.WARNING),
        _static("TL214", Severity.ERROR, "/r/m/-1"),
    ]
    found = attribute(MISSING_FILE, static)
    assert found.rule is not None and found.rule.code == "TL214"
    assert found.how is Attribution.REPORTED
    assert found.predicted is not None and found.predicted.code == "TL217"


def test_of_several_reported_errors_the_one_about_a_folder_the_message_names_wins() -> None:
    static = [
        _static("TL101", Severity.ERROR),
        _static("TL214", Severity.ERROR, "/r/m/v2"),
    ]
    found = attribute("unable to find '/r/m/v2/model.onnx'", static)
    assert found.rule is not None and found.rule.code == "TL214"
    found = attribute("something else entirely", static)
    assert found.rule is not None and found.rule.code == "TL101"  # the first, in report order


def test_a_reported_warning_explains_nothing_it_does_not_predict() -> None:
    found = attribute("something no rule knows about", [_static("TL505", Severity.WARNING)])
    assert (found.rule, found.how) == (None, Attribution.NONE)
    found = attribute(MISSING_FILE, [_static("TL505", Severity.WARNING)])
    assert (found.rule and found.rule.code, found.how) == ("TL217", Attribution.UNREPORTED)
