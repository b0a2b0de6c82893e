"""What a run of the command imports: what it uses, and nothing else, so that it starts fast.

Each run is a new process (a module imported once stays imported), its standard output a
pipe as in CI; the list of modules it imported is written to a file when ``main`` returns.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

import tritonlint

ROOT = Path(tritonlint.__file__).resolve().parents[1]
CONFIG = ROOT / "fixtures" / "model_repository" / "echo_python" / "config.pbtxt"
PROBE = """
import sys
from tritonlint.cli import main
status = main(sys.argv[2:])
modules = sorted(sys.modules)
import json
with open(sys.argv[1], "w", encoding="utf-8") as out:
    json.dump({"status": status, "modules": modules}, out)
"""
REPORT_MODULES = {
    "json": "tritonlint.report.json_report",
    "sarif": "tritonlint.report.sarif",
    "github": "tritonlint.report.github",
    "junit": "tritonlint.report.junit",
    "gitlab": "tritonlint.report.gitlab",
}


def imported(argv: Sequence[str], tmp_path: Path) -> tuple[int, set[str]]:
    """The exit status of ``tritonlint ARGV`` and the modules it imported."""
    result = tmp_path / "imported.json"
    environment = dict(os.environ, PYTHONPATH=str(ROOT))
    for name in ("GITHUB_ACTIONS", "FORCE_COLOR", "TTY_COMPATIBLE"):
        environment.pop(name, None)
    subprocess.run(
        [sys.executable, "-c", PROBE, str(result), *argv],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        timeout=120,
        check=True,
    )
    found = json.loads(result.read_text(encoding="utf-8"))
    return found["status"], set(found["modules"])


def under(modules: set[str], *packages: str) -> set[str]:
    """The modules that are one of ``packages`` or inside one."""
    return {m for m in modules if any(m == p or m.startswith(p + ".") for p in packages)}


def test_a_lint_reported_to_a_pipe_loads_no_report_it_does_not_print(tmp_path: Path) -> None:
    status, modules = imported([str(CONFIG)], tmp_path)
    assert status == 0
    assert "tritonlint.rules.packs" in modules  # it did lint, with every rule
    assert under(modules, "rich", "pydantic") == set()
    assert under(modules, "tritonlint.tritonserver") == set()
    assert under(modules, "tritonlint.smoke") <= {"tritonlint.smoke", "tritonlint.smoke.options"}
    assert modules & {*REPORT_MODULES.values(), "tritonlint.report.statistics"} == set()
    # A config file is no folder to search for repositories: git is not asked.
    assert (
        modules
        & {"subprocess", "tritonlint.repository.discovery", "tritonlint.cli.shell_completion"}
        == set()
    )


def test_a_lint_loads_only_the_readers_of_the_model_files_it_meets(tmp_path: Path) -> None:
    """A python model's config: no framework reader, no TOML parser (a pyproject.toml without
    tritonlint's table is not parsed), no fuzzy matcher, no temporary files."""
    repository = tmp_path / "models"
    (repository / "echo" / "1").mkdir(parents=True)
    (repository / "echo" / "config.pbtxt").write_bytes(
        CONFIG.read_bytes().replace(b'name: "echo_python"', b'name: "echo"')
    )
    (repository / "echo" / "1" / "model.py").write_text("", encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "models"\n', encoding="utf-8")
    status, modules = imported([str(repository / "echo" / "config.pbtxt")], tmp_path)
    assert status == 0
    readers = under(modules, "tritonlint.modelfiles")
    assert "tritonlint.modelfiles.python" in readers
    assert (
        readers
        & {
            "tritonlint.modelfiles.onnx",
            "tritonlint.modelfiles.torchscript",
            "tritonlint.modelfiles.savedmodel",
            "tritonlint.modelfiles.openvino",
        }
        == set()
    )
    assert modules & {"zipfile", "pickletools", "tomllib", "tomli", "difflib", "tempfile"} == set()

    # The same with a TorchScript model and tritonlint's table: their readers come.
    (repository / "echo" / "1" / "model.py").unlink()
    config = repository / "echo" / "config.pbtxt"
    config.write_text('name: "echo"\nplatform: "pytorch_libtorch"\n', encoding="utf-8")
    (repository / "echo" / "1" / "model.pt").write_bytes(b"not a zip")
    (tmp_path / "pyproject.toml").write_text("[tool.tritonlint]\n", encoding="utf-8")
    status, modules = imported([str(config)], tmp_path)
    assert {"tritonlint.modelfiles.torchscript", "zipfile"} <= modules
    assert "tomllib" in modules or "tomli" in modules


@pytest.mark.parametrize("report_format", sorted(REPORT_MODULES))
def test_a_report_format_loads_its_own_module_alone(report_format: str, tmp_path: Path) -> None:
    status, modules = imported([str(CONFIG), "--format", report_format], tmp_path)
    assert status == 0
    assert modules & set(REPORT_MODULES.values()) == {REPORT_MODULES[report_format]}
    assert under(modules, "rich") == set()


@pytest.mark.parametrize(
    ("argv", "exit_status"),
    [
        (["--version"], 0),
        (["--help"], 0),
        (["check", "--format", "xml"], 2),
        (["--no-such-option", "models"], 2),
    ],
    ids=["version", "help", "bad-choice", "unknown-option"],
)
def test_version_help_and_argument_errors_load_no_rule_and_no_schema(
    argv: list[str], exit_status: int, tmp_path: Path
) -> None:
    status, modules = imported(argv, tmp_path)
    assert status == exit_status
    assert under(modules, "tritonlint.rules", "tritonlint.engine", "google", "rich") == set()


@pytest.mark.parametrize(
    "argv",
    [["fixtures/broken"], ["fixtures/broken", "--format", "json"], ["--select", "TL999", "x"]],
    ids=["text", "json", "usage-error"],
)
def test_the_console_script_ends_the_process_as_main_returns(argv: list[str]) -> None:
    """``run`` (the installed script) exits at once, with everything ``main`` printed."""

    environment = dict(os.environ, PYTHONPATH=str(ROOT))
    environment.pop("PYTHONUNBUFFERED", None)  # what is not flushed would be lost

    def command(script: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            [sys.executable, "-c", script, *argv],
            cwd=ROOT,
            env=environment,
            capture_output=True,
            timeout=120,
            check=False,
        )

    ended = command("from tritonlint.__main__ import run; run()")
    returned = command("import sys; from tritonlint.cli import main; sys.exit(main())")
    assert ended.returncode == returned.returncode != 0
    assert (ended.stdout, ended.stderr) == (returned.stdout, returned.stderr)
    assert ended.stdout or ended.stderr
