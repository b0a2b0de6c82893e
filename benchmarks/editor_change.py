#!/usr/bin/env python3
"""How long the engine takes to re-check after an edit, as a language server asks it to.

Usage: python benchmarks/editor_change.py [--repeat 20]

Each case in a :class:`tritonlint.engine.Workspace` that has checked everything once:

* one-line edits in a config of about 5,000 lines (1,000 inputs), open in the editor: in
  input 500, each a new name for it (typing in one message: only that message is read and
  bound again); in inputs 10 and 20 by turns (each edit in another message than the one
  before: the rest of the tree, moved, is built first); and of ``max_batch_size``, a field
  of the file's top level (the tree is built and bound whole);
* an edit in a model that 50 ensembles run, in a repository of 500 models: that model and
  its 50 ensembles are re-checked, the others' findings are reused.

Every edit changes the text's length (an edit that does not leaves the rest of the text
where it was, which costs less); the median and the best of ``--repeat`` checks are printed
in milliseconds, with how many models each check looked at.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from tritonlint.engine import Workspace


def _large_config(inputs: int) -> str:
    lines = ['name: "large"', 'platform: "onnxruntime_onnx"', "max_batch_size: 8", "input ["]
    for index in range(inputs):
        separator = "," if index < inputs - 1 else ""
        lines += [
            "  {",
            f'    name: "INPUT{index}"',
            "    data_type: TYPE_FP32",
            "    dims: [ 16 ]",
            f"  }}{separator}",
        ]
    lines += ["]", 'output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]']
    return "\n".join(lines) + "\n"


def _plain(name: str) -> str:
    return (
        f'name: "{name}"\nplatform: "onnxruntime_onnx"\nmax_batch_size: 8\n'
        'input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]\n'
        'output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]\n'
        "dynamic_batching { }\n"
    )


def _ensemble(name: str, first: str, second: str) -> str:
    def step(model: str, source: str, target: str) -> str:
        return (
            f'{{ model_name: "{model}" model_version: -1 input_map {{ key: "INPUT0" value: '
            f'"{source}" }} output_map {{ key: "OUTPUT0" value: "{target}" }} }}'
        )

    return (
        f'name: "{name}"\nplatform: "ensemble"\nmax_batch_size: 8\n'
        'input [ { name: "IN" data_type: TYPE_FP32 dims: [ 16 ] } ]\n'
        'output [ { name: "OUT" data_type: TYPE_FP32 dims: [ 16 ] } ]\n'
        f"ensemble_scheduling {{ step [ {step(first, 'IN', 'mid')}, "
        f"{step(second, 'mid', 'OUT')} ] }}\n"
    )


def _write(root: Path, name: str, config: str, model_file: str = "model.onnx") -> Path:
    (root / name / "1").mkdir(parents=True)
    (root / name / "1" / model_file).write_bytes(b"")
    path = root / name / "config.pbtxt"
    path.write_text(config, encoding="utf-8")
    return path


def _time_edits(
    workspace: Workspace, path: Path, edit: Callable[[str, int], str], repeat: int
) -> tuple[list[float], int]:
    """Check after each of ``repeat`` edits, the ``i``-th making ``edit(text, i)`` of the
    text before it."""
    workspace.check()
    text = workspace.text(path) or ""
    timings = []
    rechecked = 0
    for index in range(repeat):
        text = edit(text, index)
        workspace.change(path, text)
        start = time.perf_counter()
        result = workspace.check()
        timings.append((time.perf_counter() - start) * 1000)
        rechecked = len(result.rechecked)
    return timings, rechecked


def _rename(text: str, tensor: int, count: int) -> str:
    """``text`` with input ``tensor`` (as first written) given a new name for the ``count``-th
    time, of another length than the name before."""
    new = f"INPUT{tensor}_{'x' * (count % 2 + 1)}{count}"
    return re.sub(rf'"INPUT{tensor}(_x+[0-9]+)?"', f'"{new}"', text, count=1)


def _size(round_: int) -> str:
    """A ``max_batch_size`` of another length than the one of the round before."""
    return f"max_batch_size: {'1' * (round_ % 3 + 1)}"


def _report(label: str, timings: list[float], rechecked: int) -> None:
    print(
        f"{label:<46} median {statistics.median(timings):7.1f} ms   "
        f"best {min(timings):7.1f} ms   models re-checked: {rechecked}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch) / "large_repository"
        text = _large_config(1000)
        path = _write(root, "large", text)
        lines = text.count("\n")
        cases: list[tuple[str, Callable[[str, int], str]]] = [
            ("input 500", lambda text, i: _rename(text, 500, i)),
            ("inputs 10, 20 by turns", lambda text, i: _rename(text, (10, 20)[i % 2], i // 2)),
            (
                "max_batch_size",
                lambda text, i: re.sub("max_batch_size: [0-9]+", _size(i), text),
            ),
        ]
        for label, texts in cases:
            workspace = Workspace(root)
            workspace.open(path, text)
            timings, rechecked = _time_edits(workspace, path, texts, args.repeat)
            _report(f"{lines:,}-line config, {label}", timings, rechecked)

        root = Path(scratch) / "shared_repository"
        shared = _write(root, "shared", _plain("shared"))
        for index in range(399):
            _write(root, f"plain_{index:03d}", _plain(f"plain_{index:03d}"))
        for index in range(50):
            name = f"pipeline_{index:02d}"
            _write(root, name, _ensemble(name, "shared", f"plain_{index:03d}"), ".keep")
        for index in range(50, 100):
            first, second = f"plain_{index:03d}", f"plain_{index + 100:03d}"
            name = f"pipeline_{index:02d}"
            _write(root, name, _ensemble(name, first, second), ".keep")
        models = sum(1 for _ in root.iterdir())
        sizes = ("max_batch_size: 4", "max_batch_size: 8")
        workspace = Workspace(root)
        timings, rechecked = _time_edits(
            workspace,
            shared,
            lambda _, i: _plain("shared").replace("max_batch_size: 8", sizes[i % 2]),
            args.repeat,
        )
        _report(f"edit in a model 50 ensembles run ({models} models)", timings, rechecked)
    return 0


if __name__ == "__main__":
    sys.exit(main())
