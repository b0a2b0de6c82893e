"""The graph of a config on its own (:func:`tritonlint.graph.build.text_graph`), as the
playground draws a pasted ensemble: the nodes and edges its repository's graph has, its
findings placed, and the models its steps run neither described nor marked missing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tritonlint.engine import LintOptions, lint_text
from tritonlint.graph.build import build_graph, text_graph
from tritonlint.graph.json_data import graph_object
from tritonlint.graph.render import render

ROOT = Path(__file__).resolve().parents[2]
BROKEN = ROOT / "fixtures" / "broken"
STDIN = Path("<stdin>")


def _shape(ensemble: dict) -> tuple[list[tuple[str, str, str]], list[tuple[str, str, str]]]:
    nodes = [(n["id"], n["kind"], n["name"]) for n in ensemble["nodes"]]
    edges = [(e["source"], e["target"], e["tensor"]) for e in ensemble["edges"]]
    return nodes, edges


@pytest.mark.parametrize("fixture", ["ensemble_shape_mismatch", "ensemble_tensor_unused"])
def test_nodes_and_edges_are_the_repository_graphs(
    fixture: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    text = (BROKEN / fixture / "pipeline" / "config.pbtxt").read_text(encoding="utf-8")
    alone = graph_object(text_graph(STDIN, text, LintOptions()))["repositories"]
    whole = graph_object(build_graph([BROKEN / fixture], LintOptions()))["repositories"][0]
    assert [r["root"] for r in alone] == ["<stdin>"]
    [ensemble] = alone[0]["ensembles"]
    assert ensemble["name"] == "pipeline"
    assert _shape(ensemble) == _shape(whole["ensembles"][0])
    # Only the ensemble itself is a model of it: no step's model is there, none is missing.
    assert [(m["name"], m["ensemble"], m["missing"]) for m in alone[0]["models"]] == [
        ("pipeline", True, False)
    ]


def test_findings_are_those_of_lint_text_placed() -> None:
    text = (BROKEN / "ensemble_tensor_unused" / "pipeline" / "config.pbtxt").read_text()
    [finding] = lint_text(STDIN, text, LintOptions()).diagnostics
    [ensemble] = graph_object(text_graph(STDIN, text, LintOptions()))["repositories"][0][
        "ensembles"
    ]
    placed = [
        (f["code"], f["path"], f["line"], f["column"])
        for item in (*ensemble["nodes"], *ensemble["edges"])
        for f in item["findings"]
    ]
    span = finding.span
    assert span is not None
    assert placed == [(finding.code, "<stdin>", span.line, span.column)]


def test_a_step_is_drawn_by_its_models_name_alone() -> None:
    text = (BROKEN / "ensemble_shape_mismatch" / "pipeline" / "config.pbtxt").read_text()
    drawn = render(text_graph(STDIN, text, LintOptions()), "mermaid")
    assert '["preprocess"]' in drawn and '["classifier"]' in drawn
    assert "no such model" not in drawn


def test_a_config_that_is_no_ensemble_has_no_graph() -> None:
    text = (BROKEN / "ensemble_shape_mismatch" / "classifier" / "config.pbtxt").read_text()
    assert text_graph(STDIN, text, LintOptions()).repositories == []
