"""A rule's documented bad and good examples (``Rule.bad``, ``Rule.good``) as repositories.

An example is one of two forms:

* A tree, when its text starts with ``model_repository/``. Each line
  ``model_repository/<path>`` (optionally followed by ``# comment``) is an empty file, or a
  folder where the path ends in ``/``; a line ``model_repository/<path>:`` is followed by that
  file's content, indented by two spaces. Blank lines may separate the entries. Any other line
  makes the example no tree.
* Otherwise one config.pbtxt, placed in ``model_repository/<name>/config.pbtxt`` where
  ``<name>`` is its top-level ``name:`` (``model`` when it has none), beside the version
  folder ``1/`` that makes it loadable: an ensemble's stays empty; any other model's holds its
  model file, empty: the config's ``default_model_filename``, else the file the backend of its
  ``platform`` or ``backend`` reads by default (``model.savedmodel`` is a folder). A config
  that names neither gets an empty ``1/``.
"""

from __future__ import annotations

import re

from case_files import Content

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

_ENTRY = re.compile(rf"{ROOT}/(?P<path>\S.*?)(?P<colon>:?)(?:\s+#.*)?")


class NotAnExample(ValueError):
    """Text that is neither a tree nor a config."""


def example_files(text: str) -> dict[str, Content]:
    """The repository ``text`` describes: paths under ``model_repository/`` and what they are."""
    if text.startswith(f"{ROOT}/"):
        return _tree(text)
    return _config(text)


def _tree(text: str) -> dict[str, Content]:
    files: dict[str, Content] = {}
    content: list[str] | None = None
    path = ""
    for line in text.split("\n"):
        if content is not None and (line.startswith("  ") or not line.strip()):
            content.append(line[2:])
            continue
        if content is not None:
            files[path] = "\n".join(content).rstrip("\n") + "\n"
            content = None
        if not line.strip():
            continue
        entry = _ENTRY.fullmatch(line.rstrip())
        if entry is None:
            raise NotAnExample(f"neither a path nor a file's content: {line!r}")
        path = f"{ROOT}/{entry['path']}"
        if entry["colon"]:
            content = []
        else:
            files[path.rstrip("/")] = None if path.endswith("/") else ""
    if content is not None:
        files[path] = "\n".join(content).rstrip("\n") + "\n"
    return files


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
