"""``tritonlint lsp`` end to end: a real server process, a pytest-lsp client over stdio."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from lsp_session import CLASSIFIER, PIPELINE, PRE, until
from lsprotocol import types
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio

URL = "https://github.com/tritonlint/tritonlint/blob/main/docs/rules.md"


def offset(text: str, position: types.Position, encoding: str = "utf-16") -> int:
    """The index into ``text`` of an LSP position, lines ending at ``\n``, ``\r\n`` or ``\r``
    (written here, apart from the server's)."""
    starts = [0, *(found.end() for found in re.finditer("\r\n|\r|\n", text))]
    index, units = starts[position.line], 0
    while units < position.character:
        char = text[index]
        units += len(char.encode("utf-16-le")) // 2 if encoding == "utf-16" else 1
        index += 1
    return index


def apply(text: str, edits: list[types.TextEdit], encoding: str = "utf-16") -> str:
    """``text`` after the edits (given on the original text, as LSP has them)."""
    spans = sorted(
        (
            (offset(text, e.range.start, encoding), offset(text, e.range.end, encoding), e.new_text)
            for e in edits
        ),
        reverse=True,
    )
    for start, end, new_text in spans:
        text = text[:start] + new_text + text[end:]
    return text


def open_document(client: LanguageClient, path: Path, text: str, version: int = 1) -> str:
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="pbtxt", version=version, text=text
            )
        )
    )
    return uri


def change_document(client: LanguageClient, uri: str, text: str, version: int) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


def codes(client: LanguageClient, uri: str) -> list[str] | None:
    found = client.diagnostics.get(uri)
    return None if found is None else [str(d.code) for d in found]


def at(line: int, character: int, end_line: int, end_character: int) -> types.Range:
    return types.Range(types.Position(line, character), types.Position(end_line, end_character))


async def test_open_publishes_the_findings_of_the_editors_text(
    client: LanguageClient, project: Path
) -> None:
    text = CLASSIFIER.replace("max_batch_size: 8", "max_batch_size: -1")
    uri = open_document(client, project / "models/classifier/config.pbtxt", text)
    await until(lambda: codes(client, uri) == ["TL501"])
    assert list(client.diagnostics[uri]) == [
        types.Diagnostic(
            range=at(2, 16, 2, 18),
            severity=types.DiagnosticSeverity.Error,
            code="TL501",
            code_description=types.CodeDescription(href=f"{URL}#tl501-negative-max-batch-size"),
            source="tritonlint",
            message="'max_batch_size' must be non-negative value for classifier",
        )
    ]


async def test_columns_count_utf16_code_units_after_non_ascii_text(
    client: LanguageClient, project: Path
) -> None:
    # "模型😀" is 3 code points but 4 UTF-16 code units: `dim` starts at code point 43, unit 44.
    text = CLASSIFIER.replace('name: "INPUT"', 'name: "模型😀"').replace(
        " dims: [ 3 ]", " dim: [ 3 ]"
    )
    uri = open_document(client, project / "models/classifier/config.pbtxt", text)
    await until(lambda: codes(client, uri) == ["TL101"])
    (found,) = client.diagnostics[uri]
    assert text.split("\n")[3].index(" dim:") + 1 == 43
    assert found.range == at(3, 44, 3, 47)


async def test_columns_count_code_points_for_a_utf32_client(
    client_utf32: LanguageClient, project: Path
) -> None:
    text = CLASSIFIER.replace('name: "INPUT"', 'name: "模型😀"').replace(
        " dims: [ 3 ]", " dim: [ 3 ]"
    )
    uri = open_document(client_utf32, project / "models/classifier/config.pbtxt", text)
    await until(lambda: codes(client_utf32, uri) == ["TL101"])
    assert client_utf32.diagnostics[uri][0].range == at(3, 43, 3, 46)


async def test_editing_a_model_republishes_its_ensemble(
    client: LanguageClient, project: Path
) -> None:
    pipeline = (project / "models/pipeline/config.pbtxt").as_uri()
    uri = open_document(client, project / "models/pre/config.pbtxt", PRE)
    await until(lambda: codes(client, uri) == [])
    assert codes(client, pipeline) is None  # clean, and not open: nothing to publish
    change_document(client, uri, PRE.replace('name: "PIXELS"', 'name: "IMAGE"'), 2)
    await until(lambda: codes(client, pipeline) == ["TL713"])
    (found,) = client.diagnostics[pipeline]
    assert found.range == at(11, 24, 11, 32)
    assert found.message == (
        "in ensemble pipeline, ensemble tensor PIXELS is mapped from non-existing output "
        "PIXELS in model pre (its outputs: IMAGE)"
    )
    assert list(found.related_information or []) == [
        types.DiagnosticRelatedInformation(
            location=types.Location(uri=uri, range=at(0, 6, 0, 11)),
            message="model 'pre' is defined here",
        )
    ]
    change_document(client, uri, PRE, 3)
    await until(lambda: codes(client, pipeline) == [])


