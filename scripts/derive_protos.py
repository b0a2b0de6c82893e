#!/usr/bin/env python3
"""Derive protos/ from the published ``tritonclient`` wheels.

For every release named on the command line (default: the releases listed in
``protos/releases.json``) this script downloads ``tritonclient==X`` with pip,
reads the serialized ``FileDescriptorProto`` that ``tritonclient/grpc/model_config_pb2.py``
embeds (found with ``ast``; the module is never imported or executed) and writes:

* ``protos/<release>/model_config.binpb`` - a serialized ``FileDescriptorSet``;
* ``protos/<release>/model_config.proto`` - the same schema rendered as proto source, for people.

``protos/releases.json`` records, for each release, the wheel it came from and its sha256.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from google.protobuf import descriptor_pb2

ROOT = Path(__file__).resolve().parents[1]
PROTOS = ROOT / "protos"
MODULE_SUFFIX = "tritonclient/grpc/model_config_pb2.py"


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


def serialized_descriptor(module_source: str) -> bytes:
    """Return the bytes literal passed to ``AddSerializedFile`` in a generated module."""
    for node in ast.walk(ast.parse(module_source)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "AddSerializedFile"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, bytes)
        ):
            return node.args[0].value
    raise ValueError("no AddSerializedFile(b'...') call found")


def read_descriptor(wheel: Path) -> descriptor_pb2.FileDescriptorProto:
    with zipfile.ZipFile(wheel) as archive:
        names = [n for n in archive.namelist() if n.endswith(MODULE_SUFFIX)]
        if not names:
            raise SystemExit(f"{wheel.name} has no {MODULE_SUFFIX}")
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


def render_proto(proto: descriptor_pb2.FileDescriptorProto, release: str) -> str:
    out = [
        f"// Derived from tritonclient {release} by scripts/derive_protos.py. Do not edit.",
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


def derive(release: str, workdir: Path) -> dict[str, str]:
    wheel = download_wheel(release, workdir)
    proto = read_descriptor(wheel)
    target = PROTOS / release
    target.mkdir(parents=True, exist_ok=True)
    file_set = descriptor_pb2.FileDescriptorSet(file=[proto])
    (target / "model_config.binpb").write_bytes(file_set.SerializeToString())
    (target / "model_config.proto").write_text(render_proto(proto, release), encoding="utf-8")
    return {
        "wheel": wheel.name,
        "sha256": hashlib.sha256(wheel.read_bytes()).hexdigest(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("releases", nargs="*", help="tritonclient / Triton releases, e.g. 2.51.0")
    args = parser.parse_args()
    index_path = PROTOS / "releases.json"
    index: dict[str, dict[str, str]] = (
        json.loads(index_path.read_text()) if index_path.exists() else {}
    )
    releases = args.releases or sorted(index)
    if not releases:
        parser.error("name at least one release")
    with tempfile.TemporaryDirectory() as tmp:
        for release in releases:
            index[release] = derive(release, Path(tmp))
            print(f"protos/{release}: {index[release]['wheel']}")
    ordered = dict(sorted(index.items(), key=lambda item: tuple(map(int, item[0].split(".")))))
    index_path.write_text(json.dumps(ordered, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
