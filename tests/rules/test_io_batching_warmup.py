"""Rules of the io and warmup packs: which backends complete tensors, and a warmup sample that
feeds its input. Every rule's cases are in tests/rules/cases/."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import Files, codes, lint, only, position, with_code

from tritonlint.repository.source import MAX_SOURCE_BYTES

Repo = Callable[[Files], Path]


def _pytorch(body: str, extra: Files | None = None) -> Files:
    """A pytorch model named `m` (a backend that completes nothing) with ``body`` as config."""
    return {
        "m/config.pbtxt": 'platform: "pytorch_libtorch"\n' + body,
        "m/1/model.pt": b"",
        **(extra or {}),
    }


def test_missing_dims_completed_by_tensorrt_is_only_a_warning(repo: Repo) -> None:
    root = repo(
        {
            "m/config.pbtxt": 'platform: "tensorrt_plan"\ninput [ { name: "x" } ]\n',
            "m/1/model.plan": b"",
        }
    )
    result = lint(root)
    assert "TL402" not in codes(result)
    assert "TL403" not in codes(result)
    warning = only(result, "TL406")
    assert warning.severity.value == "warning"
    assert position(warning) == (2, 17)
    assert "no data_type and no dims" in warning.message


def test_missing_dims_on_onnx_is_an_error_because_onnx_completes_only_absent_tensors(
    repo: Repo,
) -> None:
    root = repo(
        {
            "m/config.pbtxt": (
                'platform: "onnxruntime_onnx"\n'
                'input [ { name: "x" data_type: TYPE_FP32 } ]\n'
                'output [ { name: "y" data_type: TYPE_FP32 dims: [ 1 ] } ]\n'
            ),
            "m/1/model.onnx": b"",
        }
    )
    result = lint(root)
    assert position(only(result, "TL403")) == (2, 17)
    assert "TL406" not in codes(result)


def test_python_model_with_auto_complete_config_completes_tensors(repo: Repo) -> None:
    config = 'backend: "python"\noutput [ { name: "y" } ]\n'
    completing = repo(
        {
            "m/config.pbtxt": config,
            "m/1/model.py": "class TritonPythonModel:\n"
            "    @staticmethod\n    def auto_complete_config(c):\n        return c\n",
        }
    )
    assert with_code(lint(completing), "TL403") == []
    assert len(with_code(lint(completing), "TL406")) == 1


PYTHON_WITHOUT_DIMS = 'backend: "python"\noutput [ { name: "y" data_type: TYPE_FP32 } ]\n'
AUTO_COMPLETE = b"class TritonPythonModel:\n    def auto_complete_config(c):\n        return c\n"


def test_a_python_source_that_is_not_utf8_is_still_searched_for_auto_complete_config(
    repo: Repo,
) -> None:
    root = repo(
        {"m/config.pbtxt": PYTHON_WITHOUT_DIMS, "m/1/model.py": b"# caf\xe9\n" + AUTO_COMPLETE}
    )
    assert with_code(lint(root), "TL403") == []


@pytest.mark.parametrize("kind", ["pipe", "too large"])
def test_a_python_source_that_cannot_be_read_completes_nothing(repo: Repo, kind: str) -> None:
    """A named pipe is not read (that would wait for a writer), nor a file far too large."""
    root = repo({"m/config.pbtxt": PYTHON_WITHOUT_DIMS, "m/1/": None})
    source = root / "m" / "1" / "model.py"
    if kind == "pipe":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no named pipes here")
        os.mkfifo(source)
    else:
        source.write_bytes(AUTO_COMPLETE + b"#" * MAX_SOURCE_BYTES)
    assert position(only(lint(root), "TL403")) == (2, 18)


def _warmup(inputs: str) -> str:
    return (
        'input [ { name: "x" data_type: TYPE_FP32 dims: [ -1 ] } ]\n'
        f'model_warmup [ {{ name: "w" batch_size: 1 {inputs} }} ]\n'
    )


def test_warmup_sample_that_feeds_its_inputs_passes(repo: Repo) -> None:
    good = _warmup(
        'inputs { key: "x" value { data_type: TYPE_FP32 dims: [ 4 ] input_data_file: "x.bin" } }'
    )
    result = lint(repo(_pytorch(good, {"m/warmup/x.bin": b"\0" * 16})))
    assert [c for c in codes(result) if c.startswith("TL80")] == []
