"""The Neovim set-ups of docs/editors.md, run as they are in a real ``nvim --headless``.

Each Lua snippet of the Neovim section is the ``init.lua`` of a Neovim that opens a broken
config; what ``vim.diagnostic.get()`` then holds is written out as JSON and compared with the
finding (code, line, column). ``tritonlint`` is this checkout's, first on the ``PATH``. The
snippet for Neovim 0.11 and newer (``vim.lsp.config``) runs on such a Neovim, the other on
any from 0.7 on; with the 0.11 one, an edit of a model in one buffer must show the broken
step in the ensemble open in another (the server sends a client that pulls but cannot be
asked to pull again every file's diagnostics).

The Neovims are the ``nvim`` on the ``PATH`` and those ``TRITONLINT_TEST_NVIM`` lists
(paths separated by ``:``); a snippet no Neovim of its versions is there for is skipped, with
the reason. Neither CI nor this test installs one (Debian's ``apt-get install neovim`` gives
0.7.2).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import make_tree
from lsp_session import ENSEMBLE_FILES
from test_editor_snippets import BROKEN, blocks_by_editor

#: The version ``vim.lsp.config`` came with.
CONFIG_API = (0, 11)
OLDEST = (0, 7)
TIMEOUT = 60


def neovims() -> dict[Path, tuple[int, int]]:
    """Each Neovim found, with its version (major, minor)."""
    found: dict[Path, tuple[int, int]] = {}
    listed = [p for p in os.environ.get("TRITONLINT_TEST_NVIM", "").split(os.pathsep) if p]
    for candidate in [shutil.which("nvim"), *listed]:
        if candidate is None:
            continue
        try:
            shown = subprocess.run(
                [candidate, "--version"], capture_output=True, text=True, timeout=30
            ).stdout
        except (OSError, subprocess.TimeoutExpired):
            continue
        version = re.match(r"NVIM v(\d+)\.(\d+)", shown)
        if version is not None:
            found[Path(candidate)] = (int(version[1]), int(version[2]))
    return found


NEOVIMS = neovims()


def snippets() -> dict[str, str]:
    """The Neovim section's Lua snippets: ``"0.11"`` (``vim.lsp.config``) and ``"0.7"``."""
    lua = [code for language, code in blocks_by_editor()["Neovim"] if language == "lua"]
    found = {"0.11" if "vim.lsp.config(" in code else "0.7": code for code in lua}
    assert sorted(found) == ["0.11", "0.7"], "the Neovim section has one snippet of each"
    return found


def neovim_for(snippet: str) -> Path:
    """A Neovim the snippet is for, or skip the test saying why there is none."""
    lowest = CONFIG_API if snippet == "0.11" else OLDEST
    fitting = [path for path, version in NEOVIMS.items() if version >= lowest]
    if snippet == "0.7":  # the oldest found: that snippet exists for old versions
        fitting.sort(key=lambda path: NEOVIMS[path])
    if not fitting:
        found = ", ".join(f"{p} ({'.'.join(map(str, v))})" for p, v in NEOVIMS.items())
        pytest.skip(
            f"no Neovim {'.'.join(map(str, lowest))} or newer: found {found or 'none'} "
            "(nvim on the PATH, or TRITONLINT_TEST_NVIM)"
        )
    return fitting[0]


#: Opens each of ``OPEN`` (the last is current), waits until the server is attached to every
#: buffer and runs ``STEP``; then waits until ``WANTED`` (a buffer's path) has diagnostics and
#: writes them to ``OUT`` as JSON, and quits. ``vim.fn.json_encode``: Neovim 0.7 has no
#: ``vim.json``.
HARNESS = """
local function clients(buffer)
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ bufnr = buffer })
  end
  return vim.lsp.buf_get_clients(buffer)
end
local buffers = {}
for _, file in ipairs(OPEN) do
  vim.cmd("edit " .. vim.fn.fnameescape(file))
  table.insert(buffers, vim.api.nvim_get_current_buf())
end
vim.wait(TIMEOUT, function()
  for _, buffer in ipairs(buffers) do
    if next(clients(buffer)) == nil then
      return false
    end
  end
  return true
end, 20)
STEP()
local wanted = vim.fn.bufnr(WANTED)
vim.wait(TIMEOUT, function() return #vim.diagnostic.get(wanted) > 0 end, 20)
local found = {}
for _, d in ipairs(vim.diagnostic.get(wanted)) do
  table.insert(found, { code = d.code, lnum = d.lnum, col = d.col, message = d.message })
end
vim.fn.writefile({ vim.fn.json_encode(found) }, OUT)
vim.cmd("qall!")
"""


