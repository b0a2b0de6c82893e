"""Layout pack: what the cases of tests/rules/cases/ cannot say (an opt-in rule left out by
default, a count of models, where a message starts)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import ONNX_MODEL, Files, codes, lint, locate, model, only, position

from tritonlint.diagnostics import Severity

Repo = Callable[[Files], Path]

CONFIG = ONNX_MODEL["config.pbtxt"]
assert isinstance(CONFIG, str)

LABELLED = CONFIG.replace(
    'output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]',
    'output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 16 ] label_filename: "labels.txt" } ]',
)
assert LABELLED != CONFIG


@pytest.mark.parametrize(
    ("files", "backend"),
    [
        ({"det/1/model.onnx": b""}, "onnxruntime"),
        ({"det/1/model.plan": b""}, "tensorrt"),
        ({"det/1/model.savedmodel/": None}, "tensorflow"),
        ({"det/1/model.xml": b""}, "openvino"),
        ({"det/1/model.py": ""}, "python"),
        ({"det.identity/1/": None}, "identity"),  # backend from the folder name
    ],
)
def test_tl211_model_without_config_relies_on_auto_complete(
    repo: Repo, files: dict[str, str | bytes | None], backend: str
) -> None:
    root = repo(files)
    assert "TL211" not in codes(lint(root))  # opt-in
    found = only(lint(root, extend_select=("TL211",)), "TL211")
    assert found.severity is Severity.WARNING
    assert found.path == root / next(iter(files)).split("/")[0]
    assert found.span is None
    assert backend in found.message
    assert "TL210" not in codes(lint(root))


def test_repository_with_a_model_whose_name_starts_with_a_digit(repo: Repo) -> None:
    root = repo(
        {
            **model("3d_unet", ONNX_MODEL),
            **model("resnet", ONNX_MODEL),
            "resnet/config.pbtxt": 'name: "other"\n' + CONFIG,
        }
    )
    result = lint(root)
    assert result.models_checked == 2
    assert codes(result) == ["TL201"]


# Every field that names a file: tests/rules/test_file_names.py.
@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("labels\\000.txt", "it holds a NUL byte"),
        ("l" * 256, f"'{'l' * 20}...' is longer than the 255 bytes a file name may have"),
        ("labels/" + "é" * 128, "is longer than the 255 bytes"),  # 256 bytes in UTF-8
    ],
    ids=["nul", "256-characters", "256-bytes"],
)
def test_tl221_a_label_file_name_no_file_can_have(repo: Repo, name: str, problem: str) -> None:
    text = LABELLED.replace('"labels.txt"', f'"{name}"')
    root = repo({"m/config.pbtxt": text, "m/1/model.onnx": b"", "m/labels.txt": "cat\n"})
    found = only(lint(root), "TL221")
    assert found.severity is Severity.ERROR
    assert position(found) == locate(text, f'"{name}"')
    assert found.message.startswith("label_filename '")
    assert problem in found.message
    assert "TL218" not in codes(lint(root))


ESTIMATOR_EXPORT: Files = {
    "triton_model_dir/triton_infer_model/export/Servo/1712345678/saved_model.pb": b"",
    "triton_model_dir/triton_infer_model/export/Servo/1712345678/variables/": None,
    "triton_model_dir/triton_infer_model/export/Servo/1700000000/saved_model.pb": b"",
    # The rest of an Estimator's model_dir: graph.pbtxt is no config to rename.
    "triton_model_dir/triton_infer_model/graph.pbtxt": "node { }",
    "triton_model_dir/triton_infer_model/checkpoint": "",
}


@pytest.mark.parametrize(
    "named",
    ["", "triton_model_dir", "triton_model_dir/triton_infer_model"],
    ids=["project", "repository", "model"],
)
def test_tl210_estimator_export_is_reported_at_the_folder_the_server_refuses(
    repo: Repo, named: str
) -> None:
    # tritonserver --model-repository=triton_model_dir polls triton_infer_model as a model
    # and refuses it ("Could not determine backend"); the export below it is no repository.
    root = repo(ESTIMATOR_EXPORT)
    result = lint(root / named)
    assert result.models_checked == 1
    found = only(result, "TL210")
    assert found.path == root / "triton_model_dir" / "triton_infer_model"
    assert found.severity is Severity.ERROR
    assert "(export/Servo/1712345678/saved_model.pb)" in found.message  # the newest export
    assert found.message.endswith(
        "move the contents of export/Servo/1712345678/ into "
        "triton_infer_model/1/model.savedmodel/ and add a config.pbtxt that says platform: "
        '"tensorflow_savedmodel"'
    )
    assert codes(result) == ["TL210"]  # not TL212/TL213 about export/ as well


def test_a_project_that_exports_a_savedmodel_is_not_taken_for_a_model(repo: Repo) -> None:
    root = repo(
        {
            "project/train.py": "",
            "project/export/Servo/1712345678/saved_model.pb": b"",
        }
    )
    result = lint(root / "project")
    assert all(d.path != root / "project" for d in result.diagnostics)


def test_tl223_not_tl211_for_a_folder_with_a_renamed_config(repo: Repo) -> None:
    root = repo({"pre/config.pbtxt.template": 'backend: "python"\n', "pre/1/model.py": ""})
    result = lint(root, extend_select=("TL211",))
    assert codes(result) == ["TL223"]
    found = only(result, "TL223")
    assert found.severity is Severity.WARNING
    assert found.path == root / "pre"
    assert found.span is None
    assert found.message.startswith(
        "tritonserver reads only config.pbtxt and ignores 'config.pbtxt.template': it loads the "
        "model with the config the python backend completes from model.py"
    )
