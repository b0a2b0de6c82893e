"""What a folder is to tritonserver: a model folder, a version folder of one, or neither.

These tests interpret the paths a user names and find repositories below a folder. They only
list folders and look for files; the walk (``walker.py``) then reads every subfolder of a
repository as a model, whatever it holds, as the server polls every one of them.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

from tritonlint.paths import is_file_here
from tritonlint.repository.model import VersionStatus, classify_version
from tritonlint.repository.server_fill_in import KNOWN_BACKENDS, PLATFORMS

CONFIG_NAME = "config.pbtxt"
#: The folder of alternative configs (``tritonserver --model-config-name NAME`` reads
#: ``configs/NAME.pbtxt`` in place of ``config.pbtxt``).
CONFIGS_FOLDER = "configs"
#: Where TensorFlow Estimators export SavedModels: ``export/<exporter>/<timestamp>/``.
ESTIMATOR_EXPORT_FOLDER = "export"
_SAVED_MODEL = "saved_model.pb"
#: Files that make a folder a project's, not a model folder a SavedModel was exported into.
_SOURCE_SUFFIXES = (".py", ".ipynb", ".sh", "Dockerfile", "requirements.txt", ".toml", ".md")
#: How many folders up from a file the model it belongs to is looked for
#: (``model/1/model.savedmodel/saved_model.pb``).
_FILE_DEPTH = 3
#: The files (or folders) Triton's own backends load by default, but for ``model.py``, which
#: a folder of source code holds too: one directly in a folder makes it a (misbuilt) model.
_MODEL_FILES = frozenset(
    name
    for name in (*KNOWN_BACKENDS.values(), *(file for _, file in PLATFORMS.values()))
    if name is not None and name != "model.py"
)


class Listing(NamedTuple):
    """The names of the files and of the subfolders of a folder (symbolic links followed)."""

    files: frozenset[str]
    folders: tuple[str, ...]


def list_folder(folder: Path) -> Listing:
    """What ``folder`` holds; an unreadable folder holds nothing (the walk reports it)."""
    files: set[str] = set()
    folders: list[str] = []
    try:
        with os.scandir(folder) as scan:
            for entry in scan:
                try:
                    if entry.is_dir():
                        folders.append(entry.name)
                    else:
                        files.add(entry.name)
                except OSError:
                    continue
    except OSError:
        return Listing(frozenset(), ())
    return Listing(frozenset(files), tuple(sorted(folders)))


def _numbered(name: str) -> bool:
    return classify_version(name)[0] is VersionStatus.VALID


def is_model_folder(folder: Path, listing: Listing | None = None) -> bool:
    """Whether ``folder`` is a model folder: it has a config.pbtxt or a model file a backend
    loads by default (``model.onnx`` left out of its version folder), or it has numbered
    version folders and none of its subfolders is a model folder of its own.

    The last test keeps a repository of models named by numbers (``1654584802/``) from
    being read as one model: such a model has its own config and version folders, where a
    version folder holding a misplaced config.pbtxt has no numbered subfolders.
    """
    listing = listing or list_folder(folder)
    if CONFIG_NAME in listing.files or not _MODEL_FILES.isdisjoint(listing.files):
        return True
    if not _MODEL_FILES.isdisjoint(listing.folders):
        return True
    if (
        ESTIMATOR_EXPORT_FOLDER in listing.folders
        and not any(name.endswith(_SOURCE_SUFFIXES) for name in listing.files)
        and estimator_export(folder) is not None
    ):
        return True  # a SavedModel export where a model folder belongs (not a project's)
    if not any(_numbered(name) for name in listing.folders):
        return False
    return not any(_is_nested_model(folder / name) for name in listing.folders)


def estimator_export(folder: Path) -> str | None:
    """The newest SavedModel a TensorFlow Estimator exported into ``folder``, as the path of
    its timestamp folder relative to ``folder`` (``export/Servo/1712345678``), or None.

    The server polls such a folder as a model and refuses it; reported at that folder, a
    repository that holds one is found where the server is pointed at, not below it.
    """
    export = folder / ESTIMATOR_EXPORT_FOLDER
    for exporter in list_folder(export).folders:
        stamps = [
            (number, name)
            for name in list_folder(export / exporter).folders
            for status, number in [classify_version(name)]
            if status is VersionStatus.VALID and number is not None
        ]
        for _, name in sorted(stamps, reverse=True):
            if is_file_here(export / exporter / name / _SAVED_MODEL):
                return f"{ESTIMATOR_EXPORT_FOLDER}/{exporter}/{name}"
    return None


def _is_nested_model(folder: Path) -> bool:
    if not is_file_here(folder / CONFIG_NAME):
        return False
    if not _numbered(folder.name):
        return True
    return any(_numbered(name) for name in list_folder(folder).folders)


def model_of_version_folder(folder: Path) -> Path | None:
    """The model folder ``folder`` is a version folder of (None: it is none)."""
    if not _numbered(folder.name) or folder.parent == folder:
        return None
    return folder.parent if is_model_folder(folder.parent) else None


def model_of_file(path: Path) -> Path | None:
    """The model folder a file belongs to, as the model its path means (None: no model).

    ``model/config.pbtxt`` and ``model/1/config.pbtxt`` (misplaced) mean ``model``;
    ``model/configs/NAME.pbtxt`` too (an alternative config); so does any file that is not
    a ``.pbtxt`` in a model folder or below one of its version folders (``model/1/model.onnx``,
    ``model/labels.txt``). Other ``.pbtxt`` files are configs of their own.
    """
    parent = path.parent
    if path.name == CONFIG_NAME:
        return model_of_version_folder(parent) or parent
    if path.suffix == ".pbtxt":
        in_configs = parent.name == CONFIGS_FOLDER and is_model_folder(parent.parent)
        return parent.parent if in_configs else None
    for folder in [parent, *parent.parents][:_FILE_DEPTH]:
        model = model_of_version_folder(folder)
        if model is not None:
            return model
        if is_model_folder(folder):
            return folder
    return None


def is_repository(folder: Path, listing: Listing | None = None) -> bool:
    """Whether ``folder`` is a model repository: one of its subfolders is a model folder."""
    listing = listing or list_folder(folder)
    return any(is_model_folder(folder / name) for name in listing.folders)
