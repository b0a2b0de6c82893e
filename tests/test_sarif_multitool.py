"""The SARIF report passes the SARIF multitool's validation (Microsoft's reference checker,
from npm) without an error, a warning or a note, on a report with every kind of finding."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import ONNX_MODEL, make_tree, model, validate_sarif
from test_report_formats import CONFIG

from tritonlint.cli import main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "broken"
#: What the multitool prints for each problem: ``FILE(LINE,COL): LEVEL SARIFnnnn: ...``.
PROBLEM = re.compile(r"^(?P<file>.+?)\(\d+,\d+\): (?:error|warning|note) SARIF\d+", re.MULTILINE)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        shutil.which("npx") is None, reason="npx (Node.js) is not on PATH: no SARIF multitool"
    ),
]


def multitool_problems(*logs: Path) -> dict[str, list[str]]:
    """What ``sarif-multitool validate`` says of each log (its exit status says nothing)."""
    done = subprocess.run(
        ["npx", "--yes", "@microsoft/sarif-multitool", "validate", *map(str, logs)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert "Analysis completed successfully" in done.stdout, done.stdout + done.stderr
    problems: dict[str, list[str]] = {log.name: [] for log in logs}
    for found in PROBLEM.finditer(done.stdout):
        line = done.stdout[found.start() :].split("\n", 1)[0]
        problems[Path(found["file"]).name].append(line)
    return problems


def test_every_kind_of_finding_passes_the_multitool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    make_tree(
        tmp_path / "models",
        {
            **model("renamed", ONNX_MODEL),  # a finding in a file, with a fix
            "renamed/config.pbtxt": 'name: "other"\n' + CONFIG,
            "noversion/config.pbtxt": CONFIG,  # about a folder
            **model("duplicated", ONNX_MODEL),  # with a related place
            "duplicated/config.pbtxt": "max_batch_size: 8\n" + CONFIG,
            **model("warned", ONNX_MODEL),  # a warning, about a folder
            "warned/v1/": None,
            "no config/1/": None,  # a folder without config, a space in its name
        },
    )
    os.symlink("loop", tmp_path / "models" / "loop")  # a symbolic link loop
    (tmp_path / ".tritonlint.toml").write_text('severity = { TL213 = "info" }\n')
    report = tmp_path / "tritonlint.sarif"
    # The fixtures lie outside the working directory: absolute file: URIs.
    paths = ["models", "nowhere", *sorted(str(p) for p in FIXTURES.iterdir() if p.is_dir())]
    assert main([*paths, "--format", "sarif", "-o", str(report)]) == 1
    log = json.loads(report.read_text(encoding="utf-8"))
    validate_sarif(log)
    results = log["runs"][0]["results"]
    levels = {result["level"] for result in results}
    assert levels == {"error", "warning", "note"}
    codes = {result["ruleId"] for result in results}
    assert {"TL004", "TL005", "TL010", "TL101", "TL107", "TL201", "TL210", "TL212"} <= codes
    assert any(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith("/")
               for r in results)  # fmt: skip
    assert any("fixes" in result for result in results)  # fixes, with an insertion too
    assert any(
        change["replacements"][0]["deletedRegion"]["startColumn"]
        == change["replacements"][0]["deletedRegion"]["endColumn"]
        for result in results
        for fix in result.get("fixes", [])
        for change in fix["artifactChanges"]
    )
    # A log the multitool faults (a relative helpUri), to show that its verdict is read.
    log["runs"][0]["tool"]["driver"]["rules"][0]["helpUri"] = "docs/rules.md#tl001-not-utf8"
    faulty = tmp_path / "faulty.sarif"
    faulty.write_text(json.dumps(log), encoding="utf-8")
    problems = multitool_problems(report, faulty)
    assert problems["tritonlint.sarif"] == []
    assert len(problems["faulty.sarif"]) == 1
    assert "error SARIF1002: runs[0].tool.driver.rules[0].helpUri" in problems["faulty.sarif"][0]
