"""``tritonlint lsp`` end to end: a real server process, a pytest-lsp client over stdio."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from lsp_documents import (
    apply,
    at,
    change_document,
    code_actions,
    codes,
    finding_range,
    formatted,
    open_document,
    opened,
)
from lsp_session import (
    CLASSIFIER,
    CLASSIFIER_CONFIG,
    MISSPELT_DIMS,
    NEGATIVE_BATCH,
    PIPELINE,
    PRE,
    until,
)
from lsprotocol import types
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio

URL = "https://github.com/tritonlint/tritonlint/blob/main/docs/rules.md"
#: A misspelt ``dims`` after a name of 3 code points and 4 UTF-16 code units ("模型😀"):
#: ``dim`` starts at code point 43, unit 44.
WIDE_NAME = MISSPELT_DIMS.replace('name: "INPUT"', 'name: "模型😀"')


async def test_open_publishes_the_findings_of_the_editors_text(
    client: LanguageClient, project: Path
) -> None:
    uri = await opened(client, project / CLASSIFIER_CONFIG, NEGATIVE_BATCH, ["TL501"])
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
    uri = await opened(client, project / CLASSIFIER_CONFIG, WIDE_NAME, ["TL101"])
    (found,) = client.diagnostics[uri]
    assert WIDE_NAME.split("\n")[3].index(" dim:") + 1 == 43
    assert found.range == at(3, 44, 3, 47)


async def test_columns_count_code_points_for_a_utf32_client(
    client_utf32: LanguageClient, project: Path
) -> None:
    assert await finding_range(client_utf32, project, WIDE_NAME, "TL101") == at(3, 43, 3, 46)


async def test_editing_a_model_republishes_its_ensemble(
    client: LanguageClient, project: Path
) -> None:
    pipeline = (project / "models/pipeline/config.pbtxt").as_uri()
    uri = await opened(client, project / "models/pre/config.pbtxt", PRE, [])
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


async def test_an_older_version_is_never_published_after_a_newer_one(
    client: LanguageClient, project: Path
) -> None:
    """Edits sent together are checked together: a check whose text was edited while it ran
    publishes nothing. (A machine busy enough to finish a check before the next edit
    arrives may publish that version too: never after a newer one.)"""
    uri = await opened(client, project / CLASSIFIER_CONFIG, CLASSIFIER, [])
    for version in range(2, 7):
        change_document(
            client,
            uri,
            CLASSIFIER.replace("max_batch_size: 8", f"max_batch_size: -{version}"),
            version,
        )
    await until(lambda: codes(client, uri) == ["TL501"])
    versions = [p.version for p in client.published if p.uri == uri]  # type: ignore[attr-defined]
    assert versions[0] == 1 and versions[-1] == 6
    assert versions == sorted(set(versions))


async def test_closing_goes_back_to_the_file_on_disk(client: LanguageClient, project: Path) -> None:
    uri = open_document(client, project / CLASSIFIER_CONFIG, "name: 1\n" + CLASSIFIER)
    await until(lambda: bool(codes(client, uri)))
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    await until(lambda: codes(client, uri) == [])  # raises if the file on disk is not re-read
    assert list(client.diagnostics[uri]) == []


async def test_code_actions_offer_the_fix_and_the_suppressions(
    client: LanguageClient, project: Path
) -> None:
    text = MISSPELT_DIMS
    uri = await opened(client, project / CLASSIFIER_CONFIG, text, ["TL101"])
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
    uri = await opened(client, project / CLASSIFIER_CONFIG, MISSPELT_DIMS, ["TL101"])
    actions = await code_actions(client, uri, at(3, 45, 3, 45))
    line = next(a for a in actions if a.title == "Disable TL101 for this line")
    assert line.edit and line.edit.changes
    change_document(client, uri, apply(MISSPELT_DIMS, list(line.edit.changes[uri])), 2)
    await until(lambda: codes(client, uri) == [])


async def test_fix_all_applies_the_safe_fixes(client: LanguageClient, project: Path) -> None:
    text = MISSPELT_DIMS.replace('name: "classifier"', 'name: "classify"')
    uri = await opened(client, project / CLASSIFIER_CONFIG, text, ["TL201", "TL101"])
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
    uri = open_document(client, project / CLASSIFIER_CONFIG, text)
    edits = await formatted(client, uri)
    assert apply(text, edits or []) == 'name: "classifier"  # 模型😀\nbackend: "onnxruntime"\n'


async def test_a_text_that_cannot_be_formatted_gets_no_edits_and_a_log_line(
    client: LanguageClient, project: Path
) -> None:
    uri = open_document(client, project / CLASSIFIER_CONFIG, "input [ {\n")
    edits = await formatted(client, uri)
    assert edits is not None and edits == []
    await until(
        lambda: any("not formatted: syntax error" in m.message for m in client.log_messages)
    )


async def test_editor_settings_override_the_project_settings(
    client: LanguageClient, project: Path
) -> None:
    text = NEGATIVE_BATCH.replace(" dims: [ 3 ]", " dim: [ 3 ]")
    uri = await opened(client, project / CLASSIFIER_CONFIG, text, ["TL501", "TL101"])
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
    uri = await opened(client, project / "models/pre/config.pbtxt", pre_text, ["TL201"])
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
    (folder / "config.pbtxt").write_text(NEGATIVE_BATCH)
    uri = open_document(client, folder / "config.pbtxt", NEGATIVE_BATCH)
    assert "%FF" in uri
    await until(lambda: codes(client, uri) is not None)
    assert codes(client, uri) == ["TL201", "TL501"]
