"""A rule's documented bad and good examples (``Rule.bad``, ``Rule.good``) as repositories.

An example is one of two forms:

* A tree, when its text starts with ``model_repository/``. Each line names a path under
  ``model_repository/`` (and may end in a ``# comment``):

  - ``model_repository/<path>``: an empty file; a folder where the path ends in ``/``.
  - ``model_repository/<path> -> <target>``: a symbolic link, as ``ls -l`` shows it.
  - ``model_repository/<path>:`` followed by the file's text, indented by two spaces (blank
    lines may be part of it). ``<path>: <Latin-1>``: the same text saved as Latin-1 (no
    UTF-8); ``<path>: <hex>``: the lines below are the file's bytes in hex (``0a 06 72``);
    ``<path>: <mode NNN>``: the text, in a file whose permissions ``chmod NNN`` sets once
    everything is written (``<mode 000>``: no one may read it).
  - ``model_repository/<path>: <N bytes of zeros>`` (or ``KiB``, ``MiB``): a file of N zero
    bytes, nothing below.
  - ``model_repository/<path>: <ONNX>`` (``<OpenVINO>``, ``<TorchScript>``, ``<SavedModel>``):
    a model file made from the description below it, indented by two spaces
    (tests/model_notation.py): ``input "pixels" FP32 [N, 3, 224, 224]`` and ``output ...``
    lines, a ``forward(self, ...) -> ...`` signature, a SavedModel's name.

  Blank lines may separate the entries. Any other line makes the example no tree.
* Otherwise one config.pbtxt, placed in ``model_repository/<name>/config.pbtxt`` where
  ``<name>`` is its top-level ``name:`` (``model`` when it has none), beside the version
  folder ``1/`` that makes it loadable: an ensemble's stays empty; any other model's holds its
  model file, empty: the config's ``default_model_filename``, else the file the backend of its
  ``platform`` or ``backend`` reads by default (``model.savedmodel`` is a folder). A config
  that names neither gets an empty ``1/``.

A smoke rule's example (one the smoke stage reports, not lint) starts with the command that
shows it, ``$ tritonlint smoke [OPTIONS] model_repository``, on a line of its own; the tree or
the config follows. A lint rule's example that holds for some releases only starts with
``$ tritonlint check --triton-version <release> model_repository``, and is checked against
that release.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from helpers import Content, Latin1, Link, make_tree
from model_notation import FORMATS, ModelDescription, NotationError, check

ROOT = "model_repository"

#: The model file a platform's or a backend's model is read from, where there is a default.
DEFAULT_MODEL_FILES = {
    "onnxruntime_onnx": "model.onnx",
    "onnxruntime": "model.onnx",
    "tensorrt_plan": "model.plan",
    "tensorrt": "model.plan",
    "pytorch_libtorch": "model.pt",
    "pytorch": "model.pt",
    "tensorflow_savedmodel": "model.savedmodel/",
    "tensorflow_graphdef": "model.graphdef",
    "openvino": "model.xml",
    "python": "model.py",
}

_COMMENT = re.compile(r"\s+#.*")
#: What a line ``<path>: <...>`` says about the file's content.
_DESCRIBED = re.compile(r"(?P<path>.*?):(?:\s+<(?P<content>[^<>]*)>)?")
_MODE = re.compile(r"mode (?P<mode>[0-7]{3})")
_ZEROS = re.compile(r"(?P<count>\d+) (?P<unit>bytes|KiB|MiB) of zeros")
_UNITS = {"bytes": 1, "KiB": 1024, "MiB": 1024 * 1024}
_PATH = re.compile(r"[^\s<>](?:[^<>]*[^\s<>])?")
_SMOKE = ("tritonlint", "smoke")
_CHECK = ("tritonlint", "check", "--triton-version")


class NotAnExample(ValueError):
    """Text that is neither a tree nor a config."""


@dataclass(frozen=True)
class Example:
    """The repository an example describes, and how it is checked."""

    #: Paths under ``model_repository/`` and what they are.
    files: dict[str, Content]
    #: Permissions to set on paths once the repository is written (``<mode NNN>``).
    modes: dict[str, int] = field(default_factory=dict)
    #: The options of ``tritonlint smoke`` the example is shown with (None: it is linted).
    smoke: tuple[str, ...] | None = None
    #: The release a linted example is checked against (None: the default, the newest).
    triton_version: str | None = None


def parse_example(text: str) -> Example:
    """The repository ``text`` describes, and the smoke stage's options or the targeted
    release where it names them."""
    smoke, release = None, None
    if text.startswith("$"):
        command, _, text = text.partition("\n")
        words = shlex.split(command.removeprefix("$"), comments=True)
        if tuple(words[:3]) == _CHECK:
            release = _checked_release(command, words)
        else:
            smoke = _smoke_options(command)
    if text.startswith(f"{ROOT}/"):
        files, modes = _tree(text)
        return Example(files, modes, smoke, release)
    return Example(_config(text), smoke=smoke, triton_version=release)


def _checked_release(command: str, words: list[str]) -> str:
    if len(words) != 5 or words[-1] != ROOT:
        raise NotAnExample(
            f"not `$ tritonlint check --triton-version <release> {ROOT}`: {command!r}"
        )
    return words[3]


def _smoke_options(command: str) -> tuple[str, ...]:
    words = shlex.split(command.removeprefix("$"), comments=True)
    if len(words) < 3 or tuple(words[:2]) != _SMOKE or words[-1] != ROOT:
        raise NotAnExample(f"not `$ tritonlint smoke [OPTIONS] {ROOT}`: {command!r}")
    return tuple(words[2:-1])


def _tree(text: str) -> tuple[dict[str, Content], dict[str, int]]:
    files: dict[str, Content] = {}
    modes: dict[str, int] = {}

    def add(path: str, content: Content) -> None:
        if path in files:
            raise NotAnExample(f"{path} is given twice")
        files[path] = content

    below: list[str] | None = None  # the indented lines of the file being read
    path, kind = "", ""
    for line in text.split("\n"):
        if below is not None and (line.startswith("  ") or not line.strip()):
            below.append(line[2:])
            continue
        if below is not None:
            add(path, _content(path, kind, below))
            below = None
        if not line.strip():
            continue
        if not line.startswith(f"{ROOT}/"):
            raise NotAnExample(f"neither a path nor a file's content: {line!r}")
        entry = _COMMENT.sub("", line.rstrip())[len(ROOT) + 1 :]
        if " -> " in entry:
            name, target = entry.split(" -> ", 1)
            add(_path(name, line), Link(target))
        elif described := _DESCRIBED.fullmatch(entry):
            path, kind = _path(described["path"], line), described["content"] or ""
            if _ZEROS.fullmatch(kind):
                add(path, _zeros(kind))
                continue
            below = []
            if mode := _MODE.fullmatch(kind):
                modes[path], kind = int(mode["mode"], 8), ""
        else:
            add(_path(entry.removesuffix("/"), line), None if entry.endswith("/") else "")
    if below is not None:
        add(path, _content(path, kind, below))
    return files, modes


def _path(name: str, line: str) -> str:
    if not all(_PATH.fullmatch(part) for part in name.split("/")):
        raise NotAnExample(f"not a path: {line!r}")
    return f"{ROOT}/{name}"


def _content(path: str, kind: str, lines: list[str]) -> Content:
    """A file's content from the lines below its entry, as ``kind`` (``<...>``) says."""
    text = "\n".join(lines).rstrip("\n") + "\n"
    if kind == "":
        return text
    if kind == "Latin-1":
        try:
            text.encode("latin-1")
        except UnicodeEncodeError as error:
            raise NotAnExample(f"{path}: {error.object[error.start]!r} is not in Latin-1") from None
        return Latin1(text)
    if kind == "hex":
        try:
            return bytes.fromhex(text)
        except ValueError:
            raise NotAnExample(f"{path}: not bytes in hex: {text!r}") from None
    if kind in FORMATS:
        model = ModelDescription(kind, text)
        try:
            check(model)
        except NotationError as error:
            raise NotAnExample(f"{path}: {error}") from None
        return model
    models = ", ".join(f"<{name}>" for name in FORMATS)
    raise NotAnExample(
        f"{path}: <{kind}> is none of <Latin-1>, <hex>, <mode NNN>, <N MiB of zeros>, {models}"
    )


