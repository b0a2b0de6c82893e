"""docs/graph.md shows what ``tritonlint graph`` writes for the fixtures: its examples are
the real output, and must not go stale."""

from __future__ import annotations

from pathlib import Path

import pytest

from tritonlint.cli import main

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "graph.md"


@pytest.mark.parametrize(
    "arguments",
    [
        ["fixtures/model_repository"],
        ["fixtures/broken/ensemble_tensor_unused"],
        ["fixtures/broken/ensemble_missing_model", "--format", "dot"],
        ["fixtures/broken/ensemble_missing_model", "--format", "markdown"],
    ],
)
def test_the_documented_output_is_the_real_one(
    arguments: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    assert main(["graph", *arguments]) == 0
    shown = capsys.readouterr().out
    assert f"````text\n{shown}````" in DOC.read_text(encoding="utf-8")


def test_the_ci_summary_example_is_the_real_one(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/ci.md shows the job summary's markdown, and the graph in it as GitHub draws it."""
    monkeypatch.chdir(ROOT)
    arguments = ["fixtures/broken/ensemble_missing_model", "--format", "markdown"]
    assert main(["graph", *arguments]) == 0
    shown = capsys.readouterr().out
    doc = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    assert f"````markdown\n{shown}````" in doc
    graph = shown[shown.index("```mermaid") :]
    assert f"which GitHub shows as:\n\n{graph}" in doc
