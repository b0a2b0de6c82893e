#!/usr/bin/env python3
"""How long the code lens above a model's ``name`` takes on a large repository.

Usage: python benchmarks/code_lens.py [--models 200,1000,3000] [--repeat 20]

For each size, a repository of that many models is written to a temporary folder: most are
plain models; one in ten an ensemble of 3 to 6 steps (each step a plain model; every fifth
ensemble runs an earlier ensemble in its first step, a nested one). The lens is asked for the
config of a model that 20 ensembles run ("run by 20 ensembles") and for an ensemble's
("runs N models"):

* through a real ``tritonlint lsp`` over stdio (pygls' language client, as an editor asks):
  the first request after the config is opened, the same request repeated, and the request
  after an edit: of the open config (``didChange``, unsaved), and of another ensemble's config
  on disk (its file rewritten, ``didChangeWatchedFiles`` sent), as an editor sends them;
* in the process (``code_lenses``' own work: ``uses`` on the engine's repository), for
  comparison: the first call on a freshly read repository, then repeated calls.

Medians and bests of ``--repeat`` rounds, in milliseconds; the ``--target`` (50 ms) is what a
repeated request should stay under.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

from tritonlint.engine import Workspace
from tritonlint.lsp.ensemble_uses import uses

#: The plain model that many ensembles run, and how many.
SHARED = "shared"
SHARED_USERS = 20
TARGET_MS = 50


def _plain(name: str) -> str:
    return (
        f'name: "{name}"\nplatform: "onnxruntime_onnx"\nmax_batch_size: 8\n'
        'input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]\n'
        'output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]\n'
    )


def _ensemble(name: str, steps: list[str]) -> str:
    """An ensemble that runs ``steps`` one after the other, each output the next's input."""
    parts = []
    for index, model in enumerate(steps):
        source = "IN" if index == 0 else f"t{index}"
        target = "OUT" if index == len(steps) - 1 else f"t{index + 1}"
        parts.append(
            f'    {{ model_name: "{model}" model_version: -1\n'
            f'      input_map {{ key: "INPUT0" value: "{source}" }}\n'
            f'      output_map {{ key: "OUTPUT0" value: "{target}" }} }}'
        )
    joined = ",\n".join(parts)
    return (
        f'name: "{name}"\nplatform: "ensemble"\nmax_batch_size: 8\n'
        'input [ { name: "IN" data_type: TYPE_FP32 dims: [ 16 ] } ]\n'
        'output [ { name: "OUT" data_type: TYPE_FP32 dims: [ 16 ] } ]\n'
        f"ensemble_scheduling {{\n  step [\n{joined}\n  ]\n}}\n"
    )


def _write(root: Path, name: str, config: str, model_file: str | None) -> Path:
    (root / name / "1").mkdir(parents=True)
    if model_file is not None:
        (root / name / "1" / model_file).write_bytes(b"")
    path = root / name / "config.pbtxt"
    path.write_text(config, encoding="utf-8")
    return path


def build(root: Path, models: int) -> tuple[Path, Path, Path]:
    """A repository of ``models`` models under ``root``: the config of the shared model, of
    the last ensemble (the one asked about), and of another ensemble (the one edited on disk)."""
    ensembles = models // 10
    plain = models - ensembles
    names = [SHARED, *(f"model_{index:05}" for index in range(1, plain))]
    for name in names:
        _write(root, name, _plain(name), "model.onnx")
    made: list[str] = []
    for index in range(ensembles):
        length = 3 + index % 4
        steps = [names[1 + (index * 7 + k * 13) % (plain - 1)] for k in range(length)]
        if index < SHARED_USERS:
            steps[-1] = SHARED
        if index % 5 == 4 and made:
            steps[0] = made[index // 2]
        name = f"ensemble_{index:05}"
        _write(root, name, _ensemble(name, steps), None)
        made.append(name)
    return (
        root / SHARED / "config.pbtxt",
        root / made[-1] / "config.pbtxt",
        root / made[1] / "config.pbtxt",
    )


class Editor:
    """A language client on a ``tritonlint lsp`` process."""

    def __init__(self) -> None:
        self.client = LanguageClient("code-lens-bench", "1")
        self.version = 1

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: types.PublishDiagnosticsParams) -> None:
            """Diagnostics arrive as the server checks; the lens does not wait for them."""

    async def start(self, folder: Path) -> None:
        await self.client.start_io(sys.executable, "-m", "tritonlint", "lsp", env=dict(os.environ))
        await self.client.initialize_async(
            types.InitializeParams(
                capabilities=types.ClientCapabilities(),
                workspace_folders=[types.WorkspaceFolder(uri=folder.as_uri(), name="bench")],
            )
        )
        self.client.initialized(types.InitializedParams())

    async def stop(self) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()

    def open(self, path: Path) -> str:
        uri = path.as_uri()
        item = types.TextDocumentItem(uri, "pbtxt", 1, path.read_text(encoding="utf-8"))
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(item))
        return uri

    def change(self, uri: str, text: str) -> None:
        self.version += 1
        document = types.VersionedTextDocumentIdentifier(uri=uri, version=self.version)
        change = types.TextDocumentContentChangeWholeDocument(text=text)
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(document, [change]))

    def changed_on_disk(self, path: Path) -> None:
        event = types.FileEvent(uri=path.as_uri(), type=types.FileChangeType.Changed)
        self.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams([event]))

    async def lenses(self, uri: str) -> list[str]:
        document = types.TextDocumentIdentifier(uri)
        found = await self.client.text_document_code_lens_async(types.CodeLensParams(document))
        return [lens.command.title for lens in found or [] if lens.command is not None]


