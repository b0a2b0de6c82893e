"""Rules that judge a config as the server loads it: with what the ONNX Runtime and TensorFlow
backends' auto-complete writes into it from the model file (inputs, outputs, max_batch_size).

The ONNX models are made here with ``onnx.helper``; the SavedModel is the one TensorFlow made
for the reader's tests (tests/data/modelfiles/savedmodel/simple: input ``features`` [-1, 3],
output ``scores`` [-1, 1])."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

import pytest
from helpers import Files, codes, codes_at, lint, locate, only, position, with_code
from onnx import TensorProto, helper

from rules.pipelines import GOOD_STEP
from rules.pipelines import ensemble as pipeline_ensemble
from tritonlint.engine import Workspace

Repo = Callable[[Files], Path]

Shape = Sequence[int | str] | None
SAVEDMODEL = Path(__file__).parents[1] / "data" / "modelfiles" / "savedmodel" / "simple"


def onnx_model(
    inputs: Sequence[tuple[str, Shape]],
    outputs: Sequence[tuple[str, Shape]],
    element: int = TensorProto.FLOAT,
) -> bytes:
    """A model whose outputs each copy the first input (the readers read only the graph's
    inputs and outputs)."""
    graph = helper.make_graph(
        [helper.make_node("Identity", [inputs[0][0]], [name]) for name, _ in outputs],
        "model",
        [helper.make_tensor_value_info(name, element, shape) for name, shape in inputs],
        [helper.make_tensor_value_info(name, element, shape) for name, shape in outputs],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    return model.SerializeToString()


#: Batches: every input and output has a variable first dimension.
BATCHING = onnx_model([("input", ["N", 4])], [("probs", ["N", 10])])
#: Does not batch: the first dimensions are fixed.
FIXED = onnx_model([("input", [1, 4])], [("probs", [1, 10])])

ONNX_ONLY = 'platform: "onnxruntime_onnx"\n'


ensemble = partial(pipeline_ensemble, max_batch_size=4, image_dims="4")


def pipeline(
    ensemble_text: str, classifier: str | None = ONNX_ONLY, model: bytes = BATCHING
) -> Files:
    files: dict[str, str | bytes | None] = {
        "pipeline/config.pbtxt": ensemble_text,
        "pipeline/1/": None,
        "classifier/1/model.onnx": model,
    }
    if classifier is not None:
        files["classifier/config.pbtxt"] = classifier
    return files


BY_ORT = "the onnxruntime backend's auto-complete from 1/model.onnx"


# A config the server loads is not flagged.


def test_an_ensemble_of_an_onnx_model_whose_config_leaves_everything_out_is_clean(
    repo: Repo,
) -> None:
    assert codes(lint(repo(pipeline(ensemble(GOOD_STEP))))) == []


def test_a_batcher_on_an_onnx_model_the_backend_gives_a_max_batch_size(repo: Repo) -> None:
    """ONNX Runtime sets max_batch_size 4 where the config has no inputs: the batcher works."""
    text = ONNX_ONLY + "dynamic_batching { }\n"
    assert codes(lint(repo({"m/config.pbtxt": text, "m/1/model.onnx": BATCHING}))) == []
    # With a placeholder there is nothing to read: the config is judged as written.
    placeholder = repo({"p/config.pbtxt": text, "p/1/model.onnx": b""})
    assert codes(lint(placeholder / "p")) == ["TL506"]


@pytest.mark.parametrize(
    ("text", "model"),
    [
        pytest.param(
            ONNX_ONLY + "dynamic_batching { }\n",
            FIXED,
            id="no-max-batch-size-for-a-model-that-does-not-batch",
        ),
        pytest.param(
            ONNX_ONLY + 'input [ { name: "input" data_type: TYPE_FP32 dims: [ -1, 4 ] } ]\n'
            'output [ { name: "probs" data_type: TYPE_FP32 dims: [ -1, 10 ] } ]\n'
            "dynamic_batching { }\n",
            BATCHING,
            id="nothing-where-inputs-and-outputs-are-written",
        ),
    ],
)
def test_a_batcher_without_a_max_batch_size_the_backend_sets(
    repo: Repo, text: str, model: bytes
) -> None:
    root = repo({"m/config.pbtxt": text, "m/1/model.onnx": model})
    assert codes(lint(root)) == ["TL506"]


def test_a_batch_output_may_name_an_output_the_backend_adds(repo: Repo) -> None:
    text = (
        ONNX_ONLY + "max_batch_size: 4\n"
        'input [ { name: "input" data_type: TYPE_FP32 dims: [ 4 ] allow_ragged_batch: true } ]\n'
        "dynamic_batching { }\n"
        'batch_output [ { kind: BATCH_SCATTER_WITH_INPUT_SHAPE target_name: [ "probs" ] '
        'source_input: [ "input" ] } ]\n'
    )
    root = repo({"m/config.pbtxt": text, "m/1/model.onnx": BATCHING})
    assert codes(lint(root)) == []
    misspelt = text.replace('target_name: [ "probs" ]', 'target_name: [ "prob" ]')
    repo({"m/config.pbtxt": misspelt})
    finding = only(lint(root), "TL422")
    assert finding.message == (
        f"unknown target output name 'prob' for m (the outputs, with those {BY_ORT} adds: probs)"
    )


def test_an_empty_reshape_is_allowed_once_the_backend_makes_the_model_batch(repo: Repo) -> None:
    text = (
        ONNX_ONLY + 'input [ { name: "input" data_type: TYPE_FP32 dims: [ 1 ] '
        "reshape { shape: [ ] } } ]\n"
    )
    model = onnx_model([("input", ["N"])], [("probs", ["N", 10])])
    root = repo({"m/config.pbtxt": text, "m/1/model.onnx": model})
    assert "TL405" not in codes(lint(root))
    repo({"m/1/model.onnx": onnx_model([("input", [])], [("probs", [10])])})
    assert "TL405" in codes(lint(root))


# A config the server refuses is flagged, where the user can act.


def test_a_step_mapping_a_tensor_the_onnx_model_does_not_have(repo: Repo) -> None:
    step = GOOD_STEP.replace('key: "input"', 'key: "images"')
    text = ensemble(step)
    result = lint(repo(pipeline(text)))
    assert sorted(codes(result)) == ["TL713", "TL714"]
    unknown = only(result, "TL713")
    assert position(unknown) == locate(text, '"images"')
    assert unknown.message == (
        "in ensemble pipeline, ensemble tensor IMAGE is mapping to non-existing input images in "
        f"model classifier (its inputs, completed by {BY_ORT}: input)"
    )
    assert [(r.path.parent.name, r.path.name) for r in unknown.related] == [
        ("classifier", "config.pbtxt")
    ]
    unmapped = only(result, "TL714")
    assert position(unmapped) == locate(text, '"classifier"')
    assert unmapped.message == (
        "in ensemble pipeline, input input in model classifier is not mapped to any ensemble "
        f"tensors (the input is added by {BY_ORT})"
    )
    (declared,) = unmapped.related
    assert (declared.path.parent.name, declared.path.name, declared.span) == (
        "1",
        "model.onnx",
        None,
    )
    assert declared.message == f"input input of classifier, which {BY_ORT} adds to its config"


def test_with_a_placeholder_model_file_the_step_is_not_judged(repo: Repo) -> None:
    step = GOOD_STEP.replace('key: "input"', 'key: "images"')
    assert codes(lint(repo(pipeline(ensemble(step), model=b"")))) == []


def test_a_composing_model_without_a_config_is_completed_whole(repo: Repo) -> None:
    step = GOOD_STEP.replace('key: "probs"', 'key: "logits"')
    result = lint(repo(pipeline(ensemble(step), classifier=None)))
    unknown = only(result, "TL713")
    assert unknown.message.endswith(f"(its outputs, completed by {BY_ORT}: probs)")
    (defined,) = unknown.related
    assert defined.path.name == "model.onnx"
    assert defined.message == f"model 'classifier' has no config; {BY_ORT} writes one"


def test_an_ensemble_batch_above_the_default_the_backend_sets(repo: Repo) -> None:
    text = ensemble(GOOD_STEP, max_batch_size=8)
    finding = only(lint(repo(pipeline(text))), "TL716")
    assert position(finding) == locate(text, "8")
    assert finding.message == (
        "ensemble pipeline allows maximum batch size 8, but it contains model classifier which "
        "only allows maximum batch size to be 4 (classifier's config gives no max_batch_size: "
        f"{BY_ORT} sets it to 4, the server's default-max-batch-size)"
    )
    assert [r.path.name for r in finding.related] == ["model.onnx"]
    # A model that does not batch keeps max_batch_size 0, which any ensemble may exceed.
    unbatched = lint(
        repo(pipeline(ensemble(GOOD_STEP, max_batch_size=0, io=_FULL_IO), model=FIXED))
    )
    assert codes(unbatched) == []


_FULL_IO = (
    'input [ { name: "IMAGE" data_type: TYPE_FP32 dims: [ 1, 4 ] } ]\n'
    'output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 1, 10 ] } ]\n'
)


def test_a_data_type_that_differs_from_the_completed_tensor(repo: Repo) -> None:
    model = onnx_model([("input", ["N", 4])], [("probs", ["N", 10])], TensorProto.FLOAT16)
    finding, _ = with_code(lint(repo(pipeline(ensemble(GOOD_STEP), model=model))), "TL715")
    assert finding.message == (
        "in ensemble pipeline, ensemble tensor IMAGE: inconsistent data type: TYPE_FP32 is "
        "inferred from model pipeline while TYPE_FP16 is inferred from model classifier "
        f"(classifier's tensor is added by {BY_ORT})"
    )
    assert [r.path.name for r in finding.related] == ["config.pbtxt", "model.onnx"]


WARMUP = """
platform: "onnxruntime_onnx"
model_warmup [ {
  name: "zeros"
  batch_size: 4
  inputs { key: "input" value { data_type: TYPE_FP32 dims: [ 4 ] zero_data: true } }
} ]
"""


def test_warmup_samples_are_checked_against_the_completed_inputs(repo: Repo) -> None:
    root = repo({"m/config.pbtxt": WARMUP, "m/1/model.onnx": BATCHING})
    assert codes(lint(root)) == []

    misspelt = WARMUP.replace('key: "input"', 'key: "images"')
    repo({"m/config.pbtxt": misspelt})
    finding = only(lint(root), "TL801")
    assert position(finding) == locate(misspelt, "{\n  name")
    assert finding.message.endswith(
        f"(images is not an input) ('input' is not in the config: {BY_ORT} adds it)"
    )

    shaped = WARMUP.replace("dims: [ 4 ]", "dims: [ 1, 4 ]")
    repo({"m/config.pbtxt": shaped})
    finding = only(lint(root), "TL805")
    assert position(finding) == locate(shaped, "[ 1, 4 ]")
    assert "Expected [-1,4], got [1,1,4]." in finding.message
    assert finding.message.endswith(f"(input 'input' is not in the config: {BY_ORT} adds it)")

    too_large = WARMUP.replace("batch_size: 4", "batch_size: 8")
    repo({"m/config.pbtxt": too_large})
    finding = only(lint(root), "TL806")
    assert finding.message == (
        "warmup sample 'zeros' has batch_size 8, above what the model takes (4) (the config "
        f"gives no max_batch_size: {BY_ORT} sets it to 4, the server's default-max-batch-size)"
    )


def test_an_optional_input_on_a_model_the_backend_makes_batch(repo: Repo) -> None:
    text = (
        ONNX_ONLY + 'input [ { name: "input" data_type: TYPE_FP32 dims: [ 4 ] optional: true } ]\n'
    )
    root = repo({"m/config.pbtxt": text, "m/1/model.onnx": BATCHING})
    finding = only(lint(root), "TL871")
    assert position(finding) == locate(text, "true")
    assert finding.message.endswith(
        "is not supported for models that support batching (the config gives no "
        f"max_batch_size: {BY_ORT} sets it to 4, the server's default-max-batch-size)"
    )
    repo({"m/1/model.onnx": FIXED})
    assert "TL871" not in codes(lint(root))


def test_a_zero_dimension_the_backend_copies_from_the_model(repo: Repo) -> None:
    model = onnx_model([("input", [0, 4])], [("probs", [1, 10])])
    root = repo({"m/config.pbtxt": 'name: "m"\n' + ONNX_ONLY, "m/1/model.onnx": model})
    finding = only(lint(root), "TL404")
    assert position(finding) == locate('name: "m"', '"m"')
    assert finding.message == (
        "model input 'input' dimension must be integer >= 1, or -1 to indicate a variable-size "
        f"dimension for m (found 0: {BY_ORT} writes the model's dims into the config)"
    )


def test_an_editor_sees_a_new_model_file_once_told_of_it(repo: Repo) -> None:
    """A workspace re-checks the ensemble when its composing model's model file changes."""
    step = GOOD_STEP.replace('key: "input"', 'key: "images"')
    root = repo(pipeline(ensemble(step)))
    workspace = Workspace(root)
    assert sorted(codes(workspace.check().diagnostics)) == ["TL713", "TL714"]
    renamed = onnx_model([("images", ["N", 4])], [("probs", ["N", 10])])
    (root / "classifier" / "1" / "model.onnx").write_bytes(renamed)
    workspace.refresh(root / "classifier" / "1" / "model.onnx")
    result = workspace.check()
    assert result.rechecked == {"classifier", "pipeline"}
    assert codes(result.diagnostics) == []


