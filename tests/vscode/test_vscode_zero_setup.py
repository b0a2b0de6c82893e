"""The VS Code extension with nothing set up: no tritonlint setting, no Python extension, no
tritonlint on the PATH. Two VS Code sessions (e2e.mjs, as in test_vscode_e2e.py), each on a
copy of zero_setup_repository/ beside this file:

* `venv`: the workspace has a `.venv` whose Python imports this checkout's tritonlint; the
  extension finds and runs it, and the session goes on with what the language server shows
  without anything opened (a model folder's findings in the Problems panel), the quick fix
  that moves a model file into its version folder, typing `input [` and Enter, and *Show
  Rule Documentation*;
* `bundled`: no tritonlint anywhere, only a Python 3.10 or newer on the PATH: the extension
  runs the copy of tritonlint it bundles; the Problems panel is looked at before anything is
  opened, as in `venv`.

In that repository, `resnet` has `data_type: TYPE_FLOAT32` (TL105); `loose` has its
model.onnx beside config.pbtxt, not in `1/` (TL212, fixed by moving the file); `tokenizer` has
a `config.pbtxt.template` and `1/model.py` but no config.pbtxt (TL223, shown on the template).

TRITONLINT_E2E_ARTEFACTS names the folder for the screenshots and logs (each session in a
folder of its own); TRITONLINT_E2E_UPDATE_IMAGES=1 copies status.png and rule-docs.png into
vscode-extension/images/.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from vscode_session import ROOT, Run, Tools, findings_of, places, play, problems, update_images

from tritonlint import __version__ as VERSION
from tritonlint.rules.registry import by_code

pytestmark = pytest.mark.slow

FIXTURE = Path(__file__).with_name("zero_setup_repository")
IMAGES = ROOT / "vscode-extension" / "images"

RESNET = "model_repository/resnet/config.pbtxt"
LOOSE = "model_repository/loose"
TEMPLATE = "model_repository/tokenizer/config.pbtxt.template"
MOVE = "Move model.onnx into 1/"
#: The steps both sessions take: the first config's findings, and the status items.
OPENED = {
    "file": RESNET,
    "squiggles": 1,
    "diagnosticHover": {"line": 7, "word": "TYPE_FLOAT32", "expect": "TL105"},
}
VENV_PLAN = {
    **OPENED,
    "steps": [
        *("workbench", "folderProblems", "open", "status", "diagnostics", "ruleDocs"),
        *("moveFix", "inputEnter"),
    ],
    "folderProblems": {"codes": ["TL105", "TL212", "TL223"], "click": "TL223"},
    "ruleDocs": {"file": RESNET, "line": 7, "column": 20, "expect": "TL105"},
    "moveFix": {
        "file": f"{LOOSE}/config.pbtxt",
        "line": 1,
        "column": 1,
        "title": MOVE,
        "code": "TL212",
        "source": f"{LOOSE}/model.onnx",
        "target": f"{LOOSE}/1/model.onnx",
    },
    "inputEnter": {"file": f"{LOOSE}/config.pbtxt", "type": "input ["},
}
FOLDER_PROBLEMS = {
    ("model_repository/loose", "TL212", 1, 1),
    ("model_repository/resnet", "TL105", 7, 16),
    ("model_repository/tokenizer", "TL223", 1, 1),
}
BUNDLED_PLAN = {
    **OPENED,
    "steps": ["workbench", "folderProblems", "open", "status", "diagnostics"],
    # The venv session's take a few seconds.
    "folderProblems": {"codes": ["TL105", "TL212", "TL223"], "click": "TL223", "wait": 30_000},
}


def python_without_tritonlint() -> Path | None:
    """A Python 3.10 or newer that cannot import tritonlint (run isolated, as the extension
    runs it): the system's, else the one this test's environment was made from."""
    probe = (
        "import importlib.util, sys; "
        "sys.exit(sys.version_info < (3, 10) or importlib.util.find_spec('tritonlint') is not None)"
    )
    base = getattr(sys, "_base_executable", sys.executable)
    for candidate in ("/usr/bin/python3", base):
        if Path(candidate).is_file():
            found = subprocess.run([candidate, "-I", "-c", probe], capture_output=True, check=False)
            if found.returncode == 0:
                return Path(candidate)
    return None


def bare_path(folder: Path) -> str:
    """A PATH with a Python 3.10 or newer (as `python3`) and the system's programs, and no
    tritonlint."""
    python = python_without_tritonlint()
    if python is None:
        pytest.skip("no Python 3.10 or newer without tritonlint on this machine")
    bin_folder = folder / "bin"
    bin_folder.mkdir()
    (bin_folder / "python3").symlink_to(python)
    path = os.pathsep.join([str(bin_folder), "/usr/bin", "/bin"])
    assert shutil.which("tritonlint", path=path) is None, f"a tritonlint on {path}"
    return path


def project_venv(workspace: Path) -> None:
    """`.venv` in ``workspace``: a virtual environment whose Python imports this checkout's
    tritonlint and its dependencies (from this test's environment), through a .pth file."""
    venv = workspace / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True)
    python = venv / "bin" / "python"
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    ours = dict.fromkeys([str(ROOT), sysconfig.get_path("purelib"), sysconfig.get_path("platlib")])
    (Path(site) / "tritonlint-checkout.pth").write_text("".join(f"{p}\n" for p in ours))


