"""Check a model with each of its alternative configs (``configs/NAME.pbtxt``).

``tritonserver --model-config-name NAME`` loads every model that has ``configs/NAME.pbtxt``
with that file in place of ``config.pbtxt`` (and the others with their ``config.pbtxt``). Each
alternative is checked as the config of its model folder: its version folders, model files
and label files, against the other models of the repository as their ``config.pbtxt`` makes
them. Ensembles that run the model are checked against its ``config.pbtxt`` only.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace

from tritonlint.diagnostics import Diagnostic
from tritonlint.engine.model_check import check_models
from tritonlint.repository.model import ModelFolder, Repository
from tritonlint.rules.base import Rule
from tritonlint.suppression import apply_suppressions


def alternative_findings(
    repository: Repository,
    model: ModelFolder,
    primary: Iterable[Diagnostic],
    rules: Sequence[Rule],
) -> Iterator[Diagnostic]:
    """The findings of ``model`` with each alternative config that ``primary`` (the findings
    with its ``config.pbtxt``) does not have already.

    A finding outside the alternative file (about a version folder, a model or label file)
    says which config it comes with.
    """
    if not model.alternatives:
        return
    known = {(d.code, d.path, d.message) for d in primary}
    for alternative in model.alternatives:
        view = _with_model(repository, alternative)
        check = check_models(view, [model.name], rules, 1)[model.name]
        found = check.findings
        if check.suppressions is not None:
            found = apply_suppressions(found, [check.suppressions])
        for diagnostic in found:
            if (diagnostic.code, diagnostic.path, diagnostic.message) in known:
                continue
            if diagnostic.path != alternative.config_path:
                message = f"{diagnostic.message} (with {alternative.config_file})"
                diagnostic = diagnostic._replace(message=message)
            yield diagnostic


def _with_model(repository: Repository, model: ModelFolder) -> Repository:
    """The repository with ``model`` in place of the model of its name, the only target."""
    return replace(
        repository,
        by_name={**repository.by_name, model.name: model},
        problems=[],
        targets={model.path},
        whole=False,
    )