async def test_only_the_newest_version_is_published(client: LanguageClient, project: Path) -> None:
    path = project / "models/classifier/config.pbtxt"
    uri = open_document(client, path, CLASSIFIER)
    await until(lambda: codes(client, uri) == [])
    for version in range(2, 7):
        change_document(
            client,
            uri,
            CLASSIFIER.replace("max_batch_size: 8", f"max_batch_size: -{version}"),
            version,
        )
    await until(lambda: codes(client, uri) == ["TL501"])
    versions = [p.version for p in client.published if p.uri == uri]  # type: ignore[attr-defined]
    assert versions == [1, 6]


async def test_closing_goes_back_to_the_file_on_disk(client: LanguageClient, project: Path) -> None:
    uri = open_document(
        client, project / "models/classifier/config.pbtxt", "name: 1\n" + CLASSIFIER
    )
    await until(lambda: bool(codes(client, uri)))
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    await until(lambda: codes(client, uri) == [])  # raises if the file on disk is not re-read
    assert list(client.diagnostics[uri]) == []


async def code_actions(
    client: LanguageClient, uri: str, where: types.Range, only: list[str] | None = None
) -> list[types.CodeAction]:
    found = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=where,
            context=types.CodeActionContext(diagnostics=[], only=only),
        )
    )
    return [a for a in found or [] if isinstance(a, types.CodeAction)]


async def test_code_actions_offer_the_fix_and_the_suppressions(
    client: LanguageClient, project: Path
) -> None:
    text = CLASSIFIER.replace(" dims: [ 3 ]", " dim: [ 3 ]")
    uri = open_document(client, project / "models/classifier/config.pbtxt", text)
    await until(lambda: codes(client, uri) == ["TL101"])
    actions = await code_actions(client, uri, at(3, 45, 3, 45))
    assert [(a.title, a.kind, a.is_preferred) for a in actions] == [
        ("Replace 'dim' with 'dims'", types.CodeActionKind.QuickFix, None),
        ("Disable TL101 for this line", types.CodeActionKind.QuickFix, None),
        ("Disable TL101 for this file", types.CodeActionKind.QuickFix, None),
    ]
    after = [apply(text, list(a.edit.changes[uri])) for a in actions if a.edit and a.edit.changes]
    lines = text.split("\n")
    assert after[0] == CLASSIFIER
    assert after[1].split("\n")[3] == lines[3] + "  # tritonlint: disable=TL101"
    assert after[2] == "# tritonlint: disable-file=TL101\n" + text
    assert await code_actions(client, uri, at(0, 0, 0, 1)) == []


async def test_a_suppression_from_a_code_action_silences_the_finding(
    client: LanguageClient, project: Path
) -> None:
    text = CLASSIFIER.replace(" dims: [ 3 ]", " dim: [ 3 ]")
    uri = open_document(client, project / "models/classifier/config.pbtxt", text)
    await until(lambda: codes(client, uri) == ["TL101"])
    actions = await code_actions(client, uri, at(3, 45, 3, 45))
    line = next(a for a in actions if a.title == "Disable TL101 for this line")
    assert line.edit and line.edit.changes
    change_document(client, uri, apply(text, list(line.edit.changes[uri])), 2)
    await until(lambda: codes(client, uri) == [])


async def test_fix_all_applies_the_safe_fixes(client: LanguageClient, project: Path) -> None:
    text = CLASSIFIER.replace('name: "classifier"', 'name: "classify"').replace(
        " dims: [ 3 ]", " dim: [ 3 ]"
    )
    uri = open_document(client, project / "models/classifier/config.pbtxt", text)
    await until(lambda: codes(client, uri) == ["TL201", "TL101"])
    preferred = await code_actions(client, uri, at(0, 7, 0, 7), [types.CodeActionKind.QuickFix])
    assert [(a.title, a.is_preferred) for a in preferred] == [
        ('Set name to "classifier", the model folder\'s name', True),
        ("Disable TL201 for this line", None),
        ("Disable TL201 for this file", None),
    ]
    (fix_all,) = await code_actions(client, uri, at(0, 0, 0, 0), ["source.fixAll"])
    assert fix_all.kind == "source.fixAll.tritonlint"
    assert fix_all.edit and fix_all.edit.changes
    # The unsafe `dim` -> `dims` guess is left for a person to confirm.
    assert apply(text, list(fix_all.edit.changes[uri])) == text.replace(
        '"classify"', '"classifier"'
    )


