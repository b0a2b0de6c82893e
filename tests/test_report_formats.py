"""Report formats of ``tritonlint check``: SARIF, GitHub annotations, JUnit XML; ``--output``,
``--statistics`` and the exit status options."""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest
from helpers import (
    GOOD_RENAMED_NOVERSION,
    ONNX_MODEL,
    make_tree,
    model,
    report_workdir,
    run_cli,
    validate_sarif,
)

from tritonlint import __version__
from tritonlint.diagnostics import Diagnostic, RelatedLocation, Severity
from tritonlint.report.github import annotation, escape_data, escape_property
from tritonlint.report.sarif import sarif_log
from tritonlint.rules.registry import all_rules
from tritonlint.span import Span

CONFIG = ONNX_MODEL["config.pbtxt"]
assert isinstance(CONFIG, str)


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``models/``: good; renamed (TL201 error at 1:7); noversion (TL212 error, a folder);
    duplicated (TL107 error with a related place); warned (TL213 warning, a folder)."""
    return report_workdir(
        tmp_path,
        monkeypatch,
        {
            **GOOD_RENAMED_NOVERSION,
            **model("duplicated", ONNX_MODEL),
            "duplicated/config.pbtxt": "max_batch_size: 8\n" + CONFIG,
            **model("warned", ONNX_MODEL),
            "warned/v1/": None,
        },
    )


# --- SARIF ---------------------------------------------------------------------------------------


def test_sarif_validates_against_the_schema(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(["models", "--format", "sarif"], capsys)
    assert (status, err) == (1, "")
    log = json.loads(out)
    validate_sarif(log)
    assert log["version"] == "2.1.0"
    [sarif_run] = log["runs"]
    driver = sarif_run["tool"]["driver"]
    assert (driver["name"], driver["version"]) == ("tritonlint", __version__)
    assert [rule["id"] for rule in driver["rules"]] == [rule.code for rule in all_rules()]
    assert sarif_run["columnKind"] == "unicodeCodePoints"
    assert sarif_run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == workdir.as_uri() + "/"
    assert sorted(r["ruleId"] for r in sarif_run["results"]) == [
        "TL107",
        "TL201",
        "TL212",
        "TL213",
    ]


def test_sarif_results_carry_their_fixes(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = json.loads(run_cli(["models/renamed", "--format", "sarif"], capsys)[1])
    validate_sarif(log)
    [result] = log["runs"][0]["results"]
    assert result["ruleId"] == "TL201"
    assert result["fixes"] == [
        {
            "description": {"text": 'Set name to "renamed", the model folder\'s name'},
            "artifactChanges": [
                {
                    "artifactLocation": {
                        "uri": "models/renamed/config.pbtxt",
                        "uriBaseId": "%SRCROOT%",
                    },
                    "replacements": [
                        {
                            "deletedRegion": {
                                "startLine": 1,
                                "startColumn": 7,
                                "endLine": 1,
                                "endColumn": 14,
                            },
                            "insertedContent": {"text": '"renamed"'},
                        }
                    ],
                }
            ],
            "properties": {"applicability": "safe"},
        }
    ]


def test_a_sarif_fix_across_files_changes_each_file(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An ensemble runs models/renamed by its config's name ("other"): TL201's first fix
    also renames that step, one artifact change per file."""
    pipe = (
        'platform: "ensemble"\nmax_batch_size: 8\n'
        'input [ { name: "X" data_type: TYPE_FP32 dims: [ 3 ] } ]\n'
        'output [ { name: "Y" data_type: TYPE_FP32 dims: [ 3 ] } ]\n'
        'ensemble_scheduling { step [ { model_name: "other" model_version: -1\n'
        '  input_map { key: "x" value: "X" } output_map { key: "y" value: "Y" } } ] }\n'
    )
    make_tree(workdir / "models", {"pipe/config.pbtxt": pipe, "pipe/1/": None})
    log = json.loads(run_cli(["models", "--format", "sarif"], capsys)[1])
    validate_sarif(log)
    [result] = [r for r in log["runs"][0]["results"] if r["ruleId"] == "TL201"]
    across, own = result["fixes"]
    assert (own["properties"], across["properties"]) == (
        {"applicability": "safe"},
        {"applicability": "unsafe"},
    )
    changes = [
        (c["artifactLocation"]["uri"], [r["deletedRegion"] for r in c["replacements"]])
        for c in across["artifactChanges"]
    ]
    assert changes == [
        (
            "models/renamed/config.pbtxt",
            [{"startLine": 1, "startColumn": 7, "endLine": 1, "endColumn": 14}],
        ),
        (
            "models/pipe/config.pbtxt",
            [{"startLine": 5, "startColumn": 44, "endLine": 5, "endColumn": 51}],
        ),
    ]


