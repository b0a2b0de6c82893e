"""The graph drawn: Mermaid text exactly, the HTML page parsed (the DOT is laid out by a real
Graphviz in test_graphviz.py)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

from graph_trees import NESTED
from helpers import make_tree

from tritonlint.engine import LintOptions
from tritonlint.graph.build import build_graph
from tritonlint.graph.drawing import make_drawing, tensor_label
from tritonlint.graph.model import Graph
from tritonlint.graph.render import render

ROOT = Path(__file__).resolve().parents[2]
SHAPE_MISMATCH = ROOT / "fixtures/broken/ensemble_shape_mismatch"

MERMAID = """\
flowchart LR
  subgraph c1["pipeline (ensemble)"]
    n1(["IMAGE"])
    n2["preprocess<br>onnxruntime_onnx<br>max_batch_size 8 · CPU"]
    n3["classifier<br>onnxruntime_onnx<br>max_batch_size 8 · CPU"]
    n4(["LOGITS"])
  end
  n1 -->|"IMAGE: UINT8 [B,-1,-1,3]"| n2
  n2 -->|"pixels: FP32 [B,3,224,224]"| n3
  n3 -->|"LOGITS: FP32 [B,1000]"| n4
  linkStyle 2 stroke:#c62828,stroke-width:2px
"""


def test_mermaid_of_a_small_ensemble() -> None:
    graph = build_graph([SHAPE_MISMATCH], LintOptions())
    assert render(graph, "mermaid") == MERMAID


def _nested(tmp_path: Path) -> Graph:
    return build_graph([make_tree(tmp_path / "models", NESTED)], LintOptions())


def test_mermaid_nests_an_ensemble_run_by_a_step(tmp_path: Path) -> None:
    text = render(_nested(tmp_path), "mermaid")
    assert '  subgraph c1["ocr (ensemble)"]' in text
    assert '    subgraph c2["step 0: detect_pipeline (ensemble)"]' in text
    # the outer input goes to the inner ensemble's input, its output on to the next step
    assert '  n1 -->|"IMAGE: UINT8 [B,-1,-1,3]"| n2' in text
    assert '  n4 -->|"boxes: FP32 [B,-1,4]"| n5' in text
    assert text.endswith("  %% in no ensemble (tritonlint graph --all draws them): spare\n")
    everything = render(_nested(tmp_path), "mermaid", everything=True)
    assert '  n7["spare<br>python<br>max_batch_size 4 · CPU"]' in everything


def test_mermaid_classes_boxes_by_severity() -> None:
    graph = build_graph([ROOT / "fixtures/broken/ensemble_missing_model"], LintOptions())
    text = render(graph, "mermaid")
    assert '    n3["classifier<br>no such model"]' in text
    assert "  class n3 error\n" in text


class _Page(HTMLParser):
    """The SVG of a page, its scripts and every address it names."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts = 0
        self.addresses: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.scripts += tag == "script"
        self.addresses.extend(v for k, v in attrs if v and k in ("href", "src", "xmlns"))


def _svg_of(page: str) -> ET.Element:
    start, end = page.index("<svg"), page.index("</svg>") + len("</svg>")
    return ET.fromstring(page[start:end])


def test_html_is_one_page_with_every_label(tmp_path: Path) -> None:
    graph = _nested(tmp_path)
    page = render(graph, "html", everything=True)
    parser = _Page()
    parser.feed(page)
    assert parser.scripts == 0
    assert parser.addresses == []
    assert re.search(r"https?://", page) is None
    svg = _svg_of(page)
    shown = ["".join(text.itertext()) for text in svg.iter("text")]
    tspans = [span.text for span in svg.iter("tspan")]
    drawing = make_drawing(graph, everything=True)
    for box in drawing.all_boxes():
        assert all(line in tspans for line in box.lines), box.lines
    for arrow in drawing.arrows:
        assert arrow.label in shown
    assert "ocr (ensemble)" in shown and "step 0: detect_pipeline (ensemble)" in shown
    edges = [
        e
        for repository in graph.repositories
        for x in repository.ensembles.values()
        for e in x.edges
    ]
    assert {tensor_label(e) for e in edges} <= set(shown)


def test_html_marks_what_findings_are_about() -> None:
    graph = build_graph([ROOT / "fixtures/broken/ensemble_output_not_produced"], LintOptions())
    svg = _svg_of(render(graph, "html"))
    flagged = [g for g in svg.iter("g") if "error" in (g.get("class") or "").split()]
    assert len(flagged) == 1
    assert flagged[0].get("class") == "node output error"
    assert [t.text for t in flagged[0].iter("tspan")] == ["SCORES"]
    title = flagged[0].find("title")
    assert title is not None and (title.text or "").startswith("TL711 ensemble output 'SCORES'")
