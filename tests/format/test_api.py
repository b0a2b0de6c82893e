"""The functions an editor calls: text edits that make the formatted text, or a refusal."""

from __future__ import annotations

from tritonlint.diagnostics import TextEdit
from tritonlint.format import Refusal, format_edits
from tritonlint.rewrite import apply_edits
from tritonlint.span import Span


def test_edits_replace_only_the_lines_that_change() -> None:
    source = 'name: "m"\nmax_batch_size:8\nbackend: "python"\n'
    edits = format_edits(source)
    assert edits == [TextEdit(Span(2, 1, 3, 1, 10, 27), "max_batch_size: 8\n")]
    assert isinstance(edits, list)
    assert apply_edits(source, edits) == 'name: "m"\nmax_batch_size: 8\nbackend: "python"\n'


def test_no_edits_for_a_formatted_text_and_a_refusal_for_a_broken_one() -> None:
    assert format_edits('name: "m"\n') == []
    refusal = format_edits("name: {\n")
    assert isinstance(refusal, Refusal) and refusal.span is not None
    assert refusal.span.line == 2
