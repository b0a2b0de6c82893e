"""Completion and hover from the model file, end to end: a real ``tritonlint lsp`` process, a
pytest-lsp client over stdio, an ONNX model made with ``onnx.helper`` here and a TorchScript
model that torch saved (tests/data/modelfiles)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import onnx
import pytest
import pytest_lsp
from helpers import make_tree
from lsp_documents import show
from lsp_session import SERVER, capabilities, start
from lsprotocol import types
from onnx import TensorProto, helper
from pytest_lsp import ClientServerConfig, LanguageClient
from test_features import complete, hover, span

pytestmark = pytest.mark.asyncio(loop_scope="module")

P = types.Position
TORCHSCRIPT = Path(__file__).parents[1] / "data/modelfiles/torchscript/three_inputs.pt"

#: The ONNX model's inputs and output, and a config that gets ``mask``'s type wrong.
CLASSIFIER = """name: "classifier"
backend: "onnxruntime"
max_batch_size: 8
input [
  { name: "images" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] },
  { name: "mask" data_type: TYPE_INT32 dims: [ 7 ] }
]
output [ { name: "scores" data_type: TYPE_FP16 dims: [ 1000 ] } ]
"""
#: The TorchScript model: forward(input_ids, attention_mask, token_type_ids), two outputs.
ENCODER = """name: "encoder"
backend: "pytorch"
max_batch_size: 4
input [
  { name: "INPUT__0" data_type: TYPE_INT64 dims: [ -1 ] },
  { name: "INPUT__1" data_type: TYPE_INT64 dims: [ -1 ] }
]
"""
#: The same model files as empty placeholders, and as a file that is no ONNX model.
PLACEHOLDER = 'name: "placeholder"\nbackend: "onnxruntime"\nmax_batch_size: 8\n'
JUNK = 'name: "junk"\nbackend: "onnxruntime"\ninput [ { name: "x" } ]\n'

NAME_FIELD = (
    "**name**: `string`\n\nThe tensor's name, as clients and ensemble steps refer to it.\n\n"
    'Default: `""`\n\nIn every release covered (Triton 2.19.0 on)'
)


def onnx_model() -> bytes:
    """A model with symbolic batch and sequence dimensions."""
    graph = helper.make_graph(
        [helper.make_node("Identity", ["images"], ["scores"])],
        "classifier",
        [
            helper.make_tensor_value_info("images", TensorProto.FLOAT, ["batch", 3, 224, 224]),
            helper.make_tensor_value_info("mask", TensorProto.INT64, ["batch", "sequence"]),
        ],
        [helper.make_tensor_value_info("scores", TensorProto.FLOAT16, ["batch", 1000])],
    )
    return helper.make_model(graph).SerializeToString()


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("model-files")
    models = make_tree(
        folder / "models",
        {
            "classifier/config.pbtxt": CLASSIFIER,
            "classifier/1/model.onnx": onnx_model(),
            "encoder/config.pbtxt": ENCODER,
            "encoder/1/model.pt": TORCHSCRIPT.read_bytes(),
            "placeholder/config.pbtxt": PLACEHOLDER,
            "placeholder/1/model.onnx": "",
            "junk/config.pbtxt": JUNK,
            "junk/1/model.onnx": "not a model at all",
        },
    )
    onnx.checker.check_model(onnx.load(models / "classifier/1/model.onnx"))
    return folder


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), scope="module")
async def client(lsp_client: LanguageClient, project: Path) -> AsyncIterator[None]:
    await start(lsp_client, project)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), scope="module")
async def plain_client(lsp_client: LanguageClient, project: Path) -> AsyncIterator[None]:
    """A client that takes no snippets."""
    await start(lsp_client, project, given=capabilities(snippets=False))
    yield
    await lsp_client.shutdown_session()


def at_mark(marked: str) -> tuple[str, P]:
    """The text without its ``|`` mark, and the mark's position (ASCII text)."""
    index = marked.index("|")
    before = marked[:index]
    line = before.count("\n")
    return before + marked[index + 1 :], P(line, index - (before.rfind("\n") + 1))


async def hover_text(client: LanguageClient, path: Path, text: str, position: P) -> str | None:
    document = show(client, path, text)
    found = await hover(client, document, position)
    if found is None:
        return None
    assert isinstance(found.contents, types.MarkupContent)
    return found.contents.value


# -- completion --------------------------------------------------------------------------------


