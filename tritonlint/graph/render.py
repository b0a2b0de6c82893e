"""A graph written in one of the formats of ``tritonlint graph --format``."""

from __future__ import annotations

from tritonlint.graph.dot import render_dot
from tritonlint.graph.drawing import make_drawing
from tritonlint.graph.html import render_html
from tritonlint.graph.json_data import render_json
from tritonlint.graph.mermaid import render_mermaid
from tritonlint.graph.model import Graph
from tritonlint.graph.summary import render_markdown


def render(graph: Graph, format_name: str, *, everything: bool = False) -> str:
    """``graph`` as ``format_name`` (mermaid, dot, json, html or markdown); ``everything``:
    draw the models in no ensemble too."""
    if format_name == "json":
        return render_json(graph)
    if format_name == "markdown":
        return render_markdown(graph, everything=everything)
    drawing = make_drawing(graph, everything=everything)
    if format_name == "dot":
        return render_dot(drawing)
    if format_name == "html":
        roots = ", ".join(r.root for r in graph.repositories)
        return render_html(drawing, f"tritonlint graph: {roots}")
    return render_mermaid(drawing)
