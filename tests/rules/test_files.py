"""Files pack: unreadable, binary, non-UTF-8, oversized files and symlink loops (TL001-TL005)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import ONNX_MODEL, Files, codes, lint, model, with_code

from tritonlint.document import MAX_CONFIG_BYTES

Repo = Callable[[Files], Path]

CONFIG = ONNX_MODEL["config.pbtxt"]
assert isinstance(CONFIG, str)


def test_tl003_config_at_the_limit_is_parsed(repo: Repo) -> None:
    root = repo(model("m", ONNX_MODEL))
    padding = "#" * (MAX_CONFIG_BYTES - len(CONFIG.encode()) - 1) + "\n"
    (root / "m" / "config.pbtxt").write_text(CONFIG + padding, encoding="utf-8")
    assert (root / "m" / "config.pbtxt").stat().st_size == MAX_CONFIG_BYTES
    assert "TL003" not in codes(lint(root))


def test_tl004_unreadable_model_folder(repo: Repo) -> None:
    root = repo({**model("m", ONNX_MODEL), **model("locked", ONNX_MODEL)})
    locked = root / "locked"
    locked.chmod(0)
    try:
        if os.access(locked, os.R_OK):
            pytest.skip("running with privileges that read any folder")
        found = with_code(lint(locked), "TL004")
        assert [d.path for d in found] == [locked]
    finally:
        locked.chmod(0o755)
