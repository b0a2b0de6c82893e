"""Which file of a model folder shows the findings about the folder.

An editor shows diagnostics on files, never on folders: a finding about a model folder, or
about a file that is no config (a missing version folder, a config under another name), is
shown on the model's ``config.pbtxt``. A folder without one still has its findings shown, on
the file the user would open to act on them, chosen from the walk's listing (never the disk)
so that every check picks the same one:

1. the config under another name (``config.pbtxt.template``, ``config.txt``), which the
   finding asks to fill in or rename;
2. the ``model.py`` of the first version folder holding one (a Python model);
3. the first regular file listed: the folder's own files by name, then each subfolder's in
   the order the walk lists them (hidden files only where there is nothing else).

A folder without any file has nowhere to show its findings; the command line still reports
them. A related place at a folder (the composing model an ensemble step names, refused for a
missing config) is moved likewise, to its model's config or the file chosen above.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tritonlint.repository.model import Entry, ModelFolder, Repository
from tritonlint.rules.folder_contents import config_lookalike

PYTHON_MODEL = "model.py"


def shown_file(model: ModelFolder) -> Path | None:
    """The file on which the findings about ``model``'s folder are shown (see the module)."""
    if model.loader is not None:
        return model.config_path
    lookalike = config_lookalike(model)
    if lookalike is not None:
        return model.path / lookalike.name
    for version in model.subfolders:
        if version.number is not None and _is_file(version.entry(PYTHON_MODEL)):
            return version.path / PYTHON_MODEL
    files = [model.path / e.name for e in sorted(model.entries) if _is_file(e)]
    for subfolder in model.subfolders:
        files.extend(subfolder.path / e.name for e in sorted(subfolder.entries) if _is_file(e))
    visible = [file for file in files if not file.name.startswith(".")]
    return next(iter(visible or files), None)


def related_file(path: Path, repository: Repository) -> Path | None:
    """The file that shows a related place at ``path``: ``path`` itself unless the walk
    listed a folder there (a model folder, or a folder in one: its model's shown file); None
    for a folder outside every model."""
    model = next((m for m in map(_model_at(repository), (path, *path.parents)) if m), None)
    if model is None:
        return None if path.is_dir() else path
    if path == model.path:
        return shown_file(model)
    found = model.find(path.relative_to(model.path).as_posix())
    if isinstance(found, Entry) and found.is_dir:
        return shown_file(model)
    return path


def _model_at(repository: Repository) -> Callable[[Path], ModelFolder | None]:
    def model_at(folder: Path) -> ModelFolder | None:
        model = repository.by_name.get(folder.name)
        return model if model is not None and model.path == folder else None

    return model_at


def _is_file(entry: Entry | None) -> bool:
    return entry is not None and not entry.is_dir
