"""Naming pack: TL201 name-mismatch, TL202 unaddressable-model-name."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import (
    ONNX_MODEL,
    Files,
    assert_fix_resolves,
    lint,
    locate,
    make_tree,
    model,
    only,
    position,
)

from tritonlint.diagnostics import Applicability, Fix, Severity, TextEdit
from tritonlint.span import Span

Repo = Callable[[Files], Path]

CONFIG = ONNX_MODEL["config.pbtxt"]
assert isinstance(CONFIG, str)


def named(name: str) -> str:
    return f'name: "{name}"\n{CONFIG}'


def test_tl201_name_differs_from_the_folder(repo: Repo) -> None:
    text = named("resnet")
    root = repo({**model("resnet50", ONNX_MODEL), "resnet50/config.pbtxt": text})
    found = only(lint(root), "TL201")
    assert found.severity is Severity.ERROR
    assert found.path == root / "resnet50" / "config.pbtxt"
    assert position(found) == locate(text, '"resnet"')
    assert found.span is not None and found.span.end_column == 15
    assert "unexpected directory name 'resnet50' for model 'resnet'" in found.message


def test_tl201_fix_sets_the_folder_name(repo: Repo) -> None:
    text = named("resnet")
    root = repo({**model("resnet50", ONNX_MODEL), "resnet50/config.pbtxt": text})
    found = only(lint(root), "TL201")
    assert found.fixes == (
        Fix(
            'Set name to "resnet50", the model folder\'s name',
            (TextEdit(Span(1, 7, 1, 15, 6, 14), '"resnet50"'),),
            Applicability.SAFE,
        ),
    )
    assert assert_fix_resolves(found, root) == named("resnet50")


@pytest.mark.parametrize(
    ("folder", "literal"),
    [('say"hi"', '"say\\"hi\\""'), ("naïve", '"naïve"'), ("back\\slash", '"back\\\\slash"')],
)
def test_tl201_fix_quotes_the_folder_name(repo: Repo, folder: str, literal: str) -> None:
    root = repo({**model(folder, ONNX_MODEL), f"{folder}/config.pbtxt": named("other")})
    found = only(lint(root), "TL201")
    [fix] = found.fixes
    assert [edit.new_text for edit in fix.edits] == [literal]
    assert_fix_resolves(found, root)


def test_tl201_no_fix_for_a_folder_name_that_is_not_utf8(tmp_path: Path) -> None:
    folder = tmp_path / "models" / os.fsdecode(b"caf\xe9")
    make_tree(folder, {**ONNX_MODEL, "config.pbtxt": named("cafe")})
    found = only(lint(tmp_path / "models"), "TL201")
    assert found.fixes == ()
