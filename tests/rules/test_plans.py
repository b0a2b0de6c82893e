"""TensorRT plans against the TensorRT of the targeted release (TL913, TL914) and against each
other (TL912): what one repository gets as the release changes."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import Content, codes_at, lint, make_tree

from tritonlint.modelfiles.tensorrt_releases import ROWS, ReleaseTensorRT
from tritonlint.schema.releases import container_release, resolve_release

CONFIG = """platform: "tensorrt_plan"
max_batch_size: 8
input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]
output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]
version_policy { all { } }
"""


def _plan(major: int, minor: int, patch: int) -> bytes:
    return b"ftrt" + bytes(20) + bytes([major, minor, patch]) + bytes(5)


def _repository(root: Path, *versions: tuple[int, int, int]) -> Path:
    files: dict[str, Content] = {"m/config.pbtxt": CONFIG}
    for number, version in enumerate(versions, start=1):
        files[f"m/{number}/model.plan"] = _plan(*version)
    return make_tree(root, files)


TL = ("TL912", "TL913", "TL914")


@pytest.mark.parametrize(
    ("release", "expected"),
    [
        ("23.05", []),  # TensorRT 8.6.1.2: the plan's own version
        ("24.02", [("TL914", 1, 11)]),  # TensorRT 8.6.3: an older plan
        ("22.11", [("TL913", 1, 11)]),  # TensorRT 8.5.1: a newer plan
        ("24.10", [("TL914", 1, 11)]),  # TensorRT 10.5.0.18: an older plan
        ("24.05", []),  # no known TensorRT: nothing said
    ],
)
def test_the_targeted_release_decides_about_one_plan(
    tmp_path: Path, release: str, expected: list[tuple[str, int, int]]
) -> None:
    root = _repository(tmp_path, (8, 6, 1))
    found = [c for c in codes_at(lint(root, triton_version=release)) if c[0] in TL]
    assert found == expected


def test_plans_of_two_versions_are_each_judged_against_the_server_not_reported_twice(
    tmp_path: Path,
) -> None:
    root = _repository(tmp_path, (8, 6, 1), (10, 3, 0))
    result = lint(root, triton_version="24.02")
    found = sorted((d.code, d.message.split("'")[1]) for d in result.diagnostics if d.code in TL)
    assert found == [("TL913", "m/2/model.plan"), ("TL914", "m/1/model.plan")]


def test_without_a_known_tensorrt_plans_are_compared_with_each_other(tmp_path: Path) -> None:
    root = _repository(tmp_path, (8, 6, 1), (10, 3, 0))
    result = lint(root, triton_version="24.05")
    found = [(d.code, d.message.split("'")[1]) for d in result.diagnostics if d.code in TL]
    assert found == [("TL912", "m/1/model.plan")]


@pytest.mark.parametrize("row", ROWS, ids=[row.release for row in ROWS])
def test_each_row_names_a_release_and_its_container_as_the_schema_index_does(
    row: ReleaseTensorRT,
) -> None:
    assert resolve_release(row.release) == row.release
    assert container_release(row.release) == row.container
    assert row.source.startswith("https://")
    assert row.version[:2] >= (8, 2)