async def test_formatting_returns_the_formatters_edits(
    client: LanguageClient, project: Path
) -> None:
    text = 'name:"classifier"   # 模型😀\nbackend :  "onnxruntime"\n'
    uri = open_document(client, project / "models/classifier/config.pbtxt", text)
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            options=types.FormattingOptions(tab_size=2, insert_spaces=True),
        )
    )
    assert (
        apply(text, list(edits or [])) == 'name: "classifier"  # 模型😀\nbackend: "onnxruntime"\n'
    )


async def test_a_text_that_cannot_be_formatted_gets_no_edits_and_a_log_line(
    client: LanguageClient, project: Path
) -> None:
    uri = open_document(client, project / "models/classifier/config.pbtxt", "input [ {\n")
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            options=types.FormattingOptions(tab_size=2, insert_spaces=True),
        )
    )
    assert edits is not None and list(edits) == []
    await until(
        lambda: any("not formatted: syntax error" in m.message for m in client.log_messages)
    )


async def test_editor_settings_override_the_project_settings(
    client: LanguageClient, project: Path
) -> None:
    text = CLASSIFIER.replace("max_batch_size: 8", "max_batch_size: -1").replace(
        " dims: [ 3 ]", " dim: [ 3 ]"
    )
    uri = open_document(client, project / "models/classifier/config.pbtxt", text)
    await until(lambda: codes(client, uri) == ["TL501", "TL101"])
    client.set_configuration({"ignore": ["TL501"]}, section="tritonlint")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    await until(lambda: codes(client, uri) == ["TL101"])  # raises if TL501 stays
    assert [str(d.code) for d in client.diagnostics[uri]] == ["TL101"]


async def test_a_loose_config_is_checked_on_its_own(client: LanguageClient, project: Path) -> None:
    uri = open_document(client, project / "scratch.pbtxt", 'name: "scratch"\nmax_batch_size: -1\n')
    await until(lambda: codes(client, uri) is not None and "TL501" in codes(client, uri))
    found = next(d for d in client.diagnostics[uri] if d.code == "TL501")
    assert found.range == at(1, 16, 1, 18)


async def test_a_fix_across_files_edits_each_of_them(client: LanguageClient, project: Path) -> None:
    pipeline_text = PIPELINE.replace('model_name: "pre"', 'model_name: "prep"')
    pipeline = open_document(client, project / "models/pipeline/config.pbtxt", pipeline_text)
    pre_text = PRE.replace('name: "pre"', 'name: "prep"')
    uri = open_document(client, project / "models/pre/config.pbtxt", pre_text)
    await until(lambda: codes(client, uri) == ["TL201"])
    actions = await code_actions(client, uri, at(0, 7, 0, 7))
    both = actions[0]
    assert (both.title, both.is_preferred) == (
        'Set name to "pre" and rename it in the ensemble "pipeline" that runs it',
        None,
    )
    assert both.edit and both.edit.changes and set(both.edit.changes) == {uri, pipeline}
    assert apply(pre_text, list(both.edit.changes[uri])) == PRE
    assert apply(pipeline_text, list(both.edit.changes[pipeline])) == PIPELINE
    assert (actions[1].title, actions[1].is_preferred) == (
        'Set name to "pre" (this model only)',
        True,
    )


async def test_a_finding_about_a_folder_is_shown_on_the_configs_first_text_without_a_name(
    client: LanguageClient, project: Path
) -> None:
    # An unsaved model: its folder has no version folder (TL212).
    text = '\n  # the model\'s own backend  \nbackend: "onnxruntime"\n'
    uri = open_document(client, project / "models/fresh/config.pbtxt", text)
    await until(lambda: "TL212" in (codes(client, uri) or []))
    found = next(d for d in client.diagnostics[uri] if d.code == "TL212")
    assert found.range == at(1, 2, 1, 27)


async def test_a_folder_name_that_is_not_utf8_is_the_folder_on_disk(
    client: LanguageClient, project: Path
) -> None:
    # The URI names the byte 0xFF as %FF; read as U+FFFD it would name a folder with no
    # version folder, and the model would get TL2xx findings about its layout.
    folder = Path(os.fsdecode(os.fsencode(project / "models") + b"/m\xff"))
    (folder / "1").mkdir(parents=True)
    (folder / "1" / "model.onnx").write_bytes(b"")
    text = CLASSIFIER.replace("max_batch_size: 8", "max_batch_size: -1")
    (folder / "config.pbtxt").write_text(text)
    uri = open_document(client, folder / "config.pbtxt", text)
    assert "%FF" in uri
    await until(lambda: codes(client, uri) is not None)
    assert codes(client, uri) == ["TL201", "TL501"]
