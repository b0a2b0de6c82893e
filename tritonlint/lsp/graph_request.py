"""``tritonlint/graph``: the ensemble graph of an open config, as data (docs/editors.md).

Params ``{"uri": ..., "model": ...}`` (``model`` optional: the model of the document ``uri``
by default). The answer is what ``tritonlint graph --format json --model NAME`` writes for the
repository of ``uri`` (the ensemble with all it runs, or the ensembles that run the model),
computed from the editor's texts (unsaved edits count), with what an editor needs besides:

* ``model``: the model drawn around (null where the document is no model's config: then the
  whole repository is drawn);
* each repository's ``root`` as an absolute path, and each model's ``uri``: its config file
  (null for a model the repository lacks);
* each edge's ``writer`` and ``reader``: where the ensemble's config writes and reads the
  tensor (a step's ``output_map``/``input_map`` entry, or the ensemble's input or output),
  as ``{"uri", "range", "text"}`` (``text``: that line of the config, trimmed), or null for
  an end nothing declares.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams

from tritonlint.graph.build import checked_graph
from tritonlint.graph.json_data import graph_object
from tritonlint.graph.model import Graph
from tritonlint.graph.selection import select_model
from tritonlint.lsp.ensemble_uses import model_of
from tritonlint.lsp.positions import Positions
from tritonlint.lsp.projects import Project
from tritonlint.lsp.uris import path_of
from tritonlint.rules.context import ModelContext
from tritonlint.rules.ensemble.steps import STEP
from tritonlint.schema.source_map import Path as FieldPath
from tritonlint.usage import UsageError

if TYPE_CHECKING:
    from collections.abc import Callable

    from tritonlint.lsp.state import TritonLintServer

GRAPH = "tritonlint/graph"


async def graph(ls: TritonLintServer, params: Any) -> dict[str, Any]:
    uri = _string(params, "uri")
    path = path_of(uri) if uri is not None else None
    if uri is None or path is None:
        raise JsonRpcInvalidParams(f"{GRAPH}: params need a 'uri' of a file")
    asked = _string(params, "model")
    await ls.configured.wait()
    project = ls.projects.for_file(path)
    ls.tell_problems()

    def work() -> Callable[[], dict[str, Any]]:
        positions = ls.positions(project)
        return lambda: _answer(ls, project, path, asked, positions)

    async with ls.lock(project):
        answer = await ls.run_current(project, work)
    if answer is None:  # edited all along: the texts as they are now
        answer = _answer(ls, project, path, asked, ls.positions(project))
    return answer


def _answer(
    ls: TritonLintServer,
    project: Project,
    path: Path,
    asked: str | None,
    positions: Callable[[Path], Positions | None],
) -> dict[str, Any]:
    """The graph of ``project``'s repository around model ``asked`` (else the document's)."""
    workspace = project.workspace
    drawn = Graph([checked_graph(workspace)])
    repository = workspace.repository
    model = model_of(repository, path)
    name = asked if asked is not None else model.name if model is not None else None
    if name is not None:
        try:
            drawn = select_model(drawn, name)
        except UsageError as error:
            raise JsonRpcInvalidParams(f"{GRAPH}: {error}") from None
    answer = graph_object(drawn)
    answer["model"] = name
    for entry in answer["repositories"]:
        entry["root"] = str(workspace.root) if workspace.root is not None else ""
        for info in entry["models"]:
            folder = repository.by_name.get(info["name"])
            known = folder is not None and not info["missing"]
            info["uri"] = ls.uri_of(folder.config_path) if folder and known else None
        for ensemble in entry["ensembles"]:
            folder = repository.by_name[ensemble["name"]]
            places = _Places(ls, ModelContext(repository, folder), positions)
            for edge in ensemble["edges"]:
                edge["writer"] = places.writer(edge["source"], edge["source_key"])
                edge["reader"] = places.reader(edge["target"], edge["target_key"])
    return answer


class _Places:
    """Where an ensemble's config writes and reads its tensors, as LSP places."""

    def __init__(
        self,
        ls: TritonLintServer,
        ctx: ModelContext,
        positions: Callable[[Path], Positions | None],
    ) -> None:
        self._ls = ls
        self._ctx = ctx
        config = ctx.config
        self._inputs = [entry.name for entry in config.input] if config is not None else []
        self._outputs = [entry.name for entry in config.output] if config is not None else []
        self._positions = positions(ctx.config_path)

    def writer(self, node: str, key: str) -> dict[str, Any] | None:
        kind, _, name = node.partition(":")
        if kind == "input" and name in self._inputs:
            return self._place(("input", self._inputs.index(name), "name"))
        if kind == "step":
            return self._place((*STEP, int(name), "output_map", key, "value"))
        return None

    def reader(self, node: str, key: str) -> dict[str, Any] | None:
        kind, _, name = node.partition(":")
        if kind == "output" and name in self._outputs:
            return self._place(("output", self._outputs.index(name), "name"))
        if kind == "step":
            return self._place((*STEP, int(name), "input_map", key, "value"))
        return None

    def _place(self, path: FieldPath) -> dict[str, Any] | None:
        span = self._ctx.span(path, "field")
        if span is None or self._positions is None:
            return None
        text = self._positions.text
        line = text[text.rfind("\n", 0, span.start) + 1 :].split("\n", 1)[0]
        return {
            "uri": self._ls.uri_of(self._ctx.config_path),
            "range": _range_json(self._positions.range(span)),
            "text": line.strip(),
        }


def _range_json(where: types.Range) -> dict[str, Any]:
    return {
        "start": {"line": where.start.line, "character": where.start.character},
        "end": {"line": where.end.line, "character": where.end.character},
    }


def _string(params: Any, key: str) -> str | None:
    value = params.get(key) if isinstance(params, dict) else getattr(params, key, None)
    return value if isinstance(value, str) else None


def register(server: TritonLintServer) -> None:
    server.feature(GRAPH)(graph)
