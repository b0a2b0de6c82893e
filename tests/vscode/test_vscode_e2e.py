"""The VS Code extension in a real VS Code (code-server, in headless Chromium), against this
checkout's ``tritonlint lsp``.

One VS Code session (e2e.mjs) opens a copy of model_repository/ beside this file and goes
through what a user does; each test below judges one part of what the workbench showed. In that
repository, `detector` is written untidily (the formatter's work) with two findings:
`name: "detector_v2"` in the folder `detector` (TL201, with a safe fix) and
`data_type: TYPE_FLOAT32` (TL105); `pipeline` is an ensemble whose second step maps `images`,
which `classifier` does not have (TL713, TL714): the Problems panel lists it though it is never
opened. `preprocess` and `classifier` are clean. Show Ensemble Graph draws `pipeline`.

The session starts with the workspace's `.vscode/settings.json` setting `tritonlint.path` to a
program that does not exist: the problem is notified and shown in the status bar; the test then
corrects the setting (to this environment's `tritonlint`) by writing the file, and the
notification closes itself once the server is ready.

The first run installs Chromium (apt), Node 24, code-server and playwright-core
(scripts/vscode_e2e/setup.sh, into ~/.cache/tritonlint-vscode-e2e); the tests are skipped only
when the machine cannot install them.

TRITONLINT_E2E_ARTEFACTS names the folder for the screenshots and logs (default: a temporary
folder, printed); TRITONLINT_E2E_UPDATE_IMAGES=1 (scripts/vscode_e2e/screenshots.sh) copies
the screenshots of a run where every step went through into vscode-extension/images/, the
extension README's pictures.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from vscode_session import (
    ROOT,
    Problem,
    Run,
    Tools,
    places,
    play,
    problems,
    update_images,
)

pytestmark = pytest.mark.slow

FIXTURE = Path(__file__).with_name("model_repository")
IMAGES = ROOT / "vscode-extension" / "images"
SCREENSHOTS = ["diagnostics", "problems", "hover", "completion", "quickfix", "format", "graph"]

FILE = "model_repository/detector/config.pbtxt"
QUICK_FIX = 'Set name to "detector", the model folder\'s name'
HOVER = "The largest batch the model accepts."
SETTINGS = ".vscode/settings.json"
MISSING = "nowhere/tritonlint"  # under the session's folder
NOT_FOUND = "tritonlint was not found"
#: What e2e.mjs does and waits for.
PLAN: dict[str, Any] = {
    "steps": [
        "workbench",
        "notice",
        "open",
        "diagnostics",
        "problems",
        "hover",
        "quickfix",
        "format",
        "completion",
        "graph",
    ],
    "file": FILE,
    "squiggles": 2,
    "diagnosticHover": {"line": 12, "word": "TYPE_FLOAT32", "expect": "TL105"},
    "problems": ["TL201", "TL105", "TL714", "TL713"],
    "hover": {"line": 3, "word": "max_batch_size", "expect": HOVER},
    "quickfix": {"line": 1, "column": 8, "title": QUICK_FIX, "code": "TL201"},
    "completion": {"line": 14, "type": "data_type: ", "choose": "TYPE_FP32", "code": "TL105"},
    "notice": {"expect": NOT_FOUND, "settingsFile": SETTINGS, "wait": 20_000},
    "graph": {
        "file": "model_repository/pipeline/config.pbtxt",
        "hoverEdge": "pixels",
        "open": "classifier",
        "opened": "model_repository/classifier/config.pbtxt",
        # In the classifier's config, `name: "input"` retyped as the input the ensemble maps.
        "edit": {"line": 6, "word": "input", "typed": "images"},
    },
}
DATA_TYPES = {  # the values of inference.DataType
    *("TYPE_INVALID", "TYPE_BOOL", "TYPE_STRING", "TYPE_FP16", "TYPE_FP32", "TYPE_FP64"),
    *("TYPE_UINT8", "TYPE_UINT16", "TYPE_UINT32", "TYPE_UINT64", "TYPE_BF16"),
    *("TYPE_INT8", "TYPE_INT16", "TYPE_INT32", "TYPE_INT64"),
}


@pytest.fixture(scope="module")
def run(tools: Tools, tmp_path_factory: pytest.TempPathFactory) -> Run:
    folder = tmp_path_factory.mktemp("vscode")
    workspace = folder / "workspace"
    shutil.copytree(FIXTURE, workspace / "model_repository")
    # A workspace setting naming a program that is not there; e2e.mjs writes `fixed` in its place.
    (workspace / SETTINGS).parent.mkdir()
    (workspace / SETTINGS).write_text(json.dumps({"tritonlint.path": str(folder / MISSING)}))
    working = {"tritonlint.path": str(Path(sys.executable).with_name("tritonlint"))}
    plan = {**PLAN, "notice": {**PLAN["notice"], "fixed": working}}
    artefacts = Path(os.environ.get("TRITONLINT_E2E_ARTEFACTS", folder / "artefacts"))
    run = play(tools, folder, workspace, plan, artefacts)
    update_images(run, SCREENSHOTS, IMAGES)
    return run


def expected_problems(findings: list[dict[str, Any]]) -> list[Problem]:
    """The Problems rows of `tritonlint check`'s findings."""
    return sorted(
        Problem(
            str(Path(f["path"]).parent),
            f["severity"],
            f["code"],
            f["message"],
            f["line"],
            f["column"],
            tuple(
                f"{Path(r['path']).name}[Ln {r['line']}, Col {r['column']}]:{r['message']}"
                for r in f["related"]
            ),
        )
        for f in findings
    )


