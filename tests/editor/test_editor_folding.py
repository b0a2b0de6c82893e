"""Folding ranges: multi-line messages and lists, runs of comment lines."""

from __future__ import annotations

from tritonlint.editor.folding import FoldingRange, FoldKind, folding_ranges

REGION, COMMENT = FoldKind.REGION, FoldKind.COMMENT

TEXT = """\
# A classifier.
# Two lines of comment.
name: "m"  # trailing
# a lone comment
input [
  {
    name: "x"
    dims: [ 3,
            224 ]  # after a value
    # one
  },
  { name: "y" }
]
# first
# second
# third
instance_group { kind: KIND_CPU }
"""


def test_messages_lists_and_comment_runs_fold() -> None:
    assert folding_ranges(TEXT) == [
        FoldingRange(1, 2, COMMENT),
        FoldingRange(5, 13, REGION),
        FoldingRange(6, 11, REGION),
        FoldingRange(8, 9, REGION),
        FoldingRange(14, 16, COMMENT),
    ]


def test_one_line_values_and_lone_comments_do_not_fold() -> None:
    text = 'input { name: "x" dims: [ 1 ] }\n# one\noutput [ { name: "y" } ]  # two\n# three\n'
    assert folding_ranges(text) == []


def test_an_unclosed_message_folds_to_where_it_ends() -> None:
    text = 'input [\n  { name: "a"\n    dims: [ 1 ]\n'
    assert folding_ranges(text) == [FoldingRange(1, 4, REGION), FoldingRange(2, 4, REGION)]


def test_deep_nesting_does_not_exhaust_the_stack() -> None:
    """Messages nested past the parser's limit of 100 fold to that depth: the deepest one
    read holds what is nested in it, unread."""
    depth = 5000
    text = "".join("a {\n" for _ in range(depth)) + "}\n" * depth
    found = folding_ranges(text)
    assert len(found) == 101
    assert found[0] == FoldingRange(1, 2 * depth, REGION)
    assert found[-1] == FoldingRange(101, 2 * depth - 100, REGION)
