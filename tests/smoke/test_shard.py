"""``tritonlint smoke --shard I/N``: how the models are dealt out, and what a share reports
(against the fake server; one test loads two shares into the real embedded server)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import make_tree, validate_sarif
from smoke_helpers import FakeServer

from tritonlint.cli import main
from tritonlint.smoke import SmokeOptions, run_smoke
from tritonlint.smoke.shard import Shard, ShardError, groups, parse_shard, shares

GOOD = 'name: "{name}"\nbackend: "python"\nmax_batch_size: 8\n'


def _ensemble(name: str, *steps: str) -> str:
    listed = ", ".join(f'{{ model_name: "{step}" model_version: -1 }}' for step in steps)
    return f'name: "{name}"\nplatform: "ensemble"\nensemble_scheduling {{ step [ {listed} ] }}\n'


def _repository(root: Path) -> Path:
    """Eight python models and three ensembles: ``outer`` runs ``pipe`` (which runs ``b`` and
    ``c``) and ``d``; ``side`` runs ``g``."""
    files: dict[str, str | None] = {}
    for name in "abcdefgh":
        files[f"{name}/config.pbtxt"] = GOOD.replace("{name}", name)
        files[f"{name}/1/model.py"] = "# a model\n"
    for name, steps in {"pipe": ("b", "c"), "outer": ("pipe", "d"), "side": ("g",)}.items():
        files[f"{name}/config.pbtxt"] = _ensemble(name, *steps)
        files[f"{name}/1"] = None
    return make_tree(root, files)


ALL = sorted([*"abcdefgh", "outer", "pipe", "side"])
STEPS = {"pipe": ("b", "c"), "outer": ("pipe", "d"), "side": ("g",)}

# -- the dealing -------------------------------------------------------------------------------


def test_an_ensemble_its_steps_and_nested_ensembles_are_one_group() -> None:
    assert groups(ALL, STEPS) == [
        ["a"],
        ["b", "c", "d", "outer", "pipe"],
        ["e"],
        ["f"],
        ["g", "side"],
        ["h"],
    ]
    # Two ensembles that share a step are one group; a step outside the names is left out.
    assert groups(["x", "y", "s", "t"], {"x": ("s", "gone"), "y": ("s",)}) == [
        ["s", "x", "y"],
        ["t"],
    ]


@pytest.mark.parametrize("total", [1, 2, 3, 4, 7, 12])
def test_shares_are_disjoint_cover_every_model_and_keep_groups_whole(total: int) -> None:
    dealt = shares(ALL, STEPS, total)
    assert len(dealt) == total
    assert sorted(name for share in dealt for name in share) == ALL
    for group in groups(ALL, STEPS):
        assert sum(bool(set(group) & set(share)) for share in dealt) == 1, group


def test_the_largest_group_first_then_to_the_smallest_share() -> None:
    assert shares(ALL, STEPS, 3) == [
        ["b", "c", "d", "outer", "pipe"],
        ["f", "g", "side"],
        ["a", "e", "h"],
    ]
    assert shares(["m1", "m2", "m3", "m4", "m5"], {}, 2) == [["m1", "m3", "m5"], ["m2", "m4"]]
    assert shares(["only"], {}, 3) == [["only"], [], []]


def test_the_shares_do_not_depend_on_the_order_of_the_names_nor_on_the_hash_seed(
    tmp_path: Path,
) -> None:
    assert shares(list(reversed(ALL)), STEPS, 4) == shares(ALL, STEPS, 4)
    program = (
        "from tritonlint.smoke.shard import shares\n"
        f"print(shares({sorted(ALL, key=hash)!r}, {STEPS!r}, 4))\n"
    )
    printed = {
        subprocess.run(
            [sys.executable, "-c", program],
            env={"PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("0", "1", "2")
    }
    assert printed == {f"{shares(ALL, STEPS, 4)}\n"}


def test_parse_shard() -> None:
    assert parse_shard("2/4") == Shard(2, 4)
    assert parse_shard(" 1 / 1 ") == Shard(1, 1)
    assert str(Shard(3, 8)) == "3/8"
    for bad in ("0/4", "5/4", "a/b", "1/0", "2", "-1/4", ""):
        with pytest.raises(ShardError):
            parse_shard(bad)


# -- the command -------------------------------------------------------------------------------


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """The repository of ``_repository``, in ``models/``."""
    return _repository(tmp_path / "models")


@pytest.fixture
def smoke(fake_server: FakeServer) -> list[str]:
    """The smoke command on the fake server."""
    return ["smoke", "--server", str(fake_server.path)]


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("0/4", "--shard '0/4': I must be from 1 to 4"),
        ("5/4", "--shard '5/4': I must be from 1 to 4"),
        ("a/b", "--shard 'a/b': expected I/N, share I of N (e.g. 2/4)"),
        ("1/0", "--shard '1/0': N must be at least 1"),
    ],
)
def test_a_bad_shard_is_a_usage_error_in_one_line(
    fake_server: FakeServer, repo: Path, capsys: pytest.CaptureFixture[str], value: str, reason: str
) -> None:
    code = main(["smoke", "--server", str(fake_server.path), "--shard", value, str(repo)])
    assert code == 2
    captured = capsys.readouterr()
    assert captured.err == f"tritonlint: error: {reason}\n"
    assert captured.out == ""
    assert fake_server.events("start") == []


def test_a_bad_tritonlint_shard_names_the_variable(
    smoke: list[str],
    repo: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TRITONLINT_SHARD", "3/2")
    assert main([*smoke, str(repo)]) == 2
    assert capsys.readouterr().err == (
        "tritonlint: error: TRITONLINT_SHARD '3/2': I must be from 1 to 2\n"
    )


@pytest.mark.usefixtures("gpu")
def test_each_share_loads_and_reports_only_its_models(
    fake_server: FakeServer, smoke: list[str], repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*smoke, "--shard", "1/3", str(repo)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert (
        "Share 1/3: 5 of 11 models (an ensemble's steps in its share; the other shares load "
        "the rest)."
    ) in lines
    assert any(line.startswith("All 5 models loaded in ") for line in lines)
    # Steps before their ensembles, the nested one included; nothing of the other shares.
    loads = [event["model"] for event in fake_server.events("load")]
    assert loads == ["b", "c", "d", "pipe", "outer"]
    for other in ("a", "e", "f", "g", "h", "side"):
        assert f"│ {other} " not in out


@pytest.mark.usefixtures("gpu")
def test_a_share_from_the_environment_and_its_json(
    smoke: list[str], repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TRITONLINT_SHARD", "2/3")
    output = tmp_path / "smoke.json"
    assert main([*smoke, "--format", "json", "-o", str(output), str(repo)]) == 0
    report = json.loads(output.read_text())
    assert report["share"] == {"index": 2, "total": 3, "models": 3, "of": 11}
    assert [m["name"] for m in report["models"]] == ["f", "g", "side"]


@pytest.mark.usefixtures("gpu")
def test_without_a_shard_the_json_says_null(smoke: list[str], tmp_path: Path) -> None:
    repo = make_tree(
        tmp_path / "models",
        {"a/config.pbtxt": GOOD.replace("{name}", "a"), "a/1/model.py": "# a model\n"},
    )
    output = tmp_path / "smoke.json"
    assert main([*smoke, "--format", "json", "-o", str(output), str(repo)]) == 0
    assert json.loads(output.read_text())["share"] is None


@pytest.mark.usefixtures("gpu")
def test_an_empty_share_starts_no_server(
    fake_server: FakeServer, smoke: list[str], repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*smoke, "--shard", "9/9", str(repo)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert (
        "Share 9/9: 0 of 11 models (an ensemble's steps in its share; the other shares load "
        "the rest)."
    ) in lines
    assert "No model to load." in lines
    assert fake_server.events("start") == []


# -- the real server -----------------------------------------------------------------------------


FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.mark.server
@pytest.mark.usefixtures("no_tritonserver_on_path", "triton_install")
def test_two_shares_load_each_model_exactly_once_on_the_real_server() -> None:
    repo = FIXTURES / "model_repository"
    models = sorted(path.parent.name for path in repo.glob("*/config.pbtxt"))
    loaded: list[str] = []
    for index in (1, 2):
        options = SmokeOptions(stub_python_models=True, shard=Shard(index, 2))
        result = run_smoke(repo, options)
        assert result.ok, [(m.name, m.status, m.message) for m in result.models]
        assert result.share is not None
        assert (result.share.models, result.share.of) == (len(result.models), len(models))
        loaded += [m.name for m in result.models]
    assert sorted(loaded) == models


# -- merging the shares' reports -----------------------------------------------------------------

REFUSED = GOOD + "# fake-refuse: 'max_batch_size' must be non-negative value for bad\n"


@pytest.fixture
def shares_reports(
    smoke: list[str],
    repo: Path,
    tmp_path: Path,
    gpu: Callable[[bool], None],
    capsys: pytest.CaptureFixture[str],
) -> Callable[[str], list[Path]]:
    """The reports in a format of the repository, with a refused model, smoked in two shares
    (on a machine without GPU); what the runs printed is swallowed."""

    def run(report_format: str) -> list[Path]:
        gpu(False)
        (repo / "h" / "config.pbtxt").write_text(REFUSED.replace("{name}", "h"))
        share = [*smoke, "--format", report_format]
        reports = []
        for index in (1, 2):
            output = tmp_path / f"smoke-{index}.{report_format}"
            main([*share, "--shard", f"{index}/2", "-o", str(output), str(repo)])
            reports.append(output)
        capsys.readouterr()
        return reports

    return run


def _merge(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["report", "merge", *argv]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    return captured.out


def test_merged_smoke_json_holds_every_model_once(
    shares_reports: Callable[[str], list[Path]], capsys: pytest.CaptureFixture[str]
) -> None:
    reports = shares_reports("json")
    shares_json = [json.loads(path.read_text()) for path in reports]
    merged = json.loads(_merge(capsys, *map(str, reports)))
    assert merged["share"] == {"merged": [1, 2], "missing": [], "total": 2, "models": 11, "of": 11}
    assert sorted(m["name"] for m in merged["models"]) == ALL
    assert merged["models"] == shares_json[0]["models"] + shares_json[1]["models"]
    assert merged["ok"] is False
    assert [(f["code"], f["path"].rsplit("/", 2)[-2:]) for f in merged["findings"]] == [
        ("TL030", ["h", "config.pbtxt"])
    ]
    assert merged["seconds"] == max(s["seconds"] for s in shares_json)
    # One share alone says which one is missing.
    alone = json.loads(_merge(capsys, str(reports[0])))
    assert alone["share"] == {"merged": [1], "missing": [2], "total": 2, "models": 6, "of": 11}


def test_merged_smoke_sarif_is_one_valid_run_with_both_shares_results(
    shares_reports: Callable[[str], list[Path]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    reports = shares_reports("sarif")
    logs = [json.loads(path.read_text()) for path in reports]
    output = tmp_path / "smoke.sarif"
    assert _merge(capsys, "-o", str(output), *map(str, reports)) == ""
    merged = json.loads(output.read_text())
    validate_sarif(merged)
    (run,) = merged["runs"]
    assert run["results"] == logs[0]["runs"][0]["results"] + logs[1]["runs"][0]["results"]
    assert [r["ruleId"] for r in run["results"]] == ["TL030"]
    assert run["tool"] == logs[0]["runs"][0]["tool"]


def test_merged_smoke_junit_has_every_suite_and_summed_counts(
    shares_reports: Callable[[str], list[Path]], capsys: pytest.CaptureFixture[str]
) -> None:
    reports = shares_reports("junit")
    root = ET.fromstring(_merge(capsys, *map(str, reports)))
    assert root.tag == "testsuites"
    names = [suite.get("name", "").rsplit("/", 1)[-1] for suite in root.iter("testsuite")]
    assert sorted(names) == ALL
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("11", "1", "0")
    (failure,) = root.iter("failure")
    assert failure.get("type") == "TL030"


# -- the CI examples of docs/ci.md ---------------------------------------------------------------

CI_DOC = Path(__file__).resolve().parents[2] / "docs" / "ci.md"


def _matrix_examples() -> list[dict[str, Any]]:
    text = CI_DOC.read_text(encoding="utf-8")
    section = text[text.index("## A matrix of smoke shares") :]
    section = section[: section.index("\n## ", 1)]
    return [yaml.safe_load(block) for block in re.findall(r"```yaml\n(.*?)```", section, re.S)]


def _run_in_shell(commands: list[str], folder: Path, environment: dict[str, str]) -> None:
    for command in commands:
        if command.startswith("pip install"):
            continue
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=folder,
            env=environment,
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )
        assert done.returncode == 0, (command, done.stdout, done.stderr)


@pytest.fixture
def ci_job(tmp_path: Path, fake_server: FakeServer) -> tuple[Path, dict[str, str]]:
    """A checkout with ``model_repository/``, and an environment whose ``tritonserver`` (the
    one on PATH, which the smoke stage takes) is the fake server and whose ``tritonlint`` is
    this one."""
    folder = tmp_path / "checkout"
    _repository(folder / "model_repository")
    bin_dir = tmp_path / "path-bin"
    bin_dir.mkdir()
    (bin_dir / "tritonserver").symlink_to(fake_server.path)
    path = os.pathsep.join([str(bin_dir), str(Path(sys.executable).parent), "/usr/bin", "/bin"])
    environment = {
        "PATH": path,
        "HOME": str(tmp_path),
        "FAKE_TRITON_LOG": str(fake_server.log),
        "TRITONLINT_CACHE": str(tmp_path / "cache"),
    }
    return folder, environment


def _loaded(fake_server: FakeServer) -> list[str]:
    return sorted(event["model"] for event in fake_server.events("load"))


def test_the_github_matrix_of_docs_ci_loads_each_model_once_and_merges_the_sarif(
    ci_job: tuple[Path, dict[str, str]], fake_server: FakeServer
) -> None:
    folder, environment = ci_job
    workflow = next(example for example in _matrix_examples() if "jobs" in example)
    jobs = workflow["jobs"]
    for shard in jobs["smoke"]["strategy"]["matrix"]["shard"]:
        steps = [step["run"] for step in jobs["smoke"]["steps"] if "run" in step]
        _run_in_shell(
            [step.replace("${{ matrix.shard }}", str(shard)) for step in steps],
            folder,
            environment,
        )
    assert _loaded(fake_server) == ALL
    merge = [step["run"] for step in jobs["smoke-report"]["steps"] if "run" in step]
    _run_in_shell(merge, folder, environment)
    merged = json.loads((folder / "smoke.sarif").read_text())
    validate_sarif(merged)
    assert len(merged["runs"]) == 1


def test_the_gitlab_parallel_job_of_docs_ci_loads_each_model_once_and_merges_the_junit(
    ci_job: tuple[Path, dict[str, str]], fake_server: FakeServer
) -> None:
    folder, environment = ci_job
    pipeline = next(example for example in _matrix_examples() if "smoke-report" in example)
    total = pipeline["smoke"]["parallel"]
    for index in range(1, total + 1):
        node = {"CI_NODE_INDEX": str(index), "CI_NODE_TOTAL": str(total)}
        _run_in_shell(pipeline["smoke"]["script"], folder, {**environment, **node})
    assert _loaded(fake_server) == ALL
    _run_in_shell(pipeline["smoke-report"]["script"], folder, environment)
    root = ET.fromstring((folder / "smoke.xml").read_text())
    assert sorted(s.get("name", "").rsplit("/", 1)[-1] for s in root.iter("testsuite")) == ALL
    assert (root.get("tests"), root.get("failures")) == ("11", "0")
