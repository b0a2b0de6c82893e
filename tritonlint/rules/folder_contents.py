"""What a folder of the repository holds when it is not laid out as a model.

tritonserver polls every folder at the repository root as a model. When one has no
config.pbtxt or no version folder, the fix depends on what it does hold: source code belongs
elsewhere, a SavedModel export goes into ``1/model.savedmodel/``, a model file goes into
``1/``, a config under another name is renamed. These helpers only look at the names the
walk listed; they never open a file.
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

from tritonlint.repository.model import Entry, ModelFolder
from tritonlint.repository.versions import numbered

CONFIG = "config.pbtxt"
SAVED_MODEL = "saved_model.pb"

_SOURCE_NAMES = frozenset(
    {
        "Dockerfile",
        "Makefile",
        "CMakeLists.txt",
        "requirements.txt",
        "setup.py",
        "pyproject.toml",
        "environment.yml",
        "docker-compose.yml",
        "docker-compose.yaml",
    }
)
_SOURCE_SUFFIXES = (".py", ".sh", ".ipynb", ".cpp", ".cc", ".h", ".go", ".rs", ".js", ".ts")
#: Files (or folders) that hold a model for one of Triton's backends.
_MODEL_SUFFIXES = (".onnx", ".plan", ".engine", ".pt", ".pth", ".graphdef", ".savedmodel")
_MODEL_NAMES = frozenset({"model.py", "model.xml", "model.dali"})
_TEMPLATE_SUFFIXES = (".template", ".tmpl", ".tpl", ".j2", ".jinja", ".jinja2", ".in")
#: Names people give a model's config that tritonserver does not read.
_CONFIG_LOOKALIKES = frozenset(
    {"config.txt", "config.pbtx", "config.pbtext", "config.prototxt", "config.pb.txt"}
)


class Kind(str, Enum):
    #: Scripts, a Dockerfile, requirements: a project folder, not a model.
    SOURCE_CODE = "source code"
    #: ``saved_model.pb`` (and ``variables/``) as TensorFlow exports them.
    SAVEDMODEL_EXPORT = "SavedModel export"
    #: A SavedModel a TensorFlow Estimator exported (``export/<exporter>/<timestamp>/``).
    ESTIMATOR_EXPORT = "Estimator export"
    #: Model files directly in the model folder, with no version folder.
    LOOSE_MODEL_FILES = "model files"


class Contents(NamedTuple):
    kind: Kind
    #: The entries that show it, as listed.
    names: tuple[str, ...]


def _files(entries: tuple[Entry, ...]) -> list[str]:
    return [e.name for e in entries if not e.is_dir and not e.name.startswith(".")]


def _model_files(entries: tuple[Entry, ...]) -> list[str]:
    return [
        e.name
        for e in entries
        if e.name in _MODEL_NAMES or e.name.lower().endswith(_MODEL_SUFFIXES)
    ]


def holds_savedmodel(entries: tuple[Entry, ...]) -> bool:
    """Whether ``entries`` are a SavedModel's own files (``saved_model.pb``), unwrapped."""
    return any(e.name == SAVED_MODEL and not e.is_dir for e in entries)


def unversioned_contents(model: ModelFolder) -> Contents | None:
    """What a model folder without any numbered version folder holds, where it says."""
    if numbered(model):
        return None
    if model.estimator_export is not None:
        return Contents(Kind.ESTIMATOR_EXPORT, (model.estimator_export,))
    if holds_savedmodel(model.entries):
        shown = [SAVED_MODEL] + (["variables/"] if model.entry("variables") else [])
        return Contents(Kind.SAVEDMODEL_EXPORT, tuple(shown))
    files = _files(model.entries)
    source = [
        name
        for name in files
        if name in _SOURCE_NAMES or (name.endswith(_SOURCE_SUFFIXES) and name != "model.py")
    ]
    if source and model.config is None:
        return Contents(Kind.SOURCE_CODE, tuple(source))
    loose = _model_files(model.entries)
    if loose:
        return Contents(Kind.LOOSE_MODEL_FILES, tuple(loose))
    return None


def not_a_model(model: ModelFolder) -> bool:
    """Whether the folder holds something other than a model (its rules defer to TL210)."""
    contents = unversioned_contents(model)
    return contents is not None and contents.kind is not Kind.LOOSE_MODEL_FILES


class ConfigLookalike(NamedTuple):
    name: str
    template: bool


def config_lookalike(model: ModelFolder) -> ConfigLookalike | None:
    """A file that is meant as the model's config but that tritonserver does not read."""
    for name in _files(model.entries):
        lowered = name.lower()
        if lowered.startswith(CONFIG + ".") and lowered.endswith(_TEMPLATE_SUFFIXES):
            return ConfigLookalike(name, template=True)
        if (
            lowered == CONFIG
            or lowered in _CONFIG_LOOKALIKES
            or lowered.startswith(CONFIG + ".")
            or lowered.endswith(".pbtxt")
        ):
            return ConfigLookalike(name, template=False)
    return None
