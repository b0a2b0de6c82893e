"""The ModelConfig schemas shipped in ``protos/``, one per Triton release.

Many releases share a schema, so each distinct one is stored once, named for its content:
``protos/schemas/<digest>.binpb``. ``protos/releases.json`` maps every release to the digest
of its schema (and records the wheel it came from). Naming and resolving releases reads only
that index; protobuf is imported when the first schema is loaded, and a run loads only the
schemas it uses.
"""

from __future__ import annotations

import json
import re
from functools import cache, lru_cache
from typing import TYPE_CHECKING, NamedTuple

from tritonlint.resources import data_path

if TYPE_CHECKING:
    from google.protobuf.descriptor import Descriptor, EnumDescriptor
    from google.protobuf.message import Message

#: The release of the tritonserver in the ``nvidia-pytriton`` wheel the test suite runs.
SERVER_RELEASE = "2.51.0"


class Schema(NamedTuple):
    release: str
    model_config: Descriptor
    message_class: type[Message]

    def new_config(self) -> Message:
        return self.message_class()


def release_key(release: str) -> tuple[int, ...]:
    """The sort key of a release or a tritonclient version: ``2.37.0.9383150`` is
    ``(2, 37, 0, 9383150)``. Raises ``ValueError`` for a part that is not a number."""
    return tuple(int(part) for part in release.split("."))


@lru_cache(maxsize=1)
def _index() -> dict[str, dict[str, str]]:
    """``protos/releases.json``: for each release, its schema's digest, its wheel, the wheel's
    sha256 and its container release."""
    index: dict[str, dict[str, str]] = json.loads(
        (data_path("protos") / "releases.json").read_text(encoding="utf-8")
    )
    return index


@lru_cache(maxsize=1)
def available_releases() -> tuple[str, ...]:
    """Every release with a schema, oldest first."""
    return tuple(sorted(_index(), key=release_key))


def container_release(release: str) -> str | None:
    """The Triton container release (``24.10``) that shipped ``release``, where it is known."""
    return _index().get(release, {}).get("container")


@lru_cache(maxsize=1)
def _by_container() -> dict[str, str]:
    return {
        container: release
        for release in available_releases()
        if (container := container_release(release)) is not None
    }


def covered_releases() -> str:
    """The shipped releases in a few words, for help texts and errors.

    ``Triton 2.19.0 to 2.73.0 (every minor release but 2.72; also 2.22.3, 2.22.4, 2.41.1),
    containers 22.02 to 25.06``
    """
    releases = available_releases()
    first, last = releases[0], releases[-1]
    minors = {release_key(r)[:2] for r in releases}
    major = release_key(first)[0]
    missing = [
        f"{major}.{minor}"
        for minor in range(release_key(first)[1], release_key(last)[1] + 1)
        if (major, minor) not in minors
    ]
    patches = [r for r in releases if release_key(r)[2:] != (0,)]
    notes = ["every minor release" + (f" but {', '.join(missing)}" if missing else "")]
    if patches:
        notes.append(f"also {', '.join(patches)}")
    text = f"Triton {first} to {last} ({'; '.join(notes)})"
    containers = sorted(_by_container(), key=release_key)
    if containers:
        text += f", containers {containers[0]} to {containers[-1]}"
    return text


_CONTAINER = re.compile(r"(\d{2})\.(\d{2})")


def resolve_release(requested: str | None) -> str:
    """Map ``2.51``, ``2.51.0``, a container release (``24.10``) or ``None`` (the newest) to a
    shipped release.

    Raises ``ValueError`` naming the covered releases when there is no match.
    """
    releases = available_releases()
    if requested is None:
        return releases[-1]
    wanted = requested.strip().removeprefix("v").rstrip(".")
    if _CONTAINER.fullmatch(wanted) and wanted in _by_container():
        return _by_container()[wanted]
    by_wheel = [r for r in releases if _index()[r].get("tritonclient") == wanted]
    matches = by_wheel or [r for r in releases if r == wanted or r.startswith(wanted + ".")]
    if wanted and matches:
        return matches[-1]
    example = SERVER_RELEASE if SERVER_RELEASE in releases else releases[-1]
    forms = f"{example.rsplit('.', 1)[0]} or {example}"
    if container_release(example):
        forms += f", or a container release such as {container_release(example)}"
    reason = ""
    if _CONTAINER.fullmatch(wanted) and int(wanted.split(".")[0]) >= 20:
        reason = " (no shipped release is known to have come in that container)"
    elif re.fullmatch(r"\d+(\.\d+)*", wanted):
        if release_key(wanted) < release_key(releases[0]):
            reason = " (older than the oldest release covered)"
        elif release_key(wanted) > release_key(releases[-1]):
            reason = " (newer than the newest release covered)"
    raise ValueError(
        f"no schema for Triton release {requested!r}{reason}; covered: {covered_releases()}; "
        f"name a release as {forms}"
    )


#: Every schema loaded so far, by release.
_LOADED: dict[str, Schema] = {}


def release_of(descriptor: Descriptor | EnumDescriptor) -> str | None:
    """The release whose schema ``descriptor`` (any message or enum type of it) came from."""
    pool = descriptor.file.pool
    for release, schema in _LOADED.items():
        if schema.model_config.file.pool is pool:
            return release
    return None


def load_schema(release: str | None = None) -> Schema:
    """The schema of a release (any form ``resolve_release`` takes; None: the newest).

    Every form of a release gives the same ``Schema``, with one descriptor pool.
    """
    return _load(resolve_release(release))


def _file_descriptors(file_set: bytes) -> list[bytes]:
    """The serialized files of a serialized ``FileDescriptorSet``.

    The set is one repeated field, ``file = 1``, so it is split by hand: parsing it with
    ``descriptor_pb2`` would import that module, a sixth of a one-file run's start-up.
    """
    files = []
    position = 0
    while position < len(file_set):
        if file_set[position] != 0x0A:  # field 1, length-delimited
            raise ValueError(f"not a FileDescriptorSet (byte {position})")
        length, shift, position = 0, 0, position + 1
        while True:
            byte = file_set[position]
            length |= (byte & 0x7F) << shift
            position, shift = position + 1, shift + 7
            if byte < 0x80:
                break
        files.append(file_set[position : position + length])
        position += length
    return files


@cache
def _load(release: str) -> Schema:
    from google.protobuf import descriptor_pool, message_factory

    digest = _index()[release]["schema"]
    data = (data_path("protos") / "schemas" / f"{digest}.binpb").read_bytes()
    pool = descriptor_pool.DescriptorPool()
    for file_proto in _file_descriptors(data):
        pool.AddSerializedFile(file_proto)
    descriptor = pool.FindMessageTypeByName("inference.ModelConfig")
    schema = Schema(release, descriptor, message_factory.GetMessageClass(descriptor))
    _LOADED[release] = schema
    return schema
