"""The fix of a model file left directly in its model folder: move it into a version folder.

The version folder is ``1/``, or, where the config's ``version_policy`` names ``specific``
versions, the lowest of them (``latest`` and ``all`` serve ``1/`` as well). No fix is offered
where that folder name is taken by a file, or where the folder holds a file of the same name
already: a move never replaces anything.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tritonlint.diagnostics import Applicability, FileMove, Fix
from tritonlint.repository.model import ModelFolder

if TYPE_CHECKING:
    from tritonlint.schema.config_types import ModelConfig

#: A model file the backend reads with another beside it (OpenVINO: the weights).
_COMPANIONS = {"model.xml": ("model.bin",)}


def target_version(config: ModelConfig | None) -> int | None:
    """The version a loose model file belongs in, or None where the policy serves none."""
    if config is None:
        return 1
    policy = config.version_policy
    if policy.WhichOneof("policy_choice") != "specific":
        return 1
    wanted = [version for version in policy.specific.versions if version > 0]
    return min(wanted) if wanted else None


def move_into_version(
    model: ModelFolder, names: tuple[str, ...], config: ModelConfig | None
) -> tuple[Fix, ...]:
    """An unsafe fix that moves the entries ``names`` of ``model``'s folder (and the files
    they need beside them) into its version folder; none where that cannot be done safely."""
    version = target_version(config)
    if version is None:
        return ()
    folder = str(version)
    moving = list(dict.fromkeys(_with_companions(model, names)))
    existing = model.entry(folder)
    if existing is not None:
        subfolder = next((v for v in model.subfolders if v.name == folder), None)
        if not existing.is_dir or subfolder is None:
            return ()
        if any(subfolder.entry(name) is not None for name in moving):
            return ()  # a move would replace what is there
    moves = tuple(FileMove(model.path / name, model.path / folder / name) for name in moving)
    shown = " and ".join([", ".join(moving[:-1]), moving[-1]] if len(moving) > 1 else moving)
    return (Fix(f"Move {shown} into {folder}/", (), Applicability.UNSAFE, moves),)


def _with_companions(model: ModelFolder, names: tuple[str, ...]) -> list[str]:
    found = []
    for name in names:
        found.append(name)
        found.extend(c for c in _COMPANIONS.get(name, ()) if model.entry(c) is not None)
    return found
