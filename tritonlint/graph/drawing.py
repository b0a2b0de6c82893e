"""A graph made into what every picture shows: boxes, arrows between them, and clusters of
boxes (an ensemble; a nested ensemble inside the step that runs it), each with the severity
of the findings about it; the renderers only write these out.

The top clusters are the ensembles no other ensemble runs (and, where ensembles run each
other in a cycle, the ones left); a step that runs an ensemble is that ensemble's cluster,
the tensors going to its inputs and from its outputs. Models in no ensemble are boxes of
their own with ``everything``, else only listed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import count

from tritonlint.diagnostics import Severity
from tritonlint.graph.model import (
    Edge,
    Graph,
    GraphFinding,
    ModelInfo,
    Node,
    NodeKind,
    RepositoryGraph,
    worst,
)
from tritonlint.graph.selection import runs

#: How a box is drawn: the kind of node, or "model" for a model in no ensemble.
MODEL = "model"


@dataclass
class Box:
    id: str
    lines: tuple[str, ...]
    kind: str
    severity: Severity | None = None
    #: The findings about it, one line each (``CODE message``).
    notes: tuple[str, ...] = ()


@dataclass
class Arrow:
    source: str
    target: str
    label: str
    severity: Severity | None = None
    notes: tuple[str, ...] = ()


@dataclass
class Cluster:
    id: str
    title: str
    severity: Severity | None = None
    notes: tuple[str, ...] = ()
    boxes: list[Box] = field(default_factory=list)
    clusters: list[Cluster] = field(default_factory=list)

    def all_boxes(self) -> list[Box]:
        return [*self.boxes, *(box for inner in self.clusters for box in inner.all_boxes())]


@dataclass
class Drawing:
    clusters: list[Cluster] = field(default_factory=list)
    #: Boxes in no cluster: the models in no ensemble, when they are drawn.
    boxes: list[Box] = field(default_factory=list)
    arrows: list[Arrow] = field(default_factory=list)
    #: Models in no ensemble, not drawn: (repository, model name).
    listed: list[tuple[str, str]] = field(default_factory=list)

    def all_boxes(self) -> list[Box]:
        return [*self.boxes, *(box for cluster in self.clusters for box in cluster.all_boxes())]


def make_drawing(graph: Graph, *, everything: bool = False) -> Drawing:
    """The drawing of ``graph``; with several repositories each is a cluster of its own."""
    maker = _Maker()
    several = len(graph.repositories) > 1
    for repository in graph.repositories:
        clusters, boxes = maker.repository(repository, everything)
        if several:
            outer = Cluster(maker.cluster_id(), repository.root, clusters=clusters, boxes=boxes)
            maker.drawing.clusters.append(outer)
        else:
            maker.drawing.clusters.extend(clusters)
            maker.drawing.boxes.extend(boxes)
    return maker.drawing


def tensor_label(edge: Edge) -> str:
    """``pixels: FP32 [B,3,224,224]``: the tensor, its type and its shape, B the batch."""
    if not edge.data_type:
        return edge.tensor
    dims = [str(d) for d in edge.dims]
    shape = ",".join(["B", *dims] if edge.batched else dims)
    return f"{edge.tensor}: {edge.data_type.removeprefix('TYPE_')} [{shape}]"


def model_lines(model: ModelInfo) -> tuple[str, ...]:
    """A model's box: its name, what runs it, its batch size and instance kind."""
    if model.missing:
        return (model.name, "no such model")
    runner = model.platform or model.backend or "backend unknown"
    batching = f"max_batch_size {model.max_batch_size}"
    kinds = "+".join(kind.removeprefix("KIND_") for kind in model.instance_kinds)
    return (model.name, runner, f"{batching} · {kinds}" if kinds else batching)


def _notes(findings: list[GraphFinding]) -> tuple[str, ...]:
    return tuple(f"{f.code} {f.message}" for f in findings)


