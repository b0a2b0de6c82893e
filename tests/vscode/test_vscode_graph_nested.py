"""The graph view of the VS Code extension on an ensemble that runs another (code-server in
headless Chromium, as test_vscode_e2e.py): the nested ensemble drawn as a frame inside the
outer one, its models' boxes inside the frame, a click on one opening its config and a click on
the frame's title the nested ensemble's.

The repository is the graph tests' ``NESTED``: ``ocr`` runs the ensemble ``detect_pipeline``
(which runs ``detect``), then ``read``; ``spare`` is in no ensemble.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from graph.graph_trees import NESTED
from helpers import make_tree
from vscode_session import Run, Tools, play

pytestmark = pytest.mark.slow

PLAN: dict[str, Any] = {
    "steps": ["workbench", "nestedGraph"],
    "nestedGraph": {
        "file": "model_repository/ocr/config.pbtxt",
        "open": "detect",
        "opened": "model_repository/detect/config.pbtxt",
        "frameOpened": "model_repository/detect_pipeline/config.pbtxt",
    },
}


@pytest.fixture(scope="module")
def run(tools: Tools, tmp_path_factory: pytest.TempPathFactory) -> Run:
    folder = tmp_path_factory.mktemp("vscode-nested")
    workspace = folder / "workspace"
    make_tree(workspace / "model_repository", NESTED)
    artefacts = Path(os.environ.get("TRITONLINT_E2E_ARTEFACTS", folder / "artefacts"))
    return play(tools, folder, workspace, PLAN, artefacts)


def test_the_session_went_through(run: Run) -> None:
    assert run.seen["errors"] == {}, run.output
    assert run.status == 0


def test_the_nested_ensemble_is_a_frame_with_its_models_inside(run: Run) -> None:
    assert run.get("nestedGraph", "nestedHeading") == "Ensemble ocr"
    # One panel: detect_pipeline is drawn inside ocr, not below it.
    assert run.get("nestedGraph", "nestedPanels") == ["ocr (ensemble)"]
    assert run.get("nestedGraph", "nestedFrames") == [
        {"title": "step 0: detect_pipeline (ensemble)", "inside": ["IMAGE", "detect", "BOXES"]}
    ]
    nodes = ["IMAGE", "IMAGE", "detect", "BOXES", "read", "TEXT"]
    assert run.get("nestedGraph", "nestedNodes") == nodes
    # The outer image goes into the nested ensemble's input, its output on to `read`.
    assert run.get("nestedGraph", "nestedEdges") == [
        "IMAGE: UINT8 [B,-1,-1,3]",
        "BOXES: FP32 [B,-1,4]",
        "IMAGE: UINT8 [B,-1,-1,3]",
        "boxes: FP32 [B,-1,4]",
        "TEXT: STRING [B,-1]",
    ]
    assert (run.artefacts / "graph-nested.png").stat().st_size > 0


def test_a_click_opens_an_inner_model_and_the_frame_title_the_nested_ensemble(run: Run) -> None:
    assert run.get("nestedGraph", "nestedOpened") == "model_repository/detect/config.pbtxt"
    frame_opened = run.get("nestedGraph", "nestedFrameOpened")
    assert frame_opened == "model_repository/detect_pipeline/config.pbtxt"
