"""Which field of a config a finding is about, from where it is: the check's findings come
as located diagnostics, and the graph places each on the node or edge of the field under it.

A finding at a step's ``input_map`` entry is about the tensor that step reads (an edge), one
at its ``model_name`` about the step (a node), one at an ensemble input about that input, and
so on: the rules' own findings, placed, never worked out again here.
"""

from __future__ import annotations

from collections.abc import Iterable

from tritonlint.diagnostics import Diagnostic
from tritonlint.document import ConfigDocument
from tritonlint.graph.model import Ensemble, GraphFinding, Node, NodeKind
from tritonlint.paths import display_path
from tritonlint.rules.ensemble.steps import STEP
from tritonlint.schema.source_map import Location
from tritonlint.schema.source_map import Path as FieldPath
from tritonlint.span import Span


def graph_finding(diagnostic: Diagnostic) -> GraphFinding:
    span = diagnostic.span
    return GraphFinding(
        diagnostic.code,
        diagnostic.severity,
        diagnostic.message,
        display_path(diagnostic.path),
        span.line if span is not None else 0,
        span.column if span is not None else 0,
    )


class FieldFinder:
    """The fields of one bound config, to find the one a finding's span is on."""

    def __init__(self, document: ConfigDocument | None) -> None:
        bound = document.bound if document is not None else None
        self._fields: list[tuple[FieldPath, Location]] = (
            list(bound.source_map.items()) if bound is not None else []
        )

    def field_at(self, span: Span | None) -> FieldPath | None:
        """The deepest field whose name or value is ``span``, else the deepest whose text
        holds it (None: no field, or no span)."""
        if span is None:
            return None
        exact = [
            path
            for path, location in self._fields
            if _same(location.value, span) or _same(location.name, span)
        ]
        if exact:
            return max(exact, key=len)
        around = [
            path
            for path, location in self._fields
            if location.field.start <= span.start and span.end <= location.field.end
        ]
        return max(around, key=len) if around else None


def _same(first: Span, second: Span) -> bool:
    return first.start == second.start and first.end == second.end


def place(ensemble: Ensemble, path: FieldPath | None, finding: GraphFinding) -> bool:
    """Put ``finding``, about field ``path`` of the ensemble's config, on the nodes or edges
    that field makes; False where it is about none of them (the ensemble as a whole)."""
    if path is None:
        return False
    if path[: len(STEP)] == STEP and len(path) > len(STEP):
        return _place_in_step(ensemble, path[len(STEP) :], finding)
    if path[0] in ("input", "output") and len(path) > 1 and isinstance(path[1], int):
        kind = NodeKind.INPUT if path[0] == "input" else NodeKind.OUTPUT
        nodes = [node for node in ensemble.nodes if node.kind is kind]
        if path[1] < len(nodes):
            nodes[path[1]].findings.append(finding)
            return True
    return False


def _place_in_step(ensemble: Ensemble, path: FieldPath, finding: GraphFinding) -> bool:
    index = path[0]
    step = _step_node(ensemble.nodes, index)
    if step is None:
        return False
    if len(path) > 2 and path[1] in ("input_map", "output_map"):
        key = path[2]
        if path[1] == "input_map":
            edges = [e for e in ensemble.edges if e.target == step.id and e.target_key == key]
        else:
            edges = [e for e in ensemble.edges if e.source == step.id and e.source_key == key]
        for edge in edges:
            edge.findings.append(finding)
        if edges:
            return True
    step.findings.append(finding)
    return True


def _step_node(nodes: Iterable[Node], index: object) -> Node | None:
    return next((n for n in nodes if n.kind is NodeKind.STEP and n.step == index), None)
