"""tritonlint graph's output drawn by the real renderers, in headless Chromium
(tools/graph-render/render.mjs): the Mermaid text parsed and rendered by Mermaid's own bundled
script, and the HTML page laid out by the browser, neither making one request.

scripts/graph_render/setup.sh installs Chromium and Node as the VS Code end-to-end test's
setup does (same cache), and tools/graph-render's npm packages from its lock file; the tests
are skipped only where the machine cannot install them. With TRITONLINT_E2E_UPDATE_IMAGES
set, the page's screenshot becomes docs/images/graph.png (the README's picture)."""

from __future__ import annotations

import json
import os
import shutil
import struct
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from graph_trees import CASES, NESTED
from helpers import make_tree

from tritonlint.engine import LintOptions
from tritonlint.graph.build import build_graph
from tritonlint.graph.drawing import Box, Cluster, Drawing, make_drawing
from tritonlint.graph.render import render

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "vscode"))
from vscode_session import browser_tools, run_script

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tools" / "graph-render" / "render.mjs"
#: The page whose screenshot is the README's picture: a finding marked, and listed.
PICTURED = "ensemble_tensor_unused"
PICTURE = ROOT / "docs" / "images" / "graph.png"
#: Each severity's stroke colour, in Mermaid's link styles.
STROKES = {"error": "stroke:#c62828", "warning": "stroke:#b7791f", "info": "stroke:#1565c0"}


@dataclass(frozen=True)
class Drawn:
    """A case's drawing, and what each renderer made of it."""

    drawing: Drawing
    mermaid: dict[str, Any]
    html: dict[str, Any]


@dataclass(frozen=True)
class Rendered:
    cases: dict[str, Drawn]
    #: The screenshot of the page of :data:`PICTURED`.
    screenshot: Path
    #: The Mermaid graph of fixtures/model_repository's job summary (--format markdown).
    summary: dict[str, Any]


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> Rendered:
    """Every case rendered, in one Chromium."""
    tools = browser_tools()
    folder = tmp_path_factory.mktemp("graph-render")
    paths = {name: ROOT / path for name, path in CASES.items()}
    paths["nested"] = make_tree(folder / "nested", NESTED)
    graphs = {name: build_graph([path], LintOptions()) for name, path in paths.items()}
    summary = render(graphs["model_repository"], "markdown")
    job = {
        "mermaid": [
            *({"name": n, "text": render(g, "mermaid")} for n, g in graphs.items()),
            {"name": "summary", "text": summary.split("```mermaid\n")[1].split("```")[0]},
        ],
        "html": [
            {
                "name": name,
                "page": render(graph, "html"),
                **({"screenshot": str(folder / "graph.png")} if name == PICTURED else {}),
            }
            for name, graph in graphs.items()
        ],
    }
    (folder / "job.json").write_text(json.dumps(job), encoding="utf-8")
    status, output = run_script(
        [tools["node"], str(SCRIPT), str(folder / "job.json"), str(folder / "result.json")],
        env={**os.environ, "MODULES": tools["modules"], "CHROMIUM": tools["chromium"]},
        timeout=300,
    )
    assert status == 0, f"render.mjs failed ({status}):\n{output}"
    result = json.loads((folder / "result.json").read_text(encoding="utf-8"))
    # Mermaid renders in one page: a request or script error there fails every case.
    assert result["mermaid"]["requests"] == [], "Mermaid's page made requests"
    assert result["mermaid"]["errors"] == [], "Mermaid's page threw"
    mermaid = {item["name"]: item for item in result["mermaid"]["results"]}
    html = {item["name"]: item for item in result["html"]}
    if os.environ.get("TRITONLINT_E2E_UPDATE_IMAGES"):
        PICTURE.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(folder / "graph.png", PICTURE)
    drawn = {
        name: Drawn(make_drawing(graph), mermaid[name], html[name])
        for name, graph in graphs.items()
    }
    return Rendered(drawn, folder / "graph.png", mermaid["summary"])


CASE_NAMES = [*sorted(CASES), "nested"]


def _clusters(clusters: list[Cluster]) -> list[Cluster]:
    return [c for cluster in clusters for c in (cluster, *_clusters(cluster.clusters))]


def _box_id(element_id: str) -> str:
    """A box's id in tritonlint's Mermaid text, from its element's (``graph0-flowchart-n3-2``)."""
    return element_id.split("-flowchart-", 1)[1].rsplit("-", 1)[0]


