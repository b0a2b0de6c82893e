"""The real tritonserver 2.51 refuses what TL309, TL214, TL210 and TL303 report, with the
message they quote, and loads the models that TL223 only warns about.

The judge of tests/tritonserver installs a stand-in for every backend a config names, so it would
accept a misspelt backend; these tests start a bare server (only the python backend) instead,
or one with a stand-in for the onnxruntime backend that completes a config as it does.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import errors, lint, make_tree, only
from model_notation import onnx_model

from tritonlint.tritonserver import DownloadError, TritonInstall, provision
from tritonlint.tritonserver.process import LoadStatus, TritonServer
from tritonlint.tritonserver.stubs import build_backend_dir
from tritonlint.tritonserver.verdict import explain

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


# -- A config under another name (TL210 / TL223) ---------------------------------------------

#: The onnxruntime backend completes a config from model.onnx; this Python-based stand-in
#: completes it as far as the server's check goes (it sets the config, without the tensors
#: the real backend reads from the file). Without it, a stub refuses with "model
#: configuration is not provided", as any backend that does not complete a config does.
ONNXRUNTIME_STAND_IN = """\
class TritonPythonModel:
    @staticmethod
    def auto_complete_config(auto_complete_model_config):
        return auto_complete_model_config

    def execute(self, requests):
        return []
"""
ENSEMBLE = (
    'platform: "ensemble"\n' + IO + 'ensemble_scheduling { step [ { model_name: "python_ok" '
    'model_version: -1 input_map { key: "I" value: "I" } output_map { key: "O" value: "O" } '
    "} ] }\n"
)
RENAMED: dict[str, str | bytes | None] = {
    "python_ok/config.pbtxt": 'backend: "python"\n' + IO,
    "python_ok/1/model.py": PYTHON_MODEL,
    "python_template/config.pbtxt.template": 'backend: "python"\n' + IO,
    "python_template/1/model.py": PYTHON_MODEL,
    "onnx_renamed/config.pbtxt.txt": 'platform: "onnxruntime_onnx"\n' + IO,
    "ensemble_template/config.pbtxt.template": ENSEMBLE,
    "ensemble_template/1/.gitkeep": "",
    "triton_infer_model/export/Servo/1712345678/saved_model.pb": b"",
    "triton_infer_model/export/Servo/1712345678/variables/variables.index": b"",
    "short_platform/config.pbtxt": 'platform: "onnx"\n' + IO,
}
#: What the server says of each model folder without config.pbtxt, with auto-complete on.
LOADED = ("python_template", "onnx_renamed")
COULD_NOT_DETERMINE = ("ensemble_template", "triton_infer_model")


@pytest.fixture(scope="module")
def renamed_repository(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("renamed") / "models"
    onnx = onnx_model('input "I" FP32 [1]\noutput "O" FP32 [1]')
    files = {**RENAMED, "onnx_renamed/1/model.onnx": onnx, "short_platform/1/model.onnx": onnx}
    return make_tree(root, files)


@pytest.fixture(scope="module")
def backends(install: TritonInstall, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("backends")
    make_tree(folder, {"onnxruntime/model.py": ONNXRUNTIME_STAND_IN})
    return build_backend_dir(install, folder)


@pytest.fixture(
    scope="module", params=[(), ("--disable-auto-complete-config",)], ids=["auto", "strict"]
)
def renamed_server(
    request: pytest.FixtureRequest, install: TritonInstall, renamed_repository: Path, backends: Path
) -> Iterator[tuple[TritonServer, bool]]:
    with TritonServer(install, renamed_repository, backends, extra_args=request.param) as running:
        yield running, not request.param


def _judged(server: TritonServer, name: str) -> tuple[bool, str]:
    outcome = server.load(name, timeout=60)
    assert outcome.status in (LoadStatus.LOADED, LoadStatus.REFUSED), outcome
    return outcome.loaded, explain(outcome)


@pytest.mark.server
@pytest.mark.parametrize("name", LOADED)
def test_tl223_server_loads_a_model_beside_a_renamed_config_with_auto_complete(
    renamed_server: tuple[TritonServer, bool], renamed_repository: Path, name: str
) -> None:
    server, auto_complete = renamed_server
    assert _judged(server, "python_ok")[0]
    loaded, message = _judged(server, name)
    result = lint(renamed_repository / name)
    assert errors(result) == []
    finding = only(result, "TL223")
    assert finding.path == renamed_repository / name
    if auto_complete:
        assert loaded, message
        assert "it loads the model with the config the" in finding.message
    else:
        assert not loaded
        assert f"failed to open text file for read {renamed_repository / name}/config.pbtxt" in (
            message
        )
        assert "(and refuses it with --disable-auto-complete-config)" in finding.message


@pytest.mark.server
@pytest.mark.parametrize("name", COULD_NOT_DETERMINE)
def test_tl210_server_refuses_a_folder_it_cannot_tell_the_backend_of(
    renamed_server: tuple[TritonServer, bool], renamed_repository: Path, name: str
) -> None:
    server, auto_complete = renamed_server
    loaded, message = _judged(server, name)
    assert not loaded
    finding = only(lint(renamed_repository / name), "TL210")
    assert finding.path == renamed_repository / name
    quoted = f"Could not determine backend for model '{name}'"
    assert quoted in finding.message
    if auto_complete:
        assert quoted in message


@pytest.mark.server
def test_tl303_server_refuses_a_short_platform_name(
    renamed_server: tuple[TritonServer, bool], renamed_repository: Path
) -> None:
    server, _ = renamed_server
    loaded, message = _judged(server, "short_platform")
    assert not loaded
    assert "unexpected platform type 'onnx' for short_platform" in message
    finding = only(lint(renamed_repository / "short_platform"), "TL303")
    assert finding.message == (
        "unexpected platform type 'onnx' for short_platform; did you mean 'onnxruntime_onnx'?"
    )
    assert [fix.title for fix in finding.fixes] == ['Write platform: "onnxruntime_onnx"']