async def _timed(ask: Callable[[], Awaitable[list[str]]]) -> tuple[float, list[str]]:
    start = time.perf_counter()
    titles = await ask()
    return (time.perf_counter() - start) * 1000, titles


def _row(label: str, timings: list[float]) -> None:
    if len(timings) == 1:
        print(f"  {label:<52} {timings[0]:8.1f} ms")
    else:
        median = statistics.median(timings)
        print(f"  {label:<52} median {median:8.1f} ms   best {min(timings):8.1f} ms")


async def _over_stdio(root: Path, configs: tuple[Path, Path, Path], repeat: int) -> list[float]:
    shared, ensemble, other = configs
    editor = Editor()
    await editor.start(root)
    try:
        uri = editor.open(shared)
        first, titles = await _timed(lambda: editor.lenses(uri))
        _row(f"first request ({', '.join(titles)})", [first])
        repeated = [(await _timed(lambda: editor.lenses(uri)))[0] for _ in range(repeat)]
        _row("repeated request", repeated)
        text = shared.read_text(encoding="utf-8")
        typed = []
        for index in range(repeat):
            editor.change(uri, f"{text}# edit {index}\n")
            typed.append((await _timed(lambda: editor.lenses(uri)))[0])
        _row("after an edit of the open config (didChange)", typed)
        on_disk = []
        original = other.read_text(encoding="utf-8")
        for index in range(repeat):
            other.write_text(f"{original}# edit {index}\n", encoding="utf-8")
            editor.changed_on_disk(other)
            on_disk.append((await _timed(lambda: editor.lenses(uri)))[0])
        _row("after an ensemble's config changed on disk", on_disk)
        asked = editor.open(ensemble)
        first, titles = await _timed(lambda: editor.lenses(asked))
        _row(f"an ensemble's config, first request ({', '.join(titles)})", [first])
        again = [(await _timed(lambda: editor.lenses(asked)))[0] for _ in range(repeat)]
        _row("an ensemble's config, repeated", again)
        return repeated
    finally:
        await editor.stop()


def _in_process(root: Path, repeat: int) -> list[float]:
    workspace = Workspace(root)
    start = time.perf_counter()
    found = uses(workspace.repository, SHARED)
    _row(f"in process, first (run by {len(found.run_by)})", [(time.perf_counter() - start) * 1000])
    timings = []
    for _ in range(repeat):
        start = time.perf_counter()
        uses(workspace.repository, SHARED)
        timings.append((time.perf_counter() - start) * 1000)
    _row("in process, repeated", timings)
    return timings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="200,1000,3000")
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    for models in (int(count) for count in args.models.split(",")):
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            configs = build(root, models)
            print(f"{models} models ({models // 10} ensembles):")
            repeated = asyncio.run(_over_stdio(root, configs, args.repeat))
            in_process = _in_process(root, args.repeat)
            ratio = statistics.median(repeated) / statistics.median(in_process)
            print(
                f"  repeated request over stdio / in process: {ratio:.1f}x; target {TARGET_MS} ms"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
