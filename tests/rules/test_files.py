"""Files pack: unreadable, binary, non-UTF-8, oversized files and symlink loops (TL001-TL005)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import ONNX_MODEL, Files, codes, lint, model, only, position, with_code

from tritonlint.diagnostics import Severity
from tritonlint.document import MAX_CONFIG_BYTES

Repo = Callable[[Files], Path]

CONFIG = ONNX_MODEL["config.pbtxt"]
assert isinstance(CONFIG, str)


def test_tl001_non_utf8_config_is_reported_at_the_bad_byte(repo: Repo) -> None:
    data = b'name: "m"\n# caf\xe9\n' + CONFIG.encode()
    root = repo({**model("m", ONNX_MODEL), "m/config.pbtxt": data})
    found = only(lint(root), "TL001")
    assert found.severity is Severity.ERROR
    assert found.path == root / "m" / "config.pbtxt"
    assert position(found) == (2, 6)
    assert "0xe9" in found.message


def test_tl001_utf8_text_with_accents_is_fine(repo: Repo) -> None:
    data = '# café, naïve\nname: "m"\n'.encode() + CONFIG.encode()
    root = repo({**model("m", ONNX_MODEL), "m/config.pbtxt": data})
    assert "TL001" not in codes(lint(root))


def test_tl002_binary_config_is_reported_for_the_whole_file(repo: Repo) -> None:
    root = repo({**model("m", ONNX_MODEL), "m/config.pbtxt": b"\n\x08\x00\x12\x04resnet"})
    found = only(lint(root), "TL002")
    assert found.severity is Severity.ERROR
    assert found.path == root / "m" / "config.pbtxt"
    assert found.span is None
    assert "binary" in found.message


def test_tl002_text_config_is_not_binary(repo: Repo) -> None:
    root = repo(model("m", ONNX_MODEL))
    assert "TL002" not in codes(lint(root))


def test_tl003_oversized_config_is_not_parsed(repo: Repo) -> None:
    root = repo(model("m", ONNX_MODEL))
    with open(root / "m" / "config.pbtxt", "r+b") as handle:
        handle.truncate(MAX_CONFIG_BYTES + 1)
    found = only(lint(root), "TL003")
    assert found.severity is Severity.ERROR
    assert found.path == root / "m" / "config.pbtxt"
    assert found.span is None
    # Not parsed: the NUL bytes would otherwise be reported as a binary file.
    assert "TL002" not in codes(lint(root))


def test_tl003_config_at_the_limit_is_parsed(repo: Repo) -> None:
    root = repo(model("m", ONNX_MODEL))
    padding = "#" * (MAX_CONFIG_BYTES - len(CONFIG.encode()) - 1) + "\n"
    (root / "m" / "config.pbtxt").write_text(CONFIG + padding, encoding="utf-8")
    assert (root / "m" / "config.pbtxt").stat().st_size == MAX_CONFIG_BYTES
    assert "TL003" not in codes(lint(root))


def test_tl004_path_that_does_not_exist(tmp_path: Path) -> None:
    missing = tmp_path / "no_such_repository"
    found = only(lint(missing), "TL004")
    assert found.severity is Severity.ERROR
    assert found.path == missing
    assert found.span is None
    assert "no such file or folder" in found.message


def test_tl004_existing_path_is_readable(repo: Repo) -> None:
    assert "TL004" not in codes(lint(repo(model("m", ONNX_MODEL))))


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


def test_tl005_symlink_loop_at_the_repository_root(repo: Repo) -> None:
    root = repo(model("m", ONNX_MODEL))
    (root / "loop").symlink_to("loop")
    found = only(lint(root), "TL005")
    assert found.severity is Severity.ERROR
    assert found.path == root / "loop"
    assert found.span is None


def test_tl005_symlink_loop_inside_a_model_folder_given_on_the_command_line(repo: Repo) -> None:
    root = repo(model("m", ONNX_MODEL))
    (root / "m" / "loop").symlink_to("loop")
    assert [d.path for d in with_code(lint(root / "m"), "TL005")] == [root / "m" / "loop"]


def test_tl005_symlink_loop_inside_a_model_folder_of_a_repository(repo: Repo) -> None:
    root = repo(model("m", ONNX_MODEL))
    (root / "m" / "loop").symlink_to("loop")
    (root / "m" / "1" / "loop").symlink_to("loop")
    assert sorted(d.path for d in with_code(lint(root), "TL005")) == [
        root / "m" / "1" / "loop",
        root / "m" / "loop",
    ]


def test_tl005_symlink_that_leads_somewhere_is_fine(repo: Repo) -> None:
    root = repo({**model("m", ONNX_MODEL), "shared/labels.txt": "cat\n"})
    (root / "m" / "labels.txt").symlink_to(root / "shared" / "labels.txt")
    (root / "alias").symlink_to("m")
    assert "TL005" not in codes(lint(root))
