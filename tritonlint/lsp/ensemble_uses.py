"""Which ensembles run a model, and which models an ensemble runs, with the places in the
configs that say so: what the code lens above a model's ``name`` counts and reveals.

Read from the repository as the engine workspace has it (open configs as edited, the others
from disk), without a check: a step's ``model_name`` is all it takes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from tritonlint.editor.navigation import FILE_START, Place
from tritonlint.repository.model import ModelFolder, Repository
from tritonlint.repository.server_fill_in import ENSEMBLE
from tritonlint.rules.context import ModelContext
from tritonlint.rules.ensemble.steps import STEP
from tritonlint.schema.source_map import Location
from tritonlint.schema.source_map import Path as FieldPath


@dataclass
class Uses:
    """What one model takes part in."""

    #: The ensembles with a step that runs the model, by name.
    run_by: list[str] = field(default_factory=list)
    #: Each step's ``model_name`` that names the model, in those ensembles' configs.
    run_by_places: list[Place] = field(default_factory=list)
    #: The models the model's steps run (it is an ensemble), in step order, once each.
    runs: list[str] = field(default_factory=list)
    #: The ``name`` of each of those models' configs (a model the repository lacks has none).
    runs_places: list[Place] = field(default_factory=list)


def model_of(repository: Repository, path: Path) -> ModelFolder | None:
    """The model whose config file ``path`` is (its config.pbtxt, not an alternative)."""
    return next(
        (m for m in repository.models if m.path / m.config_file == path),
        None,
    )


def uses(repository: Repository, name: str) -> Uses:
    found = Uses()
    for model in sorted(repository.models, key=lambda m: m.name):
        steps = _steps(repository, model)
        if model.name == name:
            found.runs = list(dict.fromkeys(step for step, _ in steps if step))
        places = [place for step, place in steps if step == name]
        if places:
            found.run_by.append(model.name)
            found.run_by_places.extend(places)
    for other in found.runs:
        folder = repository.by_name.get(other)
        if folder is not None and folder.config is not None:
            found.runs_places.append(name_place(folder))
    return found


def name_place(model: ModelFolder) -> Place:
    """The value of the config's ``name`` (the file's start where it has none)."""
    location = _location(model, ("name",))
    return Place(model.config_path, location.value if location is not None else FILE_START)


def name_field(model: ModelFolder) -> Place:
    """The whole ``name`` field of the config (the file's start where it has none)."""
    location = _location(model, ("name",))
    return Place(model.config_path, location.field if location is not None else FILE_START)


def _steps(repository: Repository, model: ModelFolder) -> list[tuple[str, Place]]:
    """The model each step of an ensemble runs, with the place of its ``model_name``."""
    config = ModelContext(repository, model).config
    if config is None or config.platform != ENSEMBLE:
        return []
    found: list[tuple[str, Place]] = []
    for index, step in enumerate(config.ensemble_scheduling.step):
        location = _location(model, (*STEP, index, "model_name"))
        span = location.value if location is not None else FILE_START
        found.append((step.model_name, Place(model.config_path, span)))
    return found


def _location(model: ModelFolder, path: FieldPath) -> Location | None:
    document = model.config
    if document is None or document.bound is None:
        return None
    return document.bound.source_map.get(path)