def test_squiggles_underline_exactly_the_findings_characters(run: Run) -> None:
    squiggles = run.get("diagnostics", "squiggles")
    assert sorted((s["severity"], s["line"], s["column"], s["text"]) for s in squiggles) == [
        ("error", 1, 7, '"detector_v2"'),
        ("error", 12, 31, "TYPE_FLOAT32"),
    ]
    for squiggle in squiggles:  # from the first character's left edge to the last's right
        assert squiggle["squiggle"] == pytest.approx(squiggle["characters"], abs=1.0)


def test_hovering_a_squiggle_shows_its_finding(run: Run) -> None:
    text = run.get("diagnostics", "diagnosticHover")
    finding = next(f for f in run.findings if f["code"] == "TL105")
    assert finding["message"] in text
    assert "TL105" in text


def test_problems_panel_lists_the_findings_of_open_and_unopened_files(run: Run) -> None:
    shown = problems(run.get("problems", "problems"))
    assert places(shown) == {
        ("model_repository/detector", "TL201", 1, 7),
        ("model_repository/detector", "TL105", 12, 31),
        ("model_repository/pipeline", "TL714", 15, 19),
        ("model_repository/pipeline", "TL713", 17, 24),
    }
    # Each row as the command line reports the finding: message, place, related places.
    assert shown == expected_problems(run.findings)


def test_hover_over_a_field_name_describes_the_field(run: Run) -> None:
    text = run.get("hover", "hover")
    assert text.startswith("max_batch_size: int32\n")
    assert HOVER in text


def test_quick_fix_sets_the_name_and_its_finding_goes(run: Run) -> None:
    assert run.get("quickfix", "quickfixMenu") == [
        QUICK_FIX,
        "Disable TL201 for this line",
        "Disable TL201 for this file",
    ]
    assert places(problems(run.get("quickfix", "afterQuickfix"))) == {
        ("model_repository/detector", "TL105", 12, 31),
        ("model_repository/pipeline", "TL714", 15, 19),
        ("model_repository/pipeline", "TL713", 17, 24),
    }
    original = (FIXTURE / "detector" / "config.pbtxt").read_text()
    assert run.get("quickfix", "savedAfterQuickfix") == original.replace(
        'name: "detector_v2"', 'name: "detector"'
    )


def test_format_document_gives_the_formatters_text(run: Run) -> None:
    before = run.get("quickfix", "savedAfterQuickfix")
    after = run.get("format", "savedAfterFormat")
    formatted = subprocess.run(
        [sys.executable, "-m", "tritonlint", "format", "-"],
        input=before.encode(),
        capture_output=True,
        check=True,
    ).stdout
    assert after != before
    assert after.encode() == formatted


def test_completion_offers_the_data_types_and_fixes_the_value(run: Run) -> None:
    offered = [label.partition(",")[0] for label in run.get("completion", "completion")]
    # The list shows the first dozen or so (it scrolls): all of them data types.
    assert {"TYPE_BOOL", "TYPE_FP16", "TYPE_FP32", "TYPE_INT64", "TYPE_STRING"} <= set(offered)
    assert set(offered) <= DATA_TYPES
    assert places(problems(run.get("completion", "afterCompletion"))) == {
        ("model_repository/pipeline", "TL714", 15, 19),
        ("model_repository/pipeline", "TL713", 17, 24),
    }
    formatted = run.get("format", "savedAfterFormat")
    assert run.get("completion", "savedAfterCompletion") == formatted.replace(
        "data_type: TYPE_FLOAT32", "data_type: TYPE_FP32"
    )


