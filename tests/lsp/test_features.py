"""The editor features of ``tritonlint lsp`` end to end: one real server process for the
module, a pytest-lsp client over stdio, positions in UTF-16 code units."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from helpers import make_tree
from lsp_documents import apply, show, token_data
from lsp_session import CLASSIFIER, PIPELINE, PRE, PROJECT_FILES, SERVER, capabilities, start
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tritonlint.document import parse_config
from tritonlint.integrity import breakage_kind
from tritonlint.schema.releases import load_schema

pytestmark = pytest.mark.asyncio(loop_scope="module")

#: A model with a label file and text outside ASCII (an emoji is two UTF-16 code units).
LABELED = """name: "labeled"
backend: "onnxruntime"
max_batch_size: 4
input [ { name: "ÄPFEL😀" data_type: TYPE_FP32 dims: [ 3 ] } ]
output [ { name: "OUT" data_type: TYPE_FP32 dims: [ 10 ] label_filename: "labels.txt" } ]
"""
P = types.Position


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("features")
    make_tree(
        folder / "models",
        {
            **PROJECT_FILES,
            "labeled/config.pbtxt": LABELED,
            "labeled/labels.txt": "cat\ndog\n",
            "labeled/1/model.onnx": "",
        },
    )
    return folder


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), scope="module")
async def client(lsp_client: LanguageClient, project: Path) -> AsyncIterator[None]:
    result = await start(lsp_client, project)
    lsp_client.server_capabilities = result.capabilities  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), scope="module")
async def plain_client(lsp_client: LanguageClient, project: Path) -> AsyncIterator[None]:
    """A client that takes no snippets and no Markdown."""
    await start(lsp_client, project, given=capabilities(snippets=False, markdown=False))
    yield
    await lsp_client.shutdown_session()


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def where(text: str, line: int, before: str) -> P:
    """The position just before ``before`` on ``line`` (0-based) of ``text``, in UTF-16."""
    content = text.split("\n")[line]
    return P(line, utf16(content[: content.index(before)]))


def span(line: int, character: int, end_line: int, end_character: int) -> types.Range:
    return types.Range(P(line, character), P(end_line, end_character))


async def complete(
    client: LanguageClient, document: types.TextDocumentIdentifier, position: P
) -> list[types.CompletionItem]:
    found = await client.text_document_completion_async(types.CompletionParams(document, position))
    assert isinstance(found, list)
    return found


async def hover(
    client: LanguageClient, document: types.TextDocumentIdentifier, position: P
) -> types.Hover | None:
    return await client.text_document_hover_async(types.HoverParams(document, position))


def markdown_hover(value: str, where: types.Range) -> types.Hover:
    """A hover of Markdown ``value`` over ``where``."""
    return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, value), where)


# -- completion --------------------------------------------------------------------------------


async def test_completion_offers_the_fields_not_yet_written(
    client: LanguageClient, project: Path
) -> None:
    document = show(client, project / "models/pre/config.pbtxt", PRE + "\n")
    items = await complete(client, document, P(5, 0))
    labels = [item.label for item in items]
    assert "dynamic_batching" in labels and "instance_group" in labels
    assert "name" not in labels and "backend" not in labels and "max_batch_size" not in labels
    batching = items[labels.index("dynamic_batching")]
    assert batching == types.CompletionItem(
        label="dynamic_batching",
        kind=types.CompletionItemKind.Field,
        detail=batching.detail,
        insert_text="dynamic_batching {\n  $0\n}",
        insert_text_format=types.InsertTextFormat.Snippet,
        text_edit=types.TextEdit(span(5, 0, 5, 0), "dynamic_batching {\n  $0\n}"),
        filter_text="dynamic_batching {\n  $0\n}",
    )


async def test_enter_in_an_opened_list_of_messages_offers_an_element_not_a_field(
    client: LanguageClient, project: Path
) -> None:
    """``input [`` then Enter: VS Code asks on its own (quick suggestions, sent as Invoked)
    at the start of the new line; what Enter accepts there must leave text that parses (it
    wrote ``input input [ { } ]``). Typing a space after the bracket asks with the trigger
    character: nothing is offered then."""
    path = project / "models/classifier/config.pbtxt"
    text = CLASSIFIER + "input [\n  \n]\n"  # the editor closed the bracket
    document = show(client, path, text)
    line = CLASSIFIER.count("\n") + 1
    asked = types.CompletionContext(trigger_kind=types.CompletionTriggerKind.Invoked)
    found = await client.text_document_completion_async(
        types.CompletionParams(document, P(line, 2), context=asked)
    )
    assert isinstance(found, list)
    assert [(item.label, item.text_edit) for item in found] == [
        ("{ }", types.TextEdit(span(line, 2, line, 2), "{\n  $0\n}"))
    ]
    for item in found:
        assert isinstance(item.text_edit, types.TextEdit)
        edit = types.TextEdit(item.text_edit.range, item.text_edit.new_text.replace("$0", ""))
        accepted = apply(text, [edit])
        problems = parse_config(path, accepted, load_schema()).problems
        assert [p.message for p in problems if breakage_kind(p) == "syntax"] == []
    typed = types.CompletionContext(
        trigger_kind=types.CompletionTriggerKind.TriggerCharacter, trigger_character=" "
    )
    after_space = await client.text_document_completion_async(
        types.CompletionParams(document, P(line - 1, 7), context=typed)
    )
    assert after_space == []


async def test_a_client_without_snippets_gets_the_text_without_tab_stops(
    plain_client: LanguageClient, project: Path
) -> None:
    document = show(plain_client, project / "models/classifier/config.pbtxt", CLASSIFIER + "dyn")
    items = await complete(plain_client, document, P(5, 3))
    batching = next(item for item in items if item.label == "dynamic_batching")
    assert batching.insert_text_format == types.InsertTextFormat.PlainText
    assert batching.text_edit == types.TextEdit(span(5, 0, 5, 3), "dynamic_batching {\n  \n}")


async def test_a_client_without_markdown_gets_plain_documentation(
    plain_client: LanguageClient, project: Path
) -> None:
    text = LABELED + 'parameters { key: "execution_mode" value { string_value: "" } }\n'
    document = show(plain_client, project / "models/labeled/config.pbtxt", text)
    items = await complete(plain_client, document, P(5, 58))
    assert [(item.label, item.documentation) for item in items] == [
        ("0", "sequential (the default)"),
        ("1", "parallel"),
    ]


async def test_completion_offers_enum_values_over_the_typed_word(
    client: LanguageClient, project: Path
) -> None:
    text = PRE.replace("TYPE_UINT8", "TYPE_U")
    document = show(client, project / "models/pre/config.pbtxt", text)
    start = where(text, 3, "TYPE_U")
    items = await complete(client, document, P(3, start.character + 6))
    assert {"TYPE_UINT8", "TYPE_FP32", "TYPE_STRING"} <= {item.label for item in items}
    uint8 = next(item for item in items if item.label == "TYPE_UINT8")
    assert uint8.kind == types.CompletionItemKind.EnumMember
    assert uint8.text_edit == types.TextEdit(
        span(3, start.character, 3, start.character + 6), "TYPE_UINT8"
    )


async def test_completion_counts_utf16_columns_after_an_emoji(
    client: LanguageClient, project: Path
) -> None:
    text = LABELED.replace("TYPE_FP32 dims: [ 3 ]", "TYPE_F dims: [ 3 ]")
    document = show(client, project / "models/labeled/config.pbtxt", text)
    line = text.split("\n")[3]
    start = utf16(line[: line.index("TYPE_F")])
    assert start == line.index("TYPE_F") + 1  # the emoji takes two units
    items = await complete(client, document, P(3, start + 6))
    fp32 = next(item for item in items if item.label == "TYPE_FP32")
    assert fp32.text_edit == types.TextEdit(span(3, start, 3, start + 6), "TYPE_FP32")


async def test_completion_of_a_step_model_name_lists_the_repositorys_models(
    client: LanguageClient, project: Path
) -> None:
    document = show(client, project / "models/pipeline/config.pbtxt", PIPELINE)
    items = await complete(client, document, P(8, 19))
    assert [item.label for item in items] == ["classifier", "labeled", "pre"]
    assert items[2] == types.CompletionItem(
        label="pre",
        kind=types.CompletionItemKind.Module,
        detail="model",
        insert_text='"pre"',
        insert_text_format=types.InsertTextFormat.PlainText,
        text_edit=types.TextEdit(span(8, 18, 8, 23), '"pre"'),
        filter_text='"pre"',
    )


async def test_completion_of_map_keys_and_values(client: LanguageClient, project: Path) -> None:
    text = PIPELINE.replace('key: "RAW" value: "RAW"', 'key:  value: "RAW"').replace(
        'key: "PIXELS" value: "PIXELS"', 'key: "PIXELS" value: '
    )
    document = show(client, project / "models/pipeline/config.pbtxt", text)
    keys = await complete(client, document, P(10, 23))
    assert [(item.label, item.text_edit) for item in keys] == [
        ("RAW", types.TextEdit(span(10, 23, 10, 23), '"RAW"'))
    ]
    assert keys[0].kind == types.CompletionItemKind.Variable
    values = await complete(client, document, P(11, 41))
    assert [item.label for item in values] == ["PIXELS"]


async def test_completion_and_hover_of_the_backends_parameters(
    client: LanguageClient, project: Path
) -> None:
    pre = project / "models/pre/config.pbtxt"
    document = show(client, pre, PRE + 'parameters { key: "" }\n')
    items = await complete(client, document, P(5, 19))
    assert [item.label for item in items] == ["EXECUTION_ENV_PATH", "FORCE_CPU_ONLY_INPUT_TENSORS"]
    assert items[0] == types.CompletionItem(
        label="EXECUTION_ENV_PATH",
        kind=types.CompletionItemKind.Property,
        detail="python parameter, path",
        documentation=types.MarkupContent(
            kind=types.MarkupKind.Markdown,
            value="A conda-pack archive of the Python environment the model runs in (newer "
            "releases also take the unpacked folder); a leading `$$TRITON_MODEL_DIRECTORY` "
            "stands for the model folder.",
        ),
        insert_text='"EXECUTION_ENV_PATH"',
        insert_text_format=types.InsertTextFormat.PlainText,
        text_edit=types.TextEdit(span(5, 18, 5, 20), '"EXECUTION_ENV_PATH"'),
        filter_text='"EXECUTION_ENV_PATH"',
    )
    show(client, pre, PRE)
    text = CLASSIFIER + 'parameters { key: "execution_mode" value { string_value: "1" } }\n'
    classifier = show(client, project / "models/classifier/config.pbtxt", text)
    assert await hover(client, classifier, P(5, 22)) == markdown_hover(
        "**execution_mode**: `integer`, a parameter of the onnxruntime backend\n\n"
        "Whether the graph's nodes run one after another or in parallel.\n\n"
        "Values: `0` sequential (the default); `1` parallel",
        span(5, 18, 5, 34),
    )


# -- hover and navigation ----------------------------------------------------------------------


async def test_hover_shows_the_fields_meaning_as_markdown(
    client: LanguageClient, project: Path
) -> None:
    document = show(client, project / "models/pre/config.pbtxt", PRE)
    assert await hover(client, document, P(2, 3)) == markdown_hover(
        "**max_batch_size**: `int32`\n\nThe largest batch the model accepts. Above 0 "
        "the server adds a batch dimension in front of every input and output; 0 means the "
        "model does not batch.\n\nDefault: `0`\n\nIn every release covered (Triton 2.19.0 on)",
        span(2, 0, 2, 14),
    )


async def test_hover_over_a_step_model_shows_its_tensors(
    client: LanguageClient, project: Path
) -> None:
    document = show(client, project / "models/pipeline/config.pbtxt", PIPELINE)
    found = await hover(client, document, P(8, 20))
    assert found is not None and found.range == span(8, 18, 8, 23)
    assert isinstance(found.contents, types.MarkupContent)
    assert found.contents.value == (
        "Model **pre**\nInputs:\n- `RAW` TYPE_UINT8 `[-1, -1]`\n"
        "Outputs:\n- `PIXELS` TYPE_FP32 `[-1, 3, 224, 224]`"
    )


async def test_hover_range_counts_utf16_units(client: LanguageClient, project: Path) -> None:
    document = show(client, project / "models/labeled/config.pbtxt", LABELED)
    start = where(LABELED, 3, "data_type")
    found = await hover(client, document, start)
    assert found is not None and found.range == span(3, start.character, 3, start.character + 9)


async def test_definition_goes_to_the_other_models_config(
    client: LanguageClient, project: Path
) -> None:
    document = show(client, project / "models/pipeline/config.pbtxt", PIPELINE)
    pre = (project / "models/pre/config.pbtxt").as_uri()
    model = await client.text_document_definition_async(types.DefinitionParams(document, P(8, 20)))
    assert model == [types.Location(pre, span(0, 6, 0, 11))]
    key = await client.text_document_definition_async(types.DefinitionParams(document, P(10, 25)))
    assert key == [types.Location(pre, span(3, 16, 3, 21))]


async def test_references_across_files(client: LanguageClient, project: Path) -> None:
    show(client, project / "models/pipeline/config.pbtxt", PIPELINE)
    document = show(client, project / "models/pre/config.pbtxt", PRE)
    found = await client.text_document_references_async(
        types.ReferenceParams(
            context=types.ReferenceContext(include_declaration=True),
            text_document=document,
            position=where(PRE, 4, '"PIXELS"'),
        )
    )
    assert list(found or []) == [
        types.Location((project / "models/pipeline/config.pbtxt").as_uri(), span(11, 24, 11, 32)),
        types.Location(document.uri, span(4, 17, 4, 25)),
    ]


# -- rename ------------------------------------------------------------------------------------


async def test_renaming_a_models_input_renames_the_ensembles_map_key(
    client: LanguageClient, project: Path
) -> None:
    pipeline = show(client, project / "models/pipeline/config.pbtxt", PIPELINE)
    pre = show(client, project / "models/pre/config.pbtxt", PRE)
    prepared = await client.text_document_prepare_rename_async(
        types.PrepareRenameParams(pre, P(3, 18))
    )
    assert prepared == types.PrepareRenamePlaceholder(span(3, 16, 3, 21), "RAW")
    edit = await client.text_document_rename_async(types.RenameParams(pre, P(3, 18), "BYTES"))
    assert edit is not None and edit.changes is not None
    assert sorted(edit.changes) == sorted([pre.uri, pipeline.uri])
    assert apply(PRE, list(edit.changes[pre.uri])) == PRE.replace('"RAW"', '"BYTES"')
    assert apply(PIPELINE, list(edit.changes[pipeline.uri])) == PIPELINE.replace(
        'key: "RAW"', 'key: "BYTES"'
    )


async def test_renaming_an_ensemble_tensor_renames_its_uses_not_the_step_keys(
    client: LanguageClient, project: Path
) -> None:
    pipeline = show(client, project / "models/pipeline/config.pbtxt", PIPELINE)
    edit = await client.text_document_rename_async(
        types.RenameParams(pipeline, P(10, 36), 'Bild "1" ü')
    )
    assert edit is not None and edit.changes is not None
    assert list(edit.changes) == [pipeline.uri]
    assert apply(PIPELINE, list(edit.changes[pipeline.uri])) == PIPELINE.replace(
        'name: "RAW"', 'name: "Bild \\"1\\" ü"'
    ).replace('value: "RAW"', 'value: "Bild \\"1\\" ü"')


async def test_a_model_name_and_a_field_name_are_not_renamed(
    client: LanguageClient, project: Path
) -> None:
    pipeline = show(client, project / "models/pipeline/config.pbtxt", PIPELINE)
    for position in (P(8, 20), P(8, 8), P(0, 8)):
        prepared = await client.text_document_prepare_rename_async(
            types.PrepareRenameParams(pipeline, position)
        )
        assert prepared is None
        edit = await client.text_document_rename_async(
            types.RenameParams(pipeline, position, "other")
        )
        assert edit is None


# -- outline, folding, tokens, hints, links ----------------------------------------------------


async def test_document_symbols_are_a_tree(client: LanguageClient, project: Path) -> None:
    document = show(client, project / "models/pipeline/config.pbtxt", PIPELINE)
    found = await client.text_document_document_symbol_async(types.DocumentSymbolParams(document))
    assert found == [
        types.DocumentSymbol(
            name="pipeline",
            kind=types.SymbolKind.Module,
            detail="ensemble",
            range=span(0, 0, 15, 0),
            selection_range=span(0, 6, 0, 16),
            children=(
                types.DocumentSymbol(
                    name="RAW",
                    kind=types.SymbolKind.Variable,
                    detail="TYPE_UINT8 [-1]",
                    range=span(3, 8, 3, 58),
                    selection_range=span(3, 16, 3, 21),
                    children=(),
                ),
                types.DocumentSymbol(
                    name="PIXELS",
                    kind=types.SymbolKind.Variable,
                    detail="TYPE_FP32 [3, 224, 224]",
                    range=span(4, 9, 4, 70),
                    selection_range=span(4, 17, 4, 25),
                    children=(),
                ),
                types.DocumentSymbol(
                    name="pre",
                    kind=types.SymbolKind.Function,
                    detail="step 0",
                    range=span(7, 4, 12, 5),
                    selection_range=span(8, 18, 8, 23),
                    children=(),
                ),
            ),
        )
    ]


async def test_folding_ranges_of_blocks_and_comment_runs(
    client: LanguageClient, project: Path
) -> None:
    text = "# the pipeline\n# of one step\n" + PIPELINE
    document = show(client, project / "models/pipeline/config.pbtxt", text)
    found = await client.text_document_folding_range_async(types.FoldingRangeParams(document))
    assert found is not None
    assert [(f.start_line, f.end_line, f.kind) for f in found] == [
        (0, 1, types.FoldingRangeKind.Comment),
        (7, 16, types.FoldingRangeKind.Region),
        (8, 15, types.FoldingRangeKind.Region),
        (9, 14, types.FoldingRangeKind.Region),
    ]


async def test_semantic_tokens_decode_to_the_words_of_the_text(
    client: LanguageClient, project: Path
) -> None:
    text = 'input [ { name: "ÄPFEL😀" data_type: TYPE_FP32 } ]  # größe\nmax_batch_size: 4\n'
    document = show(client, project / "models/labeled/config.pbtxt", text)
    data = await token_data(client, document.uri)
    declared = client.server_capabilities.semantic_tokens_provider  # type: ignore[attr-defined]
    assert isinstance(declared, types.SemanticTokensOptions) and declared.full
    names = declared.legend.token_types
    decoded, line, start = [], 0, 0
    for index in range(0, len(data), 5):
        delta_line, delta_start, length, kind, modifiers = data[index : index + 5]
        start = start + delta_start if delta_line == 0 else delta_start
        line += delta_line
        decoded.append((line, start, length, names[kind], modifiers))
    assert decoded == [
        (0, 0, 5, "property", 0),
        (0, 10, 4, "property", 0),
        (0, 16, 9, "string", 0),
        (0, 26, 9, "property", 0),
        (0, 37, 9, "enumMember", 0),
        (0, 52, 7, "comment", 0),
        (1, 0, 14, "property", 0),
        (1, 16, 1, "number", 0),
    ]


async def test_inlay_hints_show_the_full_shape_after_dims(
    client: LanguageClient, project: Path
) -> None:
    document = show(client, project / "models/labeled/config.pbtxt", LABELED)
    found = await client.text_document_inlay_hint_async(
        types.InlayHintParams(document, span(0, 0, 6, 0))
    )
    after_dims = [where(LABELED, 3, " }"), where(LABELED, 4, " label_filename")]
    assert list(found or []) == [
        types.InlayHint(position=after_dims[0], label="→ [-1, 3]", padding_left=True),
        types.InlayHint(position=after_dims[1], label="→ [-1, 10]", padding_left=True),
    ]
    only_output = await client.text_document_inlay_hint_async(
        types.InlayHintParams(document, span(4, 0, 5, 0))
    )
    assert [hint.label for hint in only_output or []] == ["→ [-1, 10]"]


async def test_the_label_file_is_a_link(client: LanguageClient, project: Path) -> None:
    document = show(client, project / "models/labeled/config.pbtxt", LABELED)
    found = await client.text_document_document_link_async(types.DocumentLinkParams(document))
    start = where(LABELED, 4, '"labels.txt"')
    assert list(found or []) == [
        types.DocumentLink(
            range=span(4, start.character, 4, start.character + 12),
            target=(project / "models/labeled/labels.txt").as_uri(),
        )
    ]


# -- range formatting and errors ---------------------------------------------------------------

UNFORMATTED = """name:"pre"
backend: "python"
max_batch_size:   8
input [ { name: "RAW" data_type: TYPE_UINT8 dims: [ -1 ] } ]
output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
"""


async def test_range_formatting_takes_the_edits_touching_the_range(
    client: LanguageClient, project: Path
) -> None:
    document = show(client, project / "models/pre/config.pbtxt", UNFORMATTED)
    options = types.FormattingOptions(tab_size=2, insert_spaces=True)
    first = await client.text_document_range_formatting_async(
        types.DocumentRangeFormattingParams(document, span(0, 2, 0, 4), options)
    )
    assert list(first or []) == [types.TextEdit(span(0, 0, 1, 0), 'name: "pre"\n')]
    untouched = await client.text_document_range_formatting_async(
        types.DocumentRangeFormattingParams(document, span(1, 0, 2, 0), options)
    )
    assert untouched is not None and list(untouched) == []
    tensors = await client.text_document_range_formatting_async(
        types.DocumentRangeFormattingParams(document, span(3, 5, 3, 5), options)
    )
    assert tensors is not None and len(tensors) == 1
    assert apply(UNFORMATTED, list(tensors)) == (
        'name:"pre"\nbackend: "python"\nmax_batch_size: 8\n'
        'input [\n  {\n    name: "RAW"\n    data_type: TYPE_UINT8\n    dims: [ -1 ]\n  }\n]\n'
        'output [\n  {\n    name: "PIXELS"\n    data_type: TYPE_FP32\n'
        "    dims: [ 3, 224, 224 ]\n  }\n]\n"
    )


async def test_a_failing_request_answers_empty_and_the_server_goes_on(
    client: LanguageClient, project: Path
) -> None:
    missing = types.TextDocumentIdentifier((project / "models/gone/config.pbtxt").as_uri())
    found = await client.text_document_document_symbol_async(types.DocumentSymbolParams(missing))
    assert found is None
    assert any("internal error" in m.message for m in client.log_messages)
    document = show(client, project / "models/pipeline/config.pbtxt", PIPELINE)
    folds = await client.text_document_folding_range_async(types.FoldingRangeParams(document))
    assert [(fold.start_line, fold.end_line) for fold in folds or []] == [(5, 14), (6, 13), (7, 12)]
