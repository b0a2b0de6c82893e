"""read_onnx against onnx and ONNX Runtime, over every model the onnx package ships or builds.

The corpus: the ``.onnx`` files under the installed package's ``backend/test/data`` (models
converted from PyTorch, small real networks with light weights), and the model of every node
and model test case of its backend test suite, written to files (the suite's generator writes
them as ``data/node/*/model.onnx``; the wheel leaves those files out). Over two thousand models
covering nearly every operator and element type of the standard.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy
import onnx
import onnx.backend.test.case.model as model_cases
import onnx.backend.test.case.node as node_cases
import pytest
from onnx_reference import agrees, by_onnx, by_onnxruntime

from tritonlint.modelfiles.onnx import read_onnx
from tritonlint.modelfiles.signature import ModelSignature


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    shipped = sorted((Path(onnx.__file__).parent / "backend" / "test" / "data").rglob("*.onnx"))
    folder = tmp_path_factory.mktemp("onnx-test-cases")
    with warnings.catch_warnings(), numpy.errstate(all="ignore"):
        warnings.simplefilter("ignore")  # the cases' reference outputs divide by zero on purpose
        cases = node_cases.collect_testcases(None) + model_cases.collect_testcases()
    built = []
    for case in cases:
        if case.model is not None:
            path = folder / f"{case.name}.onnx"
            path.write_bytes(case.model.SerializeToString())
            built.append(path)
    assert len(shipped) > 100 and len(built) > 1800
    return shipped + built


def test_reads_the_inputs_and_outputs_onnx_reads(corpus: list[Path]) -> None:
    differences = []
    for path in corpus:
        found = read_onnx(path)
        assert isinstance(found, ModelSignature), found
        expected = by_onnx(onnx.load(path, load_external_data=False))
        if (found.inputs, found.outputs) != expected:
            differences.append((path.name, found, expected))
    assert differences == []


def test_reads_the_inputs_and_outputs_onnxruntime_reports(corpus: list[Path]) -> None:
    unloadable = 0
    differences = []
    for path in corpus:
        runtime = by_onnxruntime(path)
        if runtime is None:
            unloadable += 1
            continue
        found = read_onnx(path)
        assert isinstance(found, ModelSignature), found
        if not agrees(found.inputs, runtime[0]) or not agrees(found.outputs, runtime[1]):
            differences.append((path.name, found, runtime))
    assert differences == []
    # Operators, types and layouts this CPU build does not implement: 165 of 2,059 models with
    # onnxruntime 1.32.0 and onnx 1.23.2 (some for want of locales, which varies by machine).
    assert unloadable < len(corpus) // 10
