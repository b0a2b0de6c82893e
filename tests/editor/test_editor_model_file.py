"""Which tensor of a TorchScript model an input or output entry names: the PyTorch backend's
three conventions (``forward``'s argument names, ``<name>__<index>``, the config's order) and
a ``forward`` taking a dictionary, shown by hover and completion on files torch saved."""

from __future__ import annotations

from pathlib import Path

import pytest
from editor_texts import at_cursor
from helpers import make_tree

from tritonlint.editor.completion import completions
from tritonlint.editor.hover import hover
from tritonlint.engine import Workspace
from tritonlint.schema.releases import Schema

DATA = Path(__file__).parents[1] / "data/modelfiles/torchscript"


def config(inputs: list[str], outputs: tuple[str, ...] = ()) -> str:
    written = ", ".join(f'{{ name: "{name}" data_type: TYPE_FP32 dims: [ 1 ] }}' for name in inputs)
    text = f'name: "m"\nbackend: "pytorch"\nmax_batch_size: 0\ninput [ {written} ]\n'
    if outputs:
        listed = ", ".join(
            f'{{ name: "{name}" data_type: TYPE_FP32 dims: [ 1 ] }}' for name in outputs
        )
        text += f"output [ {listed} ]\n"
    return text


def workspace(root: Path, model_file: str, text: str) -> tuple[Workspace, Path]:
    files = {"m/1/model.pt": (DATA / model_file).read_bytes(), "m/config.pbtxt": text}
    models = make_tree(root / "models", files, verbatim=True)
    return Workspace(models), models / "m" / "config.pbtxt"


def name_line(tmp_path: Path, schema: Schema, model_file: str, text: str, word: str) -> str:
    """The ``- name:`` line of the hover over the entry named ``word``."""
    found, path = workspace(tmp_path, model_file, text)
    line = next(n for n, content in enumerate(text.split("\n"), 1) if f'"{word}"' in content)
    column = text.split("\n")[line - 1].index(f'"{word}"') + 2
    shown = hover(found.document(path), line, column, schema, found.repository, path)
    assert shown is not None
    return next(part for part in shown.text.split("\n") if part.startswith("- name:"))


@pytest.mark.parametrize(
    ("names", "word", "expected"),
    [
        (
            ["token_type_ids", "input_ids", "attention_mask"],
            "input_ids",
            "- name: `input_ids` (input 0, matched by name)",
        ),
        (
            ["INPUT__2", "INPUT__0", "INPUT__1"],
            "INPUT__2",
            "- name: `token_type_ids` (input 2, matched by the index in the config's name, "
            "`<name>__2`)",
        ),
        (
            ["ids", "mask", "INPUT__0"],
            "mask",
            "- name: `attention_mask` (input 1, matched by its place in the config (not every "
            "name is `<name>__<index>`))",
        ),
        (
            # One argument's name among others: the backend falls back to the convention.
            ["input_ids", "x__1", "y__2"],
            "input_ids",
            "- name: `input_ids` (input 0, matched by its place in the config (not every name "
            "is `<name>__<index>`))",
        ),
    ],
)
def test_torchscript_inputs_are_paired_as_the_backend_pairs_them(
    tmp_path: Path, schema: Schema, names: list[str], word: str, expected: str
) -> None:
    assert name_line(tmp_path, schema, "three_inputs.pt", config(names), word) == expected


def test_torchscript_outputs_have_no_names(tmp_path: Path, schema: Schema) -> None:
    text = config(["x", "y"], ("OUTPUT__1", "OUTPUT__0"))
    assert name_line(tmp_path, schema, "traced.pt", text, "OUTPUT__1") == (
        "- name: none in TorchScript (output 1, matched by the index in the config's name, "
        "`<name>__1`)"
    )


def test_a_dictionary_input_takes_any_names(tmp_path: Path, schema: Schema) -> None:
    text = config(["pixels", "mask"])
    assert name_line(tmp_path, schema, "dict_input.pt", text, "mask") == (
        "- name: `inputs` (input 0, matched as a key of the `Dict[str, Tensor]` that `forward` "
        "takes as `inputs`)"
    )
    # Its keys are the config's choice: no name to offer.
    marked = 'name: "m"\nbackend: "pytorch"\ninput [ { name: "pixels" }, { name: "|" } ]\n'
    text, line, column = at_cursor(marked)
    found, path = workspace(tmp_path / "dictionary", "dict_input.pt", text)
    assert completions(found.document(path), line, column, schema, found.repository, path) == []
    found, path = workspace(tmp_path / "arguments", "three_inputs.pt", text)
    offered = completions(found.document(path), line, column, schema, found.repository, path)
    assert [item.label for item in offered] == ["input_ids", "attention_mask", "token_type_ids"]
