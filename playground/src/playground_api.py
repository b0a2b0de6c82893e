"""What the playground page calls inside Pyodide: tritonlint's own Python API, with answers
as JSON text (one string crosses into JavaScript, not a tree of proxies).

One config: the text is checked as ``tritonlint check -`` checks standard input, a config on
its own reported at ``<stdin>``, so that the page shows what that command prints for the same
text. A folder (the multi-file mode): the page writes its files under :data:`FOLDERS` in
Pyodide's in-memory file system, and it is checked as ``tritonlint check FOLDER`` run in
:data:`FOLDERS` checks it, and drawn as ``tritonlint graph --format html FOLDER`` draws it.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

from tritonlint.engine import LintOptions, lint_paths, lint_text
from tritonlint.fixing import fix_paths, write_fixes
from tritonlint.format.api import Refusal, format_text
from tritonlint.graph.build import build_graph
from tritonlint.graph.render import render
from tritonlint.report.json_report import to_json_object
from tritonlint.schema.releases import available_releases, container_release

#: The name the command line gives standard input (``tritonlint.cli.check.STDIN_NAME``).
STDIN_NAME = Path("<stdin>")
#: The name of the file "Apply fixes" fixes (``tritonlint check --fix input.pbtxt``).
FIX_NAME = "input.pbtxt"
#: Where the page writes the folders it is given (the working directory of their checks).
FOLDERS = Path("/folders")


def _options(release: str | None) -> LintOptions:
    return LintOptions(triton_version=release or None)


def releases() -> str:
    """Every Triton release with a schema, newest first, with its container release."""
    return json.dumps(
        [
            {"release": release, "container": container_release(release)}
            for release in reversed(available_releases())
        ]
    )


def lint(text: str, release: str | None = None) -> str:
    """The findings in ``text``, as ``tritonlint check --output-format json -`` gives them."""
    result = lint_text(STDIN_NAME, text, _options(release))
    return json.dumps([to_json_object(d) for d in result.diagnostics])


def format_config(text: str) -> str:
    """``{"text": ...}``, as ``tritonlint format -`` writes it, or ``{"error": ...}``."""
    result = format_text(text)
    if isinstance(result, Refusal):
        where = f"{result.span.line}:{result.span.column}: " if result.span else ""
        return json.dumps({"error": f"{where}{result.message}"})
    return json.dumps({"text": result.text})


def apply_fixes(text: str, release: str | None = None) -> str:
    """``{"text": ..., "fixed": N}``: ``text`` with the safe fixes of its findings applied,
    round after round, as ``tritonlint check --fix`` applies them to a file."""
    with tempfile.TemporaryDirectory() as folder:
        # The fixer edits files that exist (it checks with os.path.isfile): the text is
        # written as a loose config file in Pyodide's in-memory file system.
        path = Path(folder) / FIX_NAME
        path.write_text(text, encoding="utf-8")
        run = fix_paths([path], _options(release))
    fixed = run.changed.get(path, (text, text))[1]
    return json.dumps({"text": fixed, "fixed": len(run.applied)})


def clear_folders() -> None:
    """Remove the folders written before: the page writes a new one's files next."""
    os.chdir("/")  # a check left it there, and the working directory cannot be removed
    shutil.rmtree(FOLDERS, ignore_errors=True)
    FOLDERS.mkdir(parents=True)


def check_folder(name: str, release: str | None = None) -> str:
    """``{"findings": [...], "graph": HTML or null}`` for the folder ``name`` of
    :data:`FOLDERS`: ``tritonlint check --output-format json NAME`` and ``tritonlint graph
    --format html NAME`` (null where no repository is found in it), run in :data:`FOLDERS`."""
    os.chdir(FOLDERS)
    options = _options(release)
    result = lint_paths([Path(name)], options)
    graph = build_graph([Path(name)], options)
    return json.dumps(
        {
            "findings": [to_json_object(d) for d in result.diagnostics],
            "graph": render(graph, "html") if graph.repositories else None,
        }
    )


def fix_folder(name: str, release: str | None = None) -> str:
    """``{"changed": [...], "fixed": N}``: the safe fixes of the folder ``name`` applied to
    its files, as ``tritonlint check --fix NAME`` in :data:`FOLDERS` applies them (files
    that fixes would move are left where they are)."""
    os.chdir(FOLDERS)
    run = fix_paths([Path(name)], _options(release))
    write_fixes(run)
    changed = [os.path.relpath(path, FOLDERS) for path in run.changed]
    return json.dumps({"changed": changed, "fixed": len(run.applied)})
