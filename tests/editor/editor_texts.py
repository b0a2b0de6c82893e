"""Texts with the cursor marked as ``|``, for the editor feature tests."""

from __future__ import annotations

import textwrap
from pathlib import Path

from helpers import Content, make_tree

from tritonlint.engine import LintOptions, Workspace
from tritonlint.repository.model import Repository


def at_cursor(marked: str) -> tuple[str, int, int]:
    """The text without its ``|`` mark, and the 1-based line and column of the mark."""
    marked = textwrap.dedent(marked).lstrip("\n")
    index = marked.index("|")
    line = marked.count("\n", 0, index) + 1
    column = index - (marked.rfind("\n", 0, index) + 1) + 1
    return marked[:index] + marked[index + 1 :], line, column


PREPROCESS = """
name: "preprocess"
backend: "python"
max_batch_size: 8
input [ { name: "RAW" data_type: TYPE_UINT8 dims: [ -1 ] } ]
output [
  { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] },
  { name: "SIZE" data_type: TYPE_INT32 dims: [ 2 ] }
]
"""

CLASSIFIER = """
name: "classifier"
platform: "onnxruntime_onnx"
max_batch_size: 8
input [ { name: "images" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
output [ { name: "scores" data_type: TYPE_FP32 dims: [ 1000 ] } ]
"""

PIPELINE = """
name: "pipeline"
platform: "ensemble"
max_batch_size: 8
input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1 ] } ]
output [ { name: "SCORES" data_type: TYPE_FP32 dims: [ 1000 ] } ]
ensemble_scheduling {
  step [
    {
      model_name: "preprocess"
      model_version: -1
      input_map { key: "RAW" value: "IMAGE" }
      output_map { key: "PIXELS" value: "pixels" }
    },
    {
      model_name: "classifier"
      model_version: -1
      input_map { key: "images" value: "pixels" }
      output_map { key: "scores" value: "SCORES" }
    }
  ]
}
"""


def marked_in(needle: str, text: str = PIPELINE) -> str:
    """``text`` (one of the configs above) with the cursor marked: ``needle`` is a piece of it
    with a ``|`` where the cursor is, put in at the piece's first place."""
    text = text.lstrip("\n")
    marked = text.replace(needle.replace("|", ""), needle, 1)
    assert marked != text
    return marked


def pipeline_repository(root: Path) -> Repository:
    """A repository of an ensemble (``pipeline``) of ``preprocess`` and ``classifier``."""
    files: dict[str, Content] = {}
    for name, text in (
        ("preprocess", PREPROCESS),
        ("classifier", CLASSIFIER),
        ("pipeline", PIPELINE),
    ):
        files[f"{name}/1"] = None
        files[f"{name}/config.pbtxt"] = text.lstrip("\n")
    make_tree(root, files, verbatim=True)
    return Workspace(root, LintOptions()).repository
