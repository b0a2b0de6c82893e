#!/usr/bin/env python3
"""Derive protos/ from the published ``tritonclient`` wheels.

For every release named on the command line (default: the releases listed in
``protos/releases.json``), or every published release from ``--since X`` on (as
``pip index versions tritonclient`` lists them), this script downloads ``tritonclient==X``
with pip, one at a time, into a temporary folder that is deleted right after, reads the
serialized ``FileDescriptorProto`` that ``tritonclient/grpc/model_config_pb2.py`` embeds
(found with ``ast``; the module is never imported or executed) and stores its schema.

Neighbouring releases mostly share a schema, so each distinct one is stored once, named by
the first 16 hex digits of the sha256 of its serialized ``FileDescriptorSet``:

* ``protos/schemas/<digest>.binpb`` - the serialized ``FileDescriptorSet``;
* ``protos/schemas/<digest>.proto`` - the same schema rendered as proto source, for people.

``protos/releases.json`` records, for each release, the digest of its schema, the wheel it
came from, the wheel's sha256 and, where it is established, the Triton container release it
shipped in; a schema no release names any more is deleted. A published release whose wheel
has no ModelConfig module is skipped and recorded, with the reason, in
``protos/skipped.json``. Finally ``protos/field_history.json`` is regenerated from all the
shipped schemas (see ``scripts/derive_field_table.py``), and
``tritonlint/schema/config_types.py`` from the newest (``scripts/derive_config_types.py``).
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

from google.protobuf import descriptor_pb2

# The checkout's own tritonlint, and this script's sibling.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from derive_config_types import write_types
from derive_field_table import write_table

from tritonlint.schema.releases import release_key

ROOT = Path(__file__).resolve().parents[1]
PROTOS = ROOT / "protos"
#: How many hex digits of a schema's sha256 name its files in ``protos/schemas/``.
DIGEST_LENGTH = 16
MODULE_SUFFIX = "tritonclient/grpc/model_config_pb2.py"

#: Triton's container releases are named YY.MM and came out monthly, each with the next minor
#: release: 2.19.0 shipped in 22.02 ... 2.51.0 in 24.10 ... 2.59.0 in 25.06 (NVIDIA's release
#: notes and the server's build.py confirm 2.19/22.02, 2.21/22.04, 2.22/22.05, 2.25/22.08,
#: 2.28/22.11, 2.41/23.12, 2.46/24.05, 2.51/24.10, 2.53/24.12, 2.56/25.03). There was no 25.07
#: container, so the rule stops at 2.59.0; later releases get no container name here rather
#: than a guessed one. Patch releases (2.22.3, 2.41.1, ...) are client releases of their own
#: and get none either.
CONTAINER_ANCHOR = ((2, 51, 0), (24, 10))
CONTAINER_RULE_MINORS = range(19, 60)


class NoModelConfig(Exception):
    """A published wheel without ``tritonclient/grpc/model_config_pb2.py``."""


def container_release(release: str) -> str | None:
    """The container release ``YY.MM`` that shipped Triton ``release``, where it is established."""
    parts = release_key(release)
    if len(parts) != 3 or parts[0] != 2 or parts[2] != 0 or parts[1] not in CONTAINER_RULE_MINORS:
        return None
    (_, anchor_minor, _), (year, month) = CONTAINER_ANCHOR
    months = year * 12 + (month - 1) + (parts[1] - anchor_minor)
    return f"{months // 12:02d}.{months % 12 + 1:02d}"


def published_releases(since: str) -> list[str]:
    """Every tritonclient release on the package index from ``since`` on, oldest first."""
    listing = subprocess.run(
        [sys.executable, "-m", "pip", "index", "versions", "tritonclient"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    match = re.search(r"Available versions: (.*)", listing)
    if not match:
        raise SystemExit(f"cannot read the versions pip lists:\n{listing}")
    versions = [v.strip() for v in match.group(1).split(",") if v.strip()]
    floor = release_key(since)
    return sorted((v for v in versions if release_key(v) >= floor), key=release_key)


def download_wheel(release: str, dest: Path) -> Path:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--quiet",
            "--no-deps",
            "--only-binary=:all:",
            "--dest",
            str(dest),
            f"tritonclient=={release}",
        ],
        check=True,
    )
    wheels = sorted(dest.glob(f"tritonclient-{release}-*.whl"))
    if not wheels:
        raise SystemExit(f"pip did not produce a tritonclient {release} wheel")
    return wheels[0]


def _bytes_literal(node: ast.expr) -> bytes | None:
    """``b'...'``, or ``_b('...')`` as older generated modules write it (latin-1 text)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, bytes):
        return node.value
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "_b"
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ):
        return node.args[0].value.encode("latin1")
    return None