def _zeros(kind: str) -> bytes:
    zeros = _ZEROS.fullmatch(kind)
    assert zeros is not None
    return b"\0" * (int(zeros["count"]) * _UNITS[zeros["unit"]])


def _config(text: str) -> dict[str, Content]:
    name = _field(text, "name") or "model"
    folder = f"{ROOT}/{name}"
    files: dict[str, Content] = {f"{folder}/config.pbtxt": text + "\n"}
    platform, backend = _field(text, "platform"), _field(text, "backend")
    model_file = (
        None
        if platform == "ensemble"
        else _field(text, "default_model_filename")
        or DEFAULT_MODEL_FILES.get(platform or "")
        or DEFAULT_MODEL_FILES.get(backend or "")
    )
    if model_file is None:
        files[f"{folder}/1"] = None
    elif model_file.endswith("/"):
        files[f"{folder}/1/{model_file.rstrip('/')}"] = None
    else:
        files[f"{folder}/1/{model_file}"] = ""
    return files


def _field(text: str, name: str) -> str | None:
    """The string value of a top-level field written at the start of a line."""
    found = re.search(rf'^{name}\s*:\s*"([^"]*)"', text, re.MULTILINE)
    return found.group(1) if found else None


@contextlib.contextmanager
def written(example: Example, folder: Path) -> Iterator[Path]:
    """The example's repository written under ``folder`` (its ``model_repository`` folder),
    with the files' modes set; they are set back afterwards."""
    make_tree(folder, example.files, verbatim=True)
    for path, mode in example.modes.items():
        (folder / path).chmod(mode)
    try:
        yield folder / ROOT
    finally:
        for path in example.modes:
            (folder / path).chmod(0o644)


def unreadable_yet_read(example: Example, root: Path) -> list[str]:
    """The paths whose mode forbids reading them that can be read all the same (by root)."""
    return [
        path
        for path, mode in example.modes.items()
        if not mode & 0o400 and os.access(root.parent / path, os.R_OK)
    ]
