"""Changing a user's file: edits, diffs and writing in place."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from helpers import span_of

from tritonlint.diagnostics import TextEdit
from tritonlint.rewrite import (
    OverlappingEdits,
    apply_edits,
    touch_same_text,
    unified_diff,
    write_in_place,
)

TEXT = 'name: "m"\nmax_batch_size: "8"\n'


def edit(start: int, end: int, new_text: str, text: str = TEXT) -> TextEdit:
    return TextEdit(span_of(text, start, end), new_text)


def test_edits_apply_by_offset_whatever_their_order() -> None:
    value = TEXT.index('"8"')
    edits = [edit(value, value + 3, "8"), edit(0, 0, "# model m\n")]
    assert apply_edits(TEXT, edits) == '# model m\nname: "m"\nmax_batch_size: 8\n'


def test_insertions_at_one_offset_keep_their_order() -> None:
    end = len(TEXT)
    edits = [edit(end, end, "a: 1\n"), edit(end, end, "b: 2\n")]
    assert apply_edits(TEXT, edits) == TEXT + "a: 1\nb: 2\n"


@pytest.mark.parametrize(
    ("first", "second"), [((0, 4), (2, 6)), ((0, 4), (0, 4)), ((3, 9), (4, 4))]
)
def test_overlapping_edits_are_refused(first: tuple[int, int], second: tuple[int, int]) -> None:
    with pytest.raises(OverlappingEdits):
        apply_edits(TEXT, [edit(*first, "x"), edit(*second, "y")])


def test_adjacent_edits_are_not_overlapping() -> None:
    assert apply_edits(TEXT, [edit(0, 4, "NAME"), edit(4, 5, ";")]) == TEXT.replace(
        "name:", "NAME;"
    )


def test_unified_diff_of_a_change() -> None:
    after = TEXT.replace('"8"', "8")
    assert unified_diff("m/config.pbtxt", TEXT, after) == (
        "--- a/m/config.pbtxt\n"
        "+++ b/m/config.pbtxt\n"
        "@@ -1,2 +1,2 @@\n"
        ' name: "m"\n'
        '-max_batch_size: "8"\n'
        "+max_batch_size: 8\n"
    )


def test_unified_diff_marks_a_missing_final_newline_and_is_empty_without_change() -> None:
    assert unified_diff("c.pbtxt", TEXT, TEXT) == ""
    assert unified_diff("c.pbtxt", "a: 1", "a: 1\n").splitlines()[3:] == [
        "-a: 1",
        "\\ No newline at end of file",
        "+a: 1",
    ]


def test_write_in_place_keeps_the_mode_and_the_line_endings(tmp_path: Path) -> None:
    config = tmp_path / "config.pbtxt"
    config.write_bytes(b"a: 1\r\n")
    config.chmod(0o640)
    write_in_place(config, "a: 2\r\n")
    assert config.read_bytes() == b"a: 2\r\n"
    assert stat.S_IMODE(config.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["config.pbtxt"]


def test_write_in_place_through_a_link_rewrites_its_target(tmp_path: Path) -> None:
    target = tmp_path / "shared.pbtxt"
    target.write_text("a: 1\n")
    link = tmp_path / "config.pbtxt"
    link.symlink_to(target.name)
    write_in_place(link, "a: 2\n")
    assert link.is_symlink() and os.readlink(link) == "shared.pbtxt"
    assert target.read_text() == "a: 2\n"


def test_a_file_that_cannot_be_replaced_is_left_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "config.pbtxt"
    config.write_text("a: 1\n")

    def refuse(source: str, destination: str) -> None:
        raise PermissionError(13, "Permission denied", destination)

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(PermissionError):
        write_in_place(config, "a: 2\n")
    assert config.read_text() == "a: 1\n"
    assert [p.name for p in tmp_path.iterdir()] == ["config.pbtxt"]  # no temporary file left


@pytest.mark.parametrize(
    ("first", "second", "touching"),
    [
        ((0, 4), (4, 8), False),  # adjacent replacements
        ((0, 4), (3, 8), True),
        ((0, 4), (4, 4), True),  # an insertion at the end of a replacement
        ((2, 2), (2, 2), True),  # two insertions at one place
        ((2, 2), (5, 9), False),
    ],
)
def test_edits_touching_the_same_text(
    first: tuple[int, int], second: tuple[int, int], touching: bool
) -> None:
    one, other = edit(*first, "x"), edit(*second, "y")
    assert touch_same_text(one, other) is touching
    assert touch_same_text(other, one) is touching
