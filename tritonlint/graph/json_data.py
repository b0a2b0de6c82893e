"""The graph as JSON, for editors and scripts: the data itself, not a drawing. Its shape is
stable (``version`` changes when it does not stay so); docs/graph.md describes it."""

from __future__ import annotations

import json
from typing import Any

from tritonlint.graph.model import Edge, Graph, GraphFinding, ModelInfo, Node, RepositoryGraph

#: The version of the shape below.
VERSION = 1


def graph_object(graph: Graph) -> dict[str, Any]:
    return {"version": VERSION, "repositories": [_repository(r) for r in graph.repositories]}


def render_json(graph: Graph) -> str:
    return json.dumps(graph_object(graph), indent=2, ensure_ascii=False) + "\n"


def _repository(repository: RepositoryGraph) -> dict[str, Any]:
    return {
        "root": repository.root,
        "models": [_model(model) for model in repository.models.values()],
        "ensembles": [
            {
                "name": ensemble.name,
                "nodes": [_node(node) for node in ensemble.nodes],
                "edges": [_edge(edge) for edge in ensemble.edges],
            }
            for ensemble in repository.ensembles.values()
        ],
        "in_no_ensemble": repository.in_no_ensemble,
    }


def _model(model: ModelInfo) -> dict[str, Any]:
    return {
        "name": model.name,
        "platform": model.platform,
        "backend": model.backend,
        "max_batch_size": model.max_batch_size,
        "instance_kinds": list(model.instance_kinds),
        "ensemble": model.is_ensemble,
        "missing": model.missing,
        "findings": [_finding(f) for f in model.findings],
    }


def _node(node: Node) -> dict[str, Any]:
    found: dict[str, Any] = {"id": node.id, "kind": node.kind.value, "name": node.name}
    if node.step >= 0:
        found["step"] = node.step
    found["findings"] = [_finding(f) for f in node.findings]
    return found


def _edge(edge: Edge) -> dict[str, Any]:
    return {
        "source": edge.source,
        "target": edge.target,
        "tensor": edge.tensor,
        "data_type": edge.data_type,
        "dims": list(edge.dims),
        "batched": edge.batched,
        "source_key": edge.source_key,
        "target_key": edge.target_key,
        "findings": [_finding(f) for f in edge.findings],
    }


def _finding(finding: GraphFinding) -> dict[str, Any]:
    return {
        "code": finding.code,
        "severity": finding.severity.value,
        "message": finding.message,
        "path": finding.path,
        "line": finding.line,
        "column": finding.column,
    }
