"""Triton releases: resolving ``--triton-version``, the shipped schemas, the field history."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from google.protobuf import descriptor_pb2
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from helpers import lint, make_tree, with_code

from tritonlint.diagnostics import Diagnostic
from tritonlint.resources import data_path
from tritonlint.schema.history import History, field_history, field_table
from tritonlint.schema.releases import (
    available_releases,
    container_release,
    covered_releases,
    load_schema,
    release_of,
    resolve_release,
)

PROTOS = data_path("protos")
SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
#: For each release, the sha256 of its serialized ``FileDescriptorSet`` as loaded when every
#: release had a folder of its own (``protos/<release>/model_config.binpb``), taken from that
#: layout before the schemas were stored once each.
DIGESTS = Path(__file__).resolve().parents[1] / "data" / "release_schema_digests.json"
OLDEST, NEWEST = available_releases()[0], available_releases()[-1]


def _script(name: str) -> ModuleType:
    """A module of ``scripts/`` (they are not a package; derive_protos imports its sibling)."""
    sys.path.insert(0, str(SCRIPTS))
    try:
        spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(SCRIPTS))


# --- What is shipped ----------------------------------------------------------------------------


def test_every_release_from_2_19_to_the_newest_is_shipped() -> None:
    releases = available_releases()
    assert (OLDEST, NEWEST) == ("2.19.0", "2.73.0")
    minors = {tuple(map(int, r.split(".")))[1] for r in releases}
    # 2.72 was never published as a tritonclient wheel.
    assert sorted(set(range(19, 74)) - minors) == [72]
    assert {"2.22.3", "2.22.4", "2.37.0", "2.41.1", "2.51.0"} <= set(releases)


def test_each_distinct_schema_is_stored_once_named_by_its_digest() -> None:
    index = json.loads((PROTOS / "releases.json").read_text(encoding="utf-8"))
    named = {entry["schema"] for entry in index.values()}
    assert len(index) == 57 and len(named) == 12
    assert sorted(p.name for p in PROTOS.iterdir()) == [
        "field_history.json",
        "releases.json",
        "schemas",
    ]
    stored = sorted(p.name for p in (PROTOS / "schemas").iterdir())
    assert stored == sorted(f"{digest}.{kind}" for digest in named for kind in ("binpb", "proto"))
    for digest in named:
        binpb = (PROTOS / "schemas" / f"{digest}.binpb").read_bytes()
        assert hashlib.sha256(binpb).hexdigest().startswith(digest)
        assert len(binpb) < 12_000
        assert (PROTOS / "schemas" / f"{digest}.proto").stat().st_size < 12_000
    # Neighbouring releases share a schema: 2.19.0 and 2.20.0 differ, 2.73.0 is 2.70.0's.
    assert index["2.19.0"]["schema"] != index["2.20.0"]["schema"]
    assert index["2.70.0"]["schema"] == index["2.73.0"]["schema"]


def test_the_odd_2_37_wheel_is_shipped_as_release_2_37_0() -> None:
    index = json.loads((PROTOS / "releases.json").read_text(encoding="utf-8"))
    assert index["2.37.0"]["tritonclient"] == "2.37.0.9383150"
    assert index["2.37.0"]["wheel"].startswith("tritonclient-2.37.0.9383150-")
    assert all(len(entry["sha256"]) == 64 for entry in index.values())


@pytest.mark.parametrize("release", available_releases())
def test_every_schema_loads_and_knows_its_release(release: str) -> None:
    schema = load_schema(release)
    assert schema.release == release
    assert release_of(schema.model_config) == release
    nested = schema.model_config.fields_by_name["input"].message_type
    assert nested is not None and release_of(nested) == release
    assert schema.model_config.fields_by_name["max_batch_size"].number == 4


def test_every_release_loads_the_schema_it_had_in_the_per_release_layout() -> None:
    expected = json.loads(DIGESTS.read_text(encoding="utf-8"))
    assert tuple(expected) == available_releases()
    for release, digest in expected.items():
        file_proto = descriptor_pb2.FileDescriptorProto()
        load_schema(release).model_config.file.CopyToProto(file_proto)
        loaded = descriptor_pb2.FileDescriptorSet(file=[file_proto]).SerializeToString()
        assert hashlib.sha256(loaded).hexdigest() == digest, release


def test_container_releases_follow_the_monthly_rule_where_recorded() -> None:
    assert container_release("2.51.0") == "24.10"
    assert container_release("2.19.0") == "22.02"
    assert container_release("2.37.0") == "23.08"
    assert container_release("2.59.0") == "25.06"
    # No 25.07 container was released: from 2.60 on the rule is not known to hold.
    assert container_release("2.60.0") is None
    assert container_release(NEWEST) is None
    assert container_release("2.22.3") is None  # a patch release of its own
    recorded = {r: c for r in available_releases() if (c := container_release(r))}
    assert len(set(recorded.values())) == len(recorded)
    for release, container in recorded.items():
        minor = int(release.split(".")[1])
        year, month = map(int, container.split("."))
        assert (year * 12 + month) - minor == 24 * 12 + 10 - 51


# --- Resolving --triton-version ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("requested", "release"),
    [
        ("2.51", "2.51.0"),
        ("2.51.0", "2.51.0"),
        ("24.10", "2.51.0"),
        ("22.02", "2.19.0"),
        ("23.08", "2.37.0"),
        ("v2.51", "2.51.0"),
        ("2.22", "2.22.4"),  # the newest patch release
        ("2.22.0", "2.22.0"),
        ("2.37", "2.37.0"),
        ("2.37.0.9383150", "2.37.0"),  # the published wheel's own version
        ("2.73", "2.73.0"),
        (None, "2.73.0"),  # the default is the newest
    ],
)
def test_resolve_release(requested: str | None, release: str) -> None:
    assert resolve_release(requested) == release


@pytest.mark.parametrize(
    ("requested", "why"),
    [
        ("2.99", "newer than the newest release covered"),
        ("2.74.0", "newer than the newest release covered"),
        ("2.18", "older than the oldest release covered"),
        ("2.5", "older than the oldest release covered"),
        ("1.0", "older than the oldest release covered"),
        ("25.07", "no shipped release is known to have come in that container"),
        ("26.01", "no shipped release is known to have come in that container"),
        ("2.72", ""),
        ("latest", ""),
        ("", ""),
    ],
)
def test_unknown_release_error_lists_the_covered_range(requested: str, why: str) -> None:
    with pytest.raises(ValueError) as caught:
        resolve_release(requested)
    message = str(caught.value)
    assert message.startswith(f"no schema for Triton release {requested!r}")
    assert why in message
    assert "covered: Triton 2.19.0 to 2.73.0" in message
    assert "containers 22.02 to 25.06" in message


def test_covered_releases_names_the_gaps_and_patch_releases() -> None:
    assert covered_releases() == (
        "Triton 2.19.0 to 2.73.0 (every minor release but 2.72; also 2.22.3, 2.22.4, 2.41.1), "
        "containers 22.02 to 25.06"
    )


# --- Names from other releases -------------------------------------------------------------------

ONNX = {
    "m/1/model.onnx": "",
    "m/config.pbtxt": """
        name: "m"
        platform: "onnxruntime_onnx"
        max_batch_size: 0
        input { name: "x" data_type: %s dims: [ 1 ] }
        output { name: "y" data_type: TYPE_FP32 dims: [ 1 ] }
        %s
        """,
}


def _model(tmp_path: Path, data_type: str = "TYPE_FP32", extra: str = "") -> Path:
    files = dict(ONNX)
    files["m/config.pbtxt"] = str(files["m/config.pbtxt"]) % (data_type, extra)
    return make_tree(tmp_path / "models", files)


def _added_later(
    models: Path, code: str, target: str, message: str, *later: str | None
) -> Diagnostic:
    """The one ``code`` finding of ``models`` linted for Triton ``target``, whose message is
    ``message``; linted for each release of ``later`` (None: the newest), none."""
    [finding] = with_code(lint(models, triton_version=target), code)
    assert finding.message == message
    for version in later:
        options = {} if version is None else {"triton_version": version}
        assert with_code(lint(models, **options), code) == []
    return finding


def test_a_field_added_later_is_an_error_naming_the_release_that_added_it(
    tmp_path: Path,
) -> None:
    models = _model(tmp_path, extra="model_metrics { }")
    message = (
        'field "model_metrics" of inference.ModelConfig was added in Triton 2.52.0; '
        "this repository targets 2.51.0"
    )
    finding = _added_later(models, "TL101", "2.51", message, "2.73", "2.52.0", None)
    assert finding.severity.value == "error"
    assert (finding.span.line, finding.span.column) == (6, 1) if finding.span else False


def test_a_nested_field_added_later_names_its_message(tmp_path: Path) -> None:
    models = _model(tmp_path, extra="sequence_batching { iterative_sequence: true }")
    message = (
        'field "iterative_sequence" of inference.ModelSequenceBatching was added in Triton '
        "2.40.0; this repository targets 2.37.0"
    )
    finding = _added_later(models, "TL101", "23.08", message, "2.40")
    assert finding.severity.value == "error"
    assert finding.span is not None
    assert (finding.span.line, finding.span.column, finding.span.end_column) == (6, 21, 39)


def test_an_enum_value_added_later_is_an_error_naming_the_release(tmp_path: Path) -> None:
    models = _model(tmp_path, data_type="TYPE_BF16")
    message = (
        "TYPE_BF16 of inference.DataType (field 'data_type') was added in Triton 2.22.0; "
        "this repository targets 2.21.0"
    )
    finding = _added_later(models, "TL105", "2.21", message, "22.05", None)
    assert finding.severity.value == "error"


def test_names_no_release_has_keep_the_usual_message(tmp_path: Path) -> None:
    models = _model(tmp_path, data_type="TYPE_BF8", extra="model_metric { }")
    result = lint(models, triton_version="2.51")
    [field] = with_code(result, "TL101")
    assert field.message.startswith('message type "inference.ModelConfig" has no field named')
    assert "did you mean 'model_metrics'?" not in field.message  # 2.51 has no such field
    [value] = with_code(result, "TL105")
    assert value.message.startswith("TYPE_BF8 is not a value of inference.DataType")


LATER_FIELDS = {
    "m/1/model.onnx": "",
    "m/config.pbtxt": """
        name: "m"
        backend: "onnxruntime"
        runtime: "libtriton_onnxruntime.so"
        max_batch_size: 8
        input { name: "x" data_type: TYPE_BF16 dims: [ 1 ] is_non_linear_format_io: true }
        output { name: "y" data_type: TYPE_FP32 dims: [ 1 ] is_non_linear_format_io: true }
        batch_input { kind: BATCH_ITEM_SHAPE target_name: "s" data_type: TYPE_INT64 source_input: "x" }
        sequence_batching {
          iterative_sequence: true
          oldest { max_candidate_sequences: 2 preserve_ordering: true }
          state { input_name: "a" output_name: "b" data_type: TYPE_FP32 dims: [ 1 ] use_growable_memory: true use_same_buffer_for_input_output: true }
        }
        model_warmup { name: "w" batch_size: 1 count: 2 inputs { key: "x" value { data_type: TYPE_FP32 dims: [ 1 ] zero_data: true } } }
        model_metrics { metric_control { metric_identifier { family: "f" } histogram_options { buckets: [ 1 ] } } }
        """,
}


def test_every_later_name_is_reported_under_the_oldest_release(tmp_path: Path) -> None:
    models = make_tree(tmp_path / "models", LATER_FIELDS)
    result = lint(models, triton_version=OLDEST)
    noted = [d.message for d in result.diagnostics if "was added in Triton" in d.message]
    later = {
        name
        for name, history in field_table().fields.items()
        if history.added != OLDEST and "ModelEnsembling" not in name
    }
    later |= {
        name for name, history in field_table().enum_values.items() if history.added != OLDEST
    }
    later -= {"inference.BatchInput.Kind.BATCH_ITEM_SHAPE_FLATTEN"}
    # The nested model_metrics fields are not reached: model_metrics itself is unknown.
    later = {name for name in later if ".ModelMetrics." not in name}
    assert len(noted) == len(later), noted
    for name in later:
        short = name.rsplit(".", 1)[-1]
        assert any(short in message for message in noted), name
    assert all(d.code in ("TL101", "TL105") for d in result.diagnostics if d.message in noted)
    # The newest release takes the same file without a schema finding.
    assert [d for d in lint(models).diagnostics if d.code.startswith("TL1")] == []


def test_every_release_lints_the_fixtures_without_failing() -> None:
    root = Path(__file__).resolve().parents[2] / "fixtures"
    paths = [
        root / "model_repository",
        *sorted(p for p in (root / "broken").iterdir() if p.is_dir()),
    ]
    for release in available_releases():
        result = lint(*paths, triton_version=release)
        assert result.triton_version == release
        assert result.models_checked > 40


def test_integer_ranges_follow_the_target_release(tmp_path: Path) -> None:
    # priority_levels was a uint32 up to 2.35 and is a uint64 since 2.36.
    models = _model(tmp_path, extra="dynamic_batching { priority_levels: 5000000000 }")
    assert with_code(lint(models, triton_version="2.35"), "TL104")
    assert not with_code(lint(models, triton_version="2.36"), "TL104")


def test_every_shipped_schema_is_a_subset_of_the_newest() -> None:
    """What lets a config bound with an older schema be handed on as a newest-schema message."""
    newest = load_schema().model_config.file.pool
    varints = {
        FieldDescriptor.TYPE_INT32, FieldDescriptor.TYPE_INT64,
        FieldDescriptor.TYPE_UINT32, FieldDescriptor.TYPE_UINT64,
    }  # fmt: skip
    for release in available_releases():
        file = load_schema(release).model_config.file
        seen: set[str] = set()
        for message in file.message_types_by_name.values():
            for kind, name in _names(message, seen):
                owner, short = name.rsplit(".", 1)
                if kind == "fields":
                    old = file.pool.FindMessageTypeByName(owner).fields_by_name[short]
                    new = newest.FindMessageTypeByName(owner).fields_by_name[short]
                    assert (old.number, old.is_repeated) == (new.number, new.is_repeated), name
                    for kind_of in ("message_type", "enum_type"):
                        old_type, new_type = getattr(old, kind_of), getattr(new, kind_of)
                        assert (old_type and old_type.full_name) == (
                            new_type and new_type.full_name
                        ), name
                    assert old.type == new.type or {old.type, new.type} <= varints, name
                else:
                    old_enum = file.pool.FindEnumTypeByName(owner)
                    new_enum = newest.FindEnumTypeByName(owner)
                    assert (
                        old_enum.values_by_name[short].number
                        == new_enum.values_by_name[short].number
                    )


def test_a_config_bound_with_an_older_schema_reaches_the_checks_as_a_newest_one(
    tmp_path: Path,
) -> None:
    models = _model(tmp_path, extra="dynamic_batching { priority_levels: 3 }")
    from tritonlint.document import load_config

    document = load_config(models / "m" / "config.pbtxt", load_schema("2.19"))
    config = document.config
    assert config is not None
    assert config.DESCRIPTOR is load_schema().model_config
    assert config.dynamic_batching.priority_levels == 3
    assert not config.runtime


def test_history_of_a_name_that_was_removed_or_came_back() -> None:
    removed = History((("2.19.0", "2.60.0"),))
    assert removed.change_for("2.61.0") == "was removed in Triton 2.60.0"
    assert removed.change_for("2.60.0") == "was removed in Triton 2.60.0"
    assert removed.change_for("2.59.0") is None
    back = History((("2.19.0", "2.30.0"), ("2.40.0", None)))
    assert (
        back.change_for("2.35.0") == "was removed in Triton 2.30.0 and added back in Triton 2.40.0"
    )
    assert back.change_for("2.22.3") is None
    assert back.change_for("2.50.0") is None
    assert (back.added, back.removed) == ("2.19.0", None)


# --- The field history table against the shipped descriptors --------------------------------------


def _names(descriptor: Descriptor, seen: set[str]) -> Iterator[tuple[str, str]]:
    """``("fields", path)`` and ``("enum_values", path)`` of every type reachable from here."""
    if descriptor.full_name in seen:
        return
    seen.add(descriptor.full_name)
    for field in descriptor.fields:
        yield "fields", f"{descriptor.full_name}.{field.name}"
        if field.enum_type is not None and field.enum_type.full_name not in seen:
            seen.add(field.enum_type.full_name)
            for value in field.enum_type.values:
                yield "enum_values", f"{field.enum_type.full_name}.{value.name}"
        if field.message_type is not None:
            yield from _names(field.message_type, seen)
    for nested in descriptor.nested_types:
        yield from _names(nested, seen)
    for enum in descriptor.enum_types:
        if enum.full_name not in seen:
            seen.add(enum.full_name)
            for value in enum.values:
                yield "enum_values", f"{enum.full_name}.{value.name}"


def test_field_history_matches_every_shipped_descriptor() -> None:
    table = field_table()
    assert table.releases == available_releases()
    everything: dict[str, set[str]] = {"fields": set(), "enum_values": set()}
    for release in available_releases():
        file = load_schema(release).model_config.file
        present: dict[str, set[str]] = {"fields": set(), "enum_values": set()}
        seen: set[str] = set()
        for message in file.message_types_by_name.values():
            for kind, name in _names(message, seen):
                present[kind].add(name)
        for enum in file.enum_types_by_name.values():
            present["enum_values"].update(f"{enum.full_name}.{v.name}" for v in enum.values)
        for kind, histories in (("fields", table.fields), ("enum_values", table.enum_values)):
            for name, history in histories.items():
                assert history.present_in(release) == (name in present[kind]), (release, name)
            assert present[kind] <= set(histories), release
            everything[kind] |= present[kind]
    assert set(table.fields) == everything["fields"]
    assert set(table.enum_values) == everything["enum_values"]


def test_field_history_records_what_changed() -> None:
    model_metrics = field_history("inference.ModelConfig.model_metrics")
    assert model_metrics is not None
    assert (model_metrics.added, model_metrics.removed) == ("2.52.0", None)
    priority = field_history("inference.ModelDynamicBatching.priority_queue_policy")
    assert priority is not None and priority.added == OLDEST
    assert field_history("inference.ModelConfig.no_such_field") is None


def test_the_shipped_table_is_what_the_script_derives() -> None:
    script = _script("derive_field_table")
    shipped = json.loads((PROTOS / "field_history.json").read_text(encoding="utf-8"))
    assert script.build_table(PROTOS) == shipped


# --- scripts/derive_protos.py -----------------------------------------------------------------


def test_the_script_reads_both_forms_of_generated_module() -> None:
    script = _script("derive_protos")
    new = "_descriptor_pool.Default().AddSerializedFile(b'\\n\\x12model_config.proto')\n"
    old = (
        "_b=sys.version_info[0]<3 and (lambda x:x) or (lambda x:x.encode('latin1'))\n"
        "DESCRIPTOR = _descriptor.FileDescriptor(name='model_config.proto', "
        "serialized_pb=_b('\\n\\x12model_config.proto\\xb2'))\n"
    )
    assert script.serialized_descriptor(new) == b"\n\x12model_config.proto"
    assert script.serialized_descriptor(old) == b"\n\x12model_config.proto\xb2"
    with pytest.raises(ValueError):
        script.serialized_descriptor("x = 1\n")


def test_the_script_names_releases_and_containers_as_shipped() -> None:
    script = _script("derive_protos")
    assert script.triton_release("2.37.0.9383150") == "2.37.0"
    assert script.triton_release("2.51.0") == "2.51.0"
    for release in available_releases():
        assert script.container_release(release) == container_release(release)


def test_each_shipped_proto_file_is_its_schema_as_the_script_renders_it() -> None:
    script = _script("derive_protos")
    for binpb in sorted((PROTOS / "schemas").glob("*.binpb")):
        [proto] = descriptor_pb2.FileDescriptorSet.FromString(binpb.read_bytes()).file
        rendered = binpb.with_suffix(".proto").read_text(encoding="utf-8")
        assert rendered == script.render_proto(proto), binpb.name
        assert "message ModelConfig {" in rendered


def _fake_schema(*fields: str) -> descriptor_pb2.FileDescriptorProto:
    """A one-message ``model_config.proto`` with the given int32 fields of ModelConfig."""
    proto = descriptor_pb2.FileDescriptorProto(
        name="model_config.proto", package="inference", syntax="proto3"
    )
    message = proto.message_type.add(name="ModelConfig")
    for number, name in enumerate(fields, start=1):
        message.field.add(
            name=name,
            number=number,
            type=descriptor_pb2.FieldDescriptorProto.TYPE_INT32,
            label=descriptor_pb2.FieldDescriptorProto.LABEL_OPTIONAL,
        )
    return proto


def test_the_script_stores_each_distinct_schema_once(tmp_path: Path) -> None:
    script = _script("derive_protos")
    files = {
        "schemas/0123456789abcdef.binpb": b"no release names this",
        "schemas/0123456789abcdef.proto": "",
    }
    protos = make_tree(tmp_path / "protos", files)
    old, new = _fake_schema("name"), _fake_schema("name", "max_batch_size")
    index = {}
    for release, proto in (("2.20.0", new), ("2.19.0", old), ("2.19.1", old)):
        digest = script.store_schema(protos, proto)
        index[release] = {"schema": digest, "wheel": f"tritonclient-{release}.whl", "sha256": "0"}
    script.write_index(protos, index, {})

    data = {
        name: descriptor_pb2.FileDescriptorSet(file=[proto]).SerializeToString()
        for name, proto in (("old", old), ("new", new))
    }
    digests = {name: hashlib.sha256(b).hexdigest()[:16] for name, b in data.items()}
    assert sorted(p.relative_to(protos).as_posix() for p in protos.rglob("*")) == [
        "field_history.json",
        "releases.json",
        "schemas",
        *sorted(f"schemas/{d}.{kind}" for d in digests.values() for kind in ("binpb", "proto")),
    ]
    for name, digest in digests.items():
        assert (protos / "schemas" / f"{digest}.binpb").read_bytes() == data[name]
    assert (protos / "schemas" / f"{digests['new']}.proto").read_text(encoding="utf-8") == (
        "// Derived from the tritonclient wheels by scripts/derive_protos.py; "
        "protos/releases.json\n"
        "// names the releases with this schema. Do not edit.\n"
        'syntax = "proto3";\n\npackage inference;\n\n'
        "message ModelConfig {\n  int32 name = 1;\n  int32 max_batch_size = 2;\n}\n"
    )
    written = json.loads((protos / "releases.json").read_text(encoding="utf-8"))
    assert list(written) == ["2.19.0", "2.19.1", "2.20.0"]  # oldest first
    assert written["2.19.0"] == {
        "schema": digests["old"],
        "wheel": "tritonclient-2.19.0.whl",
        "sha256": "0",
    }
    assert written["2.19.1"]["schema"] == digests["old"]
    assert written["2.20.0"]["schema"] == digests["new"]
    history = json.loads((protos / "field_history.json").read_text(encoding="utf-8"))
    assert history["releases"] == ["2.19.0", "2.19.1", "2.20.0"]
    assert history["fields"]["inference.ModelConfig.max_batch_size"] == {"added": "2.20.0"}
    assert not (protos / "skipped.json").exists()


def test_each_shipped_schema_splits_into_the_files_protobuf_reads_from_it() -> None:
    from tritonlint.schema.releases import _file_descriptors

    stored = sorted((PROTOS / "schemas").glob("*.binpb"))
    assert len(stored) == 12
    for binpb in stored:
        data = binpb.read_bytes()
        expected = descriptor_pb2.FileDescriptorSet.FromString(data).file
        assert _file_descriptors(data) == [f.SerializeToString() for f in expected], binpb
