"""Document links: label files and warmup data files that exist."""

from __future__ import annotations

from pathlib import Path

from tritonlint.editor.links import Link, document_links
from tritonlint.schema.releases import Schema
from tritonlint.span import Span

CONFIG = """\
max_batch_size: 1
output { name: "a" data_type: TYPE_FP32 dims: [ 2 ] label_filename: "labels.txt" }
output { name: "b" data_type: TYPE_FP32 dims: [ 2 ] label_filename: "gone.txt" }
model_warmup {
  name: "w"
  batch_size: 1
  inputs { key: "x" value { data_type: TYPE_FP32 dims: [ 2 ] input_data_file: "x.bin" } }
  inputs { key: "y" value { data_type: TYPE_FP32 dims: [ 2 ] zero_data: true } }
}
"""


def test_existing_label_and_warmup_files_are_links(tmp_path: Path, schema: Schema) -> None:
    (tmp_path / "warmup").mkdir()
    (tmp_path / "warmup" / "x.bin").write_bytes(b"\0" * 8)
    (tmp_path / "labels.txt").write_text("cat\ndog\n", encoding="utf-8")
    assert document_links(CONFIG, schema, tmp_path) == [
        Link(Span(2, 69, 2, 81, 86, 98), tmp_path / "labels.txt"),
        Link(Span(7, 79, 7, 86, 303, 310), tmp_path / "warmup" / "x.bin"),
    ]


def test_missing_files_and_folders_are_no_links(tmp_path: Path, schema: Schema) -> None:
    # x.bin lies in the model folder, not in warmup/; a folder named like a label file.
    (tmp_path / "x.bin").write_bytes(b"\0" * 8)
    (tmp_path / "labels.txt").mkdir()
    assert document_links(CONFIG, schema, tmp_path) == []


def test_a_path_is_joined_as_the_server_joins_it(tmp_path: Path, schema: Schema) -> None:
    model = tmp_path / "model"
    (model / "sub").mkdir(parents=True)
    (model / "sub" / "l.txt").write_text("a\n", encoding="utf-8")
    (tmp_path / "shared.txt").write_text("a\n", encoding="utf-8")
    text = (
        'output { name: "a" label_filename: "sub/l.txt" }\n'
        'output { name: "b" label_filename: "../shared.txt" }\n'
        'output { name: "c" label_filename: "" }\n'
    )
    assert [link.target for link in document_links(text, schema, model)] == [
        model / "sub" / "l.txt",
        model / "../shared.txt",
    ]


def test_a_half_typed_file_still_has_its_links(tmp_path: Path, schema: Schema) -> None:
    (tmp_path / "labels.txt").write_text("cat\n", encoding="utf-8")
    text = 'output { name: "a" label_filename: "labels.txt" }\noutput { name: "b" data_type: '
    assert document_links(text, schema, tmp_path) == [
        Link(Span(1, 36, 1, 48, 35, 47), tmp_path / "labels.txt")
    ]