def session(
    tools: Tools, factory: pytest.TempPathFactory, name: str, plan: dict[str, object]
) -> Run:
    folder = factory.mktemp(name)
    workspace = folder / "workspace"
    shutil.copytree(FIXTURE, workspace / "model_repository")
    path = bare_path(folder)
    if name == "venv":
        project_venv(workspace)
    given = os.environ.get("TRITONLINT_E2E_ARTEFACTS")
    artefacts = Path(given) / name if given else folder / "artefacts"
    return play(tools, folder, workspace, plan, artefacts, interpreter=None, path=path)


@pytest.fixture(scope="module")
def venv_run(tools: Tools, tmp_path_factory: pytest.TempPathFactory) -> Run:
    run = session(tools, tmp_path_factory, "venv", VENV_PLAN)
    update_images(run, ["status", "rule-docs"], IMAGES)
    return run


@pytest.fixture(scope="module")
def bundled_run(tools: Tools, tmp_path_factory: pytest.TempPathFactory) -> Run:
    return session(tools, tmp_path_factory, "bundled", BUNDLED_PLAN)


def squiggles_of(run: Run) -> list[tuple[str, int, int, str]]:
    return sorted(
        (s["severity"], s["line"], s["column"], s["text"])
        for s in run.get("diagnostics", "squiggles")
    )


def test_the_projects_venv_runs_without_settings_and_shows_the_findings(venv_run: Run) -> None:
    assert squiggles_of(venv_run) == [("error", 7, 16, "TYPE_FLOAT32")]
    assert venv_run.get("status", "statusBar").startswith(f"tritonlint {VERSION} · Triton ")
    tooltip = venv_run.get("status", "statusBarTooltip")
    assert tooltip.startswith(f"tritonlint {VERSION}: ready\nfrom the project's environment (")
    assert "(the virtual environment " in tooltip and "/workspace/.venv)" in tooltip
    language = venv_run.get("status", "languageStatus")
    assert language.startswith(f"tritonlint {VERSION}\nTriton ")
    assert "the project's environment" in language.splitlines()[1]
    assert "internal error" not in venv_run.extension_log
    # The output channel says which tritonlint runs and why, once.
    assert venv_run.extension_log.count(f"using tritonlint {VERSION} (project venv): ") == 1


def test_without_tritonlint_anywhere_the_bundled_copy_runs(bundled_run: Run) -> None:
    assert squiggles_of(bundled_run) == [("error", 7, 16, "TYPE_FLOAT32")]
    assert bundled_run.get("status", "statusBar").startswith(f"tritonlint {VERSION} · Triton ")
    tooltip = bundled_run.get("status", "statusBarTooltip")
    assert tooltip.startswith(
        f"tritonlint {VERSION}: ready\nbundled with the extension (the bundled copy, run with "
        "python3: the project's environment has no tritonlint)"
    )
    language = bundled_run.get("status", "languageStatus")
    assert language.startswith(f"tritonlint {VERSION}\nTriton ")
    assert language.splitlines()[1].endswith(", bundled with the extension")


def test_a_model_folders_findings_are_in_problems_before_anything_is_opened(
    venv_run: Run,
) -> None:
    shown = problems(venv_run.get("folderProblems", "folderProblems"))
    assert venv_run.get("folderProblems", "editorsBeforeClick") == 0
    assert places(shown) == FOLDER_PROBLEMS
    # Each as the command line words it.
    assert {(p.code, p.message) for p in shown} == {
        (f["code"], f["message"]) for f in venv_run.findings
    }


def test_the_bundled_copy_shows_the_findings_of_unopened_files_too(bundled_run: Run) -> None:
    assert "internal error" not in bundled_run.extension_log
    assert places(problems(bundled_run.get("folderProblems", "folderProblems"))) == FOLDER_PROBLEMS


def test_clicking_a_template_finding_opens_the_template(venv_run: Run) -> None:
    opened = venv_run.get("folderProblems", "openedFromProblems")
    assert opened["tab"].replace("\n", "").startswith("config.pbtxt.template")
    assert opened["breadcrumbs"][-1] == "config.pbtxt.template"
    assert opened["firstLine"] == 'name: "tokenizer"'
    assert opened["placeholders"] == []  # no "... is a directory" in the editor's place
    assert opened["notifications"] == []


def test_the_unsafe_fix_of_tl212_moves_the_model_file_into_1(venv_run: Run) -> None:
    assert MOVE in venv_run.get("moveFix", "moveFixMenu")
    assert venv_run.get("moveFix", "movedFiles") == {
        f"{LOOSE}/model.onnx": False,
        f"{LOOSE}/1/model.onnx": True,
    }
    assert places(problems(venv_run.get("moveFix", "afterMoveFix"))) == {
        ("model_repository/resnet", "TL105", 7, 16),
        ("model_repository/tokenizer", "TL223", 1, 1),
    }


def test_input_bracket_and_enter_leave_a_config_that_parses(venv_run: Run, tmp_path: Path) -> None:
    text = venv_run.get("inputEnter", "savedAfterInputEnter")
    original = (FIXTURE / "loose" / "config.pbtxt").read_text()
    assert text == original + "input [\n  \n]"
    model = tmp_path / "model_repository" / "loose"
    (model / "1").mkdir(parents=True)
    (model / "1" / "model.onnx").write_bytes(b"")
    (model / "config.pbtxt").write_text(text)
    assert findings_of(tmp_path) == []


def test_show_rule_documentation_opens_the_rule_of_the_finding_under_the_cursor(
    venv_run: Run,
) -> None:
    assert venv_run.get("ruleDocs", "ruleDocsTab").startswith("Preview TL105")
    page = venv_run.get("ruleDocs", "ruleDocs")
    rule = by_code("TL105")
    assert rule is not None
    assert page.startswith(f"{rule.code} {rule.name}")
    assert rule.summary.split(":")[0] in page
