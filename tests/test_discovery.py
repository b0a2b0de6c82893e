"""What the paths on the command line mean: repositories found below a project folder, the
model of a version folder or a model file, the settings' repositories, and folders with
nothing to check."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import ONNX_MODEL, make_tree, model, run_cli

from tritonlint.engine import lint_paths
from tritonlint.repository.discovery import MAX_DEPTH

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
CONFIG = ONNX_MODEL["config.pbtxt"]
assert isinstance(CONFIG, str)

NOTHING = (
    "no model repository (a folder whose subfolders hold config.pbtxt files or numbered "
    "version folders), model folder or config file found there"
)
#: The last lines of the report of the project's repository: renamed's finding, with a fix.
PROJECT_SUMMARY = ["Found 1 error (2 models checked).", "[*] 1 fixable with the `--fix` option."]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project folder as the working directory: a repository under deploy/ with a good model
    and a misnamed one, beside the folders of a Python project."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "400")
    make_tree(
        tmp_path / "deploy" / "model_repository",
        {
            **model("good", ONNX_MODEL),
            **model("renamed", ONNX_MODEL),
            "renamed/config.pbtxt": 'name: "other"\n' + CONFIG,
        },
    )
    make_tree(
        tmp_path,
        {
            "src/app/__init__.py": "",
            "tests/test_app.py": "",
            "docs/index.md": "# app\n",
            "README.md": "# app\n",
            "pyproject.toml": "[project]\nname = 'app'\n",
        },
    )
    return tmp_path


def headings(out: str) -> list[str]:
    """The first line of each finding of a text report (``path[:line:col]: CODE``)."""
    return [line.split(" [")[0] for line in out.splitlines() if ": TL" in line]


# --- Searching a project folder --------------------------------------------------------------


def test_a_project_folder_is_searched_for_repositories(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(["."], capsys)
    assert (status, err) == (1, "")
    # src/, tests/ and docs/ are not models: no TL210 or TL212 about them.
    assert headings(out) == ["deploy/model_repository/renamed/config.pbtxt:1:7: TL201"]
    assert out.splitlines()[-2:] == PROJECT_SUMMARY


def test_tools_environments_hidden_and_git_ignored_folders_are_not_searched(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = {"m/config.pbtxt": 'name: "x"\n', "m/1/model.onnx": b""}
    for folder in (
        ".cache/repo",
        "node_modules/pkg/repo",
        "venv/lib/repo",
        "env/repo",
        "build/out/repo",
        "src/app/__pycache__/repo",
    ):
        make_tree(project / folder, broken)
    (project / "venv" / "pyvenv.cfg").write_text("home = /usr/bin\n", encoding="utf-8")
    make_tree(project / "env" / "conda-meta", {"history": ""})
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    (project / ".gitignore").write_text("/build/\n", encoding="utf-8")
    status, out, _ = run_cli(["."], capsys)
    assert status == 1
    assert headings(out) == ["deploy/model_repository/renamed/config.pbtxt:1:7: TL201"]
    # Named on the command line, an ignored folder is searched all the same.
    _, out, _ = run_cli(["build"], capsys)
    assert headings(out) == ["build/out/repo/m/config.pbtxt:1:7: TL201"]


def test_a_git_folder_holding_no_repository_ignores_nothing(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_tree(project / "build" / "repo", {"m/config.pbtxt": 'name: "x"\n', "m/1/": None})
    (project / ".gitignore").write_text("/build/\n", encoding="utf-8")
    (project / ".git").mkdir()  # looks like a work tree, but git would find no repository
    _, out, _ = run_cli(["."], capsys)
    assert "build/repo/m/config.pbtxt:1:7: TL201" in headings(out)


def test_git_ignored_folders_are_passed_over_without_git_installed(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    make_tree(project / "build" / "repo", {"m/config.pbtxt": 'name: "x"\n', "m/1/": None})
    (project / ".gitignore").write_text("/build/\n", encoding="utf-8")
    make_tree(project / ".git", {"HEAD": "ref: refs/heads/main\n", "objects/": None, "refs/": None})
    monkeypatch.setenv("PATH", str(project / "no-bin"))
    _, out, _ = run_cli(["."], capsys)
    assert "build/repo/m/config.pbtxt:1:7: TL201" not in headings(out)
    assert "deploy/model_repository/renamed/config.pbtxt:1:7: TL201" in headings(out)


def test_the_settings_exclude_is_not_searched(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_tree(project / "legacy" / "repo", {"m/config.pbtxt": 'name: "x"\n', "m/1/": None})
    assert "legacy/repo/m/config.pbtxt:1:7: TL201" in headings(run_cli(["."], capsys)[1])
    (project / ".tritonlint.toml").write_text('exclude = ["legacy"]\n', encoding="utf-8")
    assert headings(run_cli(["."], capsys)[1]) == [
        "deploy/model_repository/renamed/config.pbtxt:1:7: TL201"
    ]


def test_the_search_goes_a_bounded_depth_and_not_through_links(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    deepest = Path(*(f"d{i}" for i in range(MAX_DEPTH)))  # top/d0/.../d5: 6 folders down
    make_tree(tmp_path / "top" / deepest, model("m", ONNX_MODEL))
    too_deep = Path(*(f"e{i}" for i in range(MAX_DEPTH + 1)))
    make_tree(tmp_path / "top" / too_deep, model("too_deep", ONNX_MODEL))
    make_tree(tmp_path / "elsewhere" / "repo", model("linked", ONNX_MODEL))
    (tmp_path / "top" / "link").symlink_to(tmp_path / "elsewhere")
    result = lint_paths([Path("top")])
    assert result.checked == [tmp_path / "top" / deepest / "m"]


def test_a_repository_of_models_named_by_numbers_is_not_one_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    make_tree(tmp_path / "repo", {**model("1654584802", ONNX_MODEL), **model("7", ONNX_MODEL)})
    assert lint_paths([Path("repo")]).checked == [
        tmp_path / "repo" / "1654584802",
        tmp_path / "repo" / "7",
    ]
    assert lint_paths([Path(".")]).checked == lint_paths([Path("repo")]).checked


def test_the_fixtures_folder_holds_the_valid_repositories_and_every_broken_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(FIXTURES.parent)
    result = lint_paths([Path("fixtures")])
    repositories = sorted({folder.parent for folder in result.checked})
    broken = [
        path
        for folder in (FIXTURES / "broken", FIXTURES / "model_files" / "broken")
        for path in folder.iterdir()
        if path.is_dir()
    ]
    valid = [FIXTURES / "model_repository", FIXTURES / "model_files" / "repository"]
    assert repositories == sorted([*broken, *valid])
    by_repository = lint_paths(sorted([*valid, *broken]))
    assert result.diagnostics == by_repository.diagnostics
    assert result.checked == by_repository.checked


# --- A repository, and folders in one ---------------------------------------------------------


def test_a_repository_reads_every_subfolder_as_a_model(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_tree(project / "deploy" / "model_repository", {"notes/readme.txt": "", "scratch/": None})
    status, out, _ = run_cli(["deploy/model_repository"], capsys)
    assert status == 1
    assert headings(out) == [
        "deploy/model_repository/notes: TL210",
        "deploy/model_repository/notes: TL212",
        "deploy/model_repository/renamed/config.pbtxt:1:7: TL201",
        "deploy/model_repository/scratch: TL210",
        "deploy/model_repository/scratch: TL212",
    ]
    # Found by searching a project folder, it is read the same way.
    assert headings(run_cli(["deploy"], capsys)[1]) == headings(out)


def test_a_stray_folder_of_a_repository_named_alone_is_its_model(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_tree(project / "deploy" / "model_repository", {"scratch/": None})
    status, out, _ = run_cli(["deploy/model_repository/scratch"], capsys)
    assert status == 1
    assert headings(out) == [
        "deploy/model_repository/scratch: TL210",
        "deploy/model_repository/scratch: TL212",
    ]
    assert out.splitlines()[-1] == "Found 2 errors (1 model checked)."


@pytest.mark.parametrize(
    "path",
    [
        "deploy/model_repository/renamed",
        "deploy/model_repository/renamed/1",
        "deploy/model_repository/renamed/1/model.onnx",
        "deploy/model_repository/renamed/config.pbtxt",
    ],
)
def test_a_version_folder_or_a_model_file_means_its_model(
    project: Path, capsys: pytest.CaptureFixture[str], path: str
) -> None:
    status, out, _ = run_cli([path], capsys)
    assert status == 1
    assert headings(out) == ["deploy/model_repository/renamed/config.pbtxt:1:7: TL201"]
    assert out.splitlines()[-2:] == [
        "Found 1 error (1 model checked).",
        "[*] 1 fixable with the `--fix` option.",
    ]


def test_a_file_deep_in_a_version_folder_means_its_model(project: Path) -> None:
    repository = project / "deploy" / "model_repository"
    make_tree(repository / "good" / "2" / "model.savedmodel", {"saved_model.pb": b""})
    result = lint_paths([repository / "good" / "2" / "model.savedmodel" / "saved_model.pb"])
    assert result.checked == [repository / "good"]


def test_other_pbtxt_files_are_configs_of_their_own(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    draft = project / "deploy" / "model_repository" / "good" / "draft.pbtxt"
    draft.write_text('name: "good"\nbogus: 1\n', encoding="utf-8")
    status, out, _ = run_cli([str(draft.relative_to(project))], capsys)
    assert status == 1
    assert headings(out) == ["deploy/model_repository/good/draft.pbtxt:2:1: TL101"]


# --- Nothing to check -------------------------------------------------------------------------


def test_a_folder_with_nothing_to_check_is_an_error_on_stderr(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "empty").mkdir()
    for argv in (["empty"], ["docs"], ["empty", "--exit-zero"], ["empty", "--format", "json"]):
        status, out, err = run_cli(argv, capsys)
        assert (status, out) == (2, ""), argv
        assert err == f"tritonlint: error: nothing to check in {argv[0]}: {NOTHING}\n"


def test_nothing_to_check_in_one_folder_fails_a_run_that_checked_others(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(["docs", "deploy/model_repository/good"], capsys)
    assert status == 2
    assert out == "All checks passed (1 model checked).\n"
    assert err == f"tritonlint: error: nothing to check in docs: {NOTHING}\n"


def test_no_path_in_an_empty_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Inside a folder of its own: pytest's temporary folders of other tests sit beside
    # tmp_path, and a sibling that looks like a model would make tmp_path a stray model.
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.chdir(empty)
    monkeypatch.setenv("COLUMNS", "400")
    assert run_cli([], capsys) == (2, "", f"tritonlint: error: nothing to check in .: {NOTHING}\n")


# --- The settings' repositories -----------------------------------------------------------------


def test_no_path_checks_the_settings_repositories(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    make_tree(project / "other_repo", model("elsewhere", ONNX_MODEL))
    (project / "pyproject.toml").write_text(
        '[tool.tritonlint]\nrepositories = ["deploy/model_repository"]\n', encoding="utf-8"
    )
    monkeypatch.chdir(project / "src")  # relative to the settings file, not the working folder
    status, out, _ = run_cli([], capsys)
    assert status == 1
    # Outside the working folder, paths are shown absolute.
    assert headings(out) == [f"{project}/deploy/model_repository/renamed/config.pbtxt:1:7: TL201"]
    assert out.splitlines()[-2:] == PROJECT_SUMMARY


def test_a_settings_repository_is_one_even_when_no_model_looks_like_one(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_tree(project / "models", {"half_done/weights.bin": b""})
    assert run_cli(["models"], capsys)[0] == 2  # nothing looks like a model there
    (project / ".tritonlint.toml").write_text('repositories = ["models"]\n', encoding="utf-8")
    for argv in ([], ["models"]):
        status, out, _ = run_cli(argv, capsys)
        assert status == 1
        assert headings(out) == ["models/half_done: TL210", "models/half_done: TL212"]


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ('["deploy/models"]', "'deploy/models' does not exist (deploy/models)"),
        ('["README.md"]', "'README.md' is not a folder (README.md)"),
        ('"deploy/model_repository"', "must be an array of strings, not a string"),
        ('[""]', "a folder must not be empty"),
    ],
)
def test_a_bad_settings_repository_is_a_usage_error(
    project: Path, capsys: pytest.CaptureFixture[str], value: str, problem: str
) -> None:
    (project / ".tritonlint.toml").write_text(f"repositories = {value}\n", encoding="utf-8")
    status, out, err = run_cli([], capsys)
    assert (status, out) == (2, "")
    assert err == f"tritonlint: error: .tritonlint.toml: key 'repositories': {problem}\n"