# Where the emulation cannot be exact, or the backend refuses, nothing is completed.


@pytest.mark.parametrize(
    "model",
    [
        # ONNX Runtime takes an output's shape from its own shape inference.
        onnx_model([("input", ["N", 4])], [("probs", None)]),
        # A tensor type Triton has no name for.
        onnx_model([("input", ["N", 4])], [("probs", ["N", 10])], TensorProto.COMPLEX64),
    ],
    ids=["output without a shape", "complex64"],
)
def test_no_completion_where_the_file_does_not_say_what_the_backend_sees(
    repo: Repo, model: bytes
) -> None:
    step = GOOD_STEP.replace('key: "input"', 'key: "images"')
    result = lint(repo(pipeline(ensemble(step), model=model)))
    assert not {"TL713", "TL714"} & set(codes(result))


def test_no_completion_where_the_backend_refuses_the_max_batch_size(repo: Repo) -> None:
    """ONNX Runtime refuses max_batch_size > 0 for a model whose first dims are fixed."""
    classifier = ONNX_ONLY + "max_batch_size: 4\n"
    step = GOOD_STEP.replace('key: "input"', 'key: "images"')
    result = lint(repo(pipeline(ensemble(step), classifier, model=FIXED)))
    assert not {"TL713", "TL714"} & set(codes(result))


