"""The graph of the repositories a user names, from the engine's check of each: the same
discovery as ``tritonlint check``, the models as the server would load them, the ensembles'
tensors from writer to readers, and every finding placed on what it is about."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from tritonlint.engine import LintOptions, Workspace, workspace_for
from tritonlint.graph.attach import FieldFinder, graph_finding, place
from tritonlint.graph.model import (
    Edge,
    Ensemble,
    Graph,
    ModelInfo,
    Node,
    NodeKind,
    RepositoryGraph,
)
from tritonlint.graph.smoke_report import SmokeRefusals
from tritonlint.paths import display_path
from tritonlint.repository.model import Repository
from tritonlint.repository.server_fill_in import ENSEMBLE
from tritonlint.repository.walker import plan, text_source
from tritonlint.rules.context import ModelContext
from tritonlint.schema.datatypes import data_types

if TYPE_CHECKING:
    from tritonlint.diagnostics import Diagnostic
    from tritonlint.schema.config_types import ModelConfig


def build_graph(
    paths: Sequence[Path],
    options: LintOptions,
    *,
    repositories: Sequence[Path] = (),
    smoke: SmokeRefusals | None = None,
) -> Graph:
    """The graph of every repository ``paths`` lead to (see
    :func:`~tritonlint.repository.walker.plan`); a model folder or config file stands for
    its whole repository. Loose config files, in no repository, have no graph."""
    checks = plan(paths, repositories, options.excluded.match).checks
    roots = sorted({check.root for check in checks if check.root is not None})
    graph = Graph()
    for root in roots:
        graph.repositories.append(checked_graph(Workspace(root, options)))
    if smoke is not None:
        _add_refusals(graph, smoke)
    return graph


def text_graph(path: Path, text: str, options: LintOptions) -> Graph:
    """The graph of a config's text checked on its own, as :func:`~tritonlint.engine.lint_text`
    checks standard input (``path``: the name its findings are reported at, which need not
    exist): the ensemble it is, if it is one, with its findings. The models its steps run are
    not there, so they are in no graph's models: a step is drawn by its model's name alone,
    and no model is marked missing (no check of the text reports one)."""
    path = Path(os.path.abspath(path))
    workspace = workspace_for(text_source(path), options)
    workspace.open(path, text)
    drawn = checked_graph(workspace, steps_present=False)
    drawn.root = display_path(path)
    # A loose config's model is named after the folder it is in, which means nothing here:
    # the ensemble is named as its config names it.
    for model in workspace.repository.models:
        config = ModelContext(workspace.repository, model).config
        if config is not None and config.name and model.name in drawn.ensembles:
            _rename(drawn, model.name, config.name)
    return Graph([drawn] if drawn.ensembles else [])


def _rename(drawn: RepositoryGraph, old: str, new: str) -> None:
    ensemble = drawn.ensembles.pop(old)
    ensemble.name = new
    drawn.ensembles[new] = ensemble
    info = drawn.models.pop(old)
    info.name = new
    drawn.models[new] = info


def checked_graph(workspace: Workspace, *, steps_present: bool = True) -> RepositoryGraph:
    """The graph of ``workspace``'s repository, with the findings its check reports (see
    :func:`repository_graph` for ``steps_present``)."""
    result = workspace.check()
    found = [*result.repository]
    for diagnostics in result.by_model.values():
        found.extend(diagnostics)
    return repository_graph(workspace.repository, found, steps_present=steps_present)


def repository_graph(
    repository: Repository, diagnostics: list[Diagnostic], *, steps_present: bool = True
) -> RepositoryGraph:
    """The graph of one checked repository, with the findings of its check; where
    ``steps_present`` is False (a config on its own), the models its ensembles' steps run
    are not expected to be there, and are not added to it as missing ones."""
    root = repository.root
    drawn = RepositoryGraph(display_path(root) if root is not None else "")
    contexts = {model.name: ModelContext(repository, model) for model in repository.models}
    for name, ctx in sorted(contexts.items()):
        drawn.models[name] = _model_info(ctx)
    for name, ctx in sorted(contexts.items()):
        config = ctx.config
        if config is not None and config.platform == ENSEMBLE:
            drawn.ensembles[name] = _ensemble(ctx, config, contexts)
            for step in config.ensemble_scheduling.step:
                if steps_present and step.model_name and step.model_name not in drawn.models:
                    drawn.models[step.model_name] = ModelInfo(step.model_name, missing=True)
    drawn.models = dict(sorted(drawn.models.items()))
    _place_findings(drawn, contexts, diagnostics)
    return drawn


def _model_info(ctx: ModelContext) -> ModelInfo:
    config = ctx.loaded_config
    if config is None:
        return ModelInfo(ctx.model.name)
    if config.platform == ENSEMBLE:
        return ModelInfo(ctx.model.name, ENSEMBLE, "", config.max_batch_size, is_ensemble=True)
    completed = ctx.completed
    kinds = tuple(
        sorted({_enum_name(group, "kind", group.kind) for group in config.instance_group})
    )
    return ModelInfo(
        ctx.model.name,
        completed.platform,
        completed.backend,
        config.max_batch_size,
        kinds or ("KIND_AUTO",),
    )


def _enum_name(message: object, field: str, number: int) -> str:
    enum = message.DESCRIPTOR.fields_by_name[field].enum_type  # type: ignore[attr-defined]
    value = enum.values_by_number.get(number)
    return value.name if value is not None else str(number)


class _Declared(NamedTuple):
    """A tensor as one model's config declares it."""

    data_type: str
    dims: tuple[int, ...]
    batched: bool


