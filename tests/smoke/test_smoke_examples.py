"""The smoke rules' documented examples, run by ``tritonlint smoke`` on the real (embedded)
Triton 2.51 server.

Each example's first line is the command that shows it (``$ tritonlint smoke [OPTIONS]
model_repository``): the bad one yields the rule's finding, the good one none (and lints
clean, which tests/rules/test_cases.py checks with the other rules' examples). One server
start per example; the crash's load is tried once more, on a fresh server.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rule_examples import parse_example, written

from tritonlint.cli import main
from tritonlint.diagnostics import Severity
from tritonlint.rules.registry import Rule, all_rules
from tritonlint.tritonserver import TritonInstall, devices

pytestmark = [pytest.mark.server, pytest.mark.usefixtures("no_tritonserver_on_path")]

SMOKE_RULES = [rule for rule in all_rules() if rule.pack == "smoke"]
#: Examples that only a machine without a GPU shows, with the reason.
WITHOUT_GPU = {("TL032", "bad"): "`--gpus` loads KIND_GPU as written on this machine's GPU"}


@pytest.mark.parametrize("kind", ["bad", "good"])
@pytest.mark.parametrize("rule", SMOKE_RULES, ids=[rule.code for rule in SMOKE_RULES])
def test_a_smoke_rules_example_is_what_the_server_says(
    triton_install: TritonInstall,
    rule: Rule,
    kind: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    reason = WITHOUT_GPU.get((rule.code, kind))
    if reason is not None and devices.has_gpu():
        pytest.skip(f"this machine has a GPU: {reason}")
    example = parse_example(getattr(rule, kind))
    assert example.smoke is not None
    with written(example, tmp_path) as root:
        status = main(["smoke", *example.smoke, "--format", "json", str(root)])
    report = json.loads(capsys.readouterr().out)
    found = [finding["code"] for finding in report["findings"]]
    if kind == "bad":
        assert rule.code in found, report
    else:
        assert found == [], report
    assert status == (1 if kind == "bad" and rule.severity is Severity.ERROR else 0)
