"""What the static checks read of the model file of a model whose backend the smoke stage
stubbed: the stand-in loads no model file, so the server's verdict says nothing about it, and
a user should know what was compared without the real backend.

The model file is the one the rules compare the config with
(:func:`tritonlint.repository.backend_model_file.model_file`, through :class:`ModelContext`); the
rules that compare it are those of the ``modelfile`` pack.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from tritonlint.diagnostics import Diagnostic
from tritonlint.engine import Workspace
from tritonlint.modelfiles.python import PythonModel
from tritonlint.modelfiles.signature import ModelFileProblem
from tritonlint.repository.backend_model_file import (
    FORMAT_NAMES,
    ModelFile,
    file_format,
    newest_model_file,
)
from tritonlint.repository.model import ModelFolder
from tritonlint.rules.context import ModelContext
from tritonlint.rules.registry import all_rules

#: The pack of the rules that compare a config with its model file.
MODEL_FILE_PACK = "modelfile"


def model_file_rules() -> frozenset[str]:
    """The codes of the rules that compare a config with its model file."""
    return frozenset(rule.code for rule in all_rules() if rule.pack == MODEL_FILE_PACK)


def model_file_notes(
    repository: Path, static: Mapping[str, Sequence[Diagnostic]]
) -> dict[str, str]:
    """For each model of ``repository`` that ``static`` names (with static lint's findings in
    its folder): what the static checks read of its model file, and what the model-file rules
    found there."""
    if not static:
        return {}
    folders = frozenset(repository / name for name in static)
    record = Workspace(repository, targets=folders).repository
    rules = model_file_rules()
    notes = {}
    for name, findings in static.items():
        model = record.by_name.get(name)
        if model is not None:
            found = [d for d in findings if d.code in rules]
            notes[name] = _note(ModelContext(record, model), rules, found)
    return notes


def _note(context: ModelContext, rules: frozenset[str], found: Sequence[Diagnostic]) -> str:
    completed = context.completed
    model = context.model
    if file_format(completed) is None:
        backend = completed.backend or "undetermined"
        return f"no model file compared (the {backend} backend's files are not read statically)"
    read = context.model_file
    if read is None:
        newest = newest_model_file(model, completed)
        if newest is None:
            return "no model file to compare (none in the version folders)"
        return f"no model file to compare (empty placeholder {_relative(newest[1], model)})"
    what = f"{FORMAT_NAMES[read.format]} {_relative(read.path, model)}"
    if isinstance(read.read, ModelFileProblem):
        return f"{what} could not be read: {read.read.message}"
    if isinstance(read.read, PythonModel):
        return f"{what} read: {_python_summary(read.read)}{_findings(rules, found, 'checked')}"
    compared = "compared with the config"
    return f"{what} read, {_tensor_counts(read)}{_findings(rules, found, compared)}"


def _tensor_counts(read: ModelFile) -> str:
    signature = read.read
    assert not isinstance(signature, (PythonModel, ModelFileProblem))
    inputs, outputs = len(signature.inputs), len(signature.outputs)
    return f"{inputs} input{'' if inputs == 1 else 's'} / {outputs} output" + (
        "" if outputs == 1 else "s"
    )


def _python_summary(model: PythonModel) -> str:
    error = model.syntax_error
    if error is not None:
        return f"a syntax error at line {error.line}"
    found = model.model_class
    if found is None:
        return "no TritonPythonModel class"
    return "TritonPythonModel " + ("defines execute" if found.has_execute else "without execute")


def _findings(rules: frozenset[str], found: Sequence[Diagnostic], done: str) -> str:
    """What the model-file rules found (``done``: what they did), or that no rule checks the
    file."""
    if not rules:
        return " (no model-file rule checks it in this version)"
    if not found:
        return f", {done}: no finding"
    codes = ", ".join(sorted({d.code for d in found}))
    return f", {done}: {len(found)} finding{'s' if len(found) > 1 else ''} ({codes})"


def _relative(path: Path, model: ModelFolder) -> str:
    """``path`` from the model folder: never an absolute path, which differs by machine."""
    return Path(os.path.relpath(path, model.path)).as_posix()
