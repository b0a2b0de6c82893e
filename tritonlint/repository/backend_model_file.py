"""The model file a model's backend loads, and what that file declares, read once.

The server loads every version its version policy names; by default the newest. tritonlint
reads the model file of the newest version that has one: that is the file whose tensors a
config is compared with. What is read is kept by path, size and modification time, so that an
editor's re-checks do not read a model file again until it changes.

A repository laid out before its models are copied in holds empty files where the models go
(or a model.py of comments alone): they are placeholders, not read. A Git LFS pointer, the
text a clone without ``git lfs pull`` leaves where a binary model should be, is read as the
problem it is. So is a named pipe, a device or a socket where the model file belongs (or a
symbolic link to one): decided from its status alone, it is never opened (opening a pipe
waits for a writer, a device such as ``/dev/zero`` never ends), nor taken for an empty
placeholder.
"""

from __future__ import annotations

import os
import stat
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from tritonlint.modelfiles.files import UnreadableFile, read_bounded
from tritonlint.modelfiles.python import PythonModel, read_python
from tritonlint.modelfiles.signature import ModelFileProblem, ModelSignature
from tritonlint.repository.model import Entry, ModelFolder
from tritonlint.repository.server_fill_in import Completed

#: The file format each backend's model file is read as (TensorFlow: by platform).
_FORMAT_OF_BACKEND = {
    "onnxruntime": "onnx",
    "pytorch": "torchscript",
    "openvino": "openvino",
    "python": "python",
}

#: The backend that loads each format the readers read (a SavedModel: TensorFlow's).
BACKEND_OF_FORMAT = {
    "onnx": "onnxruntime",
    "torchscript": "pytorch",
    "savedmodel": "tensorflow",
    "openvino": "openvino",
}

#: How each format is named to a user.
FORMAT_NAMES = {
    "onnx": "ONNX",
    "torchscript": "TorchScript",
    "savedmodel": "TensorFlow SavedModel",
    "openvino": "OpenVINO IR",
    "python": "Python",
}

Read = ModelSignature | PythonModel | ModelFileProblem

#: The formats whose files are binary: text in their place is no model.
_BINARY_FORMATS = frozenset({"onnx", "torchscript", "savedmodel"})
#: What a Git LFS pointer starts with.
_LFS_POINTER = b"version https://git-lfs.github.com/spec/"
#: Bytes of the longest file looked at for a placeholder or a pointer (a pointer has some 130).
_MAX_NOTE_BYTES = 1024


class ModelFile(NamedTuple):
    """The model file of one version, and what reading it gave."""

    path: Path
    version: int
    #: ``onnx``, ``torchscript``, ``savedmodel``, ``openvino`` or ``python``.
    format: str
    read: Read


def model_file(model: ModelFolder, completed: Completed, config: Any | None) -> ModelFile | None:
    """The newest version's model file, read; None where there is nothing to read.

    Nothing to read: a backend whose files tritonlint does not read, no version holding the
    default model file, or a placeholder (an empty file, a short model.py of comments alone:
    a repository laid out before the real model is copied in), which the server alone would
    refuse, for reasons the layout rules give.
    """
    found = newest_model_file(model, completed)
    if found is None:
        return None
    number, path, status = found
    kind = file_format(completed)
    assert kind is not None  # a file is only looked for in a format that is read
    special = _special_file(path, status)
    if special is not None:
        problem = ModelFileProblem(
            path,
            f"the model file {path.name} is {special}, not a regular file: it is not read, "
            "and the backend cannot load a model from it",
        )
        return ModelFile(path, number, kind, problem)
    if status.st_size == 0:
        return None
    if kind == "python" and status.st_size <= _MAX_NOTE_BYTES and _only_comments(path):
        return None
    if kind in _BINARY_FORMATS and status.st_size <= _MAX_NOTE_BYTES and _lfs_pointer(path):
        problem = ModelFileProblem(
            path,
            f"the model file {path.name} is a Git LFS pointer, not the model: the repository "
            "was cloned or copied without its LFS objects (`git lfs pull` fetches them)",
        )
        return ModelFile(path, number, kind, problem)
    tag, signature = _tensorflow_choices(config) if kind == "savedmodel" else (None, None)
    read = _read(path, kind, tag, signature, status.st_size, status.st_mtime_ns)
    return ModelFile(path, number, kind, read)