def serialized_descriptor(module_source: str) -> bytes:
    """Return the serialized ``FileDescriptorProto`` a generated module embeds.

    Newer modules pass it to ``AddSerializedFile(b'...')``; older ones (tritonclient up to
    about 2.2x) to ``FileDescriptor(..., serialized_pb=_b('...'))``.
    """
    for node in ast.walk(ast.parse(module_source)):
        if not isinstance(node, ast.Call):
            continue
        if (
            isinstance(node.func, ast.Attribute)
            and node.func.attr == "AddSerializedFile"
            and node.args
            and (found := _bytes_literal(node.args[0])) is not None
        ):
            return found
        for keyword in node.keywords:
            if keyword.arg == "serialized_pb" and (found := _bytes_literal(keyword.value)):
                return found
    raise ValueError("no AddSerializedFile(b'...') call or serialized_pb=... argument found")


def read_descriptor(wheel: Path) -> descriptor_pb2.FileDescriptorProto:
    with zipfile.ZipFile(wheel) as archive:
        names = [n for n in archive.namelist() if n.endswith(MODULE_SUFFIX)]
        if not names:
            raise NoModelConfig(f"{wheel.name} has no {MODULE_SUFFIX}")
        source = archive.read(names[0]).decode("utf-8")
    proto = descriptor_pb2.FileDescriptorProto()
    proto.ParseFromString(serialized_descriptor(source))
    return proto


_SCALAR_NAMES = {
    value: name[len("TYPE_") :].lower()
    for name, value in descriptor_pb2.FieldDescriptorProto.Type.items()
}


def _type_name(field: descriptor_pb2.FieldDescriptorProto, package: str) -> str:
    if field.type_name:
        return field.type_name.removeprefix(f".{package}.")
    return _SCALAR_NAMES[field.type]


def _render_message(
    message: descriptor_pb2.DescriptorProto, package: str, indent: str, out: list[str]
) -> None:
    map_entries = {
        nested.name: nested for nested in message.nested_type if nested.options.map_entry
    }
    out.append(f"{indent}message {message.name} {{")
    inner = indent + "  "
    for enum in message.enum_type:
        _render_enum(enum, inner, out)
    for nested in message.nested_type:
        if not nested.options.map_entry:
            _render_message(nested, package, inner, out)
    rendered_oneofs: set[int] = set()
    for field in message.field:
        if field.HasField("oneof_index") and not field.proto3_optional:
            index = field.oneof_index
            if index in rendered_oneofs:
                continue
            rendered_oneofs.add(index)
            out.append(f"{inner}oneof {message.oneof_decl[index].name} {{")
            for member in message.field:
                if member.HasField("oneof_index") and member.oneof_index == index:
                    out.append(
                        f"{inner}  {_type_name(member, package)} {member.name} = {member.number};"
                    )
            out.append(f"{inner}}}")
            continue
        entry_name = field.type_name.rsplit(".", 1)[-1]
        if field.label == field.LABEL_REPEATED and entry_name in map_entries:
            key, value = map_entries[entry_name].field
            kind = f"map<{_type_name(key, package)}, {_type_name(value, package)}>"
            out.append(f"{inner}{kind} {field.name} = {field.number};")
            continue
        label = "repeated " if field.label == field.LABEL_REPEATED else ""
        out.append(f"{inner}{label}{_type_name(field, package)} {field.name} = {field.number};")
    out.append(f"{indent}}}")


def _render_enum(enum: descriptor_pb2.EnumDescriptorProto, indent: str, out: list[str]) -> None:
    out.append(f"{indent}enum {enum.name} {{")
    for value in enum.value:
        out.append(f"{indent}  {value.name} = {value.number};")
    out.append(f"{indent}}}")


def render_proto(proto: descriptor_pb2.FileDescriptorProto) -> str:
    """The schema as proto source; the same for every release that has it."""
    out = [
        "// Derived from the tritonclient wheels by scripts/derive_protos.py; protos/releases.json",
        "// names the releases with this schema. Do not edit.",
        f'syntax = "{proto.syntax or "proto2"}";',
        "",
        f"package {proto.package};",
        "",
    ]
    for enum in proto.enum_type:
        _render_enum(enum, "", out)
        out.append("")
    for message in proto.message_type:
        _render_message(message, proto.package, "", out)
        out.append("")
    return "\n".join(out)


