"""The default rule set: what the server refuses and what is almost certainly a mistake.

Advice that correct configs often do not take is opt-in: reported only where ``select`` or
``extend-select`` names it (by code, prefix, name, or ``ALL``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import make_tree

from tritonlint.cli import main
from tritonlint.engine import LintOptions
from tritonlint.rules.registry import all_rules, by_code

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"

OPT_IN = {"TL211", "TL410", "TL411", "TL505", "TL603", "TL873"}

#: A batching ONNX model without a batcher, as most real projects write it: only TL505 (opt-in)
#: has anything to say.
BATCHING = """\
name: "detector"
platform: "onnxruntime_onnx"
max_batch_size: 8
input [ { name: "images" data_type: TYPE_FP32 dims: [ 3, 640, 640 ] } ]
output [ { name: "boxes" data_type: TYPE_FP32 dims: [ -1, 6 ] } ]
instance_group [ { kind: KIND_GPU gpus: [ 0 ] } ]
"""


def test_the_opt_in_rules() -> None:
    assert {rule.code for rule in all_rules() if rule.opt_in} == OPT_IN
    # Every opt-in rule says why in its documentation, and how to turn it on.
    for code in OPT_IN:
        rule = by_code(code)
        assert rule is not None
        assert "Not in the default set" in rule.explanation
        assert f"--extend-select {code}" in rule.explanation


@pytest.mark.parametrize(
    ("options", "enabled"),
    [
        (LintOptions(), False),
        (LintOptions(select=("TL505",)), True),
        (LintOptions(select=("TL5",)), True),
        (LintOptions(select=("batching-without-batcher",)), True),
        (LintOptions(select=("ALL",)), True),
        (LintOptions(select=("all",)), True),
        (LintOptions(extend_select=("TL505",)), True),
        (LintOptions(select=("TL2",)), False),
        (LintOptions(select=("ALL",), ignore=("TL505",)), False),
    ],
)
def test_an_opt_in_rule_is_enabled_only_where_named(options: LintOptions, enabled: bool) -> None:
    rule = by_code("TL505")
    assert rule is not None
    assert options.enabled(rule) is enabled


def test_a_default_rule_is_enabled_unless_left_out() -> None:
    rule = by_code("TL201")
    assert rule is not None
    assert LintOptions().enabled(rule)
    assert LintOptions(select=("ALL",)).enabled(rule)
    assert LintOptions(extend_select=("TL505",)).enabled(rule)
    assert not LintOptions(select=("TL505",)).enabled(rule)


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    make_tree(
        tmp_path / "models", {"detector/config.pbtxt": BATCHING, "detector/1/model.onnx": b""}
    )
    return tmp_path


def test_cli_default_set_passes_a_typical_batching_config(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "models", "--fail-on", "warning"]) == 0
    assert capsys.readouterr().out == "All checks passed (1 model checked).\n"


@pytest.mark.parametrize("how", [["--extend-select", "TL505"], ["--select", "ALL"]])
def test_cli_an_opt_in_rule_reports_when_named(
    workdir: Path, capsys: pytest.CaptureFixture[str], how: list[str]
) -> None:
    status = main(["check", "models", "--fail-on", "warning", "--format", "text", *how])
    out = capsys.readouterr().out
    assert status == 1
    lines = [line for line in out.splitlines() if line.startswith("models/")]
    assert lines[0] == (
        "models/detector/config.pbtxt:3:17: TL505 [warning] max_batch_size is 8 but no "
        "dynamic_batching: the server never combines requests into batches"
    )
    if how[0] == "--select":
        # [-1, 6] (any number of boxes of 6 values) is right, and is why TL411 is opt-in.
        assert [line.split(" ")[1] for line in lines] == ["TL505", "TL411", "TL603"]


def test_settings_extend_select_turns_on_an_opt_in_rule(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (workdir / ".tritonlint.toml").write_text('extend-select = ["TL603"]\n', encoding="utf-8")
    assert main(["check", "models", "--format", "json", "--fail-on", "warning"]) == 1
    assert '"code": "TL603"' in capsys.readouterr().out


def test_the_valid_fixtures_pass_with_fail_on_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every example model but the custom-backend one, whose backend only the server can
    vouch for (TL306 warns about it)."""
    repository = tmp_path / "model_repository"
    shutil.copytree(
        FIXTURES / "model_repository",
        repository,
        ignore=shutil.ignore_patterns("lightseq_transformer"),
    )
    assert main(["check", str(repository), "--fail-on", "warning"]) == 0
    assert capsys.readouterr().out == "All checks passed (7 models checked).\n"


def test_rules_command_shows_the_default_set(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    assert "default" in out.splitlines()[1]
    for rule in all_rules():
        row = next(line for line in out.splitlines() if f" {rule.code} " in line)
        assert ("opt-in" in row) is rule.opt_in, row


def test_the_rules_index_has_a_default_column() -> None:
    from tritonlint.report.rules_doc import render_rules_doc

    doc = render_rules_doc()
    assert "| code | name | severity | default | fix | pack | summary |" in doc
    assert (
        "| [TL505](#tl505-batching-without-batcher) | batching-without-batcher | warning | opt-in |"
        in doc
    )
    assert "| [TL201](#tl201-name-mismatch) | name-mismatch | error | yes |" in doc
    assert "*warning*, pack `batching`, opt-in (not in the default set):" in doc
