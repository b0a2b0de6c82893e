"""The backends' auto-complete, emulated: the config ONNX Runtime and TensorFlow leave, step by
step as their sources (onnxruntime_backend src/onnxruntime.cc, tensorflow_backend
src/tensorflow.cc) write it, for model files described here by what a reader returns."""

from __future__ import annotations

from pathlib import Path

import pytest
from google.protobuf import text_format

from tritonlint.modelfiles.signature import ModelSignature, TensorSpec
from tritonlint.repository.backend_auto_complete import AutoCompletion, auto_complete
from tritonlint.repository.backend_model_file import ModelFile
from tritonlint.schema.releases import load_schema

FOLDER = Path("/models/m")


def spec(
    name: str, dims: tuple[int, ...] | None, data_type: str | None = "TYPE_FP32"
) -> TensorSpec:
    return TensorSpec(name, data_type, None, dims)


def model_file(fmt: str, inputs: list[TensorSpec], outputs: list[TensorSpec]) -> ModelFile:
    name = "model.onnx" if fmt == "onnx" else "model.savedmodel/saved_model.pb"
    path = FOLDER / "1" / name
    return ModelFile(path, 1, fmt, ModelSignature(fmt, path, tuple(inputs), tuple(outputs)))


def complete(
    backend: str, file: ModelFile, config: str | None = "", default: int = 4
) -> AutoCompletion | None:
    message = None
    if config is not None:
        message = text_format.Parse(config, load_schema().message_class())
    return auto_complete(message, backend, file, FOLDER, default)


def written(completion: AutoCompletion | None) -> str:
    assert completion is not None
    return text_format.MessageToString(completion.config, as_one_line=True)


# ONNX Runtime

BATCHING = model_file(
    "onnx",
    [spec("ids", (-1, 16), "TYPE_INT64"), spec("scale", (-1,))],
    [spec("logits", (-1, 2))],
)


def test_onnxruntime_completes_a_batching_model_with_the_default_max_batch_size() -> None:
    completion = complete("onnxruntime", BATCHING)
    assert written(completion) == (
        "max_batch_size: 4 "
        'input { name: "ids" data_type: TYPE_INT64 dims: 16 } '
        'input { name: "scale" data_type: TYPE_FP32 dims: 1 reshape { } } '
        'output { name: "logits" data_type: TYPE_FP32 dims: 2 } '
        "dynamic_batching { }"
    )
    assert completion is not None
    assert completion.added == {("input", 0), ("input", 1), ("output", 0)}
    assert completion.max_batch_size
    assert completion.by == "the onnxruntime backend's auto-complete from 1/model.onnx"


@pytest.mark.parametrize(
    ("default", "expected"),
    [
        # default-max-batch-size 0: the model batches, but max_batch_size stays 0, so the dims
        # keep the variable first dimension and a scalar gets no reshape.
        (
            0,
            'input { name: "ids" data_type: TYPE_INT64 dims: -1 dims: 16 } '
            'input { name: "scale" data_type: TYPE_FP32 dims: -1 } '
            'output { name: "logits" data_type: TYPE_FP32 dims: -1 dims: 2 }',
        ),
        # 1: no dynamic batcher (only above 1).
        (
            1,
            "max_batch_size: 1 "
            'input { name: "ids" data_type: TYPE_INT64 dims: 16 } '
            'input { name: "scale" data_type: TYPE_FP32 dims: 1 reshape { } } '
            'output { name: "logits" data_type: TYPE_FP32 dims: 2 }',
        ),
    ],
)
def test_onnxruntime_follows_the_servers_default_max_batch_size(
    default: int, expected: str
) -> None:
    assert written(complete("onnxruntime", BATCHING, default=default)) == expected


def test_onnxruntime_keeps_a_written_max_batch_size_and_batcher() -> None:
    completion = complete("onnxruntime", BATCHING, "max_batch_size: 8 sequence_batching { }")
    assert completion is not None
    assert written(completion).startswith("max_batch_size: 8 input")
    assert not completion.config.HasField("dynamic_batching")
    assert not completion.max_batch_size


def test_onnxruntime_completes_only_the_missing_list() -> None:
    config = 'input { name: "ids" data_type: TYPE_INT64 dims: 16 }'
    completion = complete("onnxruntime", BATCHING, config)
    assert completion is not None
    assert completion.added == {("output", 0)}
    assert [t.name for t in completion.config.input] == ["ids"]
    assert completion.config.max_batch_size == 4  # set whenever it completes anything


def test_onnxruntime_leaves_a_model_that_does_not_batch_at_max_batch_size_0() -> None:
    fixed = model_file("onnx", [spec("x", (1, 3)), spec("y", None)], [spec("z", (1, 3))])
    assert written(complete("onnxruntime", fixed)) == (
        'input { name: "x" data_type: TYPE_FP32 dims: 1 dims: 3 } '
        'input { name: "y" data_type: TYPE_FP32 dims: 1 } '
        'output { name: "z" data_type: TYPE_FP32 dims: 1 dims: 3 }'
    )
    # and refuses it with max_batch_size above 0: nothing is completed.
    assert complete("onnxruntime", fixed, "max_batch_size: 2") is None


def test_a_model_without_config_is_completed_from_nothing() -> None:
    completion = complete("onnxruntime", BATCHING, None)
    assert completion is not None and len(completion.added) == 3


def test_other_backends_complete_nothing() -> None:
    assert complete("tensorrt", BATCHING) is None
    assert complete("onnxruntime", model_file("torchscript", [spec("x", None)], [])) is None


# TensorFlow SavedModel

