"""The formatter on every real config of the shared corpus and on the fixtures.

For each file protobuf reads as a ModelConfig: it is formatted (not refused), protobuf reads
the formatted text as the same message, formatting it again changes nothing, and the
comments are the same comments in the same order. Files protobuf refuses but that parse
(another mistake the linter reports) must keep their comments and be stable too.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from google.protobuf import text_format
from google.protobuf.message import Message

from tritonlint.format import Formatted, format_text
from tritonlint.schema.releases import load_schema
from tritonlint.syntax.cst import Comment
from tritonlint.syntax.lexer import tokenize

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus"
SCHEMA = load_schema()


def files_of(group: str) -> list[Path]:
    if group == "fixtures":
        return sorted((ROOT / "fixtures").rglob("*.pbtxt"))
    if not CORPUS.is_dir():
        pytest.skip(f"the shared corpus is not there ({CORPUS})")
    return sorted((CORPUS / group).rglob("*.pbtxt"))


def protobuf_message(text: str) -> Message | None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return text_format.Parse(text, SCHEMA.new_config())
        except text_format.ParseError:
            return None


def comments(text: str) -> list[str]:
    found: list[Comment] = []
    for _ in tokenize(text, found):
        pass
    return [comment.text.rstrip() for comment in found]


@pytest.mark.parametrize(
    ("group", "at_least"), [("realworld", 800), ("triton-qa", 500), ("fixtures", 20)]
)
def test_formatting_keeps_the_message_and_the_comments_and_is_stable(
    group: str, at_least: int
) -> None:
    failures: list[str] = []
    accepted = commented = 0
    for path in files_of(group):
        text = path.read_text(encoding="utf-8", errors="replace")
        message = protobuf_message(text)
        result = format_text(text)
        if not isinstance(result, Formatted):
            if message is not None:
                failures.append(f"{path}: refused: {result.message}")
            continue
        again = format_text(result.text)
        if again != Formatted(result.text, False):
            failures.append(f"{path}: a second run changes it")
        before = comments(text)
        if comments(result.text) != before:
            failures.append(f"{path}: the comments changed")
        commented += bool(before)
        if message is None:
            continue
        accepted += 1
        after = protobuf_message(result.text)
        if after is None or after.SerializeToString(deterministic=True) != (
            message.SerializeToString(deterministic=True)
        ):
            failures.append(f"{path}: protobuf reads another message")
    assert failures == []
    assert accepted >= at_least
    assert commented > 0