async def test_input_names_the_model_declares_and_the_config_does_not(
    client: LanguageClient, project: Path
) -> None:
    text, position = at_mark(
        CLASSIFIER.replace(
            '  { name: "mask" data_type: TYPE_INT32 dims: [ 7 ] }', '  { name: "|" }'
        )
    )
    document = show(client, project / "models/classifier/config.pbtxt", text)
    items = await complete(client, document, position)
    assert [(item.label, item.detail) for item in items] == [
        ("mask", "TYPE_INT64 [batch, sequence]")
    ]
    (item,) = items
    assert item.kind == types.CompletionItemKind.Variable
    assert item.text_edit == types.TextEdit(
        range=span(position.line, position.character - 1, position.line, position.character + 1),
        new_text='"mask"',
    )
    assert item.documentation == types.MarkupContent(
        kind=types.MarkupKind.Markdown,
        value="Input 1 of the model file, ONNX `1/model.onnx` (version 1)",
    )


async def test_output_names_of_the_model(client: LanguageClient, project: Path) -> None:
    text, position = at_mark(CLASSIFIER.replace('{ name: "scores"', '{ name: "|"'))
    document = show(client, project / "models/classifier/config.pbtxt", text)
    items = await complete(client, document, position)
    assert [(item.label, item.detail) for item in items] == [("scores", "TYPE_FP16 [batch, 1000]")]


async def test_the_models_data_type_comes_first_and_selected(
    client: LanguageClient, project: Path
) -> None:
    text, position = at_mark(CLASSIFIER.replace("data_type: TYPE_INT32", "data_type: |"))
    document = show(client, project / "models/classifier/config.pbtxt", text)
    items = await complete(client, document, position)
    first = items[0]
    assert (first.label, first.preselect, first.sort_text) == ("TYPE_INT64", True, "0000")
    assert first.detail == "inference.DataType, the model file's"
    assert [item.preselect for item in items[1:]] == [None] * (len(items) - 1)
    assert [item.sort_text for item in items[1:4]] == ["0001", "0002", "0003"]
    # Every data type is still offered, once.
    labels = [item.label for item in items]
    assert sorted(labels) == sorted(set(labels)) and {"TYPE_FP32", "TYPE_STRING"} <= set(labels)


async def test_the_models_dims_without_the_batch_dimension(
    client: LanguageClient, project: Path
) -> None:
    path = project / "models/classifier/config.pbtxt"
    text, position = at_mark(CLASSIFIER.replace("dims: [ 3, 224, 224 ]", "dims: [ | ]"))
    (inside,) = await complete(client, show(client, path, text), position)
    assert (inside.label, inside.insert_text_format) == (
        "3, 224, 224",
        types.InsertTextFormat.Snippet,
    )
    assert inside.text_edit is not None
    assert inside.text_edit.new_text == "${1:3}, ${2:224}, ${3:224}$0"

    text, position = at_mark(CLASSIFIER.replace("dims: [ 7 ]", "dims: |"))
    (whole,) = await complete(client, show(client, path, text), position)
    assert whole.label == "[ -1 ]"
    assert whole.text_edit is not None and whole.text_edit.new_text == "[ ${1:-1} ]$0"


async def test_a_model_that_does_not_batch_keeps_every_dimension(
    plain_client: LanguageClient, project: Path
) -> None:
    unbatched = CLASSIFIER.replace("max_batch_size: 8", "max_batch_size: 0")
    text, position = at_mark(unbatched.replace("dims: [ 3, 224, 224 ]", "dims: |"))
    document = show(plain_client, project / "models/classifier/config.pbtxt", text)
    (item,) = await complete(plain_client, document, position)
    assert item.label == "[ -1, 3, 224, 224 ]"
    # Without snippets: the placeholders' own text.
    assert item.insert_text_format == types.InsertTextFormat.PlainText
    assert item.text_edit is not None and item.text_edit.new_text == "[ -1, 3, 224, 224 ]"


async def test_torchscript_inputs_are_forwards_arguments_and_outputs_are_numbered(
    client: LanguageClient, project: Path
) -> None:
    path = project / "models/encoder/config.pbtxt"
    text, position = at_mark(ENCODER + 'output [ { name: "|" } ]\n')
    items = await complete(client, show(client, path, text), position)
    assert [(item.label, item.detail) for item in items] == [
        ("OUTPUT__0", "Tensor, shape unknown"),
        ("OUTPUT__1", "Tensor, shape unknown"),
    ]
    fresh = ENCODER.replace('"INPUT__0"', '"|"').replace('"INPUT__1"', '"token_type_ids"')
    text, position = at_mark(fresh)
    items = await complete(client, show(client, path, text), position)
    assert [item.label for item in items] == ["input_ids", "attention_mask"]