def test_the_schema_check_is_real() -> None:
    log = sarif_log([])
    validate_sarif(log)
    log["runs"][0]["results"] = [{"ruleId": "TL201", "level": "fatal", "message": {"text": "x"}}]
    with pytest.raises(jsonschema.ValidationError):
        validate_sarif(log)


def test_the_schema_check_checks_uri_formats() -> None:
    """A relative helpUri (as docs/rules.md#... once was) is no URI: the check must see it."""
    log = sarif_log([])
    log["runs"][0]["tool"]["driver"]["rules"][0]["helpUri"] = "docs/rules.md#tl001-not-utf8"
    with pytest.raises(jsonschema.ValidationError, match="is not a 'uri'"):
        validate_sarif(log)


def test_sarif_rules_describe_each_rule(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = json.loads(run_cli(["models/good", "--format", "sarif"], capsys)[1])
    rules = {rule["id"]: rule for rule in log["runs"][0]["tool"]["driver"]["rules"]}
    rule = rules["TL101"]
    assert rule["name"] == "unknown-field"
    assert rule["shortDescription"] == {"text": "a field that the message type does not have"}
    assert rule["fullDescription"]["text"].startswith("Every field name must be a field")
    assert rule["helpUri"] == (
        "https://github.com/tritonlint/tritonlint/blob/main/docs/rules.md#tl101-unknown-field"
    )
    assert rule["defaultConfiguration"] == {"level": "error"}
    assert rules["TL213"]["defaultConfiguration"] == {"level": "warning"}
    # The anchors are those of docs/rules.md.
    doc = (Path(__file__).parents[1] / "docs" / "rules.md").read_text(encoding="utf-8")
    assert "(#tl101-unknown-field)" in doc
    assert log["runs"][0]["results"] == []
    driver = log["runs"][0]["tool"]["driver"]
    assert driver["informationUri"] == "https://github.com/tritonlint/tritonlint"


def test_sarif_results_have_rule_level_and_region(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = json.loads(run_cli(["models", "--format", "sarif"], capsys)[1])
    results = {r["ruleId"]: r for r in log["runs"][0]["results"]}
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    renamed = results["TL201"]
    assert rules[renamed["ruleIndex"]]["id"] == "TL201"
    assert renamed["level"] == "error"
    assert renamed["message"]["text"].startswith('name "other" differs from the model folder')
    assert renamed["locations"] == [
        {
            "physicalLocation": {
                "artifactLocation": {
                    "uri": "models/renamed/config.pbtxt",
                    "uriBaseId": "%SRCROOT%",
                },
                "region": {"startLine": 1, "startColumn": 7, "endLine": 1, "endColumn": 14},
            }
        }
    ]
    # A folder finding names the folder (with the "/" of a folder) and its first line; a
    # warning is a warning.
    folder = results["TL213"]
    assert folder["level"] == "warning"
    assert folder["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "models/warned/v1/", "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": 1},
    }
    # Related places.
    assert results["TL107"]["relatedLocations"] == [
        {
            "id": 1,
            "physicalLocation": {
                "artifactLocation": {
                    "uri": "models/duplicated/config.pbtxt",
                    "uriBaseId": "%SRCROOT%",
                },
                "region": {"startLine": 1, "startColumn": 1, "endLine": 1, "endColumn": 15},
            },
            "message": {"text": "first given here"},
        }
    ]


def test_sarif_levels_uris_outside_the_working_directory_and_odd_names(tmp_path: Path) -> None:
    span = Span(2, 3, 2, 5, 10, 12)
    diagnostics = [
        Diagnostic(
            code="TL505",
            name="max-batch-size-without-dynamic-batching",
            severity=Severity.INFO,
            message="an info finding",
            path=Path("/elsewhere/my model/config.pbtxt"),
            span=span,
            related=(RelatedLocation(path=Path("/elsewhere/x"), message="see"),),
        ),
        Diagnostic(
            code="TL201",
            name="name-mismatch",
            severity=Severity.WARNING,
            message="100% wrong",
            path=Path.cwd() / "a b" / "config.pbtxt",
            span=span,
        ),
    ]
    log = sarif_log(diagnostics)
    validate_sarif(log)
    first, second = log["runs"][0]["results"]
    assert first["level"] == "note"
    assert first["locations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": "file:///elsewhere/my%20model/config.pbtxt"
    }
    assert second["level"] == "warning"
    assert second["locations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": "a%20b/config.pbtxt",
        "uriBaseId": "%SRCROOT%",
    }


# --- GitHub Actions annotations ------------------------------------------------------------------


def test_github_annotations_exactly(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    messages = {
        f["code"]: escape_data(f["message"])
        for f in json.loads(run_cli(["models", "--format", "json"], capsys)[1])
    }
    status, out, err = run_cli(["models", "--format", "github"], capsys)
    assert (status, err) == (1, "")
    assert out.splitlines() == [
        "::error file=models/duplicated/config.pbtxt,line=3,col=1,endLine=3,endColumn=15,"
        "title=TL107 duplicate-field::non-repeated field 'max_batch_size' is specified more "
        "than once%0Anote: first given here (models/duplicated/config.pbtxt:1:1)",
        "::error file=models/noversion,title=TL212 no-version-folder::" + messages["TL212"],
        "::error file=models/renamed/config.pbtxt,line=1,col=7,endLine=1,endColumn=14,"
        "title=TL201 name-mismatch::" + messages["TL201"],
        "::warning file=models/warned/v1,title=TL213 ignored-version-folder::" + messages["TL213"],
        "Found 3 errors, 1 warning (5 models checked).",
    ]


def test_github_is_the_default_in_github_actions(
    workdir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    status, out, _ = run_cli(["models/renamed"], capsys)
    assert status == 1
    assert out.startswith("::error file=models/renamed/config.pbtxt,line=1,col=7,")
    # An explicit --format wins.
    assert run_cli(["models/renamed", "--format", "json"], capsys)[1].startswith("[")
    monkeypatch.setenv("GITHUB_ACTIONS", "false")
    assert run_cli(["models/renamed"], capsys)[1].startswith(
        "models/renamed/config.pbtxt:1:7: TL201"
    )


def test_github_escaping() -> None:
    assert escape_data("100%\r\nnext: a, b") == "100%25%0D%0Anext: a, b"
    assert escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
    diagnostic = Diagnostic(
        code="TL101",
        name="unknown-field",
        severity=Severity.INFO,
        message="50% of\nit",
        path=Path("odd,name:x/config.pbtxt"),
        span=Span(2, 4, 5, 1, 0, 40),  # over several lines: no columns
    )
    assert annotation(diagnostic) == (
        "::notice file=odd%2Cname%3Ax/config.pbtxt,line=2,endLine=5,title=TL101 unknown-field"
        "::50%25 of%0Ait"
    )


# --- JUnit XML -----------------------------------------------------------------------------------


def test_junit_suites_cases_and_failures(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(["models", "--format", "junit"], capsys)
    assert (status, err) == (1, "")
    root = ET.fromstring(out)
    assert root.tag == "testsuites"
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("5", "3", "0")
    suites = {suite.get("name"): suite for suite in root.iter("testsuite")}
    assert sorted(suites) == [
        "models/duplicated",
        "models/good",
        "models/noversion",
        "models/renamed",
        "models/warned",
    ]
    [clean] = suites["models/good"].iter("testcase")
    assert (clean.get("name"), list(clean)) == ("tritonlint", [])
    assert suites["models/good"].get("failures") == "0"
    [renamed] = suites["models/renamed"].iter("testcase")
    assert renamed.get("name") == "TL201 name-mismatch"
    assert renamed.get("classname") == "models/renamed"
    assert (renamed.get("file"), renamed.get("line")) == ("models/renamed/config.pbtxt", "1")
    failure = renamed.find("failure")
    assert failure is not None and failure.get("type") == "TL201"
    assert failure.get("message") == (
        'models/renamed/config.pbtxt:1:7: name "other" differs from the model folder "renamed"; '
        "tritonserver refuses it: unexpected directory name 'renamed' for model 'other', "
        "directory name must equal model name"
    )
    assert (failure.text or "").startswith("models/renamed/config.pbtxt:1:7: TL201 [error] ")
    # A warning is a passing test case that carries its message.
    [warned] = suites["models/warned"].iter("testcase")
    assert warned.find("failure") is None
    assert "TL213 [warning]" in (warned.findtext("system-out") or "")
    assert suites["models/warned"].get("failures") == "0"
    duplicated = suites["models/duplicated"].find("testcase/failure")
    assert duplicated is not None
    assert "= note: first given here (models/duplicated/config.pbtxt:1:1)" in (
        duplicated.text or ""
    )


def junit_cases(out: str) -> dict[str, ET.Element]:
    """Every test case of a JUnit report by "suite: case name"."""
    return {
        f"{suite.get('name')}: {case.get('name')}": case
        for suite in ET.fromstring(out).iter("testsuite")
        for case in suite.iter("testcase")
    }


def test_junit_merges_a_rules_findings_in_a_model_and_keeps_names_when_lines_move(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_tree(workdir / "models" / "warned", {"v2/": None})  # a second TL213
    duplicated = workdir / "models" / "duplicated" / "config.pbtxt"
    duplicated.write_text("max_batch_size: 8\nmax_batch_size: 4\n" + CONFIG, encoding="utf-8")
    out = run_cli(["models", "--format", "junit"], capsys)[1]
    cases = junit_cases(out)
    assert sorted(cases) == [
        "models/duplicated: TL107 duplicate-field",
        "models/good: tritonlint",
        "models/noversion: TL212 no-version-folder",
        "models/renamed: TL201 name-mismatch",
        "models/warned: TL213 ignored-version-folder",
    ]
    # Both duplicates (lines 2 and 4) in one failing test case, the first in its message.
    failure = cases["models/duplicated: TL107 duplicate-field"].find("failure")
    assert failure is not None
    assert failure.get("message") == (
        "models/duplicated/config.pbtxt:2:1: non-repeated field 'max_batch_size' is specified "
        "more than once (and 1 more)"
    )
    body = (failure.text or "").splitlines()
    assert [line.split(": TL107")[0] for line in body if "TL107" in line] == [
        "models/duplicated/config.pbtxt:2:1",
        "models/duplicated/config.pbtxt:4:1",
    ]
    root = ET.fromstring(out)
    assert (root.get("tests"), root.get("failures")) == ("5", "3")
    # Two warnings: one passing test case listing both.
    warned = cases["models/warned: TL213 ignored-version-folder"]
    assert warned.find("failure") is None
    listed = (warned.findtext("system-out") or "").splitlines()
    assert [line.split(":")[0] for line in listed] == ["models/warned/v1", "models/warned/v2"]
    # Lines move: the same test cases, by name.
    duplicated.write_text("\n\n# moved\n" + duplicated.read_text(encoding="utf-8"))
    moved = junit_cases(run_cli(["models", "--format", "junit"], capsys)[1])
    assert sorted(moved) == sorted(cases)
    failure = moved["models/duplicated: TL107 duplicate-field"].find("failure")
    assert failure is not None and "config.pbtxt:5:1" in (failure.get("message") or "")


def test_junit_of_a_clean_run_and_of_a_missing_path(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run_cli(["models/good", "--format", "junit"], capsys)
    root = ET.fromstring(out)
    assert (status, root.get("tests"), root.get("failures")) == (0, "1", "0")
    status, out, _ = run_cli(["nowhere", "--format", "junit"], capsys)
    root = ET.fromstring(out)
    assert status == 1
    [suite] = root.iter("testsuite")
    assert (suite.get("name"), suite.get("failures")) == ("nowhere", "1")


# --- --output ------------------------------------------------------------------------------------


@pytest.mark.parametrize("report_format", ["text", "json", "sarif", "github", "junit"])
def test_output_writes_the_report_to_a_file(
    workdir: Path, capsys: pytest.CaptureFixture[str], report_format: str
) -> None:
    status, out, _ = run_cli(["models", "--format", report_format], capsys)
    target = workdir / "reports" / f"report.{report_format}"
    target.parent.mkdir()
    target.write_text("old report", encoding="utf-8")
    assert run_cli(["models", "--format", report_format, "-o", str(target)], capsys) == (
        status,
        "",
        "",
    )
    assert target.read_text(encoding="utf-8") == out
    assert os.listdir(target.parent) == [target.name]  # no temporary file left
    assert target.stat().st_mode & 0o644 == 0o644


def test_output_to_a_folder_that_does_not_exist_is_a_usage_error(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(["models", "--output", "missing/report.json"], capsys)
    assert (status, out) == (2, "")
    assert "tritonlint: error: cannot write the report to missing/report.json" in err


# --- --statistics --------------------------------------------------------------------------------


def test_statistics_after_the_text_report(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_tree(workdir / "models" / "warned", {"v2/": None, "latest/": None})  # 3 TL213
    status, out, _ = run_cli(["models", "--statistics"], capsys)
    assert status == 1
    summary = out.index("Found 3 errors, 3 warnings (5 models checked).")
    table = out[summary:]
    rows = [
        [cell.strip() for cell in line.strip("│ ").split("│")]
        for line in table.splitlines()
        if line.startswith("│")
    ]
    assert rows == [
        ["TL213", "ignored-version-folder", "warning", "3"],
        ["TL107", "duplicate-field", "error", "1"],
        ["TL201", "name-mismatch", "error", "1"],
        ["TL212", "no-version-folder", "error", "1"],
    ]


def test_statistics_with_a_machine_format(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(["models", "--format", "json", "--statistics"], capsys)
    assert (status, out) == (2, "")
    assert "--statistics" in err and "--output" in err
    # With the report in a file, the table goes to stdout.
    status, out, _ = run_cli(
        ["models", "--format", "sarif", "-o", "r.sarif", "--statistics"], capsys
    )
    assert status == 1
    assert "TL201" in out and "name-mismatch" in out
    validate_sarif(json.loads(Path("r.sarif").read_text(encoding="utf-8")))


def test_json_is_unchanged_by_the_new_options(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    findings = json.loads(run_cli(["models", "--format", "json"], capsys)[1])
    assert {tuple(sorted(f)) for f in findings} == {
        (
            "code", "column", "end_column", "end_line", "fix", "fixes", "line", "message",
            "name", "path", "related", "severity", "url",
        )
    }  # fmt: skip


# --- Exit status ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "options", "status"),
    [
        ("models", [], 1),
        ("models", ["--exit-zero"], 0),
        ("models", ["--fail-on", "never"], 0),
        ("models", ["--fail-on", "error", "--exit-zero"], 0),
        ("models/warned", [], 0),  # a warning only
        ("models/warned", ["--fail-on", "error"], 0),
        ("models/warned", ["--fail-on", "warning"], 1),
        ("models/warned", ["--fail-on", "info"], 1),
        ("models/good", ["--fail-on", "info"], 0),
    ],
)
def test_exit_status(
    workdir: Path,
    capsys: pytest.CaptureFixture[str],
    target: str,
    options: list[str],
    status: int,
) -> None:
    assert run_cli([target, "--format", "json", *options], capsys)[0] == status


def test_info_findings_and_fail_on_info(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (workdir / ".tritonlint.toml").write_text('severity = { TL213 = "info" }\n', encoding="utf-8")
    assert run_cli(["models/warned", "--fail-on", "warning"], capsys)[0] == 0
    assert run_cli(["models/warned", "--fail-on", "info"], capsys)[0] == 1


@pytest.mark.parametrize(
    "argv",
    [
        ["models", "--fail-on", "fatal"],
        ["models", "--format", "xml"],
        ["models", "--exit-zero", "--select", "TL999"],
    ],
)
def test_usage_errors_exit_2_even_with_exit_zero(
    workdir: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    assert run_cli([*argv, "--exit-zero"], capsys)[0] == 2
