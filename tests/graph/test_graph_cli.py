"""``tritonlint graph`` on the command line: formats, --model, --all, --smoke-report,
--output, and usage errors (exit status 2, one line, no traceback)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from graph_trees import NESTED
from helpers import make_tree

from tritonlint.cli import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def nested(tmp_path: Path) -> Path:
    return make_tree(tmp_path / "models", NESTED)


def _run(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    status = main(["graph", *arguments])
    captured = capsys.readouterr()
    # the error line is wrapped to the console's width
    return status, captured.out, " ".join(captured.err.split())


def test_mermaid_is_the_default(nested: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(capsys, str(nested))
    assert (status, err) == (0, "")
    assert out.startswith("flowchart LR\n")
    assert "spare" not in out.split("%%")[0]
    assert "  %% in no ensemble (tritonlint graph --all draws them): spare" in out


def test_all_draws_the_models_in_no_ensemble(
    nested: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = _run(capsys, str(nested), "--all")
    assert status == 0
    assert '  n7["spare<br>python<br>max_batch_size 4 · CPU"]' in out
    assert "%%" not in out


def test_model_draws_one_ensemble_and_what_it_runs(
    nested: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = _run(capsys, str(nested), "--model", "detect_pipeline", "--format", "json")
    assert status == 0
    repository = json.loads(out)["repositories"][0]
    assert [e["name"] for e in repository["ensembles"]] == ["detect_pipeline"]
    assert [m["name"] for m in repository["models"]] == ["detect", "detect_pipeline"]
    status, out, _ = _run(capsys, str(nested), "--model", "detect_pipeline")
    assert status == 0
    assert out.splitlines()[1] == '  subgraph c1["detect_pipeline (ensemble)"]'
    assert "read" not in out and "ocr" not in out


def test_model_of_a_step_draws_the_ensembles_that_run_it(
    nested: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = _run(capsys, str(nested), "--model", "detect", "--format", "json")
    assert status == 0
    names = [e["name"] for e in json.loads(out)["repositories"][0]["ensembles"]]
    assert names == ["detect_pipeline", "ocr"]
    status, out, _ = _run(capsys, str(nested), "--model", "spare")
    assert status == 0
    assert '  n1["spare<br>python<br>max_batch_size 4 · CPU"]' in out


def test_smoke_report_marks_the_refused_models(
    nested: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "smoke.json"
    models = [
        {
            "name": "detect",
            "status": "refused",
            "status_text": "refused",
            "loaded": False,
            "message": "load failed for model 'detect': boom",
            "rule": "TL999",
        },
        {"name": "read", "status": "stubbed", "loaded": True, "message": "", "rule": None},
    ]
    report.write_text(json.dumps({"repository": str(nested), "models": models}))
    status, out, _ = _run(capsys, str(nested), "--smoke-report", str(report), "--format", "json")
    assert status == 0
    found = {m["name"]: m["findings"] for m in json.loads(out)["repositories"][0]["models"]}
    assert found["read"] == []
    assert [(f["code"], f["severity"]) for f in found["detect"]] == [("TL999", "error")]
    assert found["detect"][0]["message"] == "smoke: refused: load failed for model 'detect': boom"
    status, out, _ = _run(capsys, str(nested), "--smoke-report", str(report))
    assert '    n3["detect<br>python<br>max_batch_size 4 · CPU"]' in out
    assert "  class n3 error" in out


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            ["--model", "detekt"],
            "no model 'detekt' in the repositories found; did you mean 'detect'?",
        ),
        (["--smoke-report", "MISSING.json"], "cannot read the smoke report MISSING.json"),
        (["--format", "svg"], "invalid choice: 'svg'"),
    ],
)
def test_usage_errors(
    nested: Path,
    capsys: pytest.CaptureFixture[str],
    arguments: list[str],
    message: str,
) -> None:
    status, out, err = _run(capsys, str(nested), *arguments)
    assert status == 2
    assert out == ""
    assert message in err
    assert "Traceback" not in err


def test_a_file_that_is_no_smoke_report(
    nested: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "findings.json"
    report.write_text("[]")
    status, _, err = _run(capsys, str(nested), "--smoke-report", str(report))
    assert status == 2
    assert f"{report} is no smoke report" in err


def test_no_repository_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "empty").mkdir()
    status, _, err = _run(capsys, str(tmp_path / "empty"))
    assert status == 2
    assert "no model repository found in" in err


def test_output_writes_the_page(
    nested: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "graph.html"
    status, out, _ = _run(capsys, str(nested), "--format", "html", "--output", str(page))
    assert (status, out) == (0, "")
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_help_names_the_formats(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["graph", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--format {mermaid,dot,json,html,markdown}" in out
    assert "--smoke-report FILE" in out