# TensorFlow SavedModel


def savedmodel_pipeline(repo: Repo, ensemble_text: str, config: str) -> Path:
    root = repo(
        {
            "pipeline/config.pbtxt": ensemble_text,
            "pipeline/1/": None,
            "regressor/config.pbtxt": config,
        }
    )
    shutil.copytree(SAVEDMODEL, root / "regressor" / "1" / "model.savedmodel")
    return root


TF_STEP = (
    'model_name: "regressor" model_version: -1 '
    'input_map { key: "features" value: "X" } output_map { key: "scores" value: "Y" }'
)
TF_IO = (
    'input [ { name: "X" data_type: TYPE_FP32 dims: [ 3 ] } ]\n'
    'output [ { name: "Y" data_type: TYPE_FP32 dims: [ 1 ] } ]\n'
)
TF_ONLY = 'platform: "tensorflow_savedmodel"\n'
BY_TF = "the tensorflow backend's auto-complete from 1/model.savedmodel"


def test_an_ensemble_of_a_savedmodel_whose_config_leaves_everything_out(repo: Repo) -> None:
    root = savedmodel_pipeline(repo, ensemble(TF_STEP, io=TF_IO), TF_ONLY)
    assert codes(lint(root)) == []
    step = TF_STEP.replace('key: "scores"', 'key: "score"')
    repo({"pipeline/config.pbtxt": ensemble(step, io=TF_IO)})
    finding = only(lint(root), "TL713")
    assert finding.message.endswith(f"(its outputs, completed by {BY_TF}: scores)")


def test_the_savedmodel_batches_by_the_dims_the_config_writes(repo: Repo) -> None:
    """Dims one shorter than the model's rank say the model batches, as many say it does not."""
    batching = TF_ONLY + 'input [ { name: "features" data_type: TYPE_FP32 dims: [ 3 ] } ]\n'
    root = savedmodel_pipeline(repo, ensemble(TF_STEP, max_batch_size=8, io=TF_IO), batching)
    finding = only(lint(root), "TL716")
    assert finding.message.endswith(
        f"(regressor's config gives no max_batch_size: {BY_TF} sets it to 4, the server's "
        "default-max-batch-size)"
    )
    whole = TF_ONLY + 'input [ { name: "features" data_type: TYPE_FP32 dims: [ -1, 3 ] } ]\n'
    full_io = TF_IO.replace("[ 3 ]", "[ -1, 3 ]").replace("[ 1 ]", "[ -1, 1 ]")
    repo(
        {
            "regressor/config.pbtxt": whole,
            "pipeline/config.pbtxt": ensemble(TF_STEP, max_batch_size=0, io=full_io),
        }
    )
    assert codes_at(lint(root)) == []
