"""Bad input never crashes the run: each case is a clear finding (TL00x) or a usage error, and
the other paths given on the same command line are still linted."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from helpers import ONNX_MODEL, make_tree, model, run_process

from tritonlint.cli import main

CONFIG = ONNX_MODEL["config.pbtxt"]
assert isinstance(CONFIG, str)


def run_json(
    argv: Sequence[str], capsys: pytest.CaptureFixture[str]
) -> tuple[int, list[dict[str, Any]]]:
    status = main([*argv, "--format", "json"])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    assert "internal error" not in captured.err
    return status, json.loads(captured.out)


def found(findings: list[dict[str, Any]]) -> list[tuple[str, str, int | None, int | None]]:
    return sorted((f["code"], f["path"], f["line"], f["column"]) for f in findings)


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working directory with ``good/renamed``, a model with one known finding (TL201)."""
    monkeypatch.chdir(tmp_path)
    make_tree(
        tmp_path / "good",
        {**model("renamed", ONNX_MODEL), "renamed/config.pbtxt": 'name: "other"\n' + CONFIG},
    )
    return tmp_path


#: What linting ``good/renamed`` always reports, whatever comes before it.
GOOD = ("TL201", "good/renamed/config.pbtxt", 1, 7)


def bad_model(workdir: Path, config: str | bytes | None) -> Path:
    files: dict[str, str | bytes | None] = {"1/model.onnx": b""}
    if config is not None:
        files["config.pbtxt"] = config
    return make_tree(workdir / "bad" / "m", files)


