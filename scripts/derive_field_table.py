#!/usr/bin/env python3
"""Derive ``protos/field_history.json`` from the shipped ModelConfig schemas.

For every message field (``inference.ModelConfig.model_metrics``) and every enum value
(``inference.DataType.TYPE_BF16``) of any shipped release, the table records the first shipped
release that has it (``added``) and, when it is gone from a later one, the first release
without it (``removed``). A name that came and went more than once has its whole story in
``spans``: ``[[added, removed or null], ...]``. ``releases`` lists the releases the table was
derived from, oldest first; a name present in the oldest of them has that release as
``added`` (it may be older still). Nothing here downloads anything: run it after
``scripts/derive_protos.py`` (which calls it) or after editing ``protos/`` by hand.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

from google.protobuf import descriptor_pb2

# The checkout's own tritonlint, whichever one is installed.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tritonlint.schema.releases import release_key

ROOT = Path(__file__).resolve().parents[1]
PROTOS = ROOT / "protos"


def _enum_names(enum: descriptor_pb2.EnumDescriptorProto, scope: str) -> Iterator[str]:
    for value in enum.value:
        yield f"{scope}.{enum.name}.{value.name}"


def _message_names(
    message: descriptor_pb2.DescriptorProto, scope: str
) -> Iterator[tuple[str, str]]:
    """``("fields", path)`` and ``("enum_values", path)`` of a message and its nested types."""
    full_name = f"{scope}.{message.name}"
    for field in message.field:
        yield "fields", f"{full_name}.{field.name}"
    for enum in message.enum_type:
        for name in _enum_names(enum, full_name):
            yield "enum_values", name
    for nested in message.nested_type:
        yield from _message_names(nested, full_name)


def schema_names(binpb: bytes) -> dict[str, set[str]]:
    """The field paths and enum value paths of one serialized ``FileDescriptorSet``."""
    names: dict[str, set[str]] = {"fields": set(), "enum_values": set()}
    file_set = descriptor_pb2.FileDescriptorSet.FromString(binpb)
    for file_proto in file_set.file:
        package = file_proto.package
        for enum in file_proto.enum_type:
            names["enum_values"].update(_enum_names(enum, package))
        for message in file_proto.message_type:
            for kind, name in _message_names(message, package):
                names[kind].add(name)
    return names


def _spans(present: list[bool], releases: list[str]) -> list[list[str | None]]:
    spans: list[list[str | None]] = []
    for index, here in enumerate(present):
        before = present[index - 1] if index else False
        if here and not before:
            spans.append([releases[index], None])
        elif before and not here:
            spans[-1][1] = releases[index]
    return spans


def build_table(protos: Path = PROTOS) -> dict[str, object]:
    index = json.loads((protos / "releases.json").read_text(encoding="utf-8"))
    releases = sorted(index, key=release_key)
    per_release = [
        schema_names((protos / "schemas" / f"{index[release]['schema']}.binpb").read_bytes())
        for release in releases
    ]
    table: dict[str, object] = {"releases": releases}
    for kind in ("fields", "enum_values"):
        every = sorted(set().union(*(names[kind] for names in per_release)))
        entries: dict[str, dict[str, object]] = {}
        for name in every:
            spans = _spans([name in names[kind] for names in per_release], releases)
            entry: dict[str, object] = {"added": spans[0][0]}
            if spans[-1][1] is not None:
                entry["removed"] = spans[-1][1]
            if len(spans) > 1:
                entry["spans"] = spans
            entries[name] = entry
        table[kind] = entries
    return table


def write_table(protos: Path = PROTOS) -> Path:
    path = protos / "field_history.json"
    path.write_text(json.dumps(build_table(protos), indent=1) + "\n", encoding="utf-8")
    return path


def main() -> None:
    path = write_table()
    print(f"{path.relative_to(ROOT)}: {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