def triton_release(published: str) -> str:
    """The Triton release a tritonclient version belongs to: ``2.37.0.9383150`` is 2.37.0."""
    parts = published.split(".")
    return ".".join(parts[:3]) if len(parts) == 4 else published


def store_schema(protos: Path, proto: descriptor_pb2.FileDescriptorProto) -> str:
    """Write ``protos/schemas/<digest>.binpb`` and ``.proto`` for ``proto``; return the digest.

    A schema already stored is written again with the same bytes, so a release whose schema
    an earlier one shares adds no file.
    """
    data = descriptor_pb2.FileDescriptorSet(file=[proto]).SerializeToString()
    digest = hashlib.sha256(data).hexdigest()[:DIGEST_LENGTH]
    schemas = protos / "schemas"
    schemas.mkdir(parents=True, exist_ok=True)
    (schemas / f"{digest}.binpb").write_bytes(data)
    (schemas / f"{digest}.proto").write_text(render_proto(proto), encoding="utf-8")
    return digest


def write_index(protos: Path, index: dict[str, dict[str, str]], skipped: dict[str, str]) -> None:
    """Write ``releases.json`` (and ``skipped.json``, when something was skipped), delete the
    schemas no release names and regenerate ``field_history.json``."""
    _write_json(protos / "releases.json", index)
    if skipped:
        _write_json(protos / "skipped.json", skipped)
    named = {entry["schema"] for entry in index.values()}
    for path in sorted((protos / "schemas").iterdir()):
        if path.stem not in named:
            path.unlink()
    write_table(protos)


def derive(protos: Path, published: str) -> tuple[str, dict[str, str]]:
    """Store the schema of ``tritonclient==published``; return its release and index entry.

    The wheel is downloaded into a temporary folder that is deleted before this returns.
    """
    release = triton_release(published)
    with tempfile.TemporaryDirectory(prefix="tritonclient-") as tmp:
        wheel = download_wheel(published, Path(tmp))
        proto = read_descriptor(wheel)
        entry = {
            "schema": store_schema(protos, proto),
            "wheel": wheel.name,
            "sha256": hashlib.sha256(wheel.read_bytes()).hexdigest(),
        }
    if published != release:
        entry["tritonclient"] = published
    container = container_release(release)
    if container:
        entry["container"] = container
    return release, entry


def _write_json(path: Path, data: dict[str, dict[str, str]] | dict[str, str]) -> None:
    ordered = dict(sorted(data.items(), key=lambda item: release_key(item[0])))
    path.write_text(json.dumps(ordered, indent=2) + "\n", encoding="utf-8")


def _read_json(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "releases", nargs="*", help="tritonclient versions (Triton releases), e.g. 2.51.0"
    )
    parser.add_argument(
        "--since",
        metavar="X.Y.Z",
        help="also derive every tritonclient release on the package index from this one on",
    )
    args = parser.parse_args()
    index: dict[str, dict[str, str]] = _read_json(PROTOS / "releases.json")
    skipped: dict[str, str] = _read_json(PROTOS / "skipped.json")
    wanted = list(args.releases)
    if args.since:
        wanted += [v for v in published_releases(args.since) if v not in wanted]
    if not wanted:
        wanted = [entry.get("tritonclient", r) for r, entry in index.items()]
    if not wanted:
        parser.error("name at least one release, or --since")
    for published in sorted(wanted, key=release_key):  # one download at a time
        release = triton_release(published)
        if release != published and release in wanted:
            skipped[published] = f"a build of {release}, which is published as such"
            print(f"skipped {published}: {skipped[published]}")
            continue
        try:
            release, index[release] = derive(PROTOS, published)
        except NoModelConfig as reason:
            skipped[published] = str(reason)
            print(f"skipped {published}: {reason}")
            continue
        skipped.pop(published, None)
        print(f"{release}: schema {index[release]['schema']} from {index[release]['wheel']}")
    write_index(PROTOS, index, skipped)
    write_types(PROTOS)
    schemas = len({entry["schema"] for entry in index.values()})
    print(
        f"protos/: {len(index)} releases, {schemas} schemas; field_history.json and "
        "config_types.py regenerated"
    )


if __name__ == "__main__":
    main()