def _declared(config: ModelConfig | None, kind: str, name: str) -> _Declared | None:
    if config is None:
        return None
    tensors = config.input if kind == "input" else config.output
    tensor = next((t for t in tensors if t.name == name), None)
    if tensor is None:
        return None
    return _Declared(
        data_types(config).name(tensor.data_type),
        tuple(tensor.dims),
        config.max_batch_size > 0,
    )


class _Writer(NamedTuple):
    node: str
    key: str
    declared: _Declared | None


def _ensemble(
    ctx: ModelContext, config: ModelConfig, contexts: dict[str, ModelContext]
) -> Ensemble:
    """The nodes and edges of one ensemble: its inputs, steps and outputs, and an edge for
    each reader of each tensor, from its writer (or from an unproduced node: nothing writes
    it); a tensor a step writes and nothing reads goes to an unused node."""
    ensemble = Ensemble(ctx.model.name)
    writers: dict[str, _Writer] = {}
    for entry in config.input:
        node = Node(f"input:{entry.name}", NodeKind.INPUT, entry.name)
        ensemble.nodes.append(node)
        writers.setdefault(entry.name, _Writer(node.id, "", _declared(config, "input", entry.name)))
    steps = list(config.ensemble_scheduling.step)
    models: list[ModelConfig | None] = []
    for index, step in enumerate(steps):
        node = Node(f"step:{index}", NodeKind.STEP, step.model_name, index)
        ensemble.nodes.append(node)
        other = contexts.get(step.model_name)
        model = other.loaded_config if other is not None else None
        models.append(model)
        for key, tensor in sorted(step.output_map.items()):
            writers.setdefault(tensor, _Writer(node.id, key, _declared(model, "output", key)))
    read: set[str] = set()
    for index, step in enumerate(steps):
        for key, tensor in sorted(step.input_map.items()):
            fallback = _declared(models[index], "input", key)
            _connect(ensemble, writers, tensor, f"step:{index}", key, fallback)
            read.add(tensor)
    for exit_ in config.output:
        ensemble.nodes.append(Node(f"output:{exit_.name}", NodeKind.OUTPUT, exit_.name))
        fallback = _declared(config, "output", exit_.name)
        _connect(ensemble, writers, exit_.name, f"output:{exit_.name}", exit_.name, fallback)
        read.add(exit_.name)
    for tensor, writer in writers.items():
        if tensor not in read and writer.key:
            unused = Node(f"unused:{tensor}", NodeKind.UNUSED, tensor)
            ensemble.nodes.append(unused)
            ensemble.edges.append(_edge(writer, unused.id, tensor, "", None))
    return ensemble


def _connect(
    ensemble: Ensemble,
    writers: dict[str, _Writer],
    tensor: str,
    target: str,
    key: str,
    fallback: _Declared | None,
) -> None:
    """The edge of ``tensor`` from its writer to the node ``target`` that reads it as ``key``."""
    writer = writers.get(tensor)
    if writer is None:
        node = Node(f"unproduced:{tensor}", NodeKind.UNPRODUCED, tensor)
        position = next(
            (i for i, n in enumerate(ensemble.nodes) if n.kind is not NodeKind.INPUT),
            len(ensemble.nodes),
        )
        ensemble.nodes.insert(position, node)
        writer = writers[tensor] = _Writer(node.id, "", None)
    ensemble.edges.append(_edge(writer, target, tensor, key, fallback))


def _edge(writer: _Writer, target: str, tensor: str, key: str, fallback: _Declared | None) -> Edge:
    declared = writer.declared or fallback
    edge = Edge(writer.node, target, tensor, source_key=writer.key, target_key=key)
    if declared is not None:
        edge.data_type, edge.dims, edge.batched = declared
    return edge


def _place_findings(
    drawn: RepositoryGraph, contexts: dict[str, ModelContext], diagnostics: list[Diagnostic]
) -> None:
    """Each finding on the node or edge its field makes, else on its model."""
    folders = {ctx.model.path: name for name, ctx in contexts.items()}
    finders: dict[str, FieldFinder] = {}
    for diagnostic in diagnostics:
        name = _model_of(diagnostic.path, folders)
        if name is None:
            continue
        finding = graph_finding(diagnostic)
        ensemble = drawn.ensembles.get(name)
        ctx = contexts[name]
        if ensemble is not None and diagnostic.path == ctx.config_path:
            finder = finders.setdefault(name, FieldFinder(ctx.model.config))
            if place(ensemble, finder.field_at(diagnostic.span), finding):
                continue
        drawn.models[name].findings.append(finding)


def _model_of(path: Path, folders: dict[Path, str]) -> str | None:
    """The model whose folder holds ``path`` (None: outside every model folder)."""
    for folder in (path, *path.parents):
        if folder in folders:
            return folders[folder]
    return None


def _add_refusals(graph: Graph, smoke: SmokeRefusals) -> None:
    """The smoke run's refusals on the models of its repository (of the only repository
    drawn, where the report's is not one of them: it may have been written elsewhere)."""
    roots = [Path(os.path.abspath(r.root)) for r in graph.repositories]
    chosen = [
        r for r, root in zip(graph.repositories, roots, strict=True) if root == smoke.repository
    ]
    if not chosen and len(graph.repositories) == 1:
        chosen = graph.repositories
    for repository in chosen:
        for name, finding in smoke.by_model.items():
            model = repository.models.get(name)
            if model is not None:
                model.findings.append(finding)
