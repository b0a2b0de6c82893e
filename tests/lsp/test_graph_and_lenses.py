"""The ensemble graph in an editor: the ``tritonlint/graph`` request and the code lenses above
a model's ``name``, through a real ``tritonlint lsp`` over stdio.

The repository: ``pipeline`` runs ``pre``; ``outer`` runs ``pipeline`` and ``classifier``;
``lonely`` is in no ensemble.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import Files
from lsp_documents import at, change_document, open_document
from lsp_session import CLASSIFIER, PROJECT_FILES
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio

OUTER = """name: "outer"
platform: "ensemble"
max_batch_size: 8
input [ { name: "RAW" data_type: TYPE_UINT8 dims: [ -1 ] } ]
output [ { name: "SCORES" data_type: TYPE_FP32 dims: [ 10 ] } ]
ensemble_scheduling {
  step [
    {
      model_name: "pipeline"
      model_version: -1
      input_map { key: "RAW" value: "RAW" }
      output_map { key: "PIXELS" value: "pixels" }
    },
    {
      model_name: "classifier"
      model_version: -1
      input_map { key: "INPUT" value: "pixels" }
      output_map { key: "OUTPUT" value: "SCORES" }
    }
  ]
}
"""
LONELY = CLASSIFIER.replace('"classifier"', '"lonely"')


@pytest.fixture
def project_files() -> Files:
    return {
        **PROJECT_FILES,
        "outer/config.pbtxt": OUTER,
        "outer/1/.gitkeep": "",
        "lonely/config.pbtxt": LONELY,
        "lonely/1/model.onnx": "",
    }


def config(project: Path, model: str) -> Path:
    return project / "models" / model / "config.pbtxt"


def plain(value: Any) -> Any:
    """A result as JSON has it (pygls gives an untyped result as attributes)."""
    if hasattr(value, "_asdict"):
        return {key: plain(item) for key, item in value._asdict().items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value


async def graph_of(client: LanguageClient, params: dict[str, Any]) -> dict[str, Any]:
    found = plain(await client.protocol.send_request_async("tritonlint/graph", params))
    assert isinstance(found, dict)
    return found


async def lenses(client: LanguageClient, uri: str) -> list[types.CodeLens]:
    found = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    return found or []


def where(lens: types.CodeLens) -> tuple[Any, ...]:
    """A lens as the user sees it: where, its title, and what its command shows."""
    assert lens.command is not None and lens.command.arguments is not None
    uri, position, locations = lens.command.arguments
    return (
        lens.range,
        lens.command.title,
        lens.command.command,
        uri,
        (position["line"], position["character"]),
        [
            (
                Path(location["uri"]).parts[-2],
                location["range"]["start"]["line"],
                location["range"]["start"]["character"],
                location["range"]["end"]["character"],
            )
            for location in locations
        ],
    )


async def test_an_ensemble_runs_its_models_and_a_model_is_run_by_its_ensembles(
    client: LanguageClient, project: Path
) -> None:
    outer = open_document(client, config(project, "outer"), OUTER)
    assert [where(lens) for lens in await lenses(client, outer)] == [
        (
            at(0, 0, 0, 13),
            "runs 2 models",
            "tritonlint.showPlaces",
            outer,
            (0, 0),
            [("pipeline", 0, 6, 16), ("classifier", 0, 6, 18)],
        )
    ]
    pipeline = open_document(
        client, config(project, "pipeline"), config(project, "pipeline").read_text()
    )
    assert [where(lens) for lens in await lenses(client, pipeline)] == [
        (
            at(0, 0, 0, 16),
            "run by 1 ensemble",
            "tritonlint.showPlaces",
            pipeline,
            (0, 0),
            [("outer", 8, 18, 28)],
        ),
        (
            at(0, 0, 0, 16),
            "runs 1 model",
            "tritonlint.showPlaces",
            pipeline,
            (0, 0),
            [("pre", 0, 6, 11)],
        ),
    ]
    classifier = open_document(client, config(project, "classifier"), CLASSIFIER)
    assert [where(lens) for lens in await lenses(client, classifier)] == [
        (
            at(0, 0, 0, 18),
            "run by 1 ensemble",
            "tritonlint.showPlaces",
            classifier,
            (0, 0),
            [("outer", 14, 18, 30)],
        )
    ]
    lonely = open_document(client, config(project, "lonely"), LONELY)
    assert await lenses(client, lonely) == []


async def test_code_lenses_follow_unsaved_edits(client: LanguageClient, project: Path) -> None:
    outer = open_document(client, config(project, "outer"), OUTER)
    # A second step that runs pre too: pre is then run by two ensembles.
    edited = OUTER.replace('model_name: "classifier"', 'model_name: "pre"')
    change_document(client, outer, edited, 2)
    pre = open_document(client, config(project, "pre"), config(project, "pre").read_text())
    shown = [where(lens) for lens in await lenses(client, pre)]
    assert [(title, places) for _, title, _, _, _, places in shown] == [
        ("run by 2 ensembles", [("outer", 14, 18, 23), ("pipeline", 8, 18, 23)]),
    ]
    assert [where(lens)[1] for lens in await lenses(client, outer)] == ["runs 2 models"]


async def test_code_lenses_follow_the_disk(client: LanguageClient, project: Path) -> None:
    """A config the editor does not have open is read again when it changes on disk, and
    counts no more once deleted."""
    pre = open_document(client, config(project, "pre"), config(project, "pre").read_text())
    assert [where(lens)[1] for lens in await lenses(client, pre)] == ["run by 1 ensemble"]
    outer = config(project, "outer")
    outer.write_text(OUTER.replace('model_name: "classifier"', 'model_name: "pre"'))
    watched(client, (outer, types.FileChangeType.Changed))
    shown = [where(lens) for lens in await lenses(client, pre)]
    assert [(title, places) for _, title, _, _, _, places in shown] == [
        ("run by 2 ensembles", [("outer", 14, 18, 23), ("pipeline", 8, 18, 23)]),
    ]
    outer.unlink()
    watched(client, (outer, types.FileChangeType.Deleted))
    shown = [where(lens) for lens in await lenses(client, pre)]
    assert [(title, places) for _, title, _, _, _, places in shown] == [
        ("run by 1 ensemble", [("pipeline", 8, 18, 23)]),
    ]


def watched(client: LanguageClient, *changes: tuple[Path, types.FileChangeType]) -> None:
    """What an editor's file watcher tells the server."""
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=path.as_uri(), type=kind) for path, kind in changes]
        )
    )


