"""Which version folders tritonserver serves under a model's version policy."""

from __future__ import annotations

from typing import Any

from tritonlint.repository.model import ModelFolder, VersionFolder, VersionStatus

#: Subfolders the server reads as a version number (malformed ones included: it reads the
#: leading number of ``1.0`` as version 1).
_NUMBERED = (VersionStatus.VALID, VersionStatus.NUMERIC_PREFIX, VersionStatus.NEGATIVE)


def numbered(model: ModelFolder) -> list[VersionFolder]:
    return [v for v in model.subfolders if v.status in _NUMBERED]


def selected_versions(model: ModelFolder, config: Any | None) -> list[VersionFolder]:
    """The version folders the policy selects (default: the latest one)."""
    available = sorted(numbered(model), key=lambda v: v.number or 0, reverse=True)
    if config is None:
        return available[:1]
    policy = config.version_policy
    choice = policy.WhichOneof("policy_choice")
    if choice == "all":
        return available
    if choice == "specific":
        wanted = set(policy.specific.versions)
        return [v for v in available if v.number in wanted]
    count = policy.latest.num_versions if choice == "latest" else 1
    return available[:count]