SIGNATURE = model_file(
    "savedmodel",
    [spec("features", (-1, 3)), spec("mask", (-1, 3), "TYPE_BOOL")],
    [spec("scores", (-1, 1)), spec("label", (-1,), "TYPE_STRING")],
)
BY_TF = "the tensorflow backend's auto-complete from 1/model.savedmodel"


def test_tensorflow_completes_an_empty_config_as_batching() -> None:
    completion = complete("tensorflow", SIGNATURE)
    assert written(completion) == (
        "max_batch_size: 4 "
        'input { name: "features" data_type: TYPE_FP32 dims: 3 } '
        'input { name: "mask" data_type: TYPE_BOOL dims: 3 } '
        'output { name: "scores" data_type: TYPE_FP32 dims: 1 } '
        'output { name: "label" data_type: TYPE_STRING dims: 1 reshape { } } '
        "dynamic_batching { }"
    )
    assert completion is not None and completion.by == BY_TF


def test_tensorflow_fills_in_declared_tensors_and_adds_the_others() -> None:
    config = 'input { name: "mask" data_type: TYPE_BF16 } output { name: "scores" }'
    completion = complete("tensorflow", SIGNATURE, config)
    assert written(completion) == (
        "max_batch_size: 4 "
        'input { name: "mask" data_type: TYPE_BOOL dims: 3 } '
        'input { name: "features" data_type: TYPE_FP32 dims: 3 } '
        'output { name: "scores" data_type: TYPE_FP32 dims: 1 } '
        "dynamic_batching { }"
    )
    assert completion is not None
    assert completion.filled == {("input", 0), ("output", 0)}
    assert completion.added == {("input", 1)}


def test_tensorflow_reads_batching_from_the_written_dims() -> None:
    full = 'input { name: "features" data_type: TYPE_FP32 dims: [ -1, 3 ] }'
    assert written(complete("tensorflow", SIGNATURE, full)) == (
        'input { name: "features" data_type: TYPE_FP32 dims: -1 dims: 3 } '
        'input { name: "mask" data_type: TYPE_BOOL dims: -1 dims: 3 } '
        'output { name: "scores" data_type: TYPE_FP32 dims: -1 dims: 1 } '
        'output { name: "label" data_type: TYPE_STRING dims: -1 }'
    )
    # A ragged input says it batches, whatever the dims.
    ragged = full.replace("}", "allow_ragged_batch: true }")
    assert written(complete("tensorflow", SIGNATURE, ragged)).startswith("max_batch_size: 4 ")


@pytest.mark.parametrize(
    ("backend", "fixed", "config"),
    [
        pytest.param(
            "onnxruntime",
            BATCHING,
            'batch_input { kind: BATCH_ELEMENT_COUNT target_name: "n" data_type: TYPE_INT32 '
            'source_input: "ids" } output { name: "logits" data_type: TYPE_FP32 dims: 2 }',
            id="onnxruntime-counts-batch-inputs-as-inputs",
        ),
        pytest.param(
            "tensorflow",
            SIGNATURE,
            'input { name: "features" data_type: TYPE_FP32 dims: [ 3 ] } '
            'input { name: "mask" data_type: TYPE_BOOL dims: [ -1, 3 ] }',
            id="tensorflow-refuses-contradicting-dims",
        ),
    ],
)
def test_the_backend_completes_nothing(backend: str, fixed: ModelFile, config: str) -> None:
    assert complete(backend, fixed, config) is None


def test_tensorflow_refuses_batching_a_signature_that_does_not() -> None:
    fixed = model_file("savedmodel", [spec("x", (2, 3))], [spec("y", (2,))])
    assert complete("tensorflow", fixed, "max_batch_size: 4") is None
    assert written(complete("tensorflow", fixed)).startswith('input { name: "x" data_type')


def test_tensorflow_refuses_a_rank_0_tensor_it_must_give_dims() -> None:
    scalar_out = model_file("savedmodel", [spec("x", (-1, 3))], [spec("y", ())])
    assert complete("tensorflow", scalar_out) is None
    # A declared output's missing dims stay missing there (the backend ignores that error);
    # no declared tensor of rank above 0 says the model batches, so it does not.
    completion = complete("tensorflow", scalar_out, 'output { name: "y" }')
    assert written(completion) == (
        'input { name: "x" data_type: TYPE_FP32 dims: -1 dims: 3 } '
        'output { name: "y" data_type: TYPE_FP32 }'
    )
    unknown_rank_in = model_file("savedmodel", [spec("x", None)], [spec("y", (-1,))])
    assert complete("tensorflow", unknown_rank_in) is None


def test_tensorflow_does_not_add_inputs_the_batcher_feeds() -> None:
    signature = model_file(
        "savedmodel",
        [spec("features", (-1, 3)), spec("offsets", (-1,), "TYPE_INT32"), spec("start", (-1,))],
        [spec("scores", (-1, 1))],
    )
    config = (
        'batch_input { kind: BATCH_ACCUMULATED_ELEMENT_COUNT target_name: "offsets" '
        'data_type: TYPE_INT32 source_input: "features" } '
        'sequence_batching { control_input { name: "start" '
        "control { kind: CONTROL_SEQUENCE_START int32_false_true: [ 0, 1 ] } } }"
    )
    completion = complete("tensorflow", signature, config)
    assert completion is not None
    assert [t.name for t in completion.config.input] == ["features"]
    assert not completion.config.HasField("dynamic_batching")  # a sequence batcher is set


def test_no_completion_for_types_the_backend_cannot_load() -> None:
    bf16 = model_file("savedmodel", [spec("x", (-1,), None)], [spec("y", (-1,))])
    assert complete("tensorflow", bf16) is None
