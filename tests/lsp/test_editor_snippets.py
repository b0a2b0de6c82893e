"""The editor set-ups of docs/editors.md start a server that works.

The command line each snippet names is read out of the document (Neovim's Lua ``cmd``,
Helix's ``languages.toml``, Emacs's ``eglot-server-programs`` entry, Zed's ``settings.json``)
and started as it is, with ``tritonlint`` resolved to this checkout's; a broken config opened
in it must get its diagnostic. A snippet whose command drifts (a wrong subcommand, a lost
argument, a server defined but not given to the language) fails here.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from lsp_documents import at, open_document
from lsp_session import start, until
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).parents[2]
DOC = ROOT / "docs/editors.md"
#: One mistake: ``data_type: TYPE_FLOAT32`` (TL105) on line 14 of classifier/config.pbtxt.
BROKEN = ROOT / "fixtures/broken/unknown_enum_type_float32"


def blocks_by_editor() -> dict[str, list[tuple[str, str]]]:
    """The fenced code blocks (language, code) of each editor's part of "Editor set-ups"."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("\n## Editor set-ups\n", 1)[1].split("\n## ", 1)[0]
    found: dict[str, list[tuple[str, str]]] = {}
    for part in re.split(r"^### ", section, flags=re.MULTILINE)[1:]:
        heading, _, body = part.partition("\n")
        fences = re.findall(r"^```(\w*)\n(.*?)^```$", body, flags=re.MULTILINE | re.DOTALL)
        found[heading.strip()] = fences
    return found


def strings(text: str) -> list[str]:
    return re.findall(r'"([^"]*)"', text)


def neovim(blocks: list[tuple[str, str]]) -> list[list[str]]:
    """The ``cmd = { ... }`` of each Lua snippet."""
    return [
        strings(match)
        for language, code in blocks
        if language == "lua"
        for match in re.findall(r"\bcmd\s*=\s*\{([^}]*)\}", code)
    ]


def helix(blocks: list[tuple[str, str]]) -> list[list[str]]:
    """``[language-server.tritonlint]``'s command and arguments, where a language for
    ``pbtxt`` files uses that server."""
    found = []
    for language, code in blocks:
        if language != "toml":
            continue
        data: dict[str, Any] = tomllib.loads(code)
        server = data["language-server"]["tritonlint"]
        users = [
            entry
            for entry in data["language"]
            if "pbtxt" in entry["file-types"] and "tritonlint" in entry["language-servers"]
        ]
        assert users, "no [[language]] for pbtxt files uses the tritonlint server"
        found.append([server["command"], *server.get("args", [])])
    return found


def emacs(blocks: list[tuple[str, str]]) -> list[list[str]]:
    """The program list of each ``eglot-server-programs`` entry, for a mode that
    ``auto-mode-alist`` gives ``*.pbtxt`` files."""
    found = []
    for language, code in blocks:
        if language != "elisp":
            continue
        for mode, program in re.findall(
            r"eglot-server-programs\s+'\((\S+)\s+\.\s+\(([^)]*)\)\)", code
        ):
            assert re.search(rf"auto-mode-alist\s+'\(\"[^\"]*pbtxt[^\"]*\"\s+\.\s+{mode}\)", code)
            found.append(strings(program))
    return found


def zed(blocks: list[tuple[str, str]]) -> list[list[str]]:
    """``lsp.tritonlint.binary``'s path and arguments in ``settings.json``, where the
    extension's manifest declares that server for the language it defines."""
    manifests = [tomllib.loads(code) for language, code in blocks if language == "toml"]
    servers = next(m["language_servers"] for m in manifests if "language_servers" in m)
    names = {m["name"] for m in manifests if "path_suffixes" in m and "pbtxt" in m["path_suffixes"]}
    assert set(servers["tritonlint"]["languages"]) == names != set()
    found = []
    for language, code in blocks:
        if language == "json":
            binary = json.loads(code)["lsp"]["tritonlint"]["binary"]
            found.append([binary["path"], *binary["arguments"]])
    return found


def snippet_commands() -> list[tuple[str, list[str]]]:
    blocks = blocks_by_editor()
    read = {"Neovim": neovim, "Helix": helix, "Emacs": emacs, "Zed": zed}
    return [(editor, command) for editor, how in read.items() for command in how(blocks[editor])]


COMMANDS = snippet_commands()


def test_every_editor_snippet_names_its_server() -> None:
    assert [(editor, command[1:]) for editor, command in COMMANDS] == [
        ("Neovim", ["lsp"]),
        ("Neovim", ["lsp"]),
        ("Helix", ["lsp"]),
        ("Emacs", ["lsp"]),
        ("Zed", ["lsp"]),
    ]


def this_checkouts(command: list[str]) -> list[str]:
    """``command`` with its program, ``tritonlint`` or a path to one, replaced by this
    checkout's (the tests' Python running the package)."""
    program, *arguments = command
    assert Path(program).name == "tritonlint", f"the snippet starts {program!r}"
    return [sys.executable, "-m", "tritonlint", *arguments]


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "command",
    [command for _, command in COMMANDS],
    ids=[f"{editor}-{n}" for n, (editor, _) in enumerate(COMMANDS)],
)
async def test_the_snippets_command_serves_diagnostics(command: list[str], tmp_path: Path) -> None:
    repository = tmp_path / "models"
    shutil.copytree(BROKEN, repository)
    started = await ClientServerConfig(this_checkouts(command)).start()
    assert isinstance(started, LanguageClient)
    client = started
    try:
        await start(client, tmp_path)
        config = repository / "classifier/config.pbtxt"
        uri = open_document(client, config, config.read_text(encoding="utf-8"))
        await until(lambda: bool(client.diagnostics.get(uri)))
        assert [(d.code, d.range, d.severity) for d in client.diagnostics[uri]] == [
            ("TL105", at(13, 15, 13, 27), types.DiagnosticSeverity.Error)
        ]
        await client.shutdown_session()
    finally:
        await client.stop()
