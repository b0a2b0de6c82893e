"""The typed picture of a model repository on disk."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import NamedTuple

from tritonlint.document import ConfigDocument
from tritonlint.repository.graph import DependencyGraph, ModelEdges, edges_of
from tritonlint.repository.source import read_source
from tritonlint.stage_rules import StageRule

#: Subfolders of a model folder that Triton never reads as versions.
RESERVED_FOLDERS = frozenset({"warmup", "initial_state", "configs"})

#: The longest name of one file or folder that file systems allow, in bytes.
NAME_MAX = 255

_INT64_MAX = 2**63 - 1
# What std::stoll accepts as a prefix: optional spaces, an optional sign, then digits.
_STOLL_PREFIX = re.compile(r"[ \t\n\v\f\r]*([+-]?[0-9]+)")


class VersionStatus(str, Enum):
    VALID = "valid"
    #: ``warmup``, ``initial_state``, ``configs``: data folders, skipped silently.
    RESERVED = "reserved"
    #: ``01``: ignored by the server, with a warning.
    LEADING_ZERO = "leading zero"
    #: ``v1``, ``latest``, ``.ipynb_checkpoints``: ignored by the server, with a warning.
    NOT_A_NUMBER = "not a number"
    #: ``1.0``, ``2_old``, ``+3``: the server reads the leading number and then looks for the
    #: model files under the plain number, where they are not.
    NUMERIC_PREFIX = "numeric prefix"
    NEGATIVE = "negative"
    #: Beyond int64: the server cannot represent it.
    TOO_LARGE = "too large"


def classify_version(name: str) -> tuple[VersionStatus, int | None]:
    """How tritonserver reads a subfolder name of a model folder."""
    if name in RESERVED_FOLDERS:
        return VersionStatus.RESERVED, None
    if len(name) > 1 and name.startswith("0"):
        return VersionStatus.LEADING_ZERO, None
    prefix = _STOLL_PREFIX.match(name)
    if prefix is None:
        return VersionStatus.NOT_A_NUMBER, None
    number = int(prefix.group(1))
    if abs(number) > _INT64_MAX:
        return VersionStatus.TOO_LARGE, None
    if number < 0:
        return VersionStatus.NEGATIVE, number
    if prefix.group(0) != name or not name[0].isdigit():
        return VersionStatus.NUMERIC_PREFIX, number
    return VersionStatus.VALID, number


class Entry(NamedTuple):
    """A file or folder inside a model or version folder."""

    name: str
    is_dir: bool
    size: int | None = None


class VersionFolder(NamedTuple):
    name: str
    path: Path
    status: VersionStatus
    number: int | None
    entries: tuple[Entry, ...] = ()

    def entry(self, name: str) -> Entry | None:
        return next((e for e in self.entries if e.name == name), None)


def path_problem(relative: str) -> str | None:
    """Why ``relative``, a '/'-separated path a config names, cannot name a file (or None).

    The server joins such paths to a folder as they are, so '/' separates folders; no part
    may hold a NUL byte or be longer than a file system allows.
    """
    if not relative:
        return "it is empty"
    if "\0" in relative:
        return "it holds a NUL byte"
    for part in relative.split("/"):
        if len(os.fsencode(part)) > NAME_MAX:
            shown = part if len(part) <= 20 else part[:20] + "..."
            return f"'{shown}' is longer than the {NAME_MAX} bytes a file name may have"
    return None


class Unlisted(Enum):
    """A path deeper than the walker lists, or outside the folder: whether it exists is unknown."""

    UNLISTED = "unlisted"


#: Reads a model's config.pbtxt (from disk, or an editor's unsaved text) when first needed.
ConfigLoader = Callable[[], ConfigDocument]


@dataclass(eq=False, slots=True)
class ModelFolder:
    name: str
    path: Path
    #: Every entry of the model folder itself.
    entries: tuple[Entry, ...] = ()
    #: Every subfolder, in the byte order tritonserver sorts them (reserved ones included).
    subfolders: tuple[VersionFolder, ...] = ()
    #: How to read the config; None when the folder has no config.pbtxt.
    loader: ConfigLoader | None = None
    #: The config file this is the model of, relative to the folder: ``config.pbtxt``, or
    #: ``configs/NAME.pbtxt`` for the model as ``tritonserver --model-config-name NAME``
    #: loads it.
    config_file: str = "config.pbtxt"
    #: The model with each of its alternative configs (``configs/*.pbtxt``), in byte order.
    alternatives: tuple[ModelFolder, ...] = ()
    #: In a folder without config.pbtxt, the SavedModel a TensorFlow Estimator exported
    #: there (``export/<exporter>/<timestamp>``, the folder holding ``saved_model.pb``).
    estimator_export: str | None = None
    _config: ConfigDocument | None = field(default=None, repr=False)
    #: The sources read so far, by path in the folder (see :meth:`source`).
    _sources: dict[str, str | None] = field(default_factory=dict, init=False, repr=False)

    @property
    def config(self) -> ConfigDocument | None:
        """The parsed config.pbtxt, read on first use (None when there is none)."""
        if self._config is None and self.loader is not None:
            self._config = self.loader()
        return self._config

    @property
    def config_path(self) -> Path:
        return self.path / self.config_file

    @property
    def versions(self) -> tuple[VersionFolder, ...]:
        """The subfolders tritonserver serves as versions."""
        return tuple(v for v in self.subfolders if v.status is VersionStatus.VALID)

    def version(self, number: int) -> VersionFolder | None:
        return next((v for v in self.versions if v.number == number), None)

    @property
    def version_paths(self) -> dict[int, Path]:
        """Version number -> the folder the server reads that version's files from.

        The server reads a version from every subfolder whose name starts with a number, and
        then looks for its files under the plain number: ``1.0`` is version 1, read from ``1``.
        """
        return {
            v.number: self.path / str(v.number) for v in self.subfolders if v.number is not None
        }

    def entry(self, name: str) -> Entry | None:
        return next((e for e in self.entries if e.name == name), None)

    def find(self, relative: str) -> Entry | Unlisted | None:
        """What the walk listed at ``relative``, a '/'-separated path in the model folder.

        None when the listing shows nothing there; ``Unlisted.UNLISTED`` when the path goes
        below a subfolder's entries or up out of the folder (``..``), where the walk does
        not look. Never touches the disk: the name may be anything a config holds.
        """
        parts = [part for part in relative.split("/") if part not in ("", ".")]
        if ".." in parts:
            return Unlisted.UNLISTED
        if not parts:
            return Entry(self.name, is_dir=True)
        entry = self.entry(parts[0])
        if len(parts) == 1 or entry is None or not entry.is_dir:
            return entry if len(parts) == 1 else None
        folder = next(v for v in self.subfolders if v.name == parts[0])
        inner = folder.entry(parts[1])
        if len(parts) == 2 or inner is None or not inner.is_dir:
            return inner if len(parts) == 2 else None
        return Unlisted.UNLISTED

    def find_file(self, relative: str) -> Entry | Unlisted | None:
        """:meth:`find`, where a folder counts as no file."""
        found = self.find(relative)
        return None if isinstance(found, Entry) and found.is_dir else found

    def source(self, relative: str) -> str | None:
        """The text of the file the walk listed at ``relative``, a '/'-separated path in the
        model folder (such as ``1/model.py``), read when first asked for.

        None where the listing shows no file there (or the path goes where the walk does not
        look), and where the file cannot be read as text (see :func:`read_source`).
        """
        if relative not in self._sources:
            listed = isinstance(self.find_file(relative), Entry)
            self._sources[relative] = read_source(self.path / relative) if listed else None
        return self._sources[relative]


class WalkProblem(NamedTuple):
    """Something on disk that could not be read as part of a repository."""

    rule: StageRule
    message: str
    path: Path


@dataclass(eq=False)
class Repository:
    #: The folder whose subfolders are models; None for loose config files.
    root: Path | None
    #: Every model, by name (the folder's name), in byte order of the names.
    by_name: dict[str, ModelFolder] = field(default_factory=dict)
    #: Folders at the root that tritonserver would also poll as models but that are hidden.
    hidden_folders: list[Path] = field(default_factory=list)
    problems: list[WalkProblem] = field(default_factory=list)
    #: Models the user asked about; the others are only context (e.g. for ensembles).
    targets: set[Path] = field(default_factory=set)
    #: True when the whole repository was asked for, not some of its models.
    whole: bool = False
    #: Names of every folder at the root, models or not (an ensemble may name any of them).
    folder_names: frozenset[str] = frozenset()
    #: Which model uses which (ensemble steps, shared rate-limiter resources).
    graph: DependencyGraph = field(init=False)

    def __post_init__(self) -> None:
        self.graph = DependencyGraph(self._edges_of)

    def _edges_of(self, name: str) -> ModelEdges | None:
        model = self.by_name.get(name)
        return edges_of(model) if model is not None else None

    @property
    def models(self) -> list[ModelFolder]:
        return list(self.by_name.values())

    def model(self, name: str) -> ModelFolder | None:
        return self.by_name.get(name)

    def is_target(self, model: ModelFolder) -> bool:
        return model.path in self.targets

    def target_models(self) -> Iterator[ModelFolder]:
        return (m for m in self.by_name.values() if m.path in self.targets)
