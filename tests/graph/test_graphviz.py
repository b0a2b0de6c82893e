"""tritonlint graph's DOT laid out by a real Graphviz (tests/graph/graphviz_layout.py): the
``dot`` program where it is installed, and Graphviz built to WebAssembly wherever
scripts/graph_render/setup.sh installs tools/graph-render (CI included). Each Graphviz is in
the tests' ids (``dot-2.43.0``, ``wasm-graphviz-1.29.2``) and in their failure messages.

For the fixtures the Mermaid and HTML tests draw: Graphviz lays the text out without a word;
every label the graph's JSON data calls for is in its SVG, and every box, arrow and cluster
tritonlint drew is there with its lines and shape; the findings' colours and classes land on
the nodes and edges they are about, and on nothing else."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from graph_trees import CASES, NESTED
from graphviz_layout import (
    Element,
    GraphvizError,
    Laid,
    Svg,
    lay_out_with_program,
    lay_out_with_wasm,
    program,
    program_id,
    wasm_id,
)
from helpers import make_tree

from tritonlint.engine import LintOptions
from tritonlint.graph.build import build_graph
from tritonlint.graph.dot import COLOURS
from tritonlint.graph.drawing import Cluster, Drawing, make_drawing
from tritonlint.graph.render import render

ROOT = Path(__file__).resolve().parents[2]
#: Worst last.
SEVERITIES = ("info", "warning", "error")
#: The SVG shape of each kind of box (a closed polygon repeats its first point).
SHAPES = {
    "input": ("ellipse", 0),
    "output": ("ellipse", 0),
    "unproduced": ("polygon", 7),
    "unused": ("polygon", 7),
}
BOX = ("polygon", 5)
#: A text Graphviz must refuse: the graph's closing brace is missing.
MISSING_BRACE = "missing brace"
#: The DOT of a fixture with a shape Graphviz does not know (it warns, and draws a box).
UNKNOWN_SHAPE = "unknown shape"


#: The cases with models in no ensemble, drawn with ``--all`` too.
DRAWN_WHOLE = ("model_repository", "nested")
#: The nested ensembles, each with a finding of its own: their clusters are marked.
FLAGGED = "nested-flagged"
CASE_NAMES = [*sorted(CASES), "nested", *(f"{name}--all" for name in DRAWN_WHOLE), FLAGGED]


@dataclass(frozen=True)
class Case:
    drawing: Drawing
    #: The graph as ``--format json`` gives it.
    data: dict[str, Any]
    text: str


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Case]:
    """The Mermaid test's repositories as ``graph --format dot`` draws them, and with
    ``--all`` those that have models in no ensemble."""
    paths = {name: ROOT / path for name, path in CASES.items()}
    folder = tmp_path_factory.mktemp("graphviz")
    paths["nested"] = make_tree(folder / "nested", NESTED)
    flagged = {
        path: text.replace("max_batch_size: 4", "max_batch_size: 4\n    no_such_field: 1", 1)
        if path in ("ocr/config.pbtxt", "detect_pipeline/config.pbtxt")
        else text
        for path, text in NESTED.items()
    }
    paths[FLAGGED] = make_tree(folder / FLAGGED, flagged)
    made = {}
    for name, path in paths.items():
        graph = build_graph([path], LintOptions())
        data = json.loads(render(graph, "json"))
        made[name] = Case(make_drawing(graph), data, render(graph, "dot"))
        if name in DRAWN_WHOLE:
            drawing = make_drawing(graph, everything=True)
            made[f"{name}--all"] = Case(drawing, data, render(graph, "dot", everything=True))
    return made


GRAPHVIZES = [
    pytest.param(
        "program",
        id=program_id(),
        marks=pytest.mark.skipif(program() is None, reason="Graphviz (dot) is not installed"),
    ),
    pytest.param("wasm", id=wasm_id(), marks=pytest.mark.slow),
]


class _Layouts:
    """Each Graphviz's layout of every text, made once for the module."""

    def __init__(self, cases: dict[str, Case], folder: Path) -> None:
        self.texts = {name: case.text for name, case in cases.items()}
        self.texts[MISSING_BRACE] = cases["ensemble_tensor_unused"].text.rstrip().removesuffix("}")
        self.texts[UNKNOWN_SHAPE] = cases["ensemble_tensor_unused"].text.replace(
            "shape=hexagon", "shape=hexagonal"
        )
        self.folder = folder
        self.made: dict[str, Laid] = {}

    def of(self, graphviz: str) -> Laid:
        if graphviz not in self.made:
            if graphviz == "program":
                self.made[graphviz] = lay_out_with_program(self.texts)
            else:
                self.made[graphviz] = lay_out_with_wasm(self.texts, self.folder)
        return self.made[graphviz]


