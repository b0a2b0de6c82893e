"""Ensemble rules that compare each step with the config of the model it runs."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

from helpers import Files, codes, lint, only, position

from rules.pipelines import GOOD_STEP
from rules.pipelines import ensemble as pipeline_ensemble

Repo = Callable[[Files], Path]

CLASSIFIER = """
name: "classifier"
platform: "onnxruntime_onnx"
max_batch_size: 8
input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 4 ] } ]
output [ { name: "probs" data_type: TYPE_FP32 dims: [ 10 ] } ]
"""


_ensemble = partial(pipeline_ensemble, max_batch_size=8, image_dims="3, 4")


def _repository(ensemble: str, classifier: str = CLASSIFIER) -> Files:
    return {
        "pipeline/config.pbtxt": ensemble,
        "pipeline/1/.gitkeep": b"",
        "classifier/config.pbtxt": classifier,
        "classifier/1/model.onnx": b"",
    }


def test_a_consistent_ensemble_has_no_cross_model_finding(repo: Repo) -> None:
    result = lint(repo(_repository(_ensemble(GOOD_STEP))))
    assert [c for c in codes(result) if c.startswith("TL7")] == []


def test_unknown_input_and_output_names(repo: Repo) -> None:
    step = GOOD_STEP.replace('key: "input"', 'key: "images"').replace(
        'key: "probs"', 'key: "logits"'
    )
    result = lint(repo(_repository(_ensemble(step))))
    unknown = [d for d in result.diagnostics if d.code == "TL713"]
    assert [position(d) for d in unknown] == [(6, 92), (6, 136)]
    assert unknown[0].message.startswith(
        "in ensemble pipeline, ensemble tensor IMAGE is mapping to non-existing input images in "
        "model classifier"
    )
    assert unknown[1].message.startswith(
        "in ensemble pipeline, ensemble tensor PROBS is mapped from non-existing output logits "
        "in model classifier"
    )
    assert unknown[0].related[0].path.name == "config.pbtxt"
    assert unknown[0].related[0].path.parent.name == "classifier"
    # The classifier's real input is then fed by nothing.
    unmapped = only(result, "TL714")
    assert "input input in model classifier is not mapped to any ensemble tensors" in (
        unmapped.message
    )


def test_optional_inputs_may_stay_unmapped(repo: Repo) -> None:
    classifier = CLASSIFIER.replace(
        "input [", 'input [ { name: "mask" data_type: TYPE_BOOL dims: [ 1 ] optional: true },'
    )
    assert "TL714" not in codes(lint(repo(_repository(_ensemble(GOOD_STEP), classifier))))
    required = CLASSIFIER.replace(
        "input [", 'input [ { name: "mask" data_type: TYPE_BOOL dims: [ 1 ] },'
    )
    assert "TL714" in codes(lint(repo(_repository(_ensemble(GOOD_STEP), required))))


def test_data_type_mismatch_names_both_models(repo: Repo) -> None:
    io = (
        'input [ { name: "IMAGE" data_type: TYPE_FP32 dims: [ 3, 4 ] } ]\n'
        'output [ { name: "PROBS" data_type: TYPE_FP16 dims: [ 10 ] } ]\n'
    )
    finding = only(lint(repo(_repository(_ensemble(GOOD_STEP, io=io)))), "TL715")
    assert finding.message == (
        "in ensemble pipeline, ensemble tensor PROBS: inconsistent data type: TYPE_FP16 is "
        "inferred from model pipeline while TYPE_FP32 is inferred from model classifier"
    )
    assert [r.path.parent.name for r in finding.related] == ["pipeline", "classifier"]


def test_shape_mismatch_and_batch_dimension_tolerance(repo: Repo) -> None:
    io = (
        'input [ { name: "IMAGE" data_type: TYPE_FP32 dims: [ 3, 4 ] } ]\n'
        'output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 11 ] } ]\n'
    )
    finding = only(lint(repo(_repository(_ensemble(GOOD_STEP, io=io)))), "TL715")
    assert "inconsistent shape: [-1,11] is inferred from model pipeline while [-1,10]" in (
        finding.message
    )
    # A non-batching ensemble declaring the batch dimension itself matches a batching model.
    io_full = (
        'input [ { name: "IMAGE" data_type: TYPE_FP32 dims: [ -1, 3, 4 ] } ]\n'
        'output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ -1, 10 ] } ]\n'
    )
    result = lint(repo(_repository(_ensemble(GOOD_STEP, max_batch_size=0, io=io_full))))
    assert "TL715" not in codes(result)


def test_ensemble_batch_size_above_a_composing_model(repo: Repo) -> None:
    finding = only(lint(repo(_repository(_ensemble(GOOD_STEP, max_batch_size=32)))), "TL716")
    assert position(finding) == (3, 17)
    assert finding.message == (
        "ensemble pipeline allows maximum batch size 32, but it contains model classifier which "
        "only allows maximum batch size to be 8"
    )


def test_omitted_model_version_means_version_zero(repo: Repo) -> None:
    step = GOOD_STEP.replace(" model_version: -1", "")
    finding = only(lint(repo(_repository(_ensemble(step)))), "TL717")
    assert finding.message.startswith(
        "ensemble 'pipeline' depends on 'classifier' whose required version 0 is not loaded."
    )
    assert "omitted" in finding.message
    served = GOOD_STEP.replace("model_version: -1", "model_version: 1")
    assert "TL717" not in codes(lint(repo(_repository(_ensemble(served)))))


def test_ensembles_that_contain_each_other(repo: Repo) -> None:
    def ensemble_of(name: str, inner: str) -> str:
        return (
            f'name: "{name}"\nplatform: "ensemble"\n'
            'input [ { name: "X" data_type: TYPE_FP32 dims: [ 1 ] } ]\n'
            'output [ { name: "Y" data_type: TYPE_FP32 dims: [ 1 ] } ]\n'
            f'ensemble_scheduling {{ step [ {{ model_name: "{inner}" model_version: -1 '
            'input_map { key: "X" value: "X" } output_map { key: "Y" value: "Y" } } ] }\n'
        )

    root = repo(
        {
            "a/config.pbtxt": ensemble_of("a", "b"),
            "a/1/.gitkeep": b"",
            "b/config.pbtxt": ensemble_of("b", "a"),
            "b/1/.gitkeep": b"",
        }
    )
    cycles = [d for d in lint(root).diagnostics if d.code == "TL718"]
    assert sorted(d.message for d in cycles) == [
        "circular dependency between ensembles: a -> b -> a",
        "circular dependency between ensembles: b -> a -> b",
    ]
    assert {position(d) for d in cycles} == {(5, 44)}


def test_ensemble_step_whose_model_is_refused(repo: Repo) -> None:
    files = _repository(_ensemble(GOOD_STEP))
    del files["classifier/1/model.onnx"]  # the classifier cannot load: no version folder
    root = repo(files)
    finding = only(lint(root), "TL720")
    assert finding.severity.value == "error"
    assert position(finding) == (6, 44)
    assert finding.message.startswith(
        "ensemble 'pipeline' depends on 'classifier' which has no loaded version: tritonserver "
        "refuses 'classifier' (TL212 no-version-folder)"
    )
    assert finding.related[0].path == root / "classifier"
    # Reported also when only the ensemble is linted: the classifier is context.
    assert "TL720" in codes(lint(root / "pipeline"))
    assert "TL720" not in codes(lint(repo(_repository(_ensemble(GOOD_STEP)))))


def test_a_refused_model_fails_every_ensemble_above_it(repo: Repo) -> None:
    files = _repository(_ensemble(GOOD_STEP))
    del files["classifier/1/model.onnx"]
    outer_step = GOOD_STEP.replace('"classifier"', '"pipeline"')
    files["outer/config.pbtxt"] = _ensemble(outer_step).replace('"pipeline"', '"outer"', 1)
    files["outer/1/.gitkeep"] = b""
    found = [d for d in lint(repo(files)).diagnostics if d.code == "TL720"]
    assert sorted(d.path.parent.name for d in found) == ["outer", "pipeline"]