def test_a_missing_program_is_notified_with_links_and_shown_in_the_status_bar(run: Run) -> None:
    notice = run.get("notice", "notice")
    # The title, then the message, with the links.
    title, _, message = notice["text"].partition(": ")
    assert title == "tritonlint"
    assert message.startswith(f"{NOT_FOUND}: the program of tritonlint.path (/")
    missing = message.split("(")[1].split(")")[0]
    assert missing.endswith(f"/{MISSING}")
    assert message.endswith(") does not exist. Correct the setting. Show Output · How to Install")
    links = {link["text"]: link["href"] for link in notice["links"]}
    assert links.keys() == {"Show Output", "How to Install"}
    assert links["How to Install"].endswith("vscode-extension/README.md#requirements")
    status = notice["statusItem"]
    assert status["visible"] and status["text"] == "tritonlint" and NOT_FOUND in status["label"]
    assert "error-kind" in status["classes"]
    # [Show Output] opens the output channel, which says what was tried (its lines wrapped).
    assert missing in notice["showOutput"].replace("\n", "")


def test_correcting_the_setting_closes_the_notification(run: Run) -> None:
    assert run.get("notice", "toastsAfterFix") == []
    assert run.seen["noticeGoneAfter"] < 15
    status = run.get("notice", "statusAfterFix")
    assert NOT_FOUND not in (status["label"] or "") and "error-kind" not in status["classes"]
    # Closed, not hidden: the notification centre has nothing new either.
    assert "codicon-bell-dot" not in run.get("notice", "notificationsBell")
    # The server of the corrected setting runs, and reports the repository's findings.
    counts = run.get("notice", "problemsAfterFix").split()  # errors, warnings
    assert sum(map(int, counts)) == len(run.findings)


def test_show_ensemble_graph_draws_the_pipeline_and_a_click_opens_a_model(run: Run) -> None:
    assert run.get("graph", "graphHeading") == "Ensemble pipeline"
    # The boxes and arrows as `tritonlint graph` labels them.
    assert run.get("graph", "graphNodes") == [
        ["IMAGE"],
        ["preprocess", "onnxruntime_onnx", "max_batch_size 8 · CPU"],
        ["classifier", "onnxruntime_onnx", "max_batch_size 8 · CPU"],
        ["LOGITS"],
    ]
    assert run.get("graph", "graphEdges") == [
        "IMAGE: UINT8 [B,-1,-1,3]",
        "pixels: FP32 [B,3,224,224]",
        "LOGITS: FP32 [B,1000]",
    ]
    # TL714 is about the classifier's step, TL713 about the tensor that goes into it.
    assert run.get("graph", "graphMarked") == ["pixels: FP32 [B,3,224,224]", "classifier"]
    hover = run.get("graph", "graphEdgeHover").splitlines()
    assert hover[:3] == [
        "pixels: FP32 [B,3,224,224]",
        'written: output_map { key: "PIXELS", value: "pixels" } (pipeline/config.pbtxt:12)',
        'read: input_map { key: "images", value: "pixels" } (pipeline/config.pbtxt:17)',
    ]
    tl713 = next(f for f in run.findings if f["code"] == "TL713")
    assert hover[3:] == [f"error TL713 (line 17): {tl713['message']}"]
    assert run.get("graph", "graphOpened") == "model_repository/classifier/config.pbtxt"


def test_the_graph_view_follows_the_active_config_and_its_unsaved_edits(run: Run) -> None:
    # After the click, the classifier's config is active: the view draws what runs it, and
    # redraws as its input is renamed to the one the ensemble maps (unsaved): no finding left.
    assert run.get("graph", "graphHeadingAfterEdit") == "The ensembles that run classifier"
    assert run.get("graph", "graphMarkedAfterEdit") == 0
    on_disk = (FIXTURE / "classifier" / "config.pbtxt").read_text()
    assert run.get("graph", "graphSavedAfterEdit") == on_disk
    assert (run.artefacts / "graph.png").stat().st_size > 0
