"""What the playground page calls inside Pyodide: tritonlint's own Python API, with answers
as JSON text (one string crosses into JavaScript, not a tree of proxies).

One config: the text is checked as ``tritonlint check -`` checks standard input, a config on
its own reported at ``<stdin>``, so that the page shows what that command prints for the same
text. A folder (the multi-file mode): the page writes its files under :data:`FOLDERS` in
Pyodide's in-memory file system, and it is checked as ``tritonlint check FOLDER`` run in
:data:`FOLDERS` checks it, and drawn as ``tritonlint graph --format html FOLDER`` draws it.

A folder of configs alone (a tree pasted as text, without version folders or model files) is
checked without the rules about those files (:func:`model_file_rules`): each of its models
would otherwise be reported as having no version folder, and every ensemble step as refused.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from pathlib import Path

from tritonlint.engine import LintOptions, lint_paths, lint_text
from tritonlint.fixing import fix_paths, write_fixes
from tritonlint.format.api import Refusal, format_text
from tritonlint.graph.build import build_graph, text_graph
from tritonlint.graph.render import render
from tritonlint.report.json_report import to_json_object
from tritonlint.rules.registry import all_rules
from tritonlint.schema.releases import available_releases, container_release

#: The name the command line gives standard input (``tritonlint.cli.check.STDIN_NAME``).
STDIN_NAME = Path("<stdin>")
#: The name of the file "Apply fixes" fixes (``tritonlint check --fix input.pbtxt``).
FIX_NAME = "input.pbtxt"
#: A text that may be an ensemble's config (whether it is one, its check says).
ENSEMBLE_PLATFORM = re.compile(r"\bensemble\b")
#: Where the page writes the folders it is given (the working directory of their checks).
FOLDERS = Path("/folders")


#: The pack of the rules about a model's files: version folders, model files, label files.
MODEL_FILES_PACK = "layout"
#: TL720: an ensemble step whose model is refused (without version folders, every one is).
COMPOSING_MODEL_REFUSED = "TL720"


def model_file_rules() -> list[str]:
    """The codes not reported for a folder of configs alone: the layout pack's and TL720
    (``--ignore`` these on the command line for the same findings)."""
    layout = [rule.code for rule in all_rules() if rule.pack == MODEL_FILES_PACK]
    return [*layout, COMPOSING_MODEL_REFUSED]


def _options(release: str | None, configs_only: bool = False) -> LintOptions:
    ignore = tuple(model_file_rules()) if configs_only else ()
    return LintOptions(triton_version=release or None, ignore=ignore)


def releases() -> str:
    """Every Triton release with a schema, newest first, with its container release."""
    return json.dumps(
        [
            {"release": release, "container": container_release(release)}
            for release in reversed(available_releases())
        ]
    )


def lint(text: str, release: str | None = None) -> str:
    """``{"findings": [...], "graph": HTML or null}``: the findings in ``text``, as
    ``tritonlint check --output-format json -`` gives them, and where it is an ensemble its
    graph (the models its steps run drawn by name alone: they are not there)."""
    options = _options(release)
    result = lint_text(STDIN_NAME, text, options)
    graph = None
    if ENSEMBLE_PLATFORM.search(text):  # (checked again for its graph: ensembles only)
        drawn = text_graph(STDIN_NAME, text, options)
        graph = render(drawn, "html") if drawn.repositories else None
    return json.dumps({"findings": [to_json_object(d) for d in result.diagnostics], "graph": graph})


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


def check_folder(name: str, release: str | None = None, configs_only: bool = False) -> str:
    """``{"findings": [...], "graph": HTML or null}`` for the folder ``name`` of
    :data:`FOLDERS`: ``tritonlint check --output-format json NAME`` and ``tritonlint graph
    --format html NAME`` (null where no repository is found in it), run in :data:`FOLDERS`
    (``configs_only``: without :func:`model_file_rules`)."""
    os.chdir(FOLDERS)
    options = _options(release, configs_only)
    result = lint_paths([Path(name)], options)
    graph = build_graph([Path(name)], options)
    return json.dumps(
        {
            "findings": [to_json_object(d) for d in result.diagnostics],
            "graph": render(graph, "html") if graph.repositories else None,
        }
    )


def fix_folder(name: str, release: str | None = None, configs_only: bool = False) -> str:
    """``{"changed": [...], "fixed": N}``: the safe fixes of the folder ``name`` applied to
    its files, as ``tritonlint check --fix NAME`` in :data:`FOLDERS` applies them (files
    that fixes would move are left where they are)."""
    os.chdir(FOLDERS)
    run = fix_paths([Path(name)], _options(release, configs_only))
    write_fixes(run)
    changed = [os.path.relpath(path, FOLDERS) for path in run.changed]
    return json.dumps({"changed": changed, "fixed": len(run.applied)})
