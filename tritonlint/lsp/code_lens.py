"""``textDocument/codeLens``: above a model's ``name``, "run by 2 ensembles" (the ensembles
with a step that runs it) and "runs 3 models" (what its steps run, for an ensemble); nothing
where neither holds.

Each lens's command is :data:`SHOW_PLACES`, with the arguments of VS Code's
``editor.action.showReferences`` as LSP JSON: the document's URI, the lens's position and the
places (each ensemble step's ``model_name`` that names the model; each run model's ``name``).
The client converts them and shows the places (the VS Code extension registers the command;
another editor may run its own "show locations" with the same arguments).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from tritonlint.editor.navigation import Place
from tritonlint.lsp.ensemble_uses import model_of, name_field, uses
from tritonlint.lsp.features import Request, answering, request

if TYPE_CHECKING:
    from tritonlint.lsp.state import TritonLintServer

#: The client's command that shows a list of places (see the module's docstring).
SHOW_PLACES = "tritonlint.showPlaces"


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


@answering
def code_lenses(ls: TritonLintServer, params: types.CodeLensParams) -> list[types.CodeLens]:
    found = request(ls, params.text_document.uri)
    if found is None:
        return []
    repository = found.project.workspace.repository
    model = model_of(repository, found.path)
    if model is None:
        return []
    used = uses(repository, model.name)
    where = found.positions.range(name_field(model).span)
    lenses: list[types.CodeLens] = []
    if used.run_by:
        title = f"run by {plural(len(used.run_by), 'ensemble')}"
        lenses.append(_lens(found, ls, where, title, used.run_by_places))
    if used.runs:
        title = f"runs {plural(len(used.runs), 'model')}"
        lenses.append(_lens(found, ls, where, title, used.runs_places))
    return lenses


def _lens(
    found: Request, ls: TritonLintServer, where: types.Range, title: str, places: list[Place]
) -> types.CodeLens:
    located = [found.location(place, ls) for place in places]
    locations = [location for location in located if location is not None]
    arguments = [found.uri, where.start, locations]
    command = types.Command(title=title, command=SHOW_PLACES, arguments=arguments)
    return types.CodeLens(range=where, command=command)


def register(server: TritonLintServer) -> None:
    server.feature(types.TEXT_DOCUMENT_CODE_LENS, types.CodeLensOptions(resolve_provider=False))(
        code_lenses
    )