def test_empty_config_is_valid(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad_model(workdir, "")
    status, findings = run_json(["bad", "good/renamed"], capsys)
    assert found(findings) == [GOOD]
    assert status == 1  # because of the good path's finding only


def test_config_of_only_comments_and_blank_lines_is_valid(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad_model(workdir, "\n\n# nothing here yet\n   \n")
    assert found(run_json(["bad"], capsys)[1]) == []


#: The finding about a config that is not text at all.
BINARY = ("TL002", "bad/m/config.pbtxt", None, None)


@pytest.mark.parametrize(
    ("config", "given", "finding"),
    [
        (b"\n\x06resnet\x12\x00\x1a\x10onnxruntime_onnx", "bad", BINARY),
        # A file saved as UTF-16 by a Windows editor has NUL bytes.
        (CONFIG.encode("utf-16"), "bad/m/config.pbtxt", BINARY),
        # A byte order mark is a syntax error at the start: protobuf's parser refuses it too.
        (b"\xef\xbb\xbf" + CONFIG.encode(), "bad", ("TL010", "bad/m/config.pbtxt", 1, 1)),
    ],
    ids=["binary", "utf16", "byte-order-mark"],
)
def test_config_that_is_not_utf8_text(
    workdir: Path,
    capsys: pytest.CaptureFixture[str],
    config: bytes,
    given: str,
    finding: tuple[str, str, int | None, int | None],
) -> None:
    bad_model(workdir, config)
    status, findings = run_json([given, "good/renamed"], capsys)
    assert status == 1
    assert found(findings) == [finding, GOOD]


def test_non_utf8_config_points_at_the_bad_byte(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Columns count characters: "é" (two bytes) is one column.
    bad_model(workdir, 'name: "m"\n# résumé \xff\n'.encode().replace(b"\xc3\xbf", b"\xff"))
    status, findings = run_json(["bad", "good/renamed"], capsys)
    assert status == 1
    assert found(findings) == [("TL001", "bad/m/config.pbtxt", 2, 10), GOOD]
    [utf8] = [f for f in findings if f["code"] == "TL001"]
    assert "0xff" in utf8["message"]


def test_huge_config_is_reported_quickly(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = bad_model(workdir, "") / "config.pbtxt"
    with open(config, "r+b") as handle:  # sparse: 50 MB without writing them
        handle.truncate(50 * 1024 * 1024)
    started = time.monotonic()
    status, findings = run_json(["bad", "good/renamed"], capsys)
    assert time.monotonic() - started < 10
    assert status == 1
    assert found(findings) == [("TL003", "bad/m/config.pbtxt", None, None), GOOD]
    [large] = [f for f in findings if f["code"] == "TL003"]
    assert "50.0 MiB" in large["message"]


def test_huge_config_full_of_text_is_reported_quickly(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = bad_model(workdir, "") / "config.pbtxt"
    line = b'parameters { key: "k" value { string_value: "v" } }\n'
    config.write_bytes(line * (50 * 1024 * 1024 // len(line)))
    started = time.monotonic()
    status, findings = run_json(["bad", "good/renamed"], capsys)
    assert time.monotonic() - started < 10
    assert status == 1
    assert found(findings) == [("TL003", "bad/m/config.pbtxt", None, None), GOOD]


@contextmanager
def unreadable(path: Path, mode: int) -> Iterator[None]:
    """``path`` unreadable inside the block (the test skipped where this user reads it all the
    same), and given ``mode`` after it."""
    path.chmod(0)
    try:
        if os.access(path, os.R_OK):
            pytest.skip("running with privileges that read any file or folder")
        yield
    finally:
        path.chmod(mode)


# A model folder given itself, and the only model folder of a folder given: the search for
# repositories looks into each subfolder, so one it cannot read is reported.
@pytest.mark.parametrize("given", ["bad/m", "bad"])
def test_unreadable_model_folder(
    workdir: Path, capsys: pytest.CaptureFixture[str], given: str
) -> None:
    folder = bad_model(workdir, CONFIG)
    with unreadable(folder, 0o755):
        status, findings = run_json([given, "good/renamed"], capsys)
    assert status == 1
    assert ("TL004", "bad/m", None, None) in found(findings)
    assert GOOD in found(findings)


def test_unreadable_config(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = bad_model(workdir, CONFIG) / "config.pbtxt"
    with unreadable(config, 0o644):
        status, findings = run_json(["bad", "good/renamed"], capsys)
    assert status == 1
    assert found(findings) == [("TL004", "bad/m/config.pbtxt", None, None), GOOD]


@pytest.mark.parametrize("folder", ["bad", "bad/m"], ids=["repository", "model-folder"])
def test_symlink_loop_in_a_folder(
    workdir: Path, capsys: pytest.CaptureFixture[str], folder: str
) -> None:
    bad_model(workdir, CONFIG)
    (workdir / folder / "loop").symlink_to("loop")
    status, findings = run_json([folder, "good/renamed"], capsys)
    assert status == 1
    assert found(findings) == [("TL005", f"{folder}/loop", None, None), GOOD]


def test_symlink_loop_given_on_the_command_line(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (workdir / "loop").symlink_to("loop")
    status, findings = run_json(["loop", "good/renamed"], capsys)
    assert status == 1
    assert found(findings) == [("TL005", "loop", None, None), GOOD]


def test_symlink_loop_in_a_model_folder_of_a_repository(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad_model(workdir, CONFIG)
    (workdir / "bad" / "m" / "loop").symlink_to("loop")
    _, findings = run_json(["bad", "good/renamed"], capsys)
    assert found(findings) == [("TL005", "bad/m/loop", None, None), GOOD]


def test_config_that_is_a_folder(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_tree(workdir / "bad" / "m", {"config.pbtxt/": None, "1/model.onnx": b""})
    _, findings = run_json(["bad", "good/renamed"], capsys)
    assert ("TL004", "bad/m/config.pbtxt", None, None) in found(findings)


def test_path_that_does_not_exist(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, findings = run_json(["no/such/path", "good/renamed"], capsys)
    assert status == 1
    assert found(findings) == [("TL004", "no/such/path", None, None), GOOD]
    [missing] = [f for f in findings if f["code"] == "TL004"]
    assert "no such file or folder" in missing["message"]


def test_several_bad_paths_in_one_run(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_tree(
        workdir / "bad",
        {
            "binary/config.pbtxt": b"\x00",
            "binary/1/model.onnx": b"",
            "latin1/config.pbtxt": b"# caf\xe9\n",
            "latin1/1/model.onnx": b"",
        },
    )
    (workdir / "bad" / "loop").symlink_to("loop")
    (workdir / "loop").symlink_to("loop")
    status, findings = run_json(["missing", "bad", "good/renamed", "loop"], capsys)
    assert status == 1
    assert found(findings) == [
        ("TL001", "bad/latin1/config.pbtxt", 1, 6),
        ("TL002", "bad/binary/config.pbtxt", None, None),
        ("TL004", "missing", None, None),
        ("TL005", "bad/loop", None, None),
        ("TL005", "loop", None, None),
        GOOD,
    ]


def test_a_loop_named_twice_is_reported_once(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad_model(workdir, CONFIG)
    (workdir / "bad" / "loop").symlink_to("loop")
    _, findings = run_json(["bad", "bad/loop"], capsys)
    assert found(findings) == [("TL005", "bad/loop", None, None)]


def test_text_output_of_a_folder_finding_has_no_frame(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad_model(workdir, b"\x00\x01")
    status = main(["bad"])
    out = capsys.readouterr().out
    assert status == 1
    assert "bad/m/config.pbtxt: TL002 [error] this is a binary file" in out
    assert " | " not in out


@pytest.mark.parametrize(("depth", "middle"), [(200, ""), (5000, ""), (1000, "# deep\n")])
def test_deeply_nested_config(
    workdir: Path, capsys: pytest.CaptureFixture[str], depth: int, middle: str
) -> None:
    """Past 100 levels a message is one syntax error, and read as empty (a comment at the
    deepest level too)."""
    bad_model(workdir, "a { " * depth + middle + "}" * depth + "\n")
    status, findings = run_json(["bad", "good/renamed"], capsys)
    assert status == 1
    assert found(findings) == [
        ("TL010", "bad/m/config.pbtxt", 1, 403),
        ("TL101", "bad/m/config.pbtxt", 1, 1),
        GOOD,
    ]


def test_config_that_is_a_named_pipe(workdir: Path) -> None:
    folder = bad_model(workdir, None)
    os.mkfifo(folder / "config.pbtxt")
    completed = run_process(
        [sys.executable, "-m", "tritonlint.cli", "bad", "good/renamed", "--format", "json"],
        timeout=5,
    )
    assert completed.returncode == 1
    assert GOOD in found(json.loads(completed.stdout))