@pytest.fixture(scope="module")
def layouts(cases: dict[str, Case], tmp_path_factory: pytest.TempPathFactory) -> _Layouts:
    return _Layouts(cases, tmp_path_factory.mktemp("graphviz-layouts"))


@pytest.fixture(scope="module", params=GRAPHVIZES)
def laid(request: pytest.FixtureRequest, layouts: _Layouts) -> Laid:
    return layouts.of(request.param)


def _worst(findings: list[dict[str, Any]]) -> str | None:
    ranks = [SEVERITIES.index(f["severity"]) for f in findings]
    return SEVERITIES[max(ranks)] if ranks else None


def _notes(findings: list[dict[str, Any]]) -> tuple[str, ...]:
    return tuple(f"{f['code']} {f['message']}" for f in findings)


def _tensor_label(edge: dict[str, Any]) -> str:
    """docs/graph.md: ``pixels: FP32 [B,3,224,224]``, B the batch dimension."""
    if not edge["data_type"]:
        return str(edge["tensor"])
    dims = [*(["B"] if edge["batched"] else []), *map(str, edge["dims"])]
    return f"{edge['tensor']}: {edge['data_type'].removeprefix('TYPE_')} [{','.join(dims)}]"


def _model_lines(model: dict[str, Any] | None, name: str) -> list[str]:
    """docs/graph.md: a model's name, what runs it, its batch size and instance kinds."""
    if model is None or model["missing"]:
        return [name, "no such model"]
    kinds = "+".join(k.removeprefix("KIND_") for k in model["instance_kinds"])
    batching = f"max_batch_size {model['max_batch_size']}"
    runner = model["platform"] or model["backend"] or "backend unknown"
    return [name, runner, f"{batching} · {kinds}" if kinds else batching]


@dataclass(frozen=True)
class Marked:
    """A node, edge or cluster that findings are about: its first line (a node's), label (an
    edge's) or title (a cluster's), the findings' notes and the worst severity."""

    kind: str
    text: str
    notes: tuple[str, ...]
    severity: str


def _expected(data: dict[str, Any], everything: bool) -> tuple[set[str], list[Marked]]:
    """What the graph's JSON data says the picture shows: its texts, and what is marked."""
    texts: set[str] = set()
    marked: list[Marked] = []

    def mark(kind: str, text: str, findings: list[dict[str, Any]], notes: bool = True) -> None:
        severity = _worst(findings)
        if severity is not None:
            marked.append(Marked(kind, text, _notes(findings) if notes else (), severity))

    for repository in data["repositories"]:
        models = {m["name"]: m for m in repository["models"]}
        ensembles = {e["name"]: e for e in repository["ensembles"]}
        run = {n["name"] for e in ensembles.values() for n in e["nodes"] if n["kind"] == "step"}
        for ensemble in ensembles.values():
            if ensemble["name"] not in run:
                title = f"{ensemble['name']} (ensemble)"
                texts.add(title)
                mark("cluster", title, models[ensemble["name"]]["findings"], notes=False)
            for node in ensemble["nodes"]:
                model = models.get(node["name"])
                if node["kind"] == "step" and node["name"] in ensembles:
                    title = f"step {node['step']}: {node['name']} (ensemble)"
                    texts.add(title)
                    assert model is not None
                    mark("cluster", title, node["findings"] + model["findings"], notes=False)
                elif node["kind"] == "step":
                    texts.update(_model_lines(model, node["name"]))
                    mark("node", node["name"], node["findings"] + (model or {}).get("findings", []))
                else:
                    texts.add(node["name"])
                    mark("node", node["name"], node["findings"])
            for edge in ensemble["edges"]:
                texts.add(_tensor_label(edge))
                mark("edge", _tensor_label(edge), edge["findings"])
        for name in repository["in_no_ensemble"] if everything else []:
            texts.update(_model_lines(models[name], name))
            mark("node", name, models[name]["findings"])
    return texts, marked


def _clusters(clusters: list[Cluster]) -> list[Cluster]:
    return [c for cluster in clusters for c in (cluster, *_clusters(cluster.clusters))]


def _is(element: Element, marked: Marked) -> bool:
    if element.kind != marked.kind or not element.texts:
        return False
    text = element.texts[0] if marked.kind != "edge" else " ".join(element.texts)
    tooltip = "\n".join(element.tooltips)
    return text == marked.text and all(note in tooltip for note in marked.notes)


def _check_shapes(svg: Svg, drawing: Drawing) -> None:
    nodes = {e.title: e for e in svg.of_kind("node")}
    for box in drawing.all_boxes():
        tag, points = SHAPES.get(box.kind, BOX)
        assert nodes[box.id].shapes[0][0] == tag, (box, nodes[box.id].shapes)
        assert nodes[box.id].shapes[0][3] == points, (box, nodes[box.id].shapes)


