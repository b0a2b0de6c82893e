"""Where the real server reads a model's config from, against what the linter reports.

``--model-config-name NAME`` makes it read ``configs/NAME.pbtxt`` in place of
``config.pbtxt`` (the linter checks every ``configs/*.pbtxt`` as such); a ``config.pbtxt`` in
a version folder is never read (TL222).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import codes_at, lint

from tritonlint.tritonserver import TritonInstall, TritonServer
from tritonlint.tritonserver.stubs import build_backend_dir

pytestmark = pytest.mark.server

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
MODEL = "classifier_onnx"


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    """The fixtures' ONNX classifier with an alternative config ``configs/big.pbtxt`` whose
    preferred batch size is above its max_batch_size, and a broken copy of its config in
    its version folder."""
    root = tmp_path / "models"
    shutil.copytree(FIXTURES / "model_repository" / MODEL, root / MODEL)
    config = (root / MODEL / "config.pbtxt").read_text(encoding="utf-8")
    big = config.replace(
        "dynamic_batching { }", "dynamic_batching { preferred_batch_size: [ 16 ] }"
    )
    assert big != config
    (root / MODEL / "configs").mkdir()
    (root / MODEL / "configs" / "big.pbtxt").write_text(big, encoding="utf-8")
    (root / MODEL / "1" / "config.pbtxt").write_text("not { a config", encoding="utf-8")
    return root


def _load(install: TritonInstall, root: Path, backends: Path, *args: str) -> tuple[bool, str]:
    with TritonServer(install, root, backends, extra_args=args) as server:
        outcome = server.load(MODEL)
        return outcome.loaded, outcome.error + "\n".join(server.log.read_from(0))


def test_alternative_config_is_read_with_model_config_name(
    triton_install: TritonInstall, repository: Path, tmp_path: Path
) -> None:
    backends = build_backend_dir(triton_install, tmp_path / "backends")
    loaded, _ = _load(triton_install, repository, backends)
    assert loaded  # config.pbtxt is fine, and 1/config.pbtxt is never read
    loaded, said = _load(triton_install, repository, backends, "--model-config-name=big")
    assert not loaded
    assert "dynamic batching preferred size must be <= max batch size for classifier_onnx" in said

    result = lint(repository)
    big = repository / MODEL / "configs" / "big.pbtxt"
    assert [(d.code, d.path) for d in result.diagnostics if d.severity.value == "error"] == [
        ("TL502", big)
    ]
    assert ("TL222", None, None) in codes_at(result)