async def test_nothing_from_an_empty_placeholder(client: LanguageClient, project: Path) -> None:
    text, position = at_mark(PLACEHOLDER + 'input [ { name: "|" } ]\n')
    document = show(client, project / "models/placeholder/config.pbtxt", text)
    assert await complete(client, document, position) == []


# -- hover -------------------------------------------------------------------------------------


async def test_hover_over_an_input_shows_the_models_declaration(
    client: LanguageClient, project: Path
) -> None:
    path = project / "models/classifier/config.pbtxt"
    assert await hover_text(client, path, CLASSIFIER, P(4, 13)) == (
        "**Model file**: ONNX `1/model.onnx` (version 1)\n\n"
        "- name: `images` (input 0, matched by name)\n"
        "- element type: `tensor(float)` (TYPE_FP32)\n"
        "- shape: `[batch, 3, 224, 224]`\n\n"
        "Matches the config.\n\n" + NAME_FIELD
    )
    assert await hover_text(client, path, CLASSIFIER, P(5, 13)) == (
        "**Model file**: ONNX `1/model.onnx` (version 1)\n\n"
        "- name: `mask` (input 1, matched by name)\n"
        "- element type: `tensor(int64)` (TYPE_INT64)\n"
        "- shape: `[batch, sequence]`\n\n"
        "Differs from the config:\n"
        "- data type: the config says TYPE_INT32, the model file TYPE_INT64\n\n" + NAME_FIELD
    )


@pytest.mark.parametrize(
    ("text", "comparison"),
    [
        pytest.param(
            CLASSIFIER.replace("dims: [ 3, 224, 224 ]", "dims: [ 3, 224 ]").replace(
                "max_batch_size: 8", "max_batch_size: 0"
            ),
            "Differs from the config:\n"
            "- shape: the config's [3, 224] has 2 dimensions, the model file's 4",
            id="a-shape-the-model-does-not-have",
        ),
        pytest.param(
            CLASSIFIER.replace('"images" data_type: TYPE_FP32', '"images"'),
            "Matches the config.",
            id="no-data-type-where-none-is-written",
        ),
    ],
)
async def test_hover_compares_the_config_with_the_model_file(
    client: LanguageClient, project: Path, text: str, comparison: str
) -> None:
    found = await hover_text(client, project / "models/classifier/config.pbtxt", text, P(4, 13))
    assert found is not None
    assert found.split("\n\n")[2] == comparison


@pytest.mark.parametrize(
    ("model", "text", "position", "expected"),
    [
        pytest.param(
            "classifier",
            CLASSIFIER.replace('"scores"', '"logits"'),
            P(7, 17),
            "`logits` is not an output of the model file, ONNX `1/model.onnx` (version 1). "
            "Its outputs: `scores`\n\n" + NAME_FIELD,
            id="a-name-the-model-does-not-have",
        ),
        pytest.param(
            "encoder",
            ENCODER,
            P(5, 13),
            "**Model file**: TorchScript `1/model.pt` (version 1)\n\n"
            "- name: `attention_mask` (input 1, matched by the index in the config's name, "
            "`<name>__1`)\n"
            "- element type: `Tensor` (TorchScript gives no element type)\n"
            "- shape: unknown\n\n"
            "The file gives no element type or shape to compare.\n\n" + NAME_FIELD,
            id="a-torchscript-input-named-by-index",
        ),
        pytest.param(
            "junk",
            JUNK,
            P(2, 18),
            "The model file, ONNX `1/model.onnx` (version 1), could not be read: the ONNX "
            "model is a text file, not in ONNX's format\n\n" + NAME_FIELD,
            id="a-model-file-that-could-not-be-read",
        ),
        pytest.param(
            "placeholder",
            PLACEHOLDER + 'input [ { name: "x" } ]\n',
            P(3, 18),
            NAME_FIELD,
            id="an-input-with-a-placeholder-model-file",
        ),
    ],
)
async def test_hover_over_a_tensor_name(
    client: LanguageClient, project: Path, model: str, text: str, position: P, expected: str
) -> None:
    path = project / f"models/{model}/config.pbtxt"
    assert await hover_text(client, path, text, position) == expected