@pytest.mark.parametrize("case", CASE_NAMES)
def test_dot_is_laid_out_with_every_label(case: str, laid: Laid, cases: dict[str, Case]) -> None:
    """Graphviz lays the text out without an error (or, the program, a warning); the SVG has
    each label of the graph's JSON data, and exactly the boxes (lines, shape), arrows and
    clusters tritonlint drew."""
    svg = laid.svg(case)
    drawing, data = cases[case].drawing, cases[case].data
    wanted, _ = _expected(data, everything=case.endswith("--all"))
    assert wanted <= set(svg.texts), (laid.graphviz, sorted(wanted - set(svg.texts)))
    nodes = {e.title: list(e.texts) for e in svg.of_kind("node")}
    assert nodes == {box.id: list(box.lines) for box in drawing.all_boxes()}, laid.graphviz
    edges = Counter((e.title, " ".join(e.texts)) for e in svg.of_kind("edge"))
    arrows = Counter((f"{a.source}->{a.target}", a.label) for a in drawing.arrows)
    assert edges == arrows, laid.graphviz
    clusters = {e.title: list(e.texts) for e in svg.of_kind("cluster")}
    assert clusters == {f"cluster_{c.id}": [c.title] for c in _clusters(drawing.clusters)}
    _check_shapes(svg, drawing)


@pytest.mark.parametrize("case", CASE_NAMES)
def test_dot_colours_what_findings_are_about(case: str, laid: Laid, cases: dict[str, Case]) -> None:
    """Each node, edge and cluster the JSON data has findings about carries the worst one's
    class and colours (a node's outline and fill, an edge's line, its findings as tooltip);
    no other element has a severity's class or a colour."""
    svg = laid.svg(case)
    _, marked = _expected(cases[case].data, everything=case.endswith("--all"))
    coloured: set[str] = set()
    for item in marked:
        found = [e for e in svg.elements if _is(e, item)]
        assert found, (laid.graphviz, item)
        line, fill = COLOURS[item.severity]
        for element in found:
            assert item.severity in element.classes, (laid.graphviz, item, element.classes)
            _, shape_fill, stroke, _ = element.shapes[0]
            assert stroke == line, (laid.graphviz, item, element.shapes)
            if element.kind != "edge":
                assert shape_fill == fill, (laid.graphviz, item, element.shapes)
            coloured.add(element.title)
    for element in svg.elements:
        if element.title in coloured:
            continue
        assert not element.classes & set(SEVERITIES), (laid.graphviz, element)
        assert {stroke for _, _, stroke, _ in element.shapes} == {"black"}, (laid.graphviz, element)


def test_some_case_is_coloured(cases: dict[str, Case]) -> None:
    """The colour test has something to judge: nodes, edges and clusters with findings."""
    marked = [
        m for name in CASE_NAMES for m in _expected(cases[name].data, name.endswith("--all"))[1]
    ]
    assert {m.kind for m in marked} == {"node", "edge", "cluster"}
    assert {m.severity for m in marked} == {"error", "warning"}


def test_graphviz_refuses_a_missing_brace(laid: Laid) -> None:
    """The check can fail: Graphviz reports a syntax error, and the helper raises it."""
    with pytest.raises(GraphvizError, match="syntax error in line"):
        laid.svg(MISSING_BRACE)


def test_an_unknown_shape_fails_the_check(laid: Laid, cases: dict[str, Case]) -> None:
    """The program warns about a shape it does not know (and the helper raises); the
    WebAssembly build keeps its warnings to itself, and the box it draws instead fails the
    shape check."""
    if laid.outcomes[UNKNOWN_SHAPE].messages:
        with pytest.raises(GraphvizError, match="Warning: using box for unknown shape hexagonal"):
            laid.svg(UNKNOWN_SHAPE)
        return
    with pytest.raises(AssertionError):
        _check_shapes(laid.svg(UNKNOWN_SHAPE), cases["ensemble_tensor_unused"].drawing)


@pytest.mark.slow
def test_the_program_and_the_webassembly_build_agree(layouts: _Layouts) -> None:
    """Where both run, they draw the same elements: titles, classes, texts, tooltips,
    shapes and colours (the coordinates aside: the versions and fonts differ)."""
    if program() is None:
        pytest.skip("Graphviz (dot) is not installed")
    built, wasm = layouts.of("program"), layouts.of("wasm")
    for name in CASE_NAMES:
        assert built.svg(name).elements == wasm.svg(name).elements, (
            name,
            built.graphviz,
            wasm.graphviz,
        )
