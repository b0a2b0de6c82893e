"""Rules of the io, batching and warmup packs: each with a failing and a passing case."""

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


IO_CASES = [
    # (code, bad config body, (line, column), message fragment, good config body)
    (
        "TL401",
        "input [ { data_type: TYPE_FP32 dims: [ 3 ] } ]\n",
        (2, 9),
        "model input must specify 'name' for m",
        'input [ { name: "x" data_type: TYPE_FP32 dims: [ 3 ] } ]\n',
    ),
    (
        "TL402",
        'input [ { name: "x" dims: [ 3 ] } ]\n',
        (2, 17),
        "model input 'x' must specify 'data_type' for m",
        'input [ { name: "x" data_type: TYPE_INT64 dims: [ 3 ] } ]\n',
    ),
    (
        "TL403",
        'output [ { name: "y" data_type: TYPE_FP32 } ]\n',
        (2, 18),
        "model output 'y' must specify 'dims' for m",
        'output [ { name: "y" data_type: TYPE_FP32 dims: [ 1 ] } ]\n',
    ),
    (
        "TL404",
        'input [ { name: "x" data_type: TYPE_FP32 dims: [ 3, 0 ] } ]\n',
        (2, 53),
        "model input 'x' dimension must be integer >= 1, or -1",
        'input [ { name: "x" data_type: TYPE_FP32 dims: [ 3, -1 ] } ]\n',
    ),
    (
        "TL405",
        'input [ { name: "x" data_type: TYPE_FP32 dims: [ 2, 3 ] reshape { shape: [ 5 ] } } ]\n',
        (2, 65),
        "model input 'x' has different size for dims and reshape for m",
        'input [ { name: "x" data_type: TYPE_FP32 dims: [ 2, 3 ] reshape { shape: [ 6 ] } } ]\n',
    ),
    (
        "TL405",
        'input [ { name: "x" data_type: TYPE_FP32 dims: [ 1 ] reshape { shape: [ ] } } ]\n',
        (2, 62),
        "cannot have empty reshape for non-batching model",
        "max_batch_size: 4\n"
        'input [ { name: "x" data_type: TYPE_FP32 dims: [ 1 ] reshape { shape: [ ] } } ]\n',
    ),
    (
        "TL405",
        'input [ { name: "x" data_type: TYPE_FP32 dims: [ -1, 4 ] reshape { shape: [ -1, 2, -1 ] } } ]\n',
        (2, 66),
        "different number of variable-size dimensions for dims and reshape",
        'input [ { name: "x" data_type: TYPE_FP32 dims: [ -1, 4 ] reshape { shape: [ -1, 2, 2 ] } } ]\n',
    ),
]


@pytest.mark.parametrize(("code", "bad", "where", "fragment", "good"), IO_CASES)
def test_io_rules(
    repo: Repo, code: str, bad: str, where: tuple[int, int], fragment: str, good: str
) -> None:
    finding = only(lint(repo(_pytorch(bad))), code)
    assert finding.severity.value == "error"
    assert position(finding) == where
    assert fragment in finding.message
    assert code not in codes(lint(repo(_pytorch(good))))


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


BATCHING_CASES = [
    (
        "TL501",
        "max_batch_size: -1\n",
        (2, 17),
        "'max_batch_size' must be non-negative value for m",
        "max_batch_size: 0\n",
    ),
    (
        "TL502",
        "max_batch_size: 8\ndynamic_batching { preferred_batch_size: [ 4, 16 ] }\n",
        (3, 47),
        "dynamic batching preferred size must be <= max batch size for m",
        "max_batch_size: 16\ndynamic_batching { preferred_batch_size: [ 4, 16 ] }\n",
    ),
    (
        "TL502",
        "dynamic_batching { preferred_batch_size: [ 2 ] }\n",
        (2, 44),
        "dynamic batching preferred size must be <= max batch size for m",
        "dynamic_batching { }\n",
    ),
    (
        "TL503",
        "max_batch_size: 8\ndynamic_batching { priority_levels: 2 }\n",
        (3, 37),
        "default priority level must be in range [1, 2] for m",
        "max_batch_size: 8\ndynamic_batching { priority_levels: 2 default_priority_level: 2 }\n",
    ),
    (
        "TL504",
        "max_batch_size: 8\n"
        "dynamic_batching { preserve_ordering: true priority_levels: 2 "
        "default_priority_level: 1 }\n",
        (3, 61),
        "Only one priority level is allowed when 'preserve_ordering' is true for m",
        "max_batch_size: 8\ndynamic_batching { preserve_ordering: true }\n",
    ),
    (
        "TL504",
        "max_batch_size: 8\n"
        "dynamic_batching { preserve_ordering: true default_queue_policy { "
        "timeout_action: DELAY default_timeout_microseconds: 100 } }\n",
        (3, 83),
        "Queue policy can not have DELAY as timeout action",
        "max_batch_size: 8\n"
        "dynamic_batching { preserve_ordering: true default_queue_policy { "
        "timeout_action: REJECT default_timeout_microseconds: 100 } }\n",
    ),
]


@pytest.mark.parametrize(("code", "bad", "where", "fragment", "good"), BATCHING_CASES)
def test_batching_rules(
    repo: Repo, code: str, bad: str, where: tuple[int, int], fragment: str, good: str
) -> None:
    finding = only(lint(repo(_pytorch(bad))), code)
    assert finding.severity.value == "error"
    assert position(finding) == where
    assert fragment in finding.message
    assert code not in codes(lint(repo(_pytorch(good))))


def _warmup(inputs: str) -> str:
    return (
        'input [ { name: "x" data_type: TYPE_FP32 dims: [ -1 ] } ]\n'
        f'model_warmup [ {{ name: "w" batch_size: 1 {inputs} }} ]\n'
    )


WARMUP_CASES = [
    (
        "TL801",
        _warmup(
            'inputs { key: "images" value { data_type: TYPE_FP32 dims: [ 4 ] zero_data: true } }'
        ),
        (3, 16),
        "expected 1 inputs but got 0 inputs for model 'm'. Got input(s) [], but missing required "
        "input(s) ['x']",
    ),
    (
        "TL802",
        _warmup('inputs { key: "x" value { data_type: TYPE_FP32 dims: [ -1 ] zero_data: true } }'),
        (3, 97),
        "warmup setting expects all variable-size dimensions are specified for input 'x'",
    ),
    (
        "TL803",
        _warmup('inputs { key: "x" value { data_type: TYPE_FP32 dims: [ 4 ] } }'),
        (3, 49),
        "warmup setting expects input 'x' to have input_data_type set",
    ),
    (
        "TL804",
        _warmup(
            'inputs { key: "x" value { data_type: TYPE_FP32 dims: [ 4 ] input_data_file: "x.bin" } }'
        ),
        (3, 118),
        "failed to open text file for read",
    ),
]


@pytest.mark.parametrize(("code", "bad", "where", "fragment"), WARMUP_CASES)
def test_warmup_rules(
    repo: Repo, code: str, bad: str, where: tuple[int, int], fragment: str
) -> None:
    finding = only(lint(repo(_pytorch(bad))), code)
    assert finding.severity.value == "error"
    assert position(finding) == where
    assert fragment in finding.message


def test_warmup_sample_that_feeds_its_inputs_passes(repo: Repo) -> None:
    good = _warmup(
        'inputs { key: "x" value { data_type: TYPE_FP32 dims: [ 4 ] input_data_file: "x.bin" } }'
    )
    result = lint(repo(_pytorch(good, {"m/warmup/x.bin": b"\0" * 16})))
    assert [c for c in codes(result) if c.startswith("TL80")] == []
