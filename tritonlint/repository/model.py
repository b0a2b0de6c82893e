"""The typed picture of a model repository on disk."""

from __future__ import annotations

import re
from enum import Enum
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from tritonlint.document import ConfigDocument

#: Subfolders of a model folder that Triton never reads as versions.
RESERVED_FOLDERS = frozenset({"warmup", "initial_state", "configs"})

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


class Entry(BaseModel):
    """A file or folder inside a model or version folder."""

    model_config = ConfigDict(frozen=True)

    name: str
    is_dir: bool
    size: int | None = None


class VersionFolder(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    path: Path
    status: VersionStatus
    number: int | None
    entries: tuple[Entry, ...] = ()

    def entry(self, name: str) -> Entry | None:
        return next((e for e in self.entries if e.name == name), None)


class ModelFolder(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    name: str
    path: Path
    #: Every entry of the model folder itself.
    entries: tuple[Entry, ...] = ()
    #: Every subfolder, in the byte order tritonserver sorts them (reserved ones included).
    subfolders: tuple[VersionFolder, ...] = ()
    config: ConfigDocument | None = None

    @property
    def config_path(self) -> Path:
        return self.path / "config.pbtxt"

    @property
    def versions(self) -> tuple[VersionFolder, ...]:
        """The subfolders tritonserver serves as versions."""
        return tuple(v for v in self.subfolders if v.status is VersionStatus.VALID)

    def version(self, number: int) -> VersionFolder | None:
        return next((v for v in self.versions if v.number == number), None)

    def entry(self, name: str) -> Entry | None:
        return next((e for e in self.entries if e.name == name), None)


class WalkProblem(BaseModel):
    """Something on disk that could not be read as part of a repository."""

    model_config = ConfigDict(frozen=True)

    rule: str
    message: str
    path: Path


class Repository(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    #: The folder whose subfolders are models; None for loose config files.
    root: Path | None
    models: list[ModelFolder] = []
    #: Folders at the root that tritonserver would also poll as models but that are hidden.
    hidden_folders: list[Path] = []
    problems: list[WalkProblem] = []
    #: Models the user asked about; the others are only context (e.g. for ensembles).
    targets: set[Path] = set()
    #: True when the whole repository was asked for, not some of its models.
    whole: bool = False

    def model(self, name: str) -> ModelFolder | None:
        return next((m for m in self.models if m.name == name), None)

    def is_target(self, model: ModelFolder) -> bool:
        return model.path in self.targets