def newest_model_file(
    model: ModelFolder, completed: Completed
) -> tuple[int, Path, os.stat_result] | None:
    """The version number, path and state of the newest version's model file, empty or not;
    None where no version holds one, or where the backend's files are not read."""
    kind = file_format(completed)
    name = completed.default_model_filename
    if kind is None or not name:
        return None
    for number, folder in sorted(model.version_paths.items(), reverse=True):
        if not isinstance(model.find(f"{number}/{name}"), Entry):
            continue  # the walk listed no such file or folder (rules read only what it listed)
        path = folder / name
        if kind == "savedmodel":
            path = path / "saved_model.pb"
        try:
            return number, path, path.stat()
        except OSError:
            continue
    return None


#: What a file that is neither a regular file nor a folder is, by its type in ``st_mode``.
_SPECIAL_FILES = (
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _special_file(path: Path, status: os.stat_result) -> str | None:
    """What the file at ``path`` (of ``status``, symbolic links followed) is when it is a pipe,
    a device or a socket (``a symbolic link to a named pipe``); None for a regular file or a
    folder. Nothing is opened."""
    kind = next((name for test, name in _SPECIAL_FILES if test(status.st_mode)), None)
    if kind is None:
        return None
    return f"a symbolic link to {kind}" if path.is_symlink() else kind


def _lfs_pointer(path: Path) -> bool:
    """Whether the short file at ``path`` is a Git LFS pointer."""
    try:
        return read_bounded(path, _MAX_NOTE_BYTES).startswith(_LFS_POINTER)
    except UnreadableFile:
        return False


def _only_comments(path: Path) -> bool:
    """Whether the short Python source at ``path`` holds nothing but comments and blank lines."""
    try:
        source = read_bounded(path, _MAX_NOTE_BYTES)
    except UnreadableFile:
        return False
    return all(not line.strip() or line.lstrip().startswith(b"#") for line in source.splitlines())


def file_format(completed: Completed) -> str | None:
    """The format the model file of a model so completed is read as (None: not read)."""
    if completed.platform == "tensorflow_savedmodel":
        return "savedmodel"
    return _FORMAT_OF_BACKEND.get(completed.backend)


def _tensorflow_choices(config: Any | None) -> tuple[str | None, str | None]:
    """The ``TF_GRAPH_TAG`` and ``TF_SIGNATURE_DEF`` parameters, where the config sets them."""
    if config is None:
        return None, None
    parameters = config.parameters

    def value(key: str) -> str | None:
        return parameters[key].string_value if key in parameters else None

    return value("TF_GRAPH_TAG"), value("TF_SIGNATURE_DEF")


@lru_cache(maxsize=256)
def _read(
    path: Path, kind: str, tag: str | None, signature: str | None, size: int, mtime_ns: int
) -> Read:
    """Read ``path`` as ``kind``; ``size`` and ``mtime_ns`` key the cache to the file's state.

    A reader that fails (a file that takes it past a limit of the interpreter, or a bug in
    it) makes the file unreadable, a finding of its own, rather than ending the check of
    every other model.
    """
    del size, mtime_ns
    # The framework formats' readers are imported when a model file of theirs is there: most
    # runs meet one format or none, and the readers' modules (zip, pickle, protobuf wire and
    # XML parsers) weigh on every start.
    try:
        if kind == "onnx":
            from tritonlint.modelfiles.onnx import read_onnx

            return read_onnx(path)
        if kind == "torchscript":
            from tritonlint.modelfiles.torchscript import read_torchscript

            return read_torchscript(path)
        if kind == "savedmodel":
            from tritonlint.modelfiles.savedmodel import read_savedmodel

            return read_savedmodel(path, tag=tag, signature=signature)
        if kind == "openvino":
            from tritonlint.modelfiles.openvino import read_openvino

            return read_openvino(path)
        return read_python(path)
    except RecursionError:
        return ModelFileProblem(
            path, f"the {FORMAT_NAMES[kind]} model is too deeply nested to read"
        )
    except MemoryError:
        return ModelFileProblem(
            path, f"the {FORMAT_NAMES[kind]} model takes more memory to read than there is"
        )
    except Exception as error:
        return ModelFileProblem(
            path,
            f"the {FORMAT_NAMES[kind]} model could not be read: tritonlint's reader failed "
            f"({type(error).__name__}: {error}); this is a bug, please report it",
        )
