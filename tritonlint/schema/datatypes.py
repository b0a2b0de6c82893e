"""Triton's tensor data types: names and numbers from the schema, other facts from one table.

The ``DataType`` enum of the ModelConfig schema a config was read with gives each type's name
(``TYPE_FP32``) and number. What the descriptor cannot say, the bytes an element takes and the
name the inference protocol gives a type, is kept here, keyed by name; rules name the types
they care about and never write a type's number.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from google.protobuf.descriptor import EnumDescriptor
    from google.protobuf.message import Message

    from tritonlint.schema.config_types import SchemaMessage

#: The schema's name of a tensor that has no data type (the field left out).
INVALID = "TYPE_INVALID"

#: Bytes per element of each fixed-size type (a TYPE_STRING element has its own length).
_ELEMENT_BYTES = {
    "TYPE_BOOL": 1,
    "TYPE_UINT8": 1,
    "TYPE_UINT16": 2,
    "TYPE_UINT32": 4,
    "TYPE_UINT64": 8,
    "TYPE_INT8": 1,
    "TYPE_INT16": 2,
    "TYPE_INT32": 4,
    "TYPE_INT64": 8,
    "TYPE_FP16": 2,
    "TYPE_FP32": 4,
    "TYPE_FP64": 8,
    "TYPE_BF16": 2,
}

#: The inference protocol's name of a type where it is not the schema's without ``TYPE_``.
_PROTOCOL_RENAMED = {"TYPE_STRING": "BYTES"}


class DataTypes:
    """The data types of one schema: a type's name, number and facts."""

    def __init__(self, enum: EnumDescriptor) -> None:
        self._names = {value.number: value.name for value in enum.values}
        self._numbers = {value.name: value.number for value in enum.values}

    def name(self, number: int) -> str:
        """The schema's name of a type (``TYPE_FP32``); the number itself when it has none."""
        return self._names.get(number, str(number))

    def number(self, name: str) -> int:
        """The number of the type the schema calls ``name`` (KeyError when it has no such type)."""
        return self._numbers[name]

    def element_bytes(self, number: int) -> int | None:
        """Bytes per element of a fixed-size type (None for strings and unknown types)."""
        return _ELEMENT_BYTES.get(self._names.get(number, ""))

    def protocol_name(self, number: int) -> str:
        """The inference protocol's name of a type (``FP32``, ``BYTES``); the number itself for
        TYPE_INVALID and numbers the schema does not know, which the protocol has no name for."""
        name = self._names.get(number)
        if name is None or name == INVALID:
            return str(number)
        return _PROTOCOL_RENAMED.get(name, name.removeprefix("TYPE_"))


def data_types(message: Message | SchemaMessage) -> DataTypes:
    """The data types of the schema ``message`` (a ModelConfig or a message in one) is of."""
    return _of(message.DESCRIPTOR.file.pool.FindEnumTypeByName("inference.DataType"))


@cache
def _of(enum: EnumDescriptor) -> DataTypes:
    return DataTypes(enum)
