"""Turn the paths a user names into repositories of models, reading each config once.

What a named path means is decided by :func:`plan`; the rules are written out in
``docs/discovery.md``.

The walk is bounded: a repository root, its model folders, their subfolders and the entries
of those, and no deeper, so a symlink that points back up cannot make it run forever.
Nothing in the repository is imported or executed; ``model.py`` is only a name here.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

from tritonlint.paths import is_file_here
from tritonlint.repository.model import (
    ConfigLoader,
    Entry,
    ModelFolder,
    Repository,
    VersionFolder,
    WalkProblem,
    classify_version,
)
from tritonlint.repository.recognise import (
    CONFIG_NAME,
    CONFIGS_FOLDER,
    ESTIMATOR_EXPORT_FOLDER,
    Listing,
    estimator_export,
    is_model_folder,
    is_repository,
    list_folder,
    model_of_file,
    model_of_version_folder,
)
from tritonlint.stage_rules import StageRule


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
                        rule=StageRule.UNREADABLE_PATH,
                        message=f"cannot read: {error.strerror}",
                        path=Path(item.path),
                    )
                )
            continue
        entries.append(Entry(name=item.name, is_dir=is_dir, size=size))
    return entries


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
    model = ModelFolder(
        name=folder.name,
        path=folder,
        entries=tuple(entries),
        subfolders=tuple(subfolders),
        loader=loader,
    )
    if config_entry is None and any(
        entry.is_dir and entry.name == ESTIMATOR_EXPORT_FOLDER for entry in entries
    ):
        model.estimator_export = estimator_export(folder)
    model.alternatives = tuple(_alternatives(model, load))
    return model


def _alternatives(model: ModelFolder, load: LoaderFactory) -> Iterator[ModelFolder]:
    """The model as each of its ``configs/*.pbtxt`` makes it (``--model-config-name``)."""
    configs = next((v for v in model.subfolders if v.name == CONFIGS_FOLDER), None)
    if configs is None:
        return
    for entry in configs.entries:
        if entry.is_dir or not entry.name.endswith(".pbtxt"):
            continue
        yield replace(
            model,
            loader=load(configs.path / entry.name),
            config_file=f"{CONFIGS_FOLDER}/{entry.name}",
            alternatives=(),
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
        if targets is not None and folder not in targets and not is_file_here(folder / CONFIG_NAME):
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


class PlannedCheck(NamedTuple):
    """What to read: a repository root (all of it, or some target models), or a loose file."""

    root: Path | None
    #: The models asked about under ``root`` (None: the whole repository).
    targets: frozenset[Path] | None = None
    #: A config file that is not a model folder's config.pbtxt (``root`` is None).
    file: Path | None = None


class Plan(NamedTuple):
    """What the paths a user named come to."""

    checks: list[PlannedCheck]
    #: Paths that could not be used at all (missing, unreadable, a symbolic link loop).
    problems: list[WalkProblem]
    #: Folders under which nothing was found to check.
    empty: list[Path]


def plan(
    paths: Sequence[Path],
    repositories: Sequence[Path] = (),
    skip: Callable[[Path], bool] | None = None,
) -> Plan:
    """Group the paths by repository, without reading any config yet.

    A file means its model (see :func:`model_of_file`), else it is a config of its own. A
    folder means: the whole repository, when it is one of ``repositories`` (named in the
    settings) or one of its subfolders is a model folder; the model, when it is a model
    folder, a version folder of one, a subfolder of one of ``repositories``, or a stray
    folder of a repository; else every repository found below it (see
    :func:`~tritonlint.repository.discovery.find_repositories`; ``skip`` names folders not to
    search).
    """
    known = {Path(os.path.abspath(folder)) for folder in repositories}
    roots: dict[Path, set[Path] | None] = {}
    standalone: list[Path] = []
    unusable: list[WalkProblem] = []
    empty: list[Path] = []
    for raw in paths:
        path = Path(os.path.abspath(raw))
        problem = _stat_problem(path)
        if problem is not None:
            unusable.append(problem)
            continue
        if path.is_file():
            model = model_of_file(path)
            if model is None:
                standalone.append(path)
            else:
                _add_target(roots, model)
            continue
        before = len(unusable)
        _list(path, unusable)
        if any(problem.path == path for problem in unusable[before:]):
            continue  # a folder that cannot be listed
        listing = list_folder(path)
        if path in known:
            roots[path] = None
            if not any(not name.startswith(".") for name in listing.folders):
                empty.append(path)
            continue
        model = path if path.parent in known else model_of_version_folder(path)
        if model is None and is_model_folder(path, listing):
            model = path
        if model is not None:
            _add_target(roots, model)
            continue
        found = [path] if is_repository(path, listing) else _search(path, skip)
        for repository in found:
            roots[repository] = None
        if found:
            continue
        if is_repository(path.parent):  # a stray folder the server polls as a model too
            _add_target(roots, path)
        elif not _unreadable_subfolders(path, listing, unusable):
            empty.append(path)
    checks = [
        PlannedCheck(root, frozenset(targets) if targets is not None else None)
        for root, targets in roots.items()
    ]
    checks.extend(PlannedCheck(None, file=path) for path in standalone)
    return Plan(checks, unusable, empty)


def _unreadable_subfolders(folder: Path, listing: Listing, unusable: list[WalkProblem]) -> bool:
    """Report the subfolders of ``folder`` that cannot be listed; whether there were any.

    A folder where nothing was found may hold the models in a subfolder the search could
    not look into: that is what to say, not that there is nothing to check.
    """
    before = len(unusable)
    for name in listing.folders:
        if not name.startswith("."):
            _list(folder / name, unusable)
    return len(unusable) > before


def _search(top: Path, skip: Callable[[Path], bool] | None) -> list[Path]:
    """The repositories below ``top``; the search (which may ask git) is imported only when
    a folder named is neither a repository nor a model, as a lint of a config file needs
    none of it."""
    from tritonlint.repository.discovery import find_repositories

    return find_repositories(top, skip)


def text_source(path: Path) -> PlannedCheck:
    """Where a config's text read from elsewhere (standard input) is checked as ``path``.

    In its repository, when ``path`` is a model's ``config.pbtxt`` (the model folder may be
    new, its repository must exist) or one of its ``configs/*.pbtxt`` on disk; else on its own.
    """
    path = Path(os.path.abspath(path))
    model = model_of_file(path)
    if model is None or not model.parent.is_dir():
        return PlannedCheck(None, file=path)
    is_config = path.parent == model and path.name == CONFIG_NAME
    is_alternative = path.parent == model / CONFIGS_FOLDER and path.is_file()
    if not (is_config or is_alternative):
        return PlannedCheck(None, file=path)
    return PlannedCheck(model.parent, frozenset({model}))


def _add_target(roots: dict[Path, set[Path] | None], model: Path) -> None:
    root = model.parent
    if root in roots and roots[root] is None:
        return  # the whole repository is linted already
    roots.setdefault(root, set())
    targets = roots[root]
    assert targets is not None
    targets.add(model)
