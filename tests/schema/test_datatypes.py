"""The data type facts kept beside the schema cover every type of every shipped release."""

from __future__ import annotations

import pytest

from tritonlint.schema.datatypes import data_types
from tritonlint.schema.releases import available_releases, load_schema


@pytest.mark.parametrize("release", available_releases())
def test_every_fixed_size_type_of_a_release_has_its_element_size(release: str) -> None:
    config = load_schema(release).new_config()
    enum = config.DESCRIPTOR.file.pool.FindEnumTypeByName("inference.DataType")
    types = data_types(config)
    sized = {v.name for v in enum.values if types.element_bytes(v.number) is not None}
    assert sized == {v.name for v in enum.values} - {"TYPE_INVALID", "TYPE_STRING"}


def test_names_and_protocol_names_come_from_the_schema() -> None:
    types = data_types(load_schema().new_config())
    assert types.name(types.number("TYPE_FP32")) == "TYPE_FP32"
    assert types.protocol_name(types.number("TYPE_FP32")) == "FP32"
    assert types.protocol_name(types.number("TYPE_STRING")) == "BYTES"
    assert types.element_bytes(types.number("TYPE_BF16")) == 2
    assert types.name(99) == "99"
    assert types.protocol_name(0) == "0"
