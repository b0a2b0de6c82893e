"""Alternative configs: each ``configs/NAME.pbtxt`` of a model folder is checked as the config
``tritonserver --model-config-name NAME`` loads the model with."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import (
    ONNX_MODEL,
    Files,
    codes_at,
    lint,
    locate,
    make_tree,
    model,
    only,
    onnx_ensemble,
    run_cli,
)

from tritonlint.engine import Workspace

Repo = Callable[[Files], Path]

CONFIG = ONNX_MODEL["config.pbtxt"]
assert isinstance(CONFIG, str)
#: The ONNX config with a negative max_batch_size (TL501 at 2:17).
NEGATIVE = CONFIG.replace("max_batch_size: 8", "max_batch_size: -1")
PYTORCH = CONFIG.replace('platform: "onnxruntime_onnx"', 'platform: "pytorch_libtorch"')


def test_findings_are_reported_at_the_alternative_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    make_tree(tmp_path / "models", {**model("m", ONNX_MODEL), "m/configs/big.pbtxt": NEGATIVE})
    status, out, _ = run_cli(["models"], capsys)
    assert status == 1
    line, column = locate(NEGATIVE, "-1")
    assert out.splitlines()[0].startswith(
        f"models/m/configs/big.pbtxt:{line}:{column}: TL501 [error] "
    )
    assert out.splitlines()[-1] == "Found 1 error (1 model checked)."


def test_a_finding_about_the_model_folder_says_which_config_it_comes_with(repo: Repo) -> None:
    root = repo({**model("m", ONNX_MODEL), "m/configs/cpu.pbtxt": PYTORCH})
    found = only(lint(root), "TL217")
    assert found.path == root / "m" / "1"
    assert found.message.endswith("(with configs/cpu.pbtxt)")
    assert "model.pt" in found.message


def test_what_every_config_shares_is_reported_once(repo: Repo) -> None:
    root = repo(
        {"m/config.pbtxt": CONFIG, "m/configs/a.pbtxt": CONFIG, "m/configs/b.pbtxt": CONFIG}
    )
    assert codes_at(lint(root)) == [("TL212", None, None)]


def test_suppressions_in_the_alternative_config_apply_to_it(repo: Repo) -> None:
    text = NEGATIVE.replace("max_batch_size: -1", "max_batch_size: -1  # tritonlint: disable=TL501")
    root = repo({**model("m", ONNX_MODEL), "m/configs/big.pbtxt": text})
    assert codes_at(lint(root)) == []


def test_other_files_in_configs_are_not_configs(repo: Repo) -> None:
    root = repo({**model("m", ONNX_MODEL), "m/configs/notes.txt": "x", "m/configs/old/": None})
    assert codes_at(lint(root)) == []


def test_ensembles_run_the_model_as_its_config_pbtxt_makes_it(repo: Repo) -> None:
    renamed_output = CONFIG.replace('name: "OUTPUT0"', 'name: "LOGITS"')
    root = repo(
        {
            **model("m", ONNX_MODEL),
            "m/configs/renamed.pbtxt": renamed_output,
            "pipeline/config.pbtxt": onnx_ensemble("m"),
            "pipeline/1/": None,
        }
    )
    assert codes_at(lint(root)) == []


def test_naming_an_alternative_config_checks_its_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    make_tree(tmp_path / "models", {**model("m", ONNX_MODEL), "m/configs/big.pbtxt": NEGATIVE})
    make_tree(tmp_path / "models", model("other", ONNX_MODEL))
    status, out, _ = run_cli(["models/m/configs/big.pbtxt"], capsys)
    assert status == 1
    assert out.splitlines()[0].startswith("models/m/configs/big.pbtxt:2:17: TL501 [error] ")
    assert out.splitlines()[-1] == "Found 1 error (1 model checked)."


def test_an_edited_alternative_config_is_checked_again(repo: Repo) -> None:
    root = repo({**model("m", ONNX_MODEL), "m/configs/big.pbtxt": CONFIG})
    workspace = Workspace(root)
    assert workspace.check().diagnostics == []
    big = root / "m" / "configs" / "big.pbtxt"
    workspace.open(big, NEGATIVE)
    found = workspace.check()
    assert [(d.code, d.path) for d in found.diagnostics] == [("TL501", big)]
    assert found.rechecked == {"m"}
    workspace.close(big)
    assert workspace.check().diagnostics == []
