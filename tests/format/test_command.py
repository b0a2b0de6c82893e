"""``tritonlint format``: what it writes, prints and exits with."""

from __future__ import annotations

import io
import os
import stat
import sys
from pathlib import Path

import pytest
from helpers import make_tree

from tritonlint.cli import main

UGLY = 'name:"a" input:[{name:"x" dims:[1,2]}] # t\n'
PRETTY = 'name: "a"\ninput [\n  {\n    name: "x"\n    dims: [ 1, 2 ]\n  }\n]  # t\n'
BROKEN = 'name: "b"\ninput [ { name: "x" }\n'


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository with a model to format, one formatted, one broken, and an alternative
    config; the working directory is ``tmp_path``."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "400")
    files = {
        "models/a/config.pbtxt": UGLY,
        "models/a/configs/cpu.pbtxt": "instance_group{kind:KIND_CPU}",
        "models/b/config.pbtxt": BROKEN,
        "models/c/config.pbtxt": PRETTY,
        "models/c/1/model.onnx": "",
        "notes/other.pbtxt": "x:1",
    }
    return make_tree(tmp_path, files, verbatim=True)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(["format", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


SYNTAX_ERROR = (
    "tritonlint: error: models/b/config.pbtxt:3:1: cannot format: syntax error: expected one "
    "of ',', ']'; found end of file (the '[' at line 2, column 7 is not closed)\n"
)


def test_format_rewrites_what_check_finds_and_reports_the_broken_file(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["."], capsys) == (
        2,
        "2 files reformatted, 1 file left unchanged, 1 file could not be formatted\n",
        SYNTAX_ERROR,
    )
    assert (workdir / "models/a/config.pbtxt").read_text() == PRETTY
    assert (workdir / "models/a/configs/cpu.pbtxt").read_text() == (
        "instance_group {\n  kind: KIND_CPU\n}\n"
    )
    assert (workdir / "models/b/config.pbtxt").read_text() == BROKEN
    assert (workdir / "notes/other.pbtxt").read_text() == "x:1"  # not a model's config
    assert run(["models/a", "models/c"], capsys) == (0, "3 files left unchanged\n", "")


def test_check_lists_what_would_change_and_writes_nothing(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["--check", "models/a", "models/c"], capsys) == (
        1,
        "Would reformat: models/a/config.pbtxt\nWould reformat: models/a/configs/cpu.pbtxt\n"
        "2 files would be reformatted, 1 file already formatted\n",
        "",
    )
    assert (workdir / "models/a/config.pbtxt").read_text() == UGLY
    assert run(["--check", "models/c"], capsys) == (0, "1 file already formatted\n", "")


def test_diff_prints_a_patch_and_writes_nothing(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(["--diff", "models/a/configs/cpu.pbtxt"], capsys)
    assert (status, err) == (1, "1 file would be reformatted\n")
    assert out == (
        "--- a/models/a/configs/cpu.pbtxt\n+++ b/models/a/configs/cpu.pbtxt\n@@ -1 +1,3 @@\n"
        "-instance_group{kind:KIND_CPU}\n\\ No newline at end of file\n"
        "+instance_group {\n+  kind: KIND_CPU\n+}\n"
    )
    assert (workdir / "models/a/configs/cpu.pbtxt").read_text() == "instance_group{kind:KIND_CPU}"


def test_a_file_named_is_formatted_whatever_its_name(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["notes/other.pbtxt"], capsys) == (0, "1 file reformatted\n", "")
    assert (workdir / "notes/other.pbtxt").read_text() == "x: 1\n"


def test_the_file_keeps_its_mode(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = workdir / "models/a/config.pbtxt"
    os.chmod(config, 0o640)
    assert run(["models/a/config.pbtxt"], capsys)[0] == 0
    assert stat.S_IMODE(config.stat().st_mode) == 0o640
    assert config.read_text() == PRETTY


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"name: \"a\"\n\xff\n", "bad.pbtxt:2:1: cannot format: byte 0xff is not valid UTF-8; "
         "save the file as UTF-8"),
        (b"\x08\x01\x00\x12", "bad.pbtxt: cannot format: this is a binary file, not a "
         "text-format model configuration (a serialized protobuf?)"),
    ],
)  # fmt: skip
def test_a_binary_or_non_utf8_file_is_reported_and_left_alone(
    workdir: Path, capsys: pytest.CaptureFixture[str], data: bytes, message: str
) -> None:
    (workdir / "bad.pbtxt").write_bytes(data)
    assert run(["bad.pbtxt", "models/c"], capsys) == (
        2,
        "1 file left unchanged, 1 file could not be formatted\n",
        f"tritonlint: error: {message}\n",
    )
    assert (workdir / "bad.pbtxt").read_bytes() == data


def test_a_missing_path_and_an_empty_folder_exit_2(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (workdir / "empty").mkdir()
    assert run(["nothere", "empty"], capsys) == (
        2,
        "",
        "tritonlint: error: nothere: no such file or folder\n"
        "tritonlint: error: nothing to format in empty: no model repository, model folder or "
        "config file found there\n",
    )


def stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


def test_dash_formats_standard_input_to_standard_output(
    workdir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stdin(monkeypatch, UGLY.encode())
    assert run(["-"], capsys) == (0, PRETTY, "")
    stdin(monkeypatch, UGLY.encode())
    assert run(["--check", "-"], capsys) == (1, "", "")
    stdin(monkeypatch, PRETTY.encode())
    assert run(["--stdin-filename", "models/c/config.pbtxt", "--check"], capsys) == (0, "", "")


def test_standard_input_with_a_syntax_error_prints_nothing_and_exits_2(
    workdir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stdin(monkeypatch, BROKEN.encode())
    assert run(["--stdin-filename", "models/b/config.pbtxt"], capsys) == (2, "", SYNTAX_ERROR)


def test_standard_input_goes_alone(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["-", "models/a"], capsys) == (
        2,
        "",
        "tritonlint: error: standard input is formatted on its own: give - or "
        "--stdin-filename, no other path\n",
    )


def test_a_huge_file_is_not_read(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    huge = workdir / "huge.pbtxt"
    with huge.open("wb") as stream:
        stream.truncate(9 * 1024 * 1024)
    assert run(["huge.pbtxt"], capsys) == (
        2,
        "1 file could not be formatted\n",
        "tritonlint: error: huge.pbtxt: cannot format: 9.0 MiB is far larger than any model "
        "configuration; not formatted (the limit is 8 MiB)\n",
    )
    assert huge.stat().st_size == 9 * 1024 * 1024


def test_a_config_linked_to_outside_the_repository_is_skipped_with_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    outside = tmp_path / "elsewhere.pbtxt"
    outside.write_text(UGLY)
    (tmp_path / "models/a/1").mkdir(parents=True)
    (tmp_path / "models/a/config.pbtxt").symlink_to(outside)
    warning = (
        "tritonlint: warning: models/a/config.pbtxt is a symbolic link to a file outside the "
        "repository: not formatted (--follow-outside-links formats it)\n"
    )
    assert run(["models"], capsys) == (0, "1 file skipped\n", warning)
    assert run(["--diff", "models/a/config.pbtxt"], capsys) == (0, "", warning + "1 file skipped\n")
    assert outside.read_text() == UGLY
    assert run(["--follow-outside-links", "models"], capsys) == (0, "1 file reformatted\n", "")
    assert outside.read_text() == PRETTY
    assert (tmp_path / "models/a/config.pbtxt").is_symlink()


def test_a_config_linked_inside_the_repository_is_formatted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "models/a/1").mkdir(parents=True)
    shared = tmp_path / "models/shared.pbtxt"
    shared.write_text(UGLY)
    (tmp_path / "models/a/config.pbtxt").symlink_to("../shared.pbtxt")
    assert run(["models"], capsys) == (0, "1 file reformatted\n", "")
    assert shared.read_text() == PRETTY
