"""The ModelConfig schemas shipped in ``protos/``, one per Triton release."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache, lru_cache

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.descriptor import Descriptor
from google.protobuf.message import Message

from tritonlint.resources import data_path

#: The release of the tritonserver in the ``nvidia-pytriton`` wheel the test suite runs.
SERVER_RELEASE = "2.51.0"


@dataclass(frozen=True)
class Schema:
    release: str
    model_config: Descriptor
    message_class: type[Message]

    def new_config(self) -> Message:
        return self.message_class()


def _release_key(release: str) -> tuple[int, ...]:
    return tuple(int(part) for part in release.split("."))


@lru_cache(maxsize=1)
def available_releases() -> tuple[str, ...]:
    """Every release with a schema, oldest first."""
    index = json.loads((data_path("protos") / "releases.json").read_text(encoding="utf-8"))
    return tuple(sorted(index, key=_release_key))


def newest_release() -> str:
    return available_releases()[-1]


def resolve_release(requested: str | None) -> str:
    """Map ``2.51``, ``2.51.0`` or ``None`` (the newest) to a shipped release.

    Raises ``ValueError`` naming the shipped releases when there is no match.
    """
    releases = available_releases()
    if requested is None:
        return releases[-1]
    matches = [r for r in releases if r == requested or r.startswith(requested.rstrip(".") + ".")]
    if not matches:
        raise ValueError(
            f"no schema for Triton release {requested!r}; shipped releases: {', '.join(releases)}"
        )
    return matches[-1]


@cache
def load_schema(release: str | None = None) -> Schema:
    release = resolve_release(release)
    data = (data_path("protos") / release / "model_config.binpb").read_bytes()
    file_set = descriptor_pb2.FileDescriptorSet.FromString(data)
    pool = descriptor_pool.DescriptorPool()
    for file_proto in file_set.file:
        pool.Add(file_proto)
    descriptor = pool.FindMessageTypeByName("inference.ModelConfig")
    return Schema(release, descriptor, message_factory.GetMessageClass(descriptor))
