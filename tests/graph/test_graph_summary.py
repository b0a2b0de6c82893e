"""``tritonlint graph --format markdown``, the CI job summary's graphs (tests/test_action.py
runs it as the action does): what is drawn and named beyond the Mermaid graph."""

from __future__ import annotations

from pathlib import Path

import pytest

from tritonlint.engine import LintOptions
from tritonlint.graph import summary
from tritonlint.graph.build import build_graph
from tritonlint.graph.render import render

ROOT = Path(__file__).resolve().parents[2]


def test_models_in_no_ensemble_are_drawn_only_with_findings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(ROOT)
    graph = build_graph([Path("fixtures/model_repository")], LintOptions())
    text = render(graph, "markdown")
    assert text.startswith(
        "### Ensemble graph of `fixtures/model_repository`\n\n1 warning (`tritonlint check`"
    )
    assert '\n  n7["lightseq_transformer<br>lightseq<br>max_batch_size 8 · AUTO"]\n' in text
    assert "\n  class n7 warning\n```\n" in text
    assert text.endswith(
        "\n\nIn no ensemble and without findings (not drawn): "
        "`bert_pytorch`, `echo_python`, `resnet_trt`.\n"
    )
    # --all draws them all
    everything = render(graph, "markdown", everything=True)
    assert '["bert_pytorch<br>' in everything and "not drawn" not in everything


def test_a_graph_too_large_for_mermaid_is_not_written(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(summary, "MERMAID_MAX_TEXT", 100)
    graph = build_graph([Path("fixtures/broken/ensemble_shape_mismatch")], LintOptions())
    text = render(graph, "markdown")
    assert "```mermaid" not in text
    assert "\n\nThe graph is too large for a summary (" in text
    assert "characters; Mermaid renders up to 100): draw it with `tritonlint graph" in text


def test_a_repository_without_findings_is_one_line() -> None:
    graph = build_graph([ROOT / "fixtures/broken/ensemble_shape_mismatch"], LintOptions())
    graph.repositories[0].ensembles.clear()
    for model in graph.repositories[0].models.values():
        model.findings.clear()
    shown = graph.repositories[0].root
    assert render(graph, "markdown") == f"No findings in `{shown}`.\n"
