"""The graphs as markdown for a CI job's summary (``tritonlint graph --format markdown``): a
heading per repository with findings, how many, and its Mermaid graph with what they are
about marked; the repositories without findings named in one line at the end.

A model in no ensemble is only listed in the Mermaid graph (so that a large repository stays
legible), which would hide the findings about it: here the ones with findings are drawn.
"""

from __future__ import annotations

from dataclasses import replace

from tritonlint.diagnostics import Severity
from tritonlint.graph.drawing import make_drawing
from tritonlint.graph.mermaid import render_mermaid
from tritonlint.graph.model import Graph, GraphFinding, RepositoryGraph

_NOUNS = {
    Severity.ERROR: ("error", "errors"),
    Severity.WARNING: ("warning", "warnings"),
    Severity.INFO: ("info", "infos"),
}
#: Mermaid's default ``maxTextSize``: GitHub shows an error in place of a larger diagram.
MERMAID_MAX_TEXT = 50_000


def render_markdown(graph: Graph, *, everything: bool = False) -> str:
    """A section per repository of ``graph`` that has findings; ``everything``: draw every
    model in no ensemble, not only those with findings."""
    sections: list[str] = []
    clean: list[str] = []
    for repository in graph.repositories:
        findings = repository_findings(repository)
        if findings:
            sections.append(_section(repository, findings, everything))
        else:
            clean.append(repository.root)
    if clean:
        sections.append("No findings in " + ", ".join(_code(root) for root in clean) + ".")
    return "\n\n".join(sections) + "\n"


def repository_findings(repository: RepositoryGraph) -> list[GraphFinding]:
    """Every finding on the repository's graph, once (a finding about a model is on each
    step that runs it too), in the order met."""
    found: dict[GraphFinding, None] = {}
    for model in repository.models.values():
        found.update(dict.fromkeys(model.findings))
    for ensemble in repository.ensembles.values():
        for node in ensemble.nodes:
            found.update(dict.fromkeys(node.findings))
        for edge in ensemble.edges:
            found.update(dict.fromkeys(edge.findings))
    return list(found)


def _section(repository: RepositoryGraph, findings: list[GraphFinding], everything: bool) -> str:
    drawn = repository if everything else _without_clean_loners(repository)
    mermaid = render_mermaid(make_drawing(Graph([drawn]), everything=True))
    lines = [
        f"### Ensemble graph of {_code(repository.root)}",
        "",
        f"{_counts(findings)} (`tritonlint check` lists every finding, with its place).",
        "",
    ]
    if len(mermaid) > MERMAID_MAX_TEXT:
        lines.append(
            f"The graph is too large for a summary ({len(mermaid)} characters; Mermaid renders "
            f"up to {MERMAID_MAX_TEXT}): draw it with `tritonlint graph --format html`."
        )
    else:
        lines += ["```mermaid", mermaid.rstrip("\n"), "```"]
    hidden = [name for name in repository.in_no_ensemble if name not in drawn.models]
    if hidden:
        names = ", ".join(_code(name) for name in hidden)
        lines += ["", f"In no ensemble and without findings (not drawn): {names}."]
    return "\n".join(lines)


def _without_clean_loners(repository: RepositoryGraph) -> RepositoryGraph:
    """``repository`` without the models in no ensemble that have no findings."""
    loners = set(repository.in_no_ensemble)
    models = {
        name: model
        for name, model in repository.models.items()
        if name not in loners or model.findings
    }
    return replace(repository, models=models)


def _counts(findings: list[GraphFinding]) -> str:
    """``2 errors, 1 warning``: how many findings of each severity, the worst first."""
    counted = []
    for severity in sorted(Severity, key=lambda s: s.rank, reverse=True):
        number = sum(1 for finding in findings if finding.severity is severity)
        if number:
            one, many = _NOUNS[severity]
            counted.append(f"{number} {one if number == 1 else many}")
    return ", ".join(counted)


def _code(text: str) -> str:
    """``text`` as inline code (a path with a backtick in it is rare, but stays one span)."""
    return f"`` {text} ``" if "`" in text else f"`{text}`"
