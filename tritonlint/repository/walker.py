"""Turn the paths a user names into repositories of models, reading each config once.

The walk is bounded: a repository root, its model folders, their subfolders and the entries
of those, and no deeper, so a symlink that points back up cannot make it run forever.
Nothing in the repository is imported or executed; ``model.py`` is only a name here.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

from tritonlint.repository.model import (
    ConfigLoader,
    Entry,
    ModelFolder,
    Repository,
    VersionFolder,
    VersionStatus,
    WalkProblem,
    classify_version,
)
from tritonlint.stage_rules import StageRule

CONFIG_NAME = "config.pbtxt"


def _stat_problem(path: Path) -> WalkProblem | None:
    try:
        os.stat(path)
    except OSError as error:
        if error.errno == errno.ELOOP:
            return WalkProblem(
                rule=StageRule.SYMLINK_LOOP,
                message="this is a symbolic link that points back to itself (a loop)",
                path=path,
            )
        if error.errno == errno.ENOENT:
            return WalkProblem(
                rule=StageRule.UNREADABLE_PATH, message="no such file or folder", path=path
            )
        return WalkProblem(
            rule=StageRule.UNREADABLE_PATH, message=f"cannot read: {error.strerror}", path=path
        )
    return None


def _list(folder: Path, problems: list[WalkProblem]) -> list[Entry]:
    """The entries of a folder, byte-sorted; unreadable folders and loops become problems."""
    try:
        with os.scandir(folder) as scan:
            raw = list(scan)
    except OSError as error:
        problems.append(
            WalkProblem(
                rule=StageRule.UNREADABLE_PATH,
                message=f"cannot list this folder: {error.strerror}",
                path=folder,
            )
        )
        return []
    entries = []
    for item in sorted(raw, key=lambda e: os.fsencode(e.name)):
        try:
            is_dir = item.is_dir()
            size = None if is_dir else item.stat().st_size
        except OSError as error:
            problem = _stat_problem(Path(item.path))
            if problem is not None:
                problems.append(problem)
            elif error.errno != errno.ENOENT:
                problems.append(
                    WalkProblem(
                        rule=StageRule.UNREADABLE_PATH, message=str(error), path=Path(item.path)
                    )
                )
            continue
        entries.append(Entry(name=item.name, is_dir=is_dir, size=size))
    return entries


def _looks_like_model(folder: Path, entries: list[Entry]) -> bool:
    """A model folder has a config.pbtxt, or plain-number version folders and no models below."""
    if any(e.name == CONFIG_NAME and not e.is_dir for e in entries):
        return True
    subfolders = [e for e in entries if e.is_dir]
    if not any(classify_version(e.name)[0] is VersionStatus.VALID for e in subfolders):
        return False
    return not any((folder / e.name / CONFIG_NAME).is_file() for e in subfolders)


#: Makes the loader of a config file: the engine reads it from disk or from an editor's text.
LoaderFactory = Callable[[Path], ConfigLoader]


def read_model(folder: Path, load: LoaderFactory, problems: list[WalkProblem]) -> ModelFolder:
    """A model folder: its entries and subfolders now, its config when first asked for."""
    entries = _list(folder, problems)
    subfolders = []
    for entry in entries:
        if not entry.is_dir:
            continue
        status, number = classify_version(entry.name)
        subfolder = folder / entry.name
        subfolders.append(
            VersionFolder(
                name=entry.name,
                path=subfolder,
                status=status,
                number=number,
                entries=tuple(_list(subfolder, problems)),
            )
        )
    config_entry = next((e for e in entries if e.name == CONFIG_NAME), None)
    loader = None
    if config_entry is not None:
        if config_entry.is_dir:
            problems.append(
                WalkProblem(
                    rule=StageRule.UNREADABLE_PATH,
                    message="config.pbtxt is a folder, not a file",
                    path=folder / CONFIG_NAME,
                )
            )
        else:
            loader = load(folder / CONFIG_NAME)
    return ModelFolder(
        name=folder.name,
        path=folder,
        entries=tuple(entries),
        subfolders=tuple(subfolders),
        loader=loader,
    )


def read_repository(
    root: Path, load: LoaderFactory, targets: frozenset[Path] | None = None
) -> Repository:
    """Every model under ``root``; with ``targets``, the others only if they have a config."""
    problems: list[WalkProblem] = []
    models: dict[str, ModelFolder] = {}
    hidden: list[Path] = []
    folders: list[str] = []
    for entry in _list(root, problems):
        if not entry.is_dir:
            continue
        folders.append(entry.name)
        folder = root / entry.name
        if entry.name.startswith("."):
            hidden.append(folder)
            continue
        if targets is not None and folder not in targets and not (folder / CONFIG_NAME).is_file():
            continue
        models[entry.name] = read_model(folder, load, problems)
    return Repository(
        root=root,
        by_name=models,
        hidden_folders=hidden,
        problems=problems,
        targets=set(targets) if targets is not None else {m.path for m in models.values()},
        whole=targets is None,
        folder_names=frozenset(folders),
    )


def read_loose_file(path: Path, load: LoaderFactory) -> Repository:
    """A config file that is not a model folder's config.pbtxt: checked on its own."""
    model = ModelFolder(name=path.parent.name, path=path.parent, loader=load(path))
    return Repository(root=None, by_name={model.name: model}, targets={model.path})


class Source(NamedTuple):
    """What to read: a repository root (all of it, or some target models), or a loose file."""

    root: Path | None
    #: The models asked about under ``root`` (None: the whole repository).
    targets: frozenset[Path] | None = None
    #: A config file that is not a model folder's config.pbtxt (``root`` is None).
    file: Path | None = None


def plan(paths: Sequence[Path]) -> tuple[list[Source], list[WalkProblem]]:
    """Group the paths by repository, without reading any config yet.

    Returns what to read and the problems with paths that could not be used at all.
    """
    roots: dict[Path, set[Path] | None] = {}
    standalone: list[Path] = []
    unusable: list[WalkProblem] = []
    for raw in paths:
        path = Path(os.path.abspath(raw))
        problem = _stat_problem(path)
        if problem is not None:
            unusable.append(problem)
            continue
        if path.is_file():
            if path.name == CONFIG_NAME:
                _add_target(roots, path.parent)
            else:
                standalone.append(path)
            continue
        entries = _list(path, unusable)
        if _looks_like_model(path, entries):
            _add_target(roots, path)
        else:
            roots[path] = None
    sources = [
        Source(root, frozenset(targets) if targets is not None else None)
        for root, targets in roots.items()
    ]
    sources.extend(Source(None, file=path) for path in standalone)
    return sources, unusable


def _add_target(roots: dict[Path, set[Path] | None], model: Path) -> None:
    root = model.parent
    if root in roots and roots[root] is None:
        return  # the whole repository is linted already
    roots.setdefault(root, set())
    targets = roots[root]
    assert targets is not None
    targets.add(model)
