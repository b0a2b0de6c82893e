"""Findings about a model folder without config.pbtxt (or about a file that is no config)
reach the editor on a file of that folder, without the user opening it; no diagnostic and no
related place names a folder (an editor cannot show one)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from helpers import Files
from lsp_session import SERVER, capabilities, start, until
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient
from test_disk import changed

pytestmark = pytest.mark.asyncio

PIPE = """name: "pipe"
platform: "ensemble"
max_batch_size: 0
input [ { name: "IN" data_type: TYPE_FP32 dims: [ 1 ] } ]
output [ { name: "OUT" data_type: TYPE_FP32 dims: [ 1 ] } ]
ensemble_scheduling {
  step [
    {
      model_name: "weights"
      model_version: -1
      input_map { key: "IN" value: "IN" }
      output_map { key: "OUT" value: "OUT" }
    }
  ]
}
"""

PYTHON_MODEL = """class TritonPythonModel:
    def execute(self, requests):
        return []
"""

#: Each kind of folder the layout rules report, the code and the file that shows it.
FOLDERS: dict[str, str | bytes | None] = {
    "tmpl/config.pbtxt.template": 'name: "tmpl"\nbackend: "python"\n',
    "tmpl/1/model.py": PYTHON_MODEL,
    "renamed/config.txt": 'name: "renamed"\nbackend: "pytorch"\n',
    "renamed/1/model.pt": b"",
    "export/saved_model.pb": b"",
    "export/variables/variables.index": b"",
    "unwrapped/1/saved_model.pb": b"",
    "src/train.py": "print('train')\n",
    "src/Dockerfile": "FROM python\n",
    "src/requirements.txt": "numpy\n",
    "weights/1/weights.bin": b"",
    "loose/model.py": "import numpy\n",
    "pipe/config.pbtxt": PIPE,
    "pipe/1/.gitkeep": "",
}
SHOWN = {
    ("TL223", "tmpl/config.pbtxt.template"),
    ("TL210", "renamed/config.txt"),
    ("TL210", "export/saved_model.pb"),
    ("TL210", "unwrapped/1/saved_model.pb"),
    ("TL210", "src/Dockerfile"),
    ("TL210", "weights/1/weights.bin"),
    ("TL212", "loose/model.py"),
    ("TL720", "pipe/config.pbtxt"),
}


@pytest.fixture
def project_files() -> Files:
    return FOLDERS


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def pulling(lsp_client: LanguageClient, project: Path) -> AsyncIterator[None]:
    given = capabilities(pull=types.DiagnosticClientCapabilities(), refresh=True)
    await start(lsp_client, project, given=given)
    yield
    await lsp_client.shutdown_session()


def shown(
    root: Path, found: dict[str, list[types.Diagnostic]]
) -> set[tuple[str | int | None, str]]:
    models = (root / "models").as_uri() + "/"
    return {
        (d.code, uri.removeprefix(models))
        for uri, diagnostics in found.items()
        for d in diagnostics
    }


def assert_no_folder(found: dict[str, list[types.Diagnostic]]) -> None:
    """Every URI a diagnostic is shown on or points at is a file."""
    uris = [uri for uri, diagnostics in found.items() if diagnostics]
    for diagnostics in found.values():
        for diagnostic in diagnostics:
            uris.extend(r.location.uri for r in diagnostic.related_information or [])
    for uri in uris:
        path = Path(uri.removeprefix("file://"))
        assert path.is_file(), f"{uri} is not a file"


async def test_findings_about_folders_are_pushed_on_a_file_of_each_unopened(
    client: LanguageClient, project: Path
) -> None:
    def latest() -> dict[str, list[types.Diagnostic]]:
        return {
            p.uri: list(p.diagnostics)
            for p in client.published  # type: ignore[attr-defined]
        }

    await until(lambda: shown(project, latest()) >= SHOWN)
    found = latest()
    assert shown(project, found) == SHOWN
    template = (project / "models/tmpl/config.pbtxt.template").as_uri()
    (diagnostic,) = found[template]
    assert diagnostic.code == "TL223" and "fill the template in" in diagnostic.message
    assert diagnostic.range == types.Range(types.Position(0, 0), types.Position(0, 12))
    (refused,) = found[(project / "models/pipe/config.pbtxt").as_uri()]
    (related,) = refused.related_information or []
    assert related.location.uri == (project / "models/weights/1/weights.bin").as_uri()
    assert_no_folder(found)


async def test_a_workspace_pull_reports_the_files_that_show_folder_findings(
    pulling: LanguageClient, project: Path
) -> None:
    report = await pulling.workspace_diagnostic_async(
        types.WorkspaceDiagnosticParams(previous_result_ids=[])
    )
    found = {
        item.uri: list(item.items)
        for item in report.items
        if isinstance(item, types.WorkspaceFullDocumentDiagnosticReport)
    }
    assert shown(project, found) == SHOWN
    assert_no_folder(found)
    assert pulling.published == []  # type: ignore[attr-defined]


async def test_a_workspace_pull_clears_the_template_once_the_model_has_its_config(
    pulling: LanguageClient, project: Path
) -> None:
    template = (project / "models/tmpl/config.pbtxt.template").as_uri()
    first = await pulling.workspace_diagnostic_async(
        types.WorkspaceDiagnosticParams(previous_result_ids=[])
    )
    (held,) = [item for item in first.items if item.uri == template]
    assert isinstance(held, types.WorkspaceFullDocumentDiagnosticReport)
    assert [d.code for d in held.items] == ["TL223"] and held.result_id is not None
    config = project / "models/tmpl/config.pbtxt"
    config.write_text('name: "tmpl"\nbackend: "python"\n')
    changed(pulling, (config, types.FileChangeType.Created))
    after = await pulling.workspace_diagnostic_async(
        types.WorkspaceDiagnosticParams(
            previous_result_ids=[types.PreviousResultId(uri=template, value=held.result_id)]
        )
    )
    reports = {item.uri: item for item in after.items}
    cleared = reports[template]
    assert isinstance(cleared, types.WorkspaceFullDocumentDiagnosticReport)
    assert list(cleared.items) == []
    assert config.as_uri() in reports
