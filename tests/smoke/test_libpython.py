"""The python backend's stub finds this Python's shared library, and a run where it cannot
says so at once instead of waiting out each python model's load."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from helpers import make_tree
from smoke_helpers import processes_naming

from tritonlint.cli import main
from tritonlint.smoke import runner
from tritonlint.tritonserver import TritonInstall
from tritonlint.tritonserver.libpython import link_library, unresolved_libraries

PYTHON_MODEL = """\
name: "adder"
backend: "python"
max_batch_size: 8
input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 4 ] } ]
output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 4 ] } ]
"""


def _fake_build(monkeypatch: pytest.MonkeyPatch, library_dir: Path, name: str) -> None:
    real = sysconfig.get_config_var
    values = {"LIBDIR": str(library_dir), "INSTSONAME": name}
    monkeypatch.setattr(sysconfig, "get_config_var", lambda key: values.get(key, real(key)))


def test_the_link_folder_holds_only_the_library(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    library_dir = make_tree(
        tmp_path / "prefix" / "lib",
        {"libpython3.99.so.1.0": "ELF", "libstdc++.so.6": "ELF", "libssl.so.3": "ELF"},
    )
    _fake_build(monkeypatch, library_dir, "libpython3.99.so.1.0")

    folder = link_library(tmp_path / "links")
    # Twice: a second run over the same folder replaces the link.
    assert link_library(tmp_path / "links") == folder == tmp_path / "links"
    assert os.listdir(folder) == ["libpython3.99.so.1.0"]
    assert os.readlink(folder / "libpython3.99.so.1.0") == str(library_dir / "libpython3.99.so.1.0")


@pytest.mark.parametrize("name", ["libpython3.99.so.1.0", "libpython3.99.a", ""])
def test_no_folder_without_a_shared_library(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """A static build (a ``.a``, or no INSTSONAME) or a library not where the build says."""
    library_dir = make_tree(tmp_path / "lib", {"libpython3.99.a": "archive"})
    _fake_build(monkeypatch, library_dir, name)
    assert link_library(tmp_path / "links") is None
    assert not (tmp_path / "links").exists()


@pytest.mark.skipif(shutil.which("ldd") is None, reason="ldd is needed to ask the loader")
def test_the_loader_is_asked_with_the_servers_environment(
    triton_install: TritonInstall, tmp_path: Path
) -> None:
    """A stub whose library is outside the loader's path (a copy of the stub that needs the
    library under a name nobody has) is named; found once the folder of a link is given."""
    stub = triton_install.python_stub()
    wanted = [line for line in _needed(stub) if line.startswith("libpython")]
    assert wanted, "the stub is linked against a libpython"
    assert unresolved_libraries(stub, dict(os.environ)) == []
    assert unresolved_libraries(tmp_path / "no-such-binary", dict(os.environ)) == []

    # A copy of the stub that needs a library nobody has: the loader says so by its name.
    renamed = tmp_path / "stub"
    data = stub.read_bytes().replace(b"libpython3.", b"libpythoX3.", 1)
    renamed.write_bytes(data)
    renamed.chmod(0o755)
    missing = wanted[0].replace("libpython3.", "libpythoX3.", 1)
    server_libraries = {**os.environ, "LD_LIBRARY_PATH": str(triton_install.lib_dir)}
    assert unresolved_libraries(renamed, server_libraries) == [missing]
    links = make_tree(tmp_path / "links", {})
    (links / missing).symlink_to(_resolved(stub, wanted[0]))
    with_links = {**os.environ, "LD_LIBRARY_PATH": f"{triton_install.lib_dir}:{links}"}
    assert unresolved_libraries(renamed, with_links) == []


def _needed(binary: Path) -> list[str]:
    listing = subprocess.run(["ldd", str(binary)], capture_output=True, text=True, check=True)
    return [line.split()[0] for line in listing.stdout.splitlines() if "=>" in line]


def _resolved(binary: Path, name: str) -> str:
    listing = subprocess.run(["ldd", str(binary)], capture_output=True, text=True, check=True)
    for line in listing.stdout.splitlines():
        if line.strip().startswith(name):
            return line.split("=>")[1].split()[0]
    raise AssertionError(name)


@pytest.fixture
def libpython_unresolved(monkeypatch: pytest.MonkeyPatch) -> None:
    """This Python has no shared library, and the loader finds no libpython3.99.so.1.0 for
    the python backend's stub."""
    monkeypatch.setattr(runner, "link_library", lambda folder: None)
    monkeypatch.setattr(
        runner, "unresolved_libraries", lambda binary, environment: ["libpython3.99.so.1.0"]
    )


@pytest.mark.server
@pytest.mark.usefixtures("no_tritonserver_on_path", "libpython_unresolved")
def test_python_models_are_not_loaded_when_the_stub_cannot_start(
    triton_install: TritonInstall, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each load would wait out its timeout (the stub never connects): the run says why at
    once and loads the models that need no stub."""
    repo = make_tree(
        tmp_path / "models",
        {
            "adder/config.pbtxt": PYTHON_MODEL,
            "adder/1/model.py": "raise SystemExit('never run')\n",
            "chain/config.pbtxt": (
                'name: "chain"\nplatform: "ensemble"\nmax_batch_size: 8\n'
                'input [ { name: "IN" data_type: TYPE_FP32 dims: [ 4 ] } ]\n'
                'output [ { name: "OUT" data_type: TYPE_FP32 dims: [ 4 ] } ]\n'
                'ensemble_scheduling { step [ { model_name: "adder" model_version: -1\n'
                '  input_map { key: "INPUT0" value: "IN" }\n'
                '  output_map { key: "OUTPUT0" value: "OUT" } } ] }\n'
            ),
            "chain/1/.keep": "",
        },
    )
    code = main(["smoke", "--cpu-only", "--format", "json", "--timeout", "60", str(repo)])
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    models = {m["name"]: (m["status"], m["message"]) for m in report["models"]}
    problem = (
        "the python backend's stub cannot start here: the loader finds no libpython3.99.so.1.0"
    )
    assert models["adder"][0] == "skipped"
    assert models["adder"][1] == (
        f"not loaded: {problem} (this Python, {sys.executable}, has no shared library: use a "
        "Python built with --enable-shared)"
    )
    assert models["chain"] == (
        "skipped",
        "not loaded: its step model 'adder' was not loaded (skipped)",
    )
    assert f"Python models are not loaded: {problem}" in " ".join(captured.err.split())
    assert all(m["seconds"] < 30 for m in report["models"])
    assert code == 0
    assert processes_naming(str(tmp_path)) == []
