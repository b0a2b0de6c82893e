"""Reading a config with schema problems: which reads are doubtful."""

from __future__ import annotations

from pathlib import Path

from tritonlint.document import parse_config
from tritonlint.rules.reads import ReadLog, TrackedMessage
from tritonlint.schema.releases import load_schema

CONFIG = Path("m/config.pbtxt")


def _tracked(text: str) -> tuple[TrackedMessage, ReadLog]:
    document = parse_config(CONFIG, text, load_schema())
    assert document.config is not None and document.doubts
    log = ReadLog()
    return TrackedMessage(document.config, (), document.doubts, log.reader(document)), log


def _read_paths(log: ReadLog) -> list[tuple[tuple[str | int | bool, ...], str]]:
    return [(read.message, read.name) for read in log.reads]


def test_a_misspelt_field_of_one_element_doubts_that_field_of_that_element_only() -> None:
    config, log = _tracked(
        'input [ { name: "A" dims: [ 1 ] }, { name: "B" dim: [ 2 ] } ]\nmax_batch_size: 4\n'
    )
    assert [list(tensor.dims) for tensor in config.input] == [[1], []]
    assert config.max_batch_size == 4
    assert _read_paths(log) == [(("input", 1), "dims")]


def test_a_wrong_value_in_a_map_entry_doubts_that_entry() -> None:
    config, log = _tracked(
        'parameters { key: "a" value: { string_value: "x" } }\n'
        'parameters { key: "b" value: { string_valu: "y" } }\n'
    )
    assert sorted(config.parameters) == ["a", "b"]
    assert config.parameters["a"].string_value == "x"
    assert log.reads == []
    assert config.parameters.get("b").string_value == ""
    assert _read_paths(log) == [(("parameters", "b", "value"), "string_value")]
    assert config.parameters.get("missing") is None


def test_an_unknown_name_doubts_the_unset_fields_of_its_message() -> None:
    config, log = _tracked('name: "m"\ncolour: "red"\n')
    assert config.name == "m"
    assert log.reads == []
    assert config.max_batch_size == 0
    assert not config.HasField("dynamic_batching")
    assert _read_paths(log) == [((), "max_batch_size"), ((), "dynamic_batching")]


def test_an_echo_is_a_finding_about_the_doubtful_part_or_a_folder() -> None:
    _, log = _tracked('input [ { name: "A" dim: [ 2 ] } ]\n')
    log.reader(parse_config(CONFIG, "", load_schema())).note(("input", 0), "dims")
    assert log.echoes(CONFIG, ("input", 0, "name"))
    assert log.echoes(CONFIG, ("input",))
    assert log.echoes(CONFIG, None)
    assert not log.echoes(CONFIG, ("output", 0, "dims"))
    assert not log.echoes(CONFIG, ("max_batch_size",))
    assert log.echoes(Path("other/config.pbtxt"), ("max_batch_size",))
