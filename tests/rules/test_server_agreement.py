"""The real tritonserver 2.51 refuses what TL309 and TL214 report, with the message they quote.

The judge of tests/server installs a stand-in for every backend a config names, so it would
accept a misspelt backend; these tests start a bare server (only the python backend) instead.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import lint, make_tree, only

from tritonlint.server import DownloadError, TritonInstall, provision
from tritonlint.server.process import LoadStatus, TritonServer

IO = (
    "max_batch_size: 0\n"
    'input [ { name: "I" data_type: TYPE_FP32 dims: [ 1 ] } ]\n'
    'output [ { name: "O" data_type: TYPE_FP32 dims: [ 1 ] } ]\n'
)
PYTHON_MODEL = "class TritonPythonModel:\n    def execute(self, requests):\n        return []\n"
MISSPELT = {"onnx": "model.onnx", "pythn": "model.py", "onnxruntime_onxx": "model.onnx"}


@pytest.fixture(scope="module")
def install() -> TritonInstall:
    try:
        return provision()
    except DownloadError as err:
        pytest.skip(f"the Triton server wheel cannot be fetched with pip: {err}")


@pytest.fixture(scope="module")
def repository(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("agreement") / "models"
    files: dict[str, str | bytes | None] = {}
    for backend, model_file in MISSPELT.items():
        name = f"b_{backend}"
        files[f"{name}/config.pbtxt"] = f'name: "{name}"\nbackend: "{backend}"\n' + IO
        files[f"{name}/1/{model_file}"] = b""
    files["negative/config.pbtxt"] = 'name: "negative"\nbackend: "python"\n' + IO
    files["negative/-1/model.py"] = PYTHON_MODEL
    return make_tree(root, files)


@pytest.fixture(scope="module")
def server(install: TritonInstall, repository: Path) -> Iterator[TritonServer]:
    with TritonServer(install, repository) as running:
        yield running


@pytest.mark.server
@pytest.mark.parametrize("backend", sorted(MISSPELT))
def test_tl309_server_refuses_a_misspelt_backend(
    server: TritonServer, repository: Path, backend: str
) -> None:
    name = f"b_{backend}"
    outcome = server.load(name, timeout=60)
    assert outcome.status is LoadStatus.REFUSED
    quoted = (
        f"unable to find backend library for backend '{backend}', try specifying runtime on "
        "the model configuration."
    )
    assert quoted in outcome.error
    finding = only(lint(repository / name), "TL309")
    assert finding.message.endswith(quoted)


@pytest.mark.server
def test_tl214_server_reads_a_negative_version_as_unsigned(
    server: TritonServer, repository: Path
) -> None:
    outcome = server.load("negative", timeout=30)
    assert outcome.status is LoadStatus.HUNG
    assert str(repository / "negative" / "18446744073709551615" / "model.py") in outcome.error
    finding = only(lint(repository / "negative"), "TL214")
    assert "'18446744073709551615/'" in finding.message
    assert "a Python model hangs at load" in finding.message