@pytest.mark.parametrize("case", CASE_NAMES)
def test_mermaid_parses_and_draws_every_label(case: str, rendered: Rendered) -> None:
    """Mermaid's parser takes the text; its renderer draws every box with its lines, every
    arrow's label and every cluster's title, and marks what findings are about."""
    result, drawing = rendered.cases[case].mermaid, rendered.cases[case].drawing
    assert "parseError" not in result, result.get("parseError")
    assert "renderError" not in result, result.get("renderError")
    assert result["diagramType"] == "flowchart-v2"
    boxes: dict[str, Box] = {box.id: box for box in drawing.all_boxes()}
    nodes = {_box_id(node["id"]): node for node in result["nodes"]}
    assert set(nodes) == set(boxes)
    for box_id, box in boxes.items():
        assert nodes[box_id]["lines"] == list(box.lines), box_id
        severity = box.severity.value if box.severity is not None else None
        marked = [s for s in ("error", "warning", "info") if s in nodes[box_id]["classes"]]
        assert marked == ([severity] if severity else []), (box_id, nodes[box_id]["classes"])
    assert Counter(result["edges"]) == Counter(arrow.label for arrow in drawing.arrows)
    clusters = _clusters(drawing.clusters)
    assert sorted(c["title"] for c in result["clusters"]) == sorted(c.title for c in clusters)
    assert len(result["paths"]) == len(drawing.arrows)
    for arrow, path in zip(drawing.arrows, result["paths"], strict=True):
        assert f"-L_{arrow.source}_{arrow.target}_" in path["id"], (arrow, path["id"])
        if arrow.severity is None:
            assert "stroke:#" not in path["style"], (arrow.label, path["style"])
        else:
            assert STROKES[arrow.severity.value] in path["style"], (arrow.label, path["style"])
    for label in [*(line for box in boxes.values() for line in box.lines), *result["edges"]]:
        assert _escaped(label) in result["svg"], label


def _escaped(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def test_mermaid_marks_the_failing_parts(rendered: Rendered) -> None:
    """The cases' findings do show: an error class on the step that runs no model, the error
    stroke on the arrow of the tensor nothing reads."""
    missing = rendered.cases["ensemble_missing_model"].mermaid
    [step] = [n for n in missing["nodes"] if n["lines"] == ["classifier", "no such model"]]
    assert "error" in step["classes"]
    unused = rendered.cases["ensemble_tensor_unused"].mermaid
    assert STROKES["error"] in unused["paths"][3]["style"]


def test_mermaid_of_the_job_summary_draws_a_model_with_findings(rendered: Rendered) -> None:
    """The summary draws a model in no ensemble where there are findings about it."""
    result = rendered.summary
    assert "parseError" not in result and "renderError" not in result, result
    loners = [n for n in result["nodes"] if n["lines"][0] == "lightseq_transformer"]
    assert [n["lines"] for n in loners] == [
        ["lightseq_transformer", "lightseq", "max_batch_size 8 · AUTO"]
    ]
    assert "warning" in loners[0]["classes"]
    assert len(result["nodes"]) == 7


@pytest.mark.parametrize("case", CASE_NAMES)
def test_html_lays_out_every_label_in_its_room(case: str, rendered: Rendered) -> None:
    """Chromium shows every box line, arrow label and cluster title of the page, each inside
    its box or cluster, an arrow's label between the arrow's ends; the page requests nothing."""
    result, drawing = rendered.cases[case].html, rendered.cases[case].drawing
    assert result["requests"] == [] and result["errors"] == []
    shown = Counter(
        (tuple(text["group"][:1]), line["text"])
        for text in result["texts"]
        for line in text["lines"]
    )
    wanted = Counter(
        [
            *((("node",), line) for box in drawing.all_boxes() for line in box.lines),
            *((("edge",), arrow.label) for arrow in drawing.arrows),
            *((("cluster",), c.title) for c in _clusters(drawing.clusters)),
        ]
    )
    assert shown == wanted
    for text in result["texts"]:
        room = text["room"]
        for line in text["lines"]:
            assert line["right"] > line["left"], line  # laid out, not empty
            assert room["left"] <= line["left"] and line["right"] <= room["right"], (line, room)


def test_html_screenshot(rendered: Rendered) -> None:
    """The page's picture: a PNG of a sensible size (docs/images/graph.png when updated)."""
    data = rendered.screenshot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert 400 < width < 2000 and 150 < height < 1000, (width, height)
    assert len(data) < 200_000
