"""Which Triton releases have which ModelConfig fields and enum values.

``protos/field_history.json`` (derived from the shipped schemas by
``scripts/derive_field_table.py``) records, for every message field and enum value of any
shipped release, the first release that has it and, when it went away, the first release
without it. The binder asks here when a name is unknown to the release a repository targets,
so that the finding can say the name belongs to another release rather than suggest a typo.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import NamedTuple

from google.protobuf.descriptor import Descriptor, EnumDescriptor

from tritonlint.resources import data_path
from tritonlint.schema.releases import release_key, release_of


class History(NamedTuple):
    """When one field or enum value was present: ``(added, removed or None)`` runs, in order."""

    spans: tuple[tuple[str, str | None], ...]

    @property
    def added(self) -> str:
        return self.spans[0][0]

    @property
    def removed(self) -> str | None:
        return self.spans[-1][1]

    def present_in(self, release: str) -> bool:
        at = release_key(release)
        return any(
            release_key(start) <= at and (end is None or at < release_key(end))
            for start, end in self.spans
        )

    def change_for(self, release: str) -> str | None:
        """How the name stands relative to ``release``, where it is absent: ``was added in
        Triton 2.52.0``, ``was removed in Triton 2.60.0``, or both for a name that came back."""
        if self.present_in(release):
            return None
        at = release_key(release)
        before = [end for _, end in self.spans if end is not None and release_key(end) <= at]
        after = [start for start, _ in self.spans if release_key(start) > at]
        if before and after:
            return f"was removed in Triton {before[-1]} and added back in Triton {after[0]}"
        if after:
            return f"was added in Triton {after[0]}"
        if before:
            return f"was removed in Triton {before[-1]}"
        return None


class FieldTable(NamedTuple):
    releases: tuple[str, ...]
    fields: dict[str, History]
    enum_values: dict[str, History]


def _histories(entries: dict[str, dict[str, object]]) -> dict[str, History]:
    table = {}
    for name, entry in entries.items():
        spans = entry.get("spans")
        if isinstance(spans, list):
            runs = tuple((str(start), None if end is None else str(end)) for start, end in spans)
        else:
            removed = entry.get("removed")
            runs = ((str(entry["added"]), None if removed is None else str(removed)),)
        table[name] = History(runs)
    return table


@lru_cache(maxsize=1)
def field_table() -> FieldTable:
    """``protos/field_history.json``, loaded once."""
    data = json.loads((data_path("protos") / "field_history.json").read_text(encoding="utf-8"))
    return FieldTable(
        tuple(data["releases"]),
        _histories(data["fields"]),
        _histories(data["enum_values"]),
    )


def field_history(path: str) -> History | None:
    """The history of a field, by path: ``inference.ModelConfig.model_metrics``."""
    return field_table().fields.get(path)


def enum_value_history(path: str) -> History | None:
    """The history of an enum value, by path: ``inference.DataType.TYPE_BF16``."""
    return field_table().enum_values.get(path)


def unknown_field_note(message: Descriptor, name: str) -> str | None:
    """Why ``name`` is not a field of ``message`` when another release has it, else None.

    ``field "model_metrics" of inference.ModelConfig was added in Triton 2.52.0; this
    repository targets 2.51.0``
    """
    release = release_of(message)
    history = field_history(f"{message.full_name}.{name}")
    change = history.change_for(release) if history and release else None
    if change is None:
        return None
    return f'field "{name}" of {message.full_name} {change}; this repository targets {release}'


def unknown_enum_value_note(enum: EnumDescriptor, name: str, field: str) -> str | None:
    """Why ``name`` is not a value of ``enum`` (the type of ``field``) when another release
    has it, else None.

    ``TYPE_BF16 of inference.DataType (field 'data_type') was added in Triton 2.22.0; this
    repository targets 2.21.0``
    """
    release = release_of(enum)
    history = enum_value_history(f"{enum.full_name}.{name}")
    change = history.change_for(release) if history and release else None
    if change is None:
        return None
    return (
        f"{name} of {enum.full_name} (field '{field}') {change}; this repository targets {release}"
    )
