"""Framework-backed stand-ins: the embedded Triton 2.51 lacks the onnxruntime and openvino
backends, and ONNX Runtime and OpenVINO (the ``onnxruntime`` and ``openvino`` packages of the
python backend's interpreter) load the models of those backends instead, through Python-based
backends shipped with tritonlint.

The models are the real tiny ONNX and OpenVINO IR fixtures of fixtures/model_files (a good one,
one whose config names a tensor the model lacks, one whose model file is cut short...) and an
empty placeholder model.onnx of fixtures/model_repository.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import shutil
from pathlib import Path

import pytest

from tritonlint.cli import main
from tritonlint.smoke import runner
from tritonlint.smoke.runner import framework_words
from tritonlint.tritonserver import TritonInstall
from tritonlint.tritonserver.framework_backends import FRAMEWORKS

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
MODEL_FILES = FIXTURES / "model_files"


def _onnxruntime_version() -> str:
    pytest.importorskip(
        "onnxruntime", reason="onnxruntime is not importable: no framework to load ONNX models"
    )
    return importlib.metadata.version("onnxruntime")


def _openvino_version() -> str:
    pytest.importorskip(
        "openvino", reason="openvino is not importable: no framework to load OpenVINO IR models"
    )
    return importlib.metadata.version("openvino")


def _importable_frameworks() -> dict[str, str]:
    """The version of each framework importable here, by the backend it stands in for."""
    found = {}
    for backend, framework in FRAMEWORKS.items():
        if importlib.util.find_spec(framework.module) is None:
            continue
        for distribution in framework.distributions:
            try:
                found[backend] = importlib.metadata.version(distribution)
                break
            except importlib.metadata.PackageNotFoundError:
                continue
    return found


def _model(source: Path, repo: Path, name: str) -> None:
    """Copy the model folder ``source`` into ``repo`` as ``name`` (its config renamed)."""
    target = shutil.copytree(source, repo / name)
    config = target / "config.pbtxt"
    old = source.name
    config.write_text(config.read_text().replace(f'name: "{old}"', f'name: "{name}"'))


def _repository(tmp_path: Path, *names: str) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    sources = {
        "good": MODEL_FILES / "repository" / "resnet_onnx",
        "typo": MODEL_FILES / "broken" / "input-name-typo" / "resnet_onnx",
        "truncated": MODEL_FILES / "broken" / "truncated-onnx" / "resnet_onnx",
        "fp16": MODEL_FILES / "broken" / "fp16-config-for-fp32-model" / "resnet_onnx",
        "dims": MODEL_FILES / "broken" / "batch-dim-in-dims" / "resnet_onnx",
        "batch1": MODEL_FILES / "broken" / "batching-a-batch-1-model" / "detector_onnx",
        "placeholder": FIXTURES / "model_repository" / "classifier_onnx",
        "echo": FIXTURES / "model_repository" / "echo_python",
        "ov_good": MODEL_FILES / "repository" / "detector_openvino",
        "ov_output": MODEL_FILES / "broken" / "output-not-in-model" / "detector_openvino",
        "ov_rank": MODEL_FILES / "broken" / "rank-mismatch-leading-1-dropped" / "detector_openvino",
    }
    for name in names:
        _model(sources[name], repo, name)
    return repo


@pytest.mark.server
@pytest.mark.usefixtures("no_tritonserver_on_path")
def test_onnxruntime_loads_a_good_model_and_refuses_a_wrong_one_with_the_backends_words(
    triton_install: TritonInstall, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    version = _onnxruntime_version()
    repo = _repository(
        tmp_path, "good", "typo", "truncated", "fp16", "dims", "batch1", "placeholder", "echo"
    )
    report_file = tmp_path / "report.json"
    code = main(["smoke", "--cpu-only", "--format", "json", "-o", str(report_file), str(repo)])
    assert code == 1
    report = json.loads(report_file.read_text())
    models = {m["name"]: m for m in report["models"]}
    loaded_by_ort = (
        f"loaded by onnxruntime {version} standing in for Triton's onnxruntime backend "
        "(CPU execution provider)"
    )
    assert {name: (m["status"], m["status_text"]) for name, m in models.items()} == {
        "batch1": ("refused", "refused"),
        "dims": ("refused", "refused"),
        "echo": ("loaded", "loaded"),
        "fp16": ("refused", "refused"),
        "good": ("framework", loaded_by_ort),
        "placeholder": ("stubbed", "config validated, backend stubbed"),
        "truncated": ("refused", "refused"),
        "typo": ("refused", "refused"),
    }
    assert report["server"]["frameworks"] == _importable_frameworks()
    assert report["flags_needed"] == {
        "--framework-backends": ["good"],
        "--stub-missing-backends": ["placeholder"],
    }
    refused = "version 1 is at UNAVAILABLE state: Internal: "
    assert models["typo"]["message"] == (
        "load failed for model 'typo': version 1 is at UNAVAILABLE state: Internal: "
        "unexpected inference input 'image', allowed inputs are: images;"
    )
    assert models["truncated"]["message"] == (
        "load failed for model 'truncated': version 1 is at UNAVAILABLE state: Internal: "
        "onnx runtime error 7: Load model from truncated/1/model.onnx failed:Protobuf "
        "parsing failed.;"
    )
    # The messages of fixtures/model_files/broken/README.md, the onnxruntime backend's.
    assert models["fp16"]["message"] == (
        f"load failed for model 'fp16': {refused}unable to load model 'fp16', configuration "
        "expects datatype TYPE_FP16 for input 'images', model provides TYPE_FP32;"
    )
    assert models["dims"]["message"] == (
        f"load failed for model 'dims': {refused}model 'dims', tensor 'images': the model "
        "expects 4 dimensions (shape [-1,3,8,8]) but the model configuration specifies 5 "
        "dimensions (an initial batch dimension because max_batch_size > 0 followed by the "
        "explicit tensor shape, making complete shape [-1,-1,3,8,8]);"
    )
    assert models["batch1"]["message"] == (
        f"load failed for model 'batch1': {refused}model 'batch1', tensor 'images': for the "
        "model to support batching the shape should have at least 1 dimension and the first "
        "dimension must be -1; but shape expected by the model is [1,3,16,16];"
    )
    findings = {(f["code"], f["path"], f["line"]) for f in report["findings"]}
    assert ("TL030", str(repo / "typo" / "config.pbtxt"), 9) in findings
    typo = next(f for f in report["findings"] if f["path"].endswith("typo/config.pbtxt"))
    assert "[predicted by TL902 tensor-not-in-model]" in typo["message"]
    truncated = next(f for f in report["findings"] if "truncated" in f["path"])
    assert truncated["path"] == str(repo / "truncated" / "1" / "model.onnx")
    assert "Protobuf parsing failed." in truncated["message"]

    summary = " ".join(capsys.readouterr().err.split())
    assert (
        "3 of 8 models loaded in" in summary
        and ": 1 config validated by tritonserver 2.51.0 with a stubbed backend, 1 model "
        f"loaded by onnxruntime {version} standing in for the backend, 1 model really loaded. "
        "Not loaded: 5 refused."
        in summary
    ), summary
    assert (
        f"Framework backends: onnxruntime {version} for onnxruntime (batch1, dims, fp16, good, "
        "truncated, typo)" in summary
    )


@pytest.mark.server
@pytest.mark.usefixtures("no_tritonserver_on_path")
@pytest.mark.parametrize(
    ("option", "status"),
    [
        ("--stub-missing-backends", "config validated, backend stubbed"),
        ("--no-framework-backends", "config validated, backend stubbed"),
        ("--no-stub-missing-backends", "backend missing"),
    ],
)
def test_the_stand_ins_of_today_serve_the_model_when_asked_for(
    triton_install: TritonInstall,
    option: str,
    status: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    repo = _repository(tmp_path, "good", "typo")
    assert main(["smoke", option, "--cpu-only", "--format", "json", str(repo)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert {m["name"]: m["status_text"] for m in report["models"]} == {
        "good": status,
        "typo": status,
    }
    assert report["server"]["frameworks"] == {}


@pytest.mark.server
@pytest.mark.usefixtures("no_tritonserver_on_path")
def test_without_onnxruntime_the_model_is_stubbed_and_the_summary_names_the_package(
    triton_install: TritonInstall,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(runner, "framework_version", lambda framework: None)
    repo = _repository(tmp_path, "good")
    monkeypatch.setenv("COLUMNS", "400")
    assert main(["smoke", "--cpu-only", str(repo)]) == 0
    out = capsys.readouterr().out
    assert "│ good  │ config validated, backend stubbed │" in out
    assert (
        "Framework missing: onnxruntime is not installed here, so onnxruntime (good) was "
        "stubbed; `pip install onnxruntime` loads these models with it."
    ) in out


def test_the_stand_ins_traceback_and_exception_name_are_not_the_backends_words() -> None:
    seen = (
        "load failed for model 'typo': version 1 is at UNAVAILABLE state: Internal: "
        "TritonModelException: unexpected inference input 'image', allowed inputs are: "
        "images\n\nAt:\n  /tmp/tritonlint-smoke-x/backends/onnxruntime/model.py(69): "
        "initialize\n;"
    )
    assert framework_words(seen, "onnxruntime") == (
        "load failed for model 'typo': version 1 is at UNAVAILABLE state: Internal: "
        "unexpected inference input 'image', allowed inputs are: images;"
    )


def test_the_framework_options_apply_only_with_smoke(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "--no-framework-backends", str(tmp_path)]) == 2
    assert "--no-framework-backends only apply with --smoke" in capsys.readouterr().err


@pytest.mark.parametrize("shell", ["bash", "fish"])
def test_the_shells_complete_the_framework_options(
    shell: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["completion", shell]) == 0
    script = capsys.readouterr().out
    assert "framework-backends" in script
    assert "no-framework-backends" in script


@pytest.mark.server
@pytest.mark.usefixtures("no_tritonserver_on_path")
def test_openvino_loads_a_good_ir_and_refuses_a_wrong_one_with_the_backends_words(
    triton_install: TritonInstall, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    version = _openvino_version()
    repo = _repository(tmp_path, "ov_good", "ov_output", "ov_rank")
    _model(MODEL_FILES / "repository" / "detector_openvino", repo, "ov_cut")
    xml = repo / "ov_cut" / "1" / "model.xml"
    xml.write_bytes(xml.read_bytes()[:600])  # as an interrupted copy leaves it
    _model(MODEL_FILES / "repository" / "detector_openvino", repo, "ov_nobin")
    (repo / "ov_nobin" / "1" / "model.bin").unlink()
    _model(MODEL_FILES / "repository" / "detector_openvino", repo, "ov_placeholder")
    _model(MODEL_FILES / "repository" / "detector_openvino", repo, "ov_input")
    config = repo / "ov_input" / "config.pbtxt"
    config.write_text(config.read_text().replace('name: "images"', 'name: "image"'))
    (repo / "ov_placeholder" / "1" / "model.xml").write_bytes(b"")
    report_file = tmp_path / "report.json"
    code = main(["smoke", "--cpu-only", "--format", "json", "-o", str(report_file), str(repo)])
    assert code == 1
    report = json.loads(report_file.read_text())
    models = {m["name"]: m for m in report["models"]}
    loaded_by_openvino = (
        f"loaded by openvino {version} standing in for Triton's openvino backend (CPU)"
    )
    assert {name: (m["status"], m["status_text"]) for name, m in models.items()} == {
        "ov_cut": ("refused", "refused"),
        "ov_good": ("framework", loaded_by_openvino),
        "ov_input": ("refused", "refused"),
        "ov_nobin": ("refused", "refused"),
        "ov_output": ("refused", "refused"),
        "ov_placeholder": ("stubbed", "config validated, backend stubbed"),
        "ov_rank": ("refused", "refused"),
    }
    assert report["server"]["frameworks"]["openvino"] == version
    assert report["flags_needed"] == {
        "--framework-backends": ["ov_good"],
        "--stub-missing-backends": ["ov_placeholder"],
    }
    refused = "version 1 is at UNAVAILABLE state: Internal: "
    # The messages of fixtures/model_files/broken/README.md, the openvino backend's.
    assert models["ov_input"]["message"] == (
        f"load failed for model 'ov_input': {refused}unexpected inference input 'image', "
        "allowed inputs are: images;"
    )
    assert models["ov_output"]["message"] == (
        f"load failed for model 'ov_output': {refused}unexpected inference output "
        "'detections', allowed outputs are: boxes, scores;"
    )
    assert models["ov_rank"]["message"] == (
        f"load failed for model 'ov_rank': {refused}model 'ov_rank', tensor 'images': the "
        "model expects 4 dimensions (shape [1,3,16,16]) but the model configuration specifies "
        "3 dimensions (shape [3,16,16]);"
    )
    # OpenVINO's own words, after the backend's "openvino error in reading model : ".
    cut = models["ov_cut"]["message"]
    assert cut.startswith(
        f"load failed for model 'ov_cut': {refused}openvino error in reading model : "
    ), cut
    assert cut.endswith("Start-end tags mismatch at offset 599;"), cut
    nobin = models["ov_nobin"]["message"]
    assert nobin.startswith(
        f"load failed for model 'ov_nobin': {refused}openvino error in reading model : "
    ), nobin
    assert nobin.endswith("Empty weights data in bin file or bin file cannot be found!;"), nobin
    findings = {f["path"]: f["message"] for f in report["findings"]}
    assert (
        "[predicted by TL902 tensor-not-in-model]"
        in findings[str(repo / "ov_output" / "config.pbtxt")]
    )
    assert "Start-end tags mismatch" in findings[str(repo / "ov_cut" / "1" / "model.xml")]

    summary = " ".join(capsys.readouterr().err.split())
    assert (
        "2 of 7 models loaded in" in summary
        and ": 1 config validated by tritonserver 2.51.0 with a stubbed backend, 1 model "
        f"loaded by openvino {version} standing in for the backend. Not loaded: 5 refused."
        in summary
    ), summary
    assert (
        f"Framework backends: openvino {version} for openvino (ov_cut, ov_good, ov_input, "
        "ov_nobin, ov_output, ov_rank)" in summary
    ), summary


@pytest.mark.server
@pytest.mark.usefixtures("no_tritonserver_on_path")
def test_without_openvino_the_ir_model_is_stubbed_and_the_summary_names_the_package(
    triton_install: TritonInstall,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    real_version = runner.framework_version
    monkeypatch.setattr(
        runner,
        "framework_version",
        lambda framework: None if framework.module == "openvino" else real_version(framework),
    )
    repo = _repository(tmp_path, "ov_good")
    monkeypatch.setenv("COLUMNS", "400")
    assert main(["smoke", "--cpu-only", str(repo)]) == 0
    out = capsys.readouterr().out
    assert "│ ov_good │ config validated, backend stubbed │" in out
    assert (
        "Framework missing: openvino is not installed here, so openvino (ov_good) was "
        "stubbed; `pip install openvino` loads these models with it."
    ) in out


def _torch_version() -> str:
    pytest.importorskip(
        "torch", reason="torch is not installed (tritonlint's extra smoke-torch installs it)"
    )
    return importlib.metadata.version("torch")


def _tensorflow_version() -> str:
    pytest.importorskip(
        "tensorflow",
        reason="tensorflow is not installed (tritonlint's extra smoke-tf installs it)",
    )
    return _importable_frameworks()["tensorflow"]


def _rename_input(repo: Path, model: str, old: str, new: str) -> None:
    config = repo / model / "config.pbtxt"
    config.write_text(config.read_text().replace(f'name: "{old}"', f'name: "{new}"'))


@pytest.mark.server
@pytest.mark.usefixtures("no_tritonserver_on_path")
def test_torch_and_tensorflow_load_good_models_and_refuse_wrong_ones_with_the_backends_words(
    triton_install: TritonInstall,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    torch_version = _torch_version()
    tf_version = _tensorflow_version()
    # TensorRT as if installed: on this server without a GPU its models keep the config-only
    # stand-in, saying why.
    real_version = runner.framework_version
    monkeypatch.setattr(
        runner,
        "framework_version",
        lambda framework: "10.3.0" if framework.module == "tensorrt" else real_version(framework),
    )
    repo = tmp_path / "repo"
    repo.mkdir()
    good_torch = MODEL_FILES / "repository" / "text_torch"
    good_tf = MODEL_FILES / "repository" / "tabular_tf"
    _model(good_torch, repo, "pt_good")
    _model(MODEL_FILES / "broken" / "pytorch-three-inputs-for-two" / "text_torch", repo, "pt_three")
    _model(good_torch, repo, "pt_cut")
    pt = repo / "pt_cut" / "1" / "model.pt"
    pt.write_bytes(pt.read_bytes()[:3000])  # as an interrupted copy leaves it
    _model(good_tf, repo, "tf_good")
    _model(good_tf, repo, "tf_input")
    _rename_input(repo, "tf_input", "numeric", "features")
    _model(good_tf, repo, "tf_graphdef")
    graphdef = repo / "tf_graphdef"
    shutil.rmtree(graphdef / "1" / "model.savedmodel")
    (graphdef / "1" / "model.graphdef").write_bytes(b"\n\x0c\n\x01x\x12\x0bPlaceholder")
    config = graphdef / "config.pbtxt"
    config.write_text(config.read_text().replace("tensorflow_savedmodel", "tensorflow_graphdef"))
    (repo / "plan" / "1").mkdir(parents=True)
    (repo / "plan" / "1" / "model.plan").write_bytes(b"ftrt" + bytes(60))
    (repo / "plan" / "config.pbtxt").write_text(
        'platform: "tensorrt_plan"\nmax_batch_size: 8\n'
        'input [ { name: "images" data_type: TYPE_FP32 dims: [ 3, 16, 16 ] } ]\n'
        'output [ { name: "scores" data_type: TYPE_FP32 dims: [ 4 ] } ]\n'
        "instance_group [ { kind: KIND_GPU } ]\n"
    )
    report_file = tmp_path / "report.json"
    code = main(["smoke", "--cpu-only", "--format", "json", "-o", str(report_file), str(repo)])
    assert code == 1
    report = json.loads(report_file.read_text())
    models = {m["name"]: m for m in report["models"]}
    by_torch = f"loaded by torch {torch_version} standing in for Triton's pytorch backend (on CPU)"
    by_tf = (
        f"loaded by tensorflow {tf_version} standing in for Triton's tensorflow backend (on CPU)"
    )
    stubbed = "config validated, backend stubbed"
    assert {name: (m["status"], m["status_text"]) for name, m in models.items()} == {
        "plan": ("stubbed", stubbed),
        "pt_cut": ("refused", "refused"),
        "pt_good": ("framework", by_torch),
        "pt_three": ("refused", "refused"),
        "tf_good": ("framework", by_tf),
        "tf_graphdef": ("stubbed", stubbed),
        "tf_input": ("refused", "refused"),
    }
    assert report["server"]["frameworks"]["pytorch"] == torch_version
    assert report["server"]["frameworks"]["tensorflow"] == tf_version
    refused = "version 1 is at UNAVAILABLE state: Internal: "
    # The messages of fixtures/model_files/broken/README.md and of the backends' sources.
    assert models["pt_three"]["message"] == (
        f"load failed for model 'pt_three': {refused}unable to load model 'pt_three', "
        "configuration expects 3 inputs, model provides 2;"
    )
    cut = models["pt_cut"]["message"]
    assert cut.startswith(
        f"load failed for model 'pt_cut': {refused}failed to load model 'pt_cut': "
        "PytorchStreamReader failed reading zip archive: failed finding central directory"
    ), cut
    assert models["tf_input"]["message"] == (
        f"load failed for model 'tf_input': {refused}unexpected inference input 'features', "
        "allowed inputs are: category, numeric;"
    )
    assert "a GraphDef is not loaded by the tensorflow stand-in" in " ".join(
        models["tf_graphdef"]["adjustments"]
    )
    assert (
        "tensorrt needs a GPU and this server has none: the model file was not loaded, config "
        "validated only" in models["plan"]["adjustments"]
    )
    typo = next(f for f in report["findings"] if f["path"].endswith("tf_input/config.pbtxt"))
    assert "[predicted by TL902 tensor-not-in-model]" in typo["message"]
    three = next(f for f in report["findings"] if f["path"].endswith("pt_three/config.pbtxt"))
    assert "[predicted by TL908 pytorch-forward-mismatch]" in three["message"]

    summary = " ".join(capsys.readouterr().err.split())
    assert (
        f"Framework backends: torch {torch_version} for pytorch (pt_cut, pt_good, pt_three), "
        f"tensorflow {tf_version} for tensorflow (tf_good, tf_input)" in summary
    ), summary
