#!/usr/bin/env python3
"""How long the language server takes to answer an editor, end to end over stdio.

Usage: python benchmarks/lsp_latency.py [--repeat 20]

A real ``tritonlint lsp`` process driven by pygls' language client, as an editor drives it:

* ``didChange`` -> ``publishDiagnostics`` of the new version, for a one-line edit in an open
  config of about 5,000 lines (1,000 inputs): each round renames input 500 anew (with a name
  of another length than the one before); and for an edit in an open model that 50
  ensembles run, in a repository of 1,000 models (until the edited file's and an ensemble's
  diagnostics have both arrived), built with the config writers of ``editor_change.py``;
  and for an edit in an open config of about 3,000 lines (600 outputs) that an ensemble of
  about 860 lines runs in each of its 20 steps: renaming an output every step maps (each step
  gains a finding, with a related place in the edited config), and misspelling a field of
  that output (``dim`` for ``dims``: an unknown field in the config, and each step refused
  for it in the ensemble); then the edit undone (the findings are cleared); until the edited
  file's and the ensemble's diagnostics arrived.
* ``textDocument/completion`` and ``textDocument/hover`` in the large config, when the server
  offers them; and completion asked right after an edit of the input it is asked in, as an
  editor asks when a trigger character is typed (until the answer).

Edits are sent as an editor sends them to a server that syncs incrementally (VS Code, Neovim):
the range replaced and its new text. The rows marked ``(whole text)`` send the whole new text
instead, as a client that syncs fully does. Medians and bests of ``--repeat`` rounds are
printed in milliseconds, with the targets (diagnostics 50 ms, completion and hover 20 ms).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

sys.path.insert(0, str(Path(__file__).resolve().parent))
from editor_change import _ensemble, _large_config, _plain, _write

TARGET_MS = 50
REQUEST_TARGET_MS = 20


class Editor:
    """A client that remembers when each file's diagnostics last arrived, and of which version."""

    def __init__(self) -> None:
        self.client = LanguageClient("lsp-latency", "1")
        self.arrived: dict[str, tuple[float, int | None]] = {}
        self.capabilities: types.ServerCapabilities | None = None
        self.versions: dict[str, int] = {}

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: types.PublishDiagnosticsParams) -> None:
            self.arrived[params.uri] = (time.perf_counter(), params.version)

        @self.client.feature(types.WINDOW_LOG_MESSAGE)
        def logged(params: types.LogMessageParams) -> None:
            if params.type == types.MessageType.Error:
                print(params.message, file=sys.stderr)

    async def start(self, folder: Path) -> None:
        env = dict(os.environ)
        env.pop("TRITONLINT_LSP_DEBOUNCE_MS", None)
        await self.client.start_io(sys.executable, "-m", "tritonlint", "lsp", env=env)
        result = await self.client.initialize_async(
            types.InitializeParams(
                capabilities=types.ClientCapabilities(),
                workspace_folders=[types.WorkspaceFolder(uri=folder.as_uri(), name="bench")],
            )
        )
        self.capabilities = result.capabilities
        self.client.initialized(types.InitializedParams())

    async def stop(self) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()

    async def wait(self, done: Callable[[], bool], timeout: float = 120) -> None:
        deadline = time.perf_counter() + timeout
        while not done():
            if time.perf_counter() > deadline:
                raise TimeoutError("the server did not answer")
            await asyncio.sleep(0.0005)

    async def open(self, path: Path, text: str) -> str:
        uri = path.as_uri()
        self.versions[uri] = 1
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=uri, language_id="pbtxt", version=1, text=text
                )
            )
        )
        await self.wait(lambda: self.arrived.get(uri, (0, None))[1] == 1)
        return uri

    def send_change(self, uri: str, change: types.TextDocumentContentChangeEvent) -> int:
        """Send ``change``; the new version."""
        version = self.versions[uri] = self.versions[uri] + 1
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[change],
            )
        )
        return version

    async def change(
        self, uri: str, text: str, new_text: str, whole: bool, also: str | None = None
    ) -> float:
        """Milliseconds from sending the edit that makes ``text`` ``new_text`` until its
        diagnostics (and ``also``'s) came; ``whole``: send the whole new text."""
        change = _change(text, new_text, whole)
        start = time.perf_counter()
        version = self.send_change(uri, change)

        def done() -> bool:
            mine = self.arrived.get(uri, (0.0, None))
            other = self.arrived.get(also, (start, None)) if also else (start + 1, None)
            return mine[1] == version and other[0] > start

        await self.wait(done)
        last = max(self.arrived[uri][0], self.arrived[also][0] if also else 0.0)
        return (last - start) * 1000


def _change(text: str, new_text: str, whole: bool) -> types.TextDocumentContentChangeEvent:
    """The change of ``text`` into ``new_text``: the whole new text, or the range replaced."""
    if whole:
        return types.TextDocumentContentChangeWholeDocument(text=new_text)
    return _partial(text, new_text)


