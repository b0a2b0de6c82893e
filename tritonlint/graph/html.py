"""The drawing as one self-contained HTML page: the SVG laid out here (:mod:`layout`), a
little CSS, no script and no address of anything outside it, so that it renders offline."""

from __future__ import annotations

from html import escape

from tritonlint.graph.drawing import Arrow, Box, Drawing
from tritonlint.graph.layout import LINE_HEIGHT, PADDING, Layout, Rect, lay_out

_CSS = """
body { font: 12px sans-serif; margin: 16px; color: #222; }
h1 { font-size: 18px; }
/* A graph wider than the window (or the frame the page is shown in) is shrunk to fit it. */
body > svg { max-width: 100%; height: auto; }
svg text { font: 12px sans-serif; }
.cluster rect { fill: #f7f9fc; stroke: #9aa5b1; }
.cluster > text { font-weight: bold; fill: #52606d; }
.node rect { fill: #fff; stroke: #52606d; }
.node.input rect, .node.output rect { fill: #eef7ee; rx: 14px; }
.node.unproduced rect, .node.unused rect { fill: #fafafa; stroke-dasharray: 4 3; }
.edge path { fill: none; stroke: #52606d; stroke-width: 1.3px; }
.edge text { fill: #334e68; font-size: 11px; }
.node.error rect, .cluster.error > rect { fill: #fde2e2; stroke: #c62828; stroke-width: 2px; }
.node.warning rect, .cluster.warning > rect { fill: #fff4d6; stroke: #b7791f; stroke-width: 2px; }
.node.info rect, .cluster.info > rect { fill: #e3f0fd; stroke: #1565c0; }
.edge.error path { stroke: #c62828; stroke-width: 2.5px; }
.edge.warning path { stroke: #b7791f; stroke-width: 2.5px; }
.edge.info path { stroke: #1565c0; }
.edge.error text { fill: #c62828; }
li.error { color: #c62828; } li.warning { color: #8a5a00; }
"""


def render_html(drawing: Drawing, title: str = "tritonlint graph") -> str:
    layout = lay_out(drawing)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        '<head><meta charset="utf-8">',
        f"<title>{escape(title)}</title>",
        f"<style>{_CSS}</style>",
        "</head>",
        "<body>",
        f"<h1>{escape(title)}</h1>",
        render_svg(drawing, layout),
    ]
    if drawing.listed:
        parts.append("<p>In no ensemble (<code>tritonlint graph --all</code> draws them):</p>")
        parts.append("<ul>" + "".join(f"<li>{escape(n)}</li>" for _, n in drawing.listed) + "</ul>")
    parts.extend(_findings(drawing))
    parts.extend(["</body>", "</html>", ""])
    return "\n".join(parts)


def render_svg(drawing: Drawing, layout: Layout) -> str:
    """The SVG element (no namespace: HTML gives it one)."""
    width, height = f"{layout.width:.0f}", f"{layout.height:.0f}"
    parts = [
        f'<svg width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img">',
        '<defs><marker id="arrowhead" viewBox="0 0 10 10" refX="10" refY="5" '
        'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
        '<path d="M 0 0 L 10 5 L 0 10 z" fill="#52606d"/></marker></defs>',
    ]
    for cluster, rect in layout.clusters:
        classes = _classes("cluster", cluster.severity)
        parts.append(
            f'<g class="{classes}" id="{cluster.id}">{_title(cluster.notes)}'
            f"{_rect(rect, 6)}"
            f'<text x="{rect.x + 8:.1f}" y="{rect.y + 15:.1f}">{escape(cluster.title)}</text></g>'
        )
    for arrow in drawing.arrows:
        parts.append(_arrow(arrow, layout.boxes[arrow.source], layout.boxes[arrow.target]))
    for box in drawing.all_boxes():
        parts.append(_box(box, layout.boxes[box.id]))
    parts.append("</svg>")
    return "\n".join(parts)


def _classes(kind: str, severity: object) -> str:
    value = getattr(severity, "value", None)
    return f"{kind} {value}" if value else kind


def _title(notes: tuple[str, ...]) -> str:
    return f"<title>{escape(chr(10).join(notes))}</title>" if notes else ""


def _rect(rect: Rect, radius: int) -> str:
    return (
        f'<rect x="{rect.x:.1f}" y="{rect.y:.1f}" width="{rect.width:.1f}" '
        f'height="{rect.height:.1f}" rx="{radius}"/>'
    )


def _box(box: Box, rect: Rect) -> str:
    spans = "".join(
        f'<tspan x="{rect.x + PADDING:.1f}" y="{rect.y + PADDING + (i + 0.8) * LINE_HEIGHT:.1f}">'
        f"{escape(line)}</tspan>"
        for i, line in enumerate(box.lines)
    )
    return (
        f'<g class="{_classes("node " + box.kind, box.severity)}" id="{box.id}">'
        f"{_title(box.notes)}{_rect(rect, 4)}<text>{spans}</text></g>"
    )


def _arrow(arrow: Arrow, source: Rect, target: Rect) -> str:
    x1, y1 = source.right, source.y + source.height / 2
    x2, y2 = target.x, target.y + target.height / 2
    bend = max(40.0, abs(x2 - x1) / 2)
    path = (
        f"M {x1:.1f} {y1:.1f} C {x1 + bend:.1f} {y1:.1f}, "
        f"{x2 - bend:.1f} {y2:.1f}, {x2:.1f} {y2:.1f}"
    )
    label_x, label_y = (x1 + x2) / 2, (y1 + y2) / 2 - 4
    return (
        f'<g class="{_classes("edge", arrow.severity)}">{_title(arrow.notes)}'
        f'<path d="{path}" marker-end="url(#arrowhead)"/>'
        f'<text x="{label_x:.1f}" y="{label_y:.1f}" text-anchor="middle">'
        f"{escape(arrow.label)}</text>"
        "</g>"
    )


def _findings(drawing: Drawing) -> list[str]:
    """The findings drawn, listed below the picture (an SVG title shows only on hover)."""
    drawn: list[Box | Arrow] = [*drawing.all_boxes(), *drawing.arrows]
    items = [
        (item.severity.value, note)
        for item in drawn
        if item.severity is not None
        for note in item.notes
    ]
    if not items:
        return []
    listed = "".join(f'<li class="{severity}">{escape(note)}</li>' for severity, note in items)
    return ["<h2>Findings</h2>", f"<ul>{listed}</ul>"]
