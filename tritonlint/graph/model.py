"""The data of an ensemble graph: what the renderers draw and what editors receive as JSON.

Every list is in a fixed order (repositories and models by name, an ensemble's nodes by
entry, step and exit, edges by tensor), so that the same repository always gives the same
data, byte for byte.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from tritonlint.diagnostics import Severity


class NodeKind(str, Enum):
    """What a node of an ensemble stands for."""

    #: One of the ensemble's own inputs: where a request's tensor enters.
    INPUT = "input"
    #: One of the ensemble's own outputs: where a tensor leaves in the response.
    OUTPUT = "output"
    #: A step of the ensemble, running a model (which may be an ensemble itself).
    STEP = "step"
    #: The writer of a tensor that steps read but nothing writes.
    UNPRODUCED = "unproduced"
    #: The reader of a tensor that a step writes but nothing reads.
    UNUSED = "unused"


@dataclass(frozen=True)
class GraphFinding:
    """A finding of the check (or a refusal of the smoke stage) about a node or an edge."""

    code: str
    severity: Severity
    message: str
    #: The file it is in, as the command line shows paths; line and column 1-based (0: none).
    path: str
    line: int = 0
    column: int = 0


@dataclass
class ModelInfo:
    """A model of the repository, as the server would load it."""

    name: str
    #: The platform and backend as the server fills them in ("" where it cannot tell).
    platform: str = ""
    backend: str = ""
    max_batch_size: int = 0
    #: The instance kinds of its instance groups (``KIND_CPU``...); ``KIND_AUTO`` where it
    #: has none; empty for an ensemble, which has no instances of its own.
    instance_kinds: tuple[str, ...] = ()
    is_ensemble: bool = False
    #: True for a name a step runs that is no model of the repository.
    missing: bool = False
    #: Findings about the model as a whole (an ensemble's about no node or edge of it).
    findings: list[GraphFinding] = field(default_factory=list)


@dataclass
class Node:
    id: str
    kind: NodeKind
    #: The tensor of an input, output, unproduced or unused node; the model a step runs.
    name: str
    #: The index of a step in the ensemble's steps (-1 for other nodes).
    step: int = -1
    findings: list[GraphFinding] = field(default_factory=list)


@dataclass
class Edge:
    """An ensemble tensor going from the node that writes it to one node that reads it."""

    source: str
    target: str
    tensor: str
    #: As its writer declares it (``TYPE_FP32``), "" where nothing says.
    data_type: str = ""
    #: The declared dims, without the batch dimension.
    dims: tuple[int, ...] = ()
    #: Whether a batch dimension comes in front (the writer's max_batch_size > 0).
    batched: bool = False
    #: The name the tensor has in the writer's and the reader's model (a step's map key).
    source_key: str = ""
    target_key: str = ""
    findings: list[GraphFinding] = field(default_factory=list)


@dataclass
class Ensemble:
    name: str
    nodes: list[Node] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)

    def node(self, node_id: str) -> Node:
        return next(node for node in self.nodes if node.id == node_id)


@dataclass
class RepositoryGraph:
    #: The repository's folder, as the command line shows paths.
    root: str
    models: dict[str, ModelInfo] = field(default_factory=dict)
    ensembles: dict[str, Ensemble] = field(default_factory=dict)

    @property
    def in_no_ensemble(self) -> list[str]:
        """Models that are no ensemble and that no ensemble runs, by name."""
        run = {
            node.name
            for ensemble in self.ensembles.values()
            for node in ensemble.nodes
            if node.kind is NodeKind.STEP
        }
        return sorted(
            name for name, model in self.models.items() if not model.is_ensemble and name not in run
        )


@dataclass
class Graph:
    repositories: list[RepositoryGraph] = field(default_factory=list)


def worst(findings: list[GraphFinding]) -> Severity | None:
    """The most severe of ``findings`` (None: no finding)."""
    if not findings:
        return None
    return max((finding.severity for finding in findings), key=lambda s: s.rank)