def _partial(text: str, new_text: str) -> types.TextDocumentContentChangePartial:
    """The change of ``text`` into ``new_text`` as a range and its new text (positions of
    ASCII text: code points are UTF-16 code units)."""
    start = 0
    while start < min(len(text), len(new_text)) and text[start] == new_text[start]:
        start += 1
    tail = 0
    limit = min(len(text), len(new_text)) - start
    while tail < limit and text[-1 - tail] == new_text[-1 - tail]:
        tail += 1

    def position(offset: int) -> types.Position:
        line = text.count("\n", 0, offset)
        return types.Position(line, offset - (text.rfind("\n", 0, offset) + 1))

    return types.TextDocumentContentChangePartial(
        range=types.Range(position(start), position(len(text) - tail)),
        text=new_text[start : len(new_text) - tail],
    )


def _report(label: str, timings: list[float], target: int) -> None:
    print(
        f"{label:<58} median {statistics.median(timings):7.1f} ms   "
        f"best {min(timings):7.1f} ms   (target {target} ms)"
    )


async def _requests(editor: Editor, uri: str, text: str, repeat: int, label: str) -> None:
    capabilities = editor.capabilities
    lines = text.split("\n")
    line = next(i for i, t in enumerate(lines) if "INPUT500" in t) + 1  # data_type: ...
    position = types.Position(line, lines[line].index(":") + 2)
    at = types.TextDocumentIdentifier(uri=uri)
    cases: list[tuple[str, object, Callable[[], object]]] = [
        (
            "completion",
            capabilities and capabilities.completion_provider,
            lambda: editor.client.text_document_completion_async(
                types.CompletionParams(text_document=at, position=position)
            ),
        ),
        (
            "hover",
            capabilities and capabilities.hover_provider,
            lambda: editor.client.text_document_hover_async(
                types.HoverParams(text_document=at, position=position)
            ),
        ),
    ]
    for name, offered, ask in cases:
        if not offered:
            print(f"{name} in the large config{label}: not offered by the server, skipped")
            continue
        timings = []
        for _ in range(repeat):
            start = time.perf_counter()
            await ask()  # type: ignore[misc]
            timings.append((time.perf_counter() - start) * 1000)
        _report(f"{name} in the large config{label}", timings, REQUEST_TARGET_MS)


async def _typing(editor: Editor, uri: str, text: str, repeat: int, whole: bool, label: str) -> str:
    """Completion asked right after each of ``repeat`` edits of input 500, in it; the text
    after the edits."""
    if not (editor.capabilities and editor.capabilities.completion_provider):
        return text
    lines = text.split("\n")
    line = next(i for i, t in enumerate(lines) if "INPUT500" in t) + 1  # data_type: ...
    at = types.TextDocumentIdentifier(uri=uri)
    position = types.Position(line, lines[line].index(":") + 2)
    timings = []
    for round_ in range(repeat):
        edited = _renamed(text, round_)
        change = _change(text, edited, whole)
        start = time.perf_counter()
        version = editor.send_change(uri, change)
        await editor.client.text_document_completion_async(
            types.CompletionParams(text_document=at, position=position)
        )
        timings.append((time.perf_counter() - start) * 1000)
        await editor.wait(lambda v=version: editor.arrived.get(uri, (0.0, None))[1] == v)
        text = edited
    _report(f"completion right after an edit{label}", timings, REQUEST_TARGET_MS)
    return text


def _renamed(text: str, round_: int) -> str:
    """``text`` with input 500 given a new name, of another length than the one before (so
    that the text after it moves)."""
    start = text.index('name: "INPUT500')
    end = text.index('"', start + 7) + 1
    return f'{text[:start]}name: "INPUT500_{"x" * (round_ % 2 + 1)}{round_}"{text[end:]}'


async def _run(scratch: Path, repeat: int, whole: bool) -> None:
    label = " (whole text)" if whole else ""
    large_root = scratch / "large" / "models"
    original = _large_config(1000)
    large = large_root / "large" / "config.pbtxt"
    editor = Editor()
    await editor.start(scratch / "large")
    uri = await editor.open(large, original)
    text, timings = original, []
    for round_ in range(repeat):
        edited = _renamed(text, round_)
        timings.append(await editor.change(uri, text, edited, whole))
        text = edited
    _report(f"one-line edit, {text.count(chr(10)):,}-line config{label}", timings, TARGET_MS)
    await _requests(editor, uri, text, repeat, label)
    await _typing(editor, uri, text, repeat, whole, label)
    await editor.stop()

    root = scratch / "shared" / "models"
    shared = root / "shared" / "config.pbtxt"
    editor = Editor()
    await editor.start(scratch / "shared")
    text = _plain("shared")
    uri = await editor.open(shared, text)
    ensemble = (root / "pipeline_00" / "config.pbtxt").as_uri()
    smaller = text.replace("max_batch_size: 8", "max_batch_size: 4")
    timings = []
    for round_ in range(repeat):
        edited = (smaller, _plain("shared"))[round_ % 2]
        timings.append(await editor.change(uri, text, edited, whole, also=ensemble))
        text = edited
    models = sum(1 for _ in root.iterdir())
    _report(f"edit in a model 50 ensembles run ({models} models){label}", timings, TARGET_MS)
    await editor.stop()
    await _steps(scratch, repeat, whole, label)


