"""The drawing in Graphviz's DOT language: ``dot -Tsvg`` lays it out left to right, an
ensemble a cluster, findings coloured (and a class per severity in the SVG)."""

from __future__ import annotations

from tritonlint.graph.drawing import Arrow, Box, Cluster, Drawing

#: Each severity's colours: (line, fill).
COLOURS = {
    "error": ("#c62828", "#fde2e2"),
    "warning": ("#b7791f", "#fff4d6"),
    "info": ("#1565c0", "#e3f0fd"),
}
_SHAPES = {"input": "oval", "output": "oval", "unproduced": "hexagon", "unused": "hexagon"}


def render_dot(drawing: Drawing) -> str:
    lines = [
        "digraph tritonlint {",
        "  rankdir=LR;",
        '  node [shape=box, fontname="Helvetica", fontsize=11];',
        '  edge [fontname="Helvetica", fontsize=10];',
    ]
    for cluster in drawing.clusters:
        _cluster(lines, cluster, "  ")
    for box in drawing.boxes:
        lines.append("  " + _box(box))
    for arrow in drawing.arrows:
        lines.append("  " + _arrow(arrow))
    if drawing.listed:
        names = ", ".join(name for _, name in drawing.listed)
        lines.append(f"  // in no ensemble (tritonlint graph --all draws them): {names}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _cluster(lines: list[str], cluster: Cluster, indent: str) -> None:
    lines.append(f"{indent}subgraph cluster_{cluster.id} {{")
    lines.append(f"{indent}  label={_quoted(cluster.title)};")
    if cluster.severity is not None:
        line, fill = COLOURS[cluster.severity.value]
        lines.append(
            f'{indent}  class="{cluster.severity.value}"; color="{line}"; style=filled; '
            f'fillcolor="{fill}";'
        )
    for box in cluster.boxes:
        lines.append(indent + "  " + _box(box))
    for inner in cluster.clusters:
        _cluster(lines, inner, indent + "  ")
    lines.append(f"{indent}}}")


def _box(box: Box) -> str:
    attributes = [f"label={_quoted(chr(10).join(box.lines))}"]
    if box.kind in _SHAPES:
        attributes.append(f"shape={_SHAPES[box.kind]}")
    if box.notes:
        attributes.append(f"tooltip={_quoted(chr(10).join(box.notes))}")
    if box.severity is not None:
        line, fill = COLOURS[box.severity.value]
        attributes.append(
            f'class="{box.severity.value}", color="{line}", style=filled, fillcolor="{fill}"'
        )
    return f"{box.id} [{', '.join(attributes)}];"


def _arrow(arrow: Arrow) -> str:
    attributes = [f"label={_quoted(arrow.label)}"]
    if arrow.notes:
        attributes.append(f"tooltip={_quoted(chr(10).join(arrow.notes))}")
    if arrow.severity is not None:
        line, _ = COLOURS[arrow.severity.value]
        attributes.append(f'class="{arrow.severity.value}", color="{line}", penwidth=2')
    return f"{arrow.source} -> {arrow.target} [{', '.join(attributes)}];"


def _quoted(text: str) -> str:
    """A DOT string: backslashes and quotes escaped, line breaks as ``\\n``."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'
