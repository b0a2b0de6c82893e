"""action.yml, the repository's GitHub Action: a well-formed composite action whose shell steps
do what they say when run as GitHub runs them."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import ONNX_MODEL, make_tree, model

ROOT = Path(__file__).resolve().parents[1]
#: A GitHub expression: ``${{ inputs.paths }}``.
EXPRESSION = re.compile(r"\$\{\{\s*(.+?)\s*\}\}")


@pytest.fixture(scope="module")
def action() -> dict[str, Any]:
    loaded = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def expressions(value: object) -> list[str]:
    """Every expression in a value of the action, however deep."""
    if isinstance(value, str):
        return EXPRESSION.findall(value)
    if isinstance(value, dict):
        return [e for key, item in value.items() for e in expressions(key) + expressions(item)]
    if isinstance(value, list):
        return [e for item in value for e in expressions(item)]
    return []


def test_a_composite_action_with_its_keys(action: dict[str, Any]) -> None:
    assert {"name", "description", "inputs", "outputs", "runs"} <= set(action)
    assert action["runs"]["using"] == "composite"
    for name, spec in action["inputs"].items():
        assert set(spec) <= {"description", "required", "default", "deprecationMessage"}, name
        assert spec["description"] and isinstance(spec.get("default", ""), str), name
    steps = action["runs"]["steps"]
    for step in steps:
        assert ("run" in step) != ("uses" in step), step
        if "run" in step:
            assert step["shell"] == "bash", step  # a composite action's run step needs a shell
            # Inputs reach scripts through the environment, never spliced into the script.
            assert not EXPRESSION.search(step["run"]), step["run"]
        else:
            assert re.fullmatch(r"[\w.-]+/[\w./-]+@v\d+", step["uses"]), step["uses"]
    uses = [step["uses"] for step in steps if "uses" in step]
    assert uses == ["actions/setup-python@v5", "github/codeql-action/upload-sarif@v3"]


def test_every_input_is_declared_and_used(action: dict[str, Any]) -> None:
    used = expressions(action["runs"]) + expressions(action["outputs"])
    inputs = {found.split(".", 1)[1] for found in used if found.startswith("inputs.")}
    for condition in (step.get("if", "") for step in action["runs"]["steps"]):
        inputs |= set(re.findall(r"inputs\.([\w-]+)", condition))
    assert inputs == set(action["inputs"])
    step_ids = {step.get("id") for step in action["runs"]["steps"]}
    for found in used:
        if found.startswith("steps."):
            assert found.split(".")[1] in step_ids, found
    assert {found.split(".")[0] for found in used} == {"inputs", "github", "steps"}


def test_it_installs_from_its_own_checkout(action: dict[str, Any]) -> None:
    [install] = [step for step in action["runs"]["steps"] if "pip install" in step.get("run", "")]
    assert install["env"] == {"ACTION_PATH": "${{ github.action_path }}"}
    assert install["run"].endswith('"$ACTION_PATH"')
    assert install["working-directory"] == "${{ github.action_path }}"


def test_the_install_imports_no_pip_of_the_workspace(
    action: dict[str, Any], tmp_path: Path
) -> None:
    """A pull request that adds a pip/ package at its root gets none of it run by the install,
    even in the workspace (the runner's working folder when no working-directory is set)."""
    [install] = [step for step in action["runs"]["steps"] if "pip install" in step.get("run", "")]
    marker = tmp_path / "ran"
    workspace = make_tree(
        tmp_path / "workspace",
        {"pip/__init__.py": f"open({str(marker)!r}, 'w').close()\n", "pip/__main__.py": ""},
    )
    done = subprocess.run(
        ["bash", "-e", "-c", install["run"]],
        cwd=workspace,
        # No such action folder: the real pip refuses it at once, and installs nothing.
        env={
            **os.environ,
            "ACTION_PATH": str(tmp_path / "no-such-action"),
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        },
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode != 0
    assert "no-such-action" in done.stdout + done.stderr
    assert not marker.exists()


def run_steps(
    action: dict[str, Any], inputs: dict[str, str], workspace: Path
) -> tuple[list[str], dict[str, str], str]:
    """Run the action's shell steps after the install, as a runner would: the names of the
    steps run, the outputs they set, and what they printed; the install is this checkout.
    The job summary they write is ``workspace/step_summary.md``."""
    values = {name: spec.get("default", "") for name, spec in action["inputs"].items()}
    values.update(inputs)
    shim = workspace / "bin" / "tritonlint"
    shim.parent.mkdir()
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m tritonlint "$@"\n')
    shim.chmod(0o755)
    outputs: dict[str, dict[str, str]] = {}

    def evaluate(text: str) -> str:
        def value(found: re.Match[str]) -> str:
            scope, _, name = found[1].partition(".")
            if scope == "inputs":
                return values[name]
            if scope == "steps":
                step, _, output = name.partition(".outputs.")
                return outputs[step][output]
            assert found[1] == "github.action_path"
            return str(ROOT)

        return EXPRESSION.sub(value, text)

    ran, printed = [], ""
    for step in action["runs"]["steps"]:
        condition = step.get("if")
        if condition is not None:
            left, right = (part.strip() for part in condition.split("=="))
            if values[left.removeprefix("inputs.")] != right.strip("'"):
                continue
        if "run" not in step or "pip install" in step["run"]:
            continue
        output_file = workspace / "github_output"
        output_file.write_text("")
        environment = {
            **os.environ,
            **{key: evaluate(value) for key, value in step.get("env", {}).items()},
            "PATH": f"{shim.parent}{os.pathsep}{os.environ['PATH']}",
            "PYTHONPATH": str(ROOT),
            "GITHUB_OUTPUT": str(output_file),
            "GITHUB_STEP_SUMMARY": str(workspace / "step_summary.md"),
            "GITHUB_ACTIONS": "true",
        }
        done = subprocess.run(
            ["bash", "-e", "-c", step["run"]],
            cwd=workspace,
            env=environment,
            capture_output=True,
            text=True,
            check=False,
        )
        ran.append(f"{step['name']}: {done.returncode}")
        printed += done.stdout + done.stderr
        written = dict(line.split("=", 1) for line in output_file.read_text().splitlines())
        outputs[step.get("id", "")] = written
        if done.returncode != 0:
            break
    return ran, outputs.get("lint", {}), printed


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    make_tree(
        tmp_path / "models",
        {
            **model("renamed", ONNX_MODEL),
            "renamed/config.pbtxt": 'name: "other"\n' + str(ONNX_MODEL["config.pbtxt"]),
            **model("warned", ONNX_MODEL),
            "warned/v1/": None,
        },
    )
    return tmp_path


def test_the_steps_annotate_and_fail_on_errors(action: dict[str, Any], workspace: Path) -> None:
    ran, outputs, printed = run_steps(action, {"paths": "models"}, workspace)
    assert ran == [
        "Lint (findings as annotations): 0",
        "Ensemble graphs in the job summary: 0",
        "Fail on findings: 1",
    ]
    assert outputs == {"exit-code": "1"}
    assert printed.splitlines()[:2] == [
        "::error file=models/renamed/config.pbtxt,line=1,col=7,endLine=1,endColumn=14,"
        "title=TL201 name-mismatch::" + printed.split("name-mismatch::", 1)[1].split("\n")[0],
        "::warning file=models/warned/v1,title=TL213 ignored-version-folder::subfolder 'v1' is "
        "not a version number; tritonserver ignores it",
    ]


def test_the_steps_with_args_and_sarif(action: dict[str, Any], workspace: Path) -> None:
    inputs = {"paths": "models/warned models/renamed", "args": "--ignore TL201", "sarif": "true"}
    ran, outputs, printed = run_steps(action, inputs, workspace)
    assert ran == [
        "Lint (findings as annotations): 0",
        "Ensemble graphs in the job summary: 0",
        "SARIF report: 0",
        "Fail on findings: 0",
    ]
    assert outputs == {"exit-code": "0"}
    assert "TL201" not in printed and "::warning file=models/warned/v1," in printed
    sarif = json.loads((workspace / "tritonlint.sarif").read_text(encoding="utf-8"))
    assert [r["ruleId"] for r in sarif["runs"][0]["results"]] == ["TL213"]
    # A usage error fails at once.
    ran, outputs, printed = run_steps(action, {"args": "--select TL999"}, workspace / "models")
    assert ran == [
        "Lint (findings as annotations): 0",
        "Ensemble graphs in the job summary: 0",
        "Fail on findings: 2",
    ]
    assert "no rule code, prefix or name matches 'TL999'" in printed


def test_the_summary_draws_each_repository_with_findings(
    action: dict[str, Any], workspace: Path
) -> None:
    """A heading and a Mermaid graph per repository with findings, in the order found, the
    failing parts in the graph's error classes; a repository without findings in one line."""
    fixtures = ROOT / "fixtures"
    shutil.copytree(fixtures / "broken/ensemble_tensor_unused", workspace / "unused")
    shutil.copytree(fixtures / "broken/ensemble_missing_model", workspace / "missing")
    make_tree(workspace / "clean", model("alone", ONNX_MODEL))
    paths = "models unused missing clean"
    ran, _, _ = run_steps(action, {"paths": paths}, workspace)
    assert ran[1:] == ["Ensemble graphs in the job summary: 0", "Fail on findings: 1"]
    summary = (workspace / "step_summary.md").read_text(encoding="utf-8")
    sections = summary.split("### ")
    assert sections[0] == ""
    headings = [section.partition("\n")[0] for section in sections[1:]]
    assert headings == [
        "Ensemble graph of `missing`",
        "Ensemble graph of `models`",
        "Ensemble graph of `unused`",
    ]
    missing, models, unused = sections[1:]
    # the step that runs no model: an error box
    assert "\n1 error (`tritonlint check` lists every finding" in missing
    assert '\n    n3["classifier<br>no such model"]\n' in missing
    assert "\n  classDef error fill:#fde2e2,stroke:#c62828,stroke-width:2px\n" in missing
    assert "\n  class n3 error\n```\n" in missing
    # models in no ensemble, drawn because of their findings
    assert "\n1 error, 1 warning (" in models
    assert '\n  n1["renamed<br>onnxruntime_onnx<br>' in models
    assert "\n  class n1 error\n" in models and "\n  class n2 warning\n" in models
    # the tensor nothing reads: its arrow (the fourth) in the error style
    assert '\n  n2 -->|"gray: FP32 [B,224,224]"| n5\n' in unused
    assert "\n  linkStyle 3 stroke:#c62828,stroke-width:2px\n```\n" in unused
    assert unused.endswith("```\n\nNo findings in `clean`.\n")
    for section in sections[1:]:
        assert section.count("```mermaid\nflowchart LR\n") == 1


def test_the_summary_can_be_left_out(action: dict[str, Any], workspace: Path) -> None:
    ran, _, _ = run_steps(action, {"paths": "models", "summary": "false"}, workspace)
    assert ran == ["Lint (findings as annotations): 0", "Fail on findings: 1"]
    assert not (workspace / "step_summary.md").exists()
