"""``tritonlint report merge FILE...``: one report from those of several jobs (``check``'s
here; the shares of ``smoke --shard`` in tests/smoke/test_shard.py)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from helpers import make_tree, validate_sarif

from tritonlint.cli import main

NAME_MISMATCH = 'name: "other"\nbackend: "python"\n'


@pytest.fixture
def two_repositories(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``one/`` and ``two/``, each with a model whose name is wrong (TL201) and a good one."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    for repository in ("one", "two"):
        make_tree(
            tmp_path / repository,
            {
                "bad/config.pbtxt": NAME_MISMATCH,
                "bad/1/model.py": "",
                "good/config.pbtxt": 'name: "good"\nbackend: "python"\n',
                "good/1/model.py": "",
            },
        )
    return tmp_path


def _check(report_format: str, repository: str, capsys: pytest.CaptureFixture[str]) -> str:
    output = f"{repository}.{report_format}"
    assert main(["check", "--format", report_format, "-o", output, repository]) == 1
    capsys.readouterr()
    return output


def _merge(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["report", "merge", *argv]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    return captured.out


def test_json_findings_are_concatenated_and_a_repeated_one_kept_once(
    two_repositories: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one, two = (_check("json", name, capsys) for name in ("one", "two"))
    merged = json.loads(_merge(capsys, one, two, one))
    assert [(f["code"], f["path"], f["line"]) for f in merged] == [
        ("TL201", "one/bad/config.pbtxt", 1),
        ("TL201", "two/bad/config.pbtxt", 1),
    ]
    assert merged == json.loads(Path(one).read_text()) + json.loads(Path(two).read_text())


def test_sarif_of_one_tool_is_one_valid_run(
    two_repositories: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one, two = (_check("sarif", name, capsys) for name in ("one", "two"))
    merged = json.loads(_merge(capsys, "--format", "sarif", one, two))
    validate_sarif(merged)
    (run,) = merged["runs"]
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in run["results"]]
    assert uris == [
        {"uri": "one/bad/config.pbtxt", "uriBaseId": "%SRCROOT%"},
        {"uri": "two/bad/config.pbtxt", "uriBaseId": "%SRCROOT%"},
    ]
    assert run["originalUriBaseIds"] == {"%SRCROOT%": {"uri": two_repositories.as_uri() + "/"}}


def _sarif(root: str, artifacts: list[str], results: list[tuple[str, int]]) -> dict[str, Any]:
    """A SARIF log of one run of ``tool`` 1.0 whose results are (rule, artifact index)."""
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": "tool", "version": "1.0", "rules": [{"id": "R1"}]}},
                "originalUriBaseIds": {"%SRCROOT%": {"uri": root}},
                "artifacts": [
                    {"location": {"uri": uri, "uriBaseId": "%SRCROOT%"}} for uri in artifacts
                ],
                "results": [
                    {
                        "ruleId": rule,
                        "message": {"text": rule},
                        "locations": [
                            {
                                "physicalLocation": {
                                    "artifactLocation": {
                                        "uri": artifacts[index],
                                        "uriBaseId": "%SRCROOT%",
                                        "index": index,
                                    },
                                    "region": {"startLine": 1},
                                }
                            }
                        ],
                    }
                    for rule, index in results
                ],
            }
        ],
    }


def test_sarif_artifacts_are_listed_once_and_paths_of_another_root_made_absolute(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = tmp_path / "a.sarif"
    second = tmp_path / "b.sarif"
    other = tmp_path / "c.sarif"
    first.write_text(json.dumps(_sarif("file:///ci/", ["m/a.pbtxt", "m/b.pbtxt"], [("R1", 1)])))
    second.write_text(json.dumps(_sarif("file:///ci/", ["m/c.pbtxt", "m/b.pbtxt"], [("R1", 1)])))
    other.write_text(json.dumps(_sarif("file:///elsewhere/", ["m/b.pbtxt"], [("R1", 0)])))
    merged = json.loads(_merge(capsys, str(first), str(second), str(other)))
    validate_sarif(merged)
    (run,) = merged["runs"]
    assert [a["location"] for a in run["artifacts"]] == [
        {"uri": "m/a.pbtxt", "uriBaseId": "%SRCROOT%"},
        {"uri": "m/b.pbtxt", "uriBaseId": "%SRCROOT%"},
        {"uri": "m/c.pbtxt", "uriBaseId": "%SRCROOT%"},
        {"uri": "file:///elsewhere/m/b.pbtxt"},
    ]
    located = [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in run["results"]]
    assert located == [
        {"uri": "m/b.pbtxt", "uriBaseId": "%SRCROOT%", "index": 1},
        {"uri": "m/b.pbtxt", "uriBaseId": "%SRCROOT%", "index": 1},
        {"uri": "file:///elsewhere/m/b.pbtxt", "index": 3},
    ]


def test_sarif_of_two_tools_is_two_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = _sarif("file:///ci/", ["x"], [("R1", 0)])
    second = _sarif("file:///ci/", ["x"], [("R1", 0)])
    second["runs"][0]["tool"]["driver"]["version"] = "2.0"
    (tmp_path / "a.sarif").write_text(json.dumps(first))
    (tmp_path / "b.sarif").write_text(json.dumps(second))
    merged = json.loads(_merge(capsys, str(tmp_path / "a.sarif"), str(tmp_path / "b.sarif")))
    assert [run["tool"]["driver"]["version"] for run in merged["runs"]] == ["1.0", "2.0"]


def test_junit_suites_are_concatenated_and_counts_summed(
    two_repositories: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one, two = (_check("junit", name, capsys) for name in ("one", "two"))
    output = two_repositories / "merged.xml"
    assert _merge(capsys, one, two, "--output", str(output)) == ""
    root = ET.fromstring(output.read_text())
    assert [s.get("name") for s in root.iter("testsuite")] == [
        "one/bad",
        "one/good",
        "two/bad",
        "two/good",
    ]
    assert {k: root.get(k) for k in ("name", "tests", "failures", "errors", "skipped")} == {
        "name": "tritonlint",
        "tests": "4",
        "failures": "2",
        "errors": "0",
        "skipped": "0",
    }


def test_a_junit_testsuite_without_testsuites_and_counts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.xml").write_text(
        '<testsuite name="a" time="1.5"><testcase name="t1"/><testcase name="t2"/></testsuite>'
    )
    (tmp_path / "b.xml").write_text(
        '<testsuites><testsuite name="b" tests="3" failures="1" errors="1" skipped="1" '
        'time="0.5"/></testsuites>'
    )
    root = ET.fromstring(_merge(capsys, str(tmp_path / "a.xml"), str(tmp_path / "b.xml")))
    assert dict(root.attrib) == {
        "tests": "5",
        "failures": "1",
        "errors": "1",
        "skipped": "1",
        "time": "2",
    }


@pytest.mark.parametrize(
    ("files", "options", "error"),
    [
        ({"a.json": "[]", "b.xml": "<testsuites/>"}, [], "b.xml is a junit report, not json"),
        ({"a.json": "[]"}, ["--format", "sarif"], "a.json is a json report, not sarif"),
        ({"a.txt": "hello"}, [], "a.txt: neither JSON, SARIF nor JUnit XML"),
        ({"a.json": '{"x": 1}'}, [], "a.json: a JSON object that is neither SARIF nor a smoke"),
        ({"a.xml": "<testsuites>"}, [], "a.xml: not well-formed XML"),
        ({"a.xml": "<html/>"}, [], "a.xml: not a JUnit report (its root is <html>)"),
    ],
)
def test_reports_that_cannot_be_merged_are_a_usage_error(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    files: dict[str, str],
    options: list[str],
    error: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    for name, text in files.items():
        Path(name).write_text(text)
    assert main(["report", "merge", *options, *files]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"tritonlint: error: {error}")


def test_a_missing_report_is_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["report", "merge", "gone.json"]) == 2
    assert capsys.readouterr().err == (
        "tritonlint: error: cannot read the report gone.json: No such file or directory\n"
    )


def test_merge_is_the_only_action(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "split", "a.json"]) == 2
    assert "argument merge: invalid choice: 'split' (choose from 'merge')" in (
        capsys.readouterr().err
    )