async def test_graph_of_an_ensemble_is_the_graph_commands_json_with_places(
    client: LanguageClient, project: Path
) -> None:
    uri = open_document(client, config(project, "outer"), OUTER)
    found = await graph_of(client, {"uri": uri})
    assert found["version"] == 1
    assert found["model"] == "outer"
    [repository] = found["repositories"]
    assert repository["root"] == str(project / "models")
    assert [(m["name"], m["uri"]) for m in repository["models"]] == [
        (name, config(project, name).as_uri())
        for name in ("classifier", "outer", "pipeline", "pre")
    ]
    assert [e["name"] for e in repository["ensembles"]] == ["outer", "pipeline"]
    outer = repository["ensembles"][0]
    assert [node["id"] for node in outer["nodes"]] == [
        "input:RAW",
        "step:0",
        "step:1",
        "output:SCORES",
    ]
    pixels = next(e for e in outer["edges"] if e["tensor"] == "pixels")
    assert (pixels["source"], pixels["target"], pixels["data_type"], pixels["dims"]) == (
        "step:0",
        "step:1",
        "TYPE_FP32",
        [3, 224, 224],
    )
    assert pixels["writer"] == {
        "uri": uri,
        "range": {"start": {"line": 11, "character": 33}, "end": {"line": 11, "character": 48}},
        "text": 'output_map { key: "PIXELS" value: "pixels" }',
    }
    assert pixels["reader"]["range"]["start"] == {"line": 16, "character": 31}
    assert pixels["reader"]["text"] == 'input_map { key: "INPUT" value: "pixels" }'
    raw = next(e for e in outer["edges"] if e["tensor"] == "RAW")
    assert raw["writer"]["range"]["start"] == {"line": 3, "character": 10}


async def test_graph_of_a_model_is_the_ensembles_that_run_it_with_the_unsaved_text(
    client: LanguageClient, project: Path
) -> None:
    uri = open_document(client, config(project, "pre"), config(project, "pre").read_text())
    found = await graph_of(client, {"uri": uri})
    assert found["model"] == "pre"
    [repository] = found["repositories"]
    assert [e["name"] for e in repository["ensembles"]] == ["outer", "pipeline"]
    # An edit that is not saved: the classifier's input renamed, so that outer's step maps
    # an input it lacks (TL713 on the edge into the classifier).
    classifier = open_document(client, config(project, "classifier"), CLASSIFIER)
    change_document(client, classifier, CLASSIFIER.replace('"INPUT"', '"IMAGE"'), 2)
    found = await graph_of(client, {"uri": uri, "model": "outer"})
    assert found["model"] == "outer"
    outer = found["repositories"][0]["ensembles"][0]
    into = next(e for e in outer["edges"] if e["target"] == "step:1")
    assert [(f["code"], f["line"]) for f in into["findings"]] == [("TL713", 17)]


async def test_graph_of_a_model_in_no_ensemble_and_of_an_unknown_one(
    client: LanguageClient, project: Path
) -> None:
    uri = open_document(client, config(project, "lonely"), LONELY)
    found = await graph_of(client, {"uri": uri})
    [repository] = found["repositories"]
    assert [m["name"] for m in repository["models"]] == ["lonely"]
    assert repository["ensembles"] == []
    assert repository["in_no_ensemble"] == ["lonely"]
    with pytest.raises(JsonRpcException) as raised:
        await graph_of(client, {"uri": uri, "model": "outr"})
    assert raised.value.code == types.ErrorCodes.InvalidParams
    assert "no model 'outr'" in raised.value.message
    assert "did you mean 'outer'?" in raised.value.message
    with pytest.raises(JsonRpcException) as missing:
        await graph_of(client, {})
    assert missing.value.code == types.ErrorCodes.InvalidParams
