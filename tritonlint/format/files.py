"""Which files ``tritonlint format`` formats, and reading one of them.

A file named is formatted whatever its name. A folder means the config files the linter
would check there (:func:`~tritonlint.repository.walker.plan`): each model's config.pbtxt and
its alternative ``configs/*.pbtxt``, in every repository the folder is, holds or belongs to,
less the models the settings' ``exclude`` names.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

from tritonlint.document import MAX_CONFIG_BYTES, ConfigDocument, decode_config, load_config
from tritonlint.format.api import Refusal
from tritonlint.paths import leaves
from tritonlint.repository.model import ConfigLoader, ModelFolder, WalkProblem
from tritonlint.repository.recognise import model_of_file
from tritonlint.repository.walker import plan, read_repository
from tritonlint.schema.releases import load_schema


class FilePlan(NamedTuple):
    files: list[Path]
    #: Paths that could not be used (missing, unreadable, a symbolic link loop).
    problems: list[WalkProblem]
    #: Folders under which no config file was found.
    empty: list[Path]
    #: The folder each file is expected in: its repository, else its own folder.
    bases: dict[Path, Path]

    def leaves(self, path: Path) -> bool:
        """Whether the file ``path`` is a symbolic link to outside its repository."""
        return leaves(path, self.bases.get(path, path.parent))


def config_files(
    paths: Sequence[Path],
    repositories: Sequence[Path] = (),
    excluded: Callable[[Path], bool] | None = None,
) -> FilePlan:
    """The files to format for the ``paths`` named, each once, in the order found."""
    files: dict[Path, Path] = {}
    folders: list[Path] = []
    for path in paths:
        if os.path.isfile(path):
            named = Path(os.path.abspath(path))
            folder = model_of_file(named)
            files[named] = folder.parent if folder is not None else named.parent
        else:
            folders.append(path)
    if not folders:
        return FilePlan(list(files), [], [], files)
    sources, problems, empty = plan(folders, repositories, excluded)
    for source in sources:
        if source.root is None:
            assert source.file is not None
            files.setdefault(source.file, source.file.parent)
            continue
        repository = read_repository(source.root, _loader, source.targets)
        for model in repository.target_models():
            if excluded is None or not excluded(model.path):
                for config in _configs_of(model):
                    files.setdefault(config, source.root)
    return FilePlan(list(files), problems, empty, files)


def _configs_of(model: ModelFolder) -> list[Path]:
    found = [model.config_path] if model.loader is not None else []
    return found + [alternative.config_path for alternative in model.alternatives]


def _loader(path: Path) -> ConfigLoader:
    """How the walk would read a config; the formatter reads the file itself."""
    return lambda: _load(path)


def _load(path: Path) -> ConfigDocument:
    return load_config(path, load_schema())


def read_text(path: Path) -> str | Refusal:
    """The text of the file ``path``, or why it is not a text to format (not a regular file,
    too large, unreadable, binary, not UTF-8)."""
    try:
        status = os.stat(path)
        if not stat.S_ISREG(status.st_mode):
            return Refusal("not a regular file (a folder, pipe, socket or device?)")
        if status.st_size > MAX_CONFIG_BYTES:
            return Refusal(
                f"{status.st_size / (1024 * 1024):.1f} MiB is far larger than any model "
                f"configuration; not formatted (the limit is {MAX_CONFIG_BYTES // (1024 * 1024)}"
                " MiB)"
            )
        data = path.read_bytes()
    except OSError as error:
        return Refusal(f"cannot read this file: {error.strerror or error}")
    return decode_text(path, data)


def decode_text(path: Path, data: bytes) -> str | Refusal:
    """The text of a file's bytes, or why they are not a text to format."""
    if len(data) > MAX_CONFIG_BYTES:
        return Refusal(
            f"more than {MAX_CONFIG_BYTES // (1024 * 1024)} MiB, far larger than any model "
            "configuration; not formatted"
        )
    text = decode_config(path, data)
    if isinstance(text, str):
        return text
    return Refusal(text.message, text.span)
