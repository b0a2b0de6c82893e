"""What the language server tests share: the project's configs, starting a session, waiting.

The project folder holds one repository:
``pre`` (python backend, output ``PIXELS``), ``pipeline`` (an ensemble running ``pre``) and
``classifier`` (onnxruntime); all three are clean on disk.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from pathlib import Path

from lsprotocol import types
from pytest_lsp import LanguageClient

PRE = """name: "pre"
backend: "python"
max_batch_size: 8
input [ { name: "RAW" data_type: TYPE_UINT8 dims: [ -1 ] } ]
output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
"""
PIPELINE = """name: "pipeline"
platform: "ensemble"
max_batch_size: 8
input [ { name: "RAW" data_type: TYPE_UINT8 dims: [ -1 ] } ]
output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
ensemble_scheduling {
  step [
    {
      model_name: "pre"
      model_version: -1
      input_map { key: "RAW" value: "RAW" }
      output_map { key: "PIXELS" value: "PIXELS" }
    }
  ]
}
"""
CLASSIFIER = """name: "classifier"
backend: "onnxruntime"
max_batch_size: 8
input [ { name: "INPUT" data_type: TYPE_FP32 dims: [ 3 ] } ]
output [ { name: "OUTPUT" data_type: TYPE_FP32 dims: [ 10 ] } ]
"""
#: The classifier with one finding: TL501 (a negative max_batch_size) at 2:16-2:18 (0-based).
NEGATIVE_BATCH = CLASSIFIER.replace("max_batch_size: 8", "max_batch_size: -1")
#: The classifier with one finding: TL101 (``dim`` for ``dims``) at 3:45-3:48 (0-based).
MISSPELT_DIMS = CLASSIFIER.replace(" dims: [ 3 ]", " dim: [ 3 ]")
#: Where the classifier's config is, below the project folder.
CLASSIFIER_CONFIG = "models/classifier/config.pbtxt"
#: The ensemble and the model it runs, as files of a repository (model files empty).
ENSEMBLE_FILES: dict[str, str] = {
    "pre/config.pbtxt": PRE,
    "pre/1/model.py": "",
    "pipeline/config.pbtxt": PIPELINE,
    "pipeline/1/.gitkeep": "",
}
#: The project's repository: the ensemble, its model and the classifier.
PROJECT_FILES: dict[str, str] = {
    **ENSEMBLE_FILES,
    "classifier/config.pbtxt": CLASSIFIER,
    "classifier/1/model.onnx": "",
}
SERVER = [sys.executable, "-m", "tritonlint", "lsp"]


def capabilities(
    encodings: list[str] | None = None,
    snippets: bool = True,
    markdown: bool = True,
    pull: types.DiagnosticClientCapabilities | None = None,
    refresh: bool = False,
) -> types.ClientCapabilities:
    """An editor's capabilities; with ``pull`` it pulls diagnostics, with ``refresh`` it can
    be told to pull again."""
    return types.ClientCapabilities(
        general=types.GeneralClientCapabilities(position_encodings=encodings),
        workspace=types.WorkspaceClientCapabilities(
            configuration=True,
            diagnostics=(
                types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
                if refresh
                else None
            ),
        ),
        text_document=types.TextDocumentClientCapabilities(
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(
                related_information=True, version_support=True, code_description_support=True
            ),
            diagnostic=pull,
            completion=types.CompletionClientCapabilities(
                completion_item=types.ClientCompletionItemOptions(
                    snippet_support=snippets,
                    documentation_format=[types.MarkupKind.Markdown] if markdown else None,
                )
            ),
        ),
    )


def recorded(client: LanguageClient) -> list[types.PublishDiagnosticsParams]:
    """Every publishDiagnostics the client receives from now on, in order."""
    seen: list[types.PublishDiagnosticsParams] = []
    features = client.protocol.fm.features
    handler = features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    def record(params: types.PublishDiagnosticsParams) -> None:
        seen.append(params)
        handler(params)

    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = record
    return seen


async def start(
    client: LanguageClient,
    folder: Path,
    encodings: list[str] | None = None,
    snippets: bool = True,
    given: types.ClientCapabilities | None = None,
) -> types.InitializeResult:
    """Initialise a session on ``folder`` with ``given`` capabilities (by default those of
    :func:`capabilities`)."""
    client.published = recorded(client)  # type: ignore[attr-defined]
    return await client.initialize_session(
        types.InitializeParams(
            capabilities=given or capabilities(encodings, snippets),
            workspace_folders=[types.WorkspaceFolder(uri=folder.as_uri(), name="project")],
        )
    )


async def until(condition: Callable[[], bool], timeout: float = 15.0) -> None:
    """Wait for ``condition`` to hold (diagnostics arrive when the server has checked)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError("timed out waiting for the server")
        await asyncio.sleep(0.02)