def run_neovim(
    nvim: Path, snippet: str, folder: Path, opened: list[Path], wanted: Path, step: str = ""
) -> list[dict[str, Any]]:
    """The diagnostics Neovim shows on ``wanted`` with ``snippet`` as its ``init.lua``,
    after opening ``opened`` and running the Lua ``step``."""
    programs = folder / "bin"
    programs.mkdir()
    shim = programs / "tritonlint"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m tritonlint "$@"\n')
    shim.chmod(0o755)
    init = folder / "init.lua"
    init.write_text(snippet, encoding="utf-8")
    out = folder / "diagnostics.json"
    harness = folder / "harness.lua"
    values = {
        "OPEN": "{" + ", ".join(json.dumps(str(p)) for p in opened) + "}",
        "WANTED": json.dumps(str(wanted)),
        "OUT": json.dumps(str(out)),
        "TIMEOUT": str((TIMEOUT - 20) * 1000),
    }
    header = "".join(f"local {name} = {value}\n" for name, value in values.items())
    harness.write_text(f"{header}local function STEP()\n{step}\nend\n{HARNESS}", encoding="utf-8")
    environment = {**os.environ, "PATH": f"{programs}{os.pathsep}{os.environ['PATH']}"}
    environment.pop("TRITONLINT_LSP_DEBOUNCE_MS", None)
    finished = subprocess.run(
        [str(nvim), "--headless", "-u", str(init), "-i", "NONE", "-c", f"luafile {harness}"],
        cwd=folder,
        env=environment,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        stdin=subprocess.DEVNULL,
    )
    assert out.exists(), f"Neovim wrote no diagnostics: {finished.stdout}{finished.stderr}"
    found: list[dict[str, Any]] = json.loads(out.read_text(encoding="utf-8"))
    return found


@pytest.mark.parametrize("version", ["0.7", "0.11"], ids=["neovim-0.7", "neovim-0.11"])
def test_the_neovim_snippet_shows_a_broken_configs_finding(version: str, tmp_path: Path) -> None:
    nvim = neovim_for(version)
    shutil.copytree(BROKEN, tmp_path / "models")
    config = tmp_path / "models/classifier/config.pbtxt"
    found = run_neovim(nvim, snippets()[version], tmp_path, [config], config)
    assert [(d["code"], d["lnum"], d["col"]) for d in found] == [("TL105", 13, 15)]
    assert "TYPE_FLOAT32 is not a value of inference.DataType" in found[0]["message"]


def test_with_the_neovim_0_11_snippet_an_edited_model_breaks_the_open_ensemble(
    tmp_path: Path,
) -> None:
    nvim = neovim_for("0.11")
    make_tree(tmp_path / "models", ENSEMBLE_FILES)
    (tmp_path / ".tritonlint.toml").write_text("")
    ensemble = tmp_path / "models/pipeline/config.pbtxt"
    model = tmp_path / "models/pre/config.pbtxt"
    rename = """
  vim.wait(1000)  -- the checks of the opened texts (clean) are done
  local line = vim.fn.search('"PIXELS"')
  local text = vim.fn.getline(line):gsub('"PIXELS"', '"IMAGE"')
  vim.api.nvim_buf_set_lines(0, line - 1, line, false, { text })
"""
    found = run_neovim(nvim, snippets()["0.11"], tmp_path, [ensemble, model], ensemble, rename)
    assert [(d["code"], d["lnum"], d["col"]) for d in found] == [("TL713", 11, 24)]