class _Maker:
    def __init__(self) -> None:
        self.drawing = Drawing()
        self._boxes = count(1)
        self._clusters = count(1)

    def box_id(self) -> str:
        return f"n{next(self._boxes)}"

    def cluster_id(self) -> str:
        return f"c{next(self._clusters)}"

    def repository(
        self, repository: RepositoryGraph, everything: bool
    ) -> tuple[list[Cluster], list[Box]]:
        nested = {m for name in repository.ensembles for m in runs(repository, name)}
        tops = [name for name in repository.ensembles if name not in nested]
        clusters: list[Cluster] = []
        drawn: set[str] = set()
        for name in [*tops, *repository.ensembles]:
            if name in drawn:
                continue
            title = f"{name} (ensemble)"
            cluster, _, _ = self.ensemble(repository, name, title, frozenset(), drawn)
            clusters.append(cluster)
        boxes: list[Box] = []
        for name in repository.in_no_ensemble:
            if everything:
                model = repository.models[name]
                boxes.append(self._box(model_lines(model), MODEL, model.findings))
            else:
                self.drawing.listed.append((repository.root, name))
        return clusters, boxes

    def _box(self, lines: tuple[str, ...], kind: str, findings: list[GraphFinding]) -> Box:
        return Box(self.box_id(), lines, kind, worst(findings), _notes(findings))

    def ensemble(
        self,
        repository: RepositoryGraph,
        name: str,
        title: str,
        active: frozenset[str],
        drawn: set[str],
    ) -> tuple[Cluster, dict[str, str], dict[str, str]]:
        """The cluster of ensemble ``name``, and its input and output boxes by tensor name.

        ``active``: the ensembles it is drawn inside of (one of them again is a cycle, drawn
        as a step, not expanded).
        """
        drawn.add(name)
        ensemble = repository.ensembles[name]
        own = repository.models[name].findings
        cluster = Cluster(self.cluster_id(), title, worst(own), _notes(own))
        ids: dict[str, str] = {}
        inner: dict[str, tuple[Cluster, dict[str, str], dict[str, str]]] = {}
        inside = active | {name}
        for node in ensemble.nodes:
            model = repository.models.get(node.name)
            expand = node.name in repository.ensembles and node.name not in inside
            if node.kind is NodeKind.STEP and expand:
                heading = f"step {node.step}: {node.name} (ensemble)"
                made = self.ensemble(repository, node.name, heading, inside, drawn)
                made[0].severity = _worse(made[0].severity, worst(node.findings))
                made[0].notes = (*_notes(node.findings), *made[0].notes)
                cluster.clusters.append(made[0])
                inner[node.id] = made
                continue
            box = self._node_box(node, model)
            cluster.boxes.append(box)
            ids[node.id] = box.id
        for edge in ensemble.edges:
            source = self._end(edge, edge.source, edge.source_key, inner, ids, "out")
            target = self._end(edge, edge.target, edge.target_key, inner, ids, "in")
            label = tensor_label(edge)
            notes = _notes(edge.findings)
            self.drawing.arrows.append(Arrow(source, target, label, worst(edge.findings), notes))
        inputs = {n.name: ids[n.id] for n in ensemble.nodes if n.kind is NodeKind.INPUT}
        outputs = {n.name: ids[n.id] for n in ensemble.nodes if n.kind is NodeKind.OUTPUT}
        return cluster, inputs, outputs

    def _node_box(self, node: Node, model: ModelInfo | None) -> Box:
        if node.kind is NodeKind.STEP:
            if model is None:  # a config's graph on its own: nothing is known of the model
                return self._box((node.name,), node.kind.value, node.findings)
            return self._box(model_lines(model), node.kind.value, [*node.findings, *model.findings])
        if node.kind is NodeKind.UNPRODUCED:
            lines: tuple[str, ...] = (node.name, "written by no step")
        elif node.kind is NodeKind.UNUSED:
            lines = (node.name, "read by no step")
        else:
            lines = (node.name,)
        return self._box(lines, node.kind.value, node.findings)

    def _end(
        self,
        edge: Edge,
        node: str,
        key: str,
        inner: dict[str, tuple[Cluster, dict[str, str], dict[str, str]]],
        ids: dict[str, str],
        side: str,
    ) -> str:
        """The box an edge ends at: the node's, or, for a step that is a nested ensemble's
        cluster, that ensemble's input (or output) of the name ``key``."""
        if node not in inner:
            return ids[node]
        cluster, inputs, outputs = inner[node]
        ports = inputs if side == "in" else outputs
        if key in ports:
            return ports[key]
        kind = NodeKind.UNUSED if side == "in" else NodeKind.UNPRODUCED
        missing = f"no {'input' if side == 'in' else 'output'} of this ensemble"
        box = self._box((key, missing), kind.value, edge.findings)
        cluster.boxes.append(box)
        ports[key] = box.id
        return box.id


def _worse(first: Severity | None, second: Severity | None) -> Severity | None:
    present = [s for s in (first, second) if s is not None]
    return max(present, key=lambda s: s.rank) if present else None
