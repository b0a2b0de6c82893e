"""Where each box, arrow and cluster of a drawing goes, for the HTML page's SVG: a layered
layout, left to right. A box's column is the longest chain of arrows leading to it; the boxes
of a column are stacked in drawing order (cluster by cluster, with a gap where the cluster
changes); a cluster is the rectangle around its boxes; models in no ensemble are a grid below.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tritonlint.graph.drawing import Box, Cluster, Drawing

#: Text metrics of the page's sans-serif font at 12px, in pixels: a character a little over
#: the average, a capital (wider: tensor names are often in capitals).
CHAR_WIDTH = 7.2
CAPITAL_WIDTH = 8.4
#: The font size of an arrow's label, in the page's CSS.
LABEL_SIZE = 11
LINE_HEIGHT = 16
PADDING = 10
COLUMN_GAP = 170
ROW_GAP = 24
CLUSTER_PAD = 14
TITLE_HEIGHT = 20
GRID_COLUMNS = 4


@dataclass
class Rect:
    x: float
    y: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def bottom(self) -> float:
        return self.y + self.height


@dataclass
class Layout:
    boxes: dict[str, Rect] = field(default_factory=dict)
    #: Each cluster's rectangle, outer clusters first (so inner ones are painted over them).
    clusters: list[tuple[Cluster, Rect]] = field(default_factory=list)
    width: float = 0
    height: float = 0


def text_width(text: str, size: float = 12) -> float:
    """A little over the width of ``text`` in the page's font at ``size`` pixels."""
    capitals = sum(1 for char in text if char.isupper())
    return (capitals * CAPITAL_WIDTH + (len(text) - capitals) * CHAR_WIDTH) * size / 12


def box_size(box: Box) -> tuple[float, float]:
    longest = max(text_width(line) for line in box.lines)
    return longest + 2 * PADDING, len(box.lines) * LINE_HEIGHT + 2 * PADDING


def lay_out(drawing: Drawing) -> Layout:
    layout = Layout()
    clustered: list[tuple[Box, tuple[str, ...]]] = []
    for cluster in drawing.clusters:
        clustered.extend(_boxes_in(cluster, ()))
    columns = _columns([box for box, _ in clustered], drawing)
    _outputs_last(clustered, columns, drawing)
    widths: dict[int, float] = {}
    for box, _ in clustered:
        widths[columns[box.id]] = max(widths.get(columns[box.id], 0), box_size(box)[0])
    gaps = _gaps(columns, drawing)
    lefts: dict[int, float] = {}
    x = float(CLUSTER_PAD * 4)
    for column in sorted(widths):
        lefts[column] = x
        x += widths[column] + gaps.get(column, COLUMN_GAP)
    tops: dict[int, tuple[float, tuple[str, ...]]] = {}
    start = (CLUSTER_PAD + TITLE_HEIGHT) * 2
    for box, chain in clustered:
        column = columns[box.id]
        y, previous = tops.get(column, (start, chain))
        if previous != chain:
            y += (CLUSTER_PAD + TITLE_HEIGHT) * 2
        width, height = box_size(box)
        layout.boxes[box.id] = Rect(lefts[column], y, width, height)
        tops[column] = (y + height + ROW_GAP, chain)
    for cluster in drawing.clusters:
        _cluster_rects(cluster, layout, 0)
    layout.clusters.sort(key=lambda item: item[1].width * item[1].height, reverse=True)
    bottom = max((rect.bottom for _, rect in layout.clusters), default=0)
    right = max((rect.right for rect in layout.boxes.values()), default=0)
    _grid(drawing.boxes, layout, bottom + ROW_GAP * 2)
    layout.width = max([right, *(r.right for r in layout.boxes.values())]) + CLUSTER_PAD * 4
    layout.height = max([bottom, *(r.bottom for r in layout.boxes.values())]) + ROW_GAP
    return layout


def _boxes_in(cluster: Cluster, chain: tuple[str, ...]) -> list[tuple[Box, tuple[str, ...]]]:
    own = (*chain, cluster.id)
    found = [(box, own) for box in cluster.boxes]
    for inner in cluster.clusters:
        found.extend(_boxes_in(inner, own))
    return found


def _columns(boxes: list[Box], drawing: Drawing) -> dict[str, int]:
    """Each box's column: the longest chain of arrows to it (a cycle is cut where it closes)."""
    column = {box.id: 0 for box in boxes}
    for _ in range(len(boxes)):
        moved = False
        for arrow in drawing.arrows:
            if arrow.source in column and arrow.target in column:
                wanted = column[arrow.source] + 1
                if wanted > column[arrow.target] and wanted < len(boxes):
                    column[arrow.target] = wanted
                    moved = True
        if not moved:
            break
    return column


def _gaps(columns: dict[str, int], drawing: Drawing) -> dict[int, float]:
    """The space after each column: room for the widest label of the arrows leaving it
    (a label is centred between the ends of its arrow)."""
    gaps: dict[int, float] = {}
    for arrow in drawing.arrows:
        if arrow.source in columns:
            column = columns[arrow.source]
            need = text_width(arrow.label, LABEL_SIZE) + 2 * PADDING
            gaps[column] = max(gaps.get(column, COLUMN_GAP), need)
    return gaps


def _outputs_last(
    clustered: list[tuple[Box, tuple[str, ...]]], columns: dict[str, int], drawing: Drawing
) -> None:
    """An ensemble output that nothing reads on, in its cluster's last column."""
    last: dict[tuple[str, ...], int] = {}
    for box, chain in clustered:
        last[chain] = max(last.get(chain, 0), columns[box.id])
    sources = {arrow.source for arrow in drawing.arrows}
    for box, chain in clustered:
        if box.kind == "output" and box.id not in sources:
            columns[box.id] = last[chain]


def _cluster_rects(cluster: Cluster, layout: Layout, depth: int) -> Rect | None:
    rects = [layout.boxes[box.id] for box in cluster.boxes]
    rects.extend(r for inner in cluster.clusters if (r := _cluster_rects(inner, layout, depth + 1)))
    if not rects:
        return None
    left = min(r.x for r in rects) - CLUSTER_PAD
    top = min(r.y for r in rects) - CLUSTER_PAD - TITLE_HEIGHT
    right = max(r.right for r in rects) + CLUSTER_PAD
    bottom = max(r.bottom for r in rects) + CLUSTER_PAD
    rect = Rect(left, top, right - left, bottom - top)
    layout.clusters.append((cluster, rect))
    return rect


def _grid(boxes: list[Box], layout: Layout, top: float) -> None:
    """The boxes in no cluster, in rows of :data:`GRID_COLUMNS`."""
    x, y, row_height = float(CLUSTER_PAD * 4), top, 0.0
    for index, box in enumerate(boxes):
        if index and index % GRID_COLUMNS == 0:
            x, y, row_height = float(CLUSTER_PAD * 4), y + row_height + ROW_GAP, 0.0
        width, height = box_size(box)
        layout.boxes[box.id] = Rect(x, y, width, height)
        x += width + ROW_GAP
        row_height = max(row_height, height)
