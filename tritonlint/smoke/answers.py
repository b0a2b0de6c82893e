"""A model's answer to the smoke stage's request, checked against its config.

Every configured output must come back (all are asked for; the python backend drops an output
whose name the config does not know, and a misnamed one reaches nobody), with the configured
data type, a shape that matches ``dims`` (``-1`` is free; behind a batch dimension of the
size sent when ``max_batch_size > 0``), and as much data as that shape holds (for BYTES: as
many length-prefixed elements).
"""

from __future__ import annotations

import json
import math
import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tritonlint.smoke.requests import DATA_TYPES, dims_of


class BadAnswer(ValueError):
    """The answer is not a KServe inference response at all."""


@dataclass(frozen=True)
class Output:
    name: str
    datatype: str
    shape: tuple[int, ...]
    #: The data's size in bytes (binary) or its number of elements (JSON ``data``).
    data: bytes | None
    elements: int | None = None


@dataclass(frozen=True)
class OutputProblem:
    """What is wrong with one configured output (``missing``: it did not come back)."""

    output: str
    message: str
    missing: bool = False


def parse_answer(body: bytes, header_length: int | None) -> dict[str, Output]:
    """The outputs of an inference response (binary tensor extension or plain JSON)."""
    head = body if header_length is None else body[:header_length]
    try:
        header = json.loads(head.decode() or "{}")
    except (UnicodeDecodeError, ValueError) as error:
        raise BadAnswer(f"the response is not JSON: {error}") from None
    if not isinstance(header, dict):
        raise BadAnswer("the response is not a JSON object")
    # Without the header's length the body is the header (a binary output of 0 bytes).
    offset = len(body) if header_length is None else header_length
    found: dict[str, Output] = {}
    for entry in header.get("outputs") or []:
        if not isinstance(entry, dict):
            continue
        name = str(entry.get("name", ""))
        shape = tuple(int(d) for d in entry.get("shape") or [])
        size = (entry.get("parameters") or {}).get("binary_data_size")
        if isinstance(size, int):
            found[name] = Output(
                name, str(entry.get("datatype")), shape, body[offset : offset + size]
            )
            offset += size
        else:
            count = len(_flat(entry.get("data")))
            found[name] = Output(name, str(entry.get("datatype")), shape, None, count)
    return found


def _flat(data: object) -> list[object]:
    if isinstance(data, list):
        return [leaf for item in data for leaf in _flat(item)]
    return [] if data is None else [data]


def check_answer(
    config: Mapping[str, Any], outputs: Mapping[str, Output], batch: int = 1
) -> list[OutputProblem]:
    """Each configured output's problem, in the config's order (none: the answer agrees)."""
    batching = int(config.get("max_batch_size") or 0) > 0
    problems: list[OutputProblem] = []
    for entry in config.get("output") or []:
        name = str(entry.get("name", ""))
        data_type = str(entry.get("data_type", ""))
        dims = dims_of(entry)
        expected = [batch, *dims] if batching else dims
        said = f"{data_type} [ {', '.join(map(str, dims))} ]"
        got = outputs.get(name)
        if got is None:
            came = ", ".join(f"'{n}'" for n in outputs) or "none"
            problems.append(
                OutputProblem(
                    name,
                    f"output '{name}' did not come back (the outputs that did: {came}); "
                    f"the config says {said}",
                    missing=True,
                )
            )
            continue
        wanted_type = DATA_TYPES.get(data_type, (data_type, 0))[0]
        shape_text = f"[{', '.join(map(str, got.shape))}]"
        came_back = f"output '{name}' came back as {got.datatype} {shape_text}"
        if got.datatype != wanted_type or not _shape_matches(got.shape, expected):
            problems.append(OutputProblem(name, f"{came_back}; the config says {said}"))
            continue
        size_problem = _size_problem(got)
        if size_problem is not None:
            problems.append(OutputProblem(name, f"{came_back} with {size_problem}"))
    return problems


def _shape_matches(shape: Sequence[int], expected: Sequence[int]) -> bool:
    return len(shape) == len(expected) and all(
        want == -1 or got == want for got, want in zip(shape, expected, strict=True)
    )


def _size_problem(output: Output) -> str | None:
    """What is wrong with the amount of data: too few or too many bytes or elements."""
    count = math.prod(output.shape)
    size = next((s for d, s in DATA_TYPES.values() if d == output.datatype), None)
    if output.data is None:
        if output.elements is not None and output.elements != count:
            return f"{output.elements} elements of data, not {count}"
        return None
    if size == 0:
        elements = _bytes_elements(output.data)
        if elements is None:
            return f"{len(output.data)} bytes that are no list of length-prefixed strings"
        if elements != count:
            return f"{elements} strings of data, not {count}"
        return None
    if size is not None and len(output.data) != count * size:
        return f"{len(output.data)} bytes of data, not {count} elements of {size} bytes"
    return None


def _bytes_elements(data: bytes) -> int | None:
    """How many length-prefixed elements ``data`` holds (None: it is not such a list)."""
    offset = count = 0
    while offset < len(data):
        if offset + 4 > len(data):
            return None
        (length,) = struct.unpack_from("<I", data, offset)
        offset += 4 + length
        if offset > len(data):
            return None
        count += 1
    return count
