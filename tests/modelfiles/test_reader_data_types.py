"""The Triton data types the readers name are the schema's own names."""

from __future__ import annotations

import pytest

from tritonlint.modelfiles import onnx, openvino, savedmodel
from tritonlint.schema.datatypes import data_types
from tritonlint.schema.releases import Schema


@pytest.mark.parametrize(
    "table",
    [
        openvino.TRITON_TYPES,
        savedmodel.TRITON_TYPES,
        {name: triton for name, triton in onnx.ELEMENT_TYPES.values() if triton},
    ],
    ids=["openvino", "savedmodel", "onnx"],
)
def test_every_mapped_type_is_a_schema_data_type(schema: Schema, table: dict[str, str]) -> None:
    types = data_types(schema.new_config())
    assert table
    for triton_name in table.values():
        assert types.name(types.number(triton_name)) == triton_name
