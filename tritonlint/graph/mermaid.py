"""The drawing as a Mermaid flowchart, left to right, as GitHub and GitLab render it in
markdown: an ensemble a subgraph, findings a class per severity on boxes and subgraphs and
a link style on arrows."""

from __future__ import annotations

from tritonlint.graph.drawing import Box, Cluster, Drawing

#: Each severity's look; also the class names.
STYLES = {
    "error": "fill:#fde2e2,stroke:#c62828,stroke-width:2px",
    "warning": "fill:#fff4d6,stroke:#b7791f,stroke-width:2px",
    "info": "fill:#e3f0fd,stroke:#1565c0",
}
_LINK_STYLES = {
    "error": "stroke:#c62828,stroke-width:2px",
    "warning": "stroke:#b7791f,stroke-width:2px",
    "info": "stroke:#1565c0",
}
#: The brackets of each kind of box.
_SHAPES = {"input": ('(["', '"])'), "output": ('(["', '"])'), "unproduced": ('{{"', '"}}')}
_SHAPES["unused"] = _SHAPES["unproduced"]


def render_mermaid(drawing: Drawing) -> str:
    lines = ["flowchart LR"]
    for cluster in drawing.clusters:
        _cluster(lines, cluster, "  ")
    for box in drawing.boxes:
        lines.append("  " + _box(box))
    for arrow in drawing.arrows:
        lines.append(f'  {arrow.source} -->|"{_text(arrow.label)}"| {arrow.target}')
    if drawing.listed:
        names = ", ".join(name for _, name in drawing.listed)
        lines.append(f"  %% in no ensemble (tritonlint graph --all draws them): {names}")
    classes: dict[str, list[str]] = {}
    drawn: list[Cluster | Box] = [*_all_clusters(drawing.clusters), *drawing.all_boxes()]
    for item in drawn:
        if item.severity is not None:
            classes.setdefault(item.severity.value, []).append(item.id)
    for severity, style in STYLES.items():
        if severity in classes:
            lines.append(f"  classDef {severity} {style}")
            lines.append(f"  class {','.join(classes[severity])} {severity}")
    for index, arrow in enumerate(drawing.arrows):
        if arrow.severity is not None:
            lines.append(f"  linkStyle {index} {_LINK_STYLES[arrow.severity.value]}")
    return "\n".join(lines) + "\n"


def _cluster(lines: list[str], cluster: Cluster, indent: str) -> None:
    lines.append(f'{indent}subgraph {cluster.id}["{_text(cluster.title)}"]')
    for box in cluster.boxes:
        lines.append(indent + "  " + _box(box))
    for inner in cluster.clusters:
        _cluster(lines, inner, indent + "  ")
    lines.append(f"{indent}end")


def _box(box: Box) -> str:
    opening, closing = _SHAPES.get(box.kind, ('["', '"]'))
    return box.id + opening + "<br>".join(_text(line) for line in box.lines) + closing


def _all_clusters(clusters: list[Cluster]) -> list[Cluster]:
    return [c for cluster in clusters for c in (cluster, *_all_clusters(cluster.clusters))]


def _text(text: str) -> str:
    """``text`` inside a quoted Mermaid label: its quotes and markup as entities."""
    return (
        text.replace("#", "#35;").replace('"', "#quot;").replace("<", "#lt;").replace(">", "#gt;")
    )
