"""The graph as data (``tritonlint graph --format json``) for the fixtures, against golden
files in tests/graph/golden/. Regenerate them, then review the diff:
``python -m pytest tests/graph/test_graph_data.py --update-golden``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from graph_trees import CASES, NESTED
from helpers import make_tree

from tritonlint.engine import LintOptions
from tritonlint.graph.build import build_graph
from tritonlint.graph.json_data import graph_object, render_json
from tritonlint.graph.model import NodeKind

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("case", sorted(CASES))
def test_graph_data_matches_golden(
    case: str, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    text = render_json(build_graph([Path(CASES[case])], LintOptions()))
    golden = GOLDEN / f"{case}.json"
    if request.config.getoption("--update-golden"):
        golden.write_text(text, encoding="utf-8")
    assert golden.exists(), f"no {golden.name}; run with --update-golden"
    assert text == golden.read_text(encoding="utf-8")


def _edges(data: dict, ensemble: str) -> list[tuple[str, str, str, str, list[int], bool]]:
    found = next(e for e in data["repositories"][0]["ensembles"] if e["name"] == ensemble)
    return [
        (e["source"], e["target"], e["tensor"], e["data_type"], e["dims"], e["batched"])
        for e in found["edges"]
    ]


def test_a_tensor_goes_from_its_writer_to_every_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    data = graph_object(build_graph([Path(CASES["model_repository"])], LintOptions()))
    assert _edges(data, "image_pipeline") == [
        ("input:IMAGE", "step:0", "IMAGE", "TYPE_UINT8", [-1, -1, 3], True),
        ("step:0", "step:1", "pixels", "TYPE_FP32", [3, 224, 224], True),
        ("step:0", "step:2", "pixels", "TYPE_FP32", [3, 224, 224], True),
        ("step:1", "output:CLASS_LOGITS", "CLASS_LOGITS", "TYPE_FP32", [1000], True),
        ("step:2", "output:SEGMENTATION_MASK", "SEGMENTATION_MASK", "TYPE_INT32", [224, 224], True),
    ]
    models = {m["name"]: m for m in data["repositories"][0]["models"]}
    assert models["resnet_trt"]["platform"] == "tensorrt_plan"
    assert models["resnet_trt"]["backend"] == "tensorrt"
    assert models["resnet_trt"]["instance_kinds"] == ["KIND_GPU"]
    assert models["lightseq_transformer"]["instance_kinds"] == ["KIND_AUTO"]
    # the server fills in the backend of a platform, and the platform of a SavedModel folder
    assert models["segmenter_tf"]["backend"] == "tensorflow"
    assert data["repositories"][0]["in_no_ensemble"] == [
        "bert_pytorch",
        "echo_python",
        "lightseq_transformer",
        "resnet_trt",
    ]


def test_a_mismatch_is_on_the_edge_a_missing_model_on_its_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(ROOT)
    mismatch = build_graph([Path(CASES["ensemble_shape_mismatch"])], LintOptions())
    pipeline = mismatch.repositories[0].ensembles["pipeline"]
    flagged = [(e.source, e.target, [f.code for f in e.findings]) for e in pipeline.edges]
    assert flagged[-1] == ("step:1", "output:LOGITS", ["TL715"])
    assert all(not codes for _, _, codes in flagged[:-1])
    finding = pipeline.edges[-1].findings[0]
    assert (finding.path, finding.line, finding.column) == (
        "fixtures/broken/ensemble_shape_mismatch/pipeline/config.pbtxt",
        18,
        42,
    )
    missing = build_graph([Path(CASES["ensemble_missing_model"])], LintOptions())
    repository = missing.repositories[0]
    step = repository.ensembles["pipeline"].node("step:1")
    assert (step.name, [f.code for f in step.findings]) == ("classifier", ["TL708"])
    assert repository.models["classifier"].missing


def test_unconnected_tensors_get_an_end_of_their_own(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    unused = build_graph([Path(CASES["ensemble_tensor_unused"])], LintOptions())
    ensemble = unused.repositories[0].ensembles["pipeline"]
    edge = next(e for e in ensemble.edges if e.target == "unused:gray")
    assert (edge.source, [f.code for f in edge.findings]) == ("step:0", ["TL712"])
    assert ensemble.node("unused:gray").kind is NodeKind.UNUSED
    unproduced = build_graph([Path(CASES["ensemble_output_not_produced"])], LintOptions())
    ensemble = unproduced.repositories[0].ensembles["pipeline"]
    edge = next(e for e in ensemble.edges if e.source == "unproduced:SCORES")
    assert edge.target == "output:SCORES"
    assert [f.code for f in ensemble.node("output:SCORES").findings] == ["TL711"]


def test_a_nested_ensemble_is_a_step_of_the_outer_one(tmp_path: Path) -> None:
    root = make_tree(tmp_path / "models", NESTED)
    repository = build_graph([root], LintOptions()).repositories[0]
    assert list(repository.ensembles) == ["detect_pipeline", "ocr"]
    outer = repository.ensembles["ocr"]
    assert [(n.id, n.name) for n in outer.nodes] == [
        ("input:IMAGE", "IMAGE"),
        ("step:0", "detect_pipeline"),
        ("step:1", "read"),
        ("output:TEXT", "TEXT"),
    ]
    assert repository.models["detect_pipeline"].is_ensemble
    assert repository.in_no_ensemble == ["spare"]
    assert json.loads(render_json(build_graph([root], LintOptions())))["version"] == 1