async def _steps(scratch: Path, repeat: int, whole: bool, label: str) -> None:
    """Edits in the 3,000-line config that the ensemble ``steps`` runs in each step."""
    root = scratch / "steps" / "models"
    editor = Editor()
    await editor.start(scratch / "steps")
    text = _composing()
    uri = await editor.open(root / "big" / "config.pbtxt", text)
    ensemble = (root / "steps" / "config.pbtxt").as_uri()
    ensemble_lines = (root / "steps" / "config.pbtxt").read_text().count("\n")
    size = f"{text.count(chr(10)):,}-line config, {ensemble_lines}-line ensemble"
    for what, broken in (
        ("renamed output", text.replace('name: "OUT5"', 'name: "OUT5_renamed"')),
        ("misspelt field", text.replace('name: "OUT5"\n', 'name: "OUT5"\n    dim: [ 16 ]\n')),
    ):
        creating, clearing = [], []
        for _ in range(repeat):
            creating.append(await editor.change(uri, text, broken, whole, also=ensemble))
            clearing.append(await editor.change(uri, broken, text, whole, also=ensemble))
        _report(f"{what}, {size}{label}", creating, TARGET_MS)
        _report(f"  and back{label}", clearing, TARGET_MS)
    await editor.stop()


#: The outputs of the composing model ``big`` each of the 20 steps of ``steps`` maps.
_MAPPED = 18
_STEPS = 20


def _composing(outputs: int = 600) -> str:
    """A config of about 3,000 lines: two inputs and ``outputs`` outputs."""
    lines = ['name: "big"', 'backend: "python"', "max_batch_size: 0", "input ["]
    for index in range(2):
        lines += ["  {", f'    name: "IN{index}"', "    data_type: TYPE_FP32", "    dims: [ 16 ]"]
        lines.append("  }," if index == 0 else "  }")
    lines += ["]", "output ["]
    for index in range(outputs):
        lines += [
            "  {",
            f'    name: "OUT{index}"',
            "    data_type: TYPE_FP32",
            "    dims: [ 16 ]",
            "  }," if index < outputs - 1 else "  }",
        ]
    return "\n".join([*lines, "]"]) + "\n"


def _steps_ensemble() -> str:
    """An ensemble of about 860 lines running ``big`` in each of its steps, each mapping
    :data:`_MAPPED` of its outputs."""
    lines = [
        'name: "steps"',
        'platform: "ensemble"',
        "max_batch_size: 0",
        'input [ { name: "IN0" data_type: TYPE_FP32 dims: [ 16 ] },',
        '        { name: "IN1" data_type: TYPE_FP32 dims: [ 16 ] } ]',
        "output [",
    ]
    outputs = [f"s{step}_OUT{index}" for step in range(_STEPS) for index in range(_MAPPED)]
    lines += [
        f'  {{ name: "{name}" data_type: TYPE_FP32 dims: [ 16 ] }}'
        + ("," if number < len(outputs) - 1 else "")
        for number, name in enumerate(outputs)
    ]
    lines += ["]", "ensemble_scheduling {", "  step ["]
    for step in range(_STEPS):
        lines += ["    {", '      model_name: "big"', "      model_version: -1"]
        lines += [f'      input_map {{ key: "IN{i}" value: "IN{i}" }}' for i in range(2)]
        lines += [
            f'      output_map {{ key: "OUT{i}" value: "s{step}_OUT{i}" }}' for i in range(_MAPPED)
        ]
        lines.append("    }," if step < _STEPS - 1 else "    }")
    return "\n".join([*lines, "  ]", "}"]) + "\n"


def _repositories(scratch: Path) -> None:
    _write(scratch / "large" / "models", "large", _large_config(1000))
    _write(scratch / "steps" / "models", "big", _composing(), "model.py")
    _write(scratch / "steps" / "models", "steps", _steps_ensemble(), ".keep")
    root = scratch / "shared" / "models"
    _write(root, "shared", _plain("shared"))
    for index in range(899):
        _write(root, f"plain_{index:03d}", _plain(f"plain_{index:03d}"))
    for index in range(100):
        # The first 50 ensembles run ``shared``; the others two plain models each.
        first = "shared" if index < 50 else f"plain_{index:03d}"
        name = f"pipeline_{index:02d}"
        _write(root, name, _ensemble(name, first, f"plain_{index + 100:03d}"), ".keep")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        _repositories(scratch)
        asyncio.run(_run(scratch, args.repeat, whole=False))
        asyncio.run(_run(scratch, args.repeat, whole=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
