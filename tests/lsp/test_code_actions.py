"""Code actions worked out from the current texts, and "fix all" as ``tritonlint --fix``."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from lsp_documents import (
    apply,
    at,
    change_document,
    code_actions,
    open_document,
    opened,
)
from lsp_session import CLASSIFIER, CLASSIFIER_CONFIG, MISSPELT_DIMS, PIPELINE, PRE
from lsprotocol import types
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio

#: Two rounds of fixing: the note becomes a comment (in a file with a syntax error only
#: the syntax is fixed), then the name is set to the folder's.
TWO_ROUNDS = CLASSIFIER.replace('name: "classifier"', 'name: "classify"').replace(
    "max_batch_size: 8", "max_batch_size: 8\nThis is the classifier we ship to production"
)


async def test_a_finding_not_yet_published_has_its_actions(
    client: LanguageClient, project: Path
) -> None:
    uri = await opened(client, project / CLASSIFIER_CONFIG, CLASSIFIER, [])
    change_document(client, uri, MISSPELT_DIMS, 2)  # asked at once, before the check after typing
    actions = await code_actions(client, uri, at(3, 45, 3, 45))
    assert [a.title for a in actions] == [
        "Replace 'dim' with 'dims'",
        "Disable TL101 for this line",
        "Disable TL101 for this file",
    ]
    assert actions[0].diagnostics and actions[0].diagnostics[0].range == at(3, 45, 3, 48)


async def test_a_fix_across_files_edits_the_other_files_current_text(
    client: LanguageClient, project: Path
) -> None:
    pipeline_text = PIPELINE.replace('model_name: "pre"', 'model_name: "prep"')
    pipeline = open_document(client, project / "models/pipeline/config.pbtxt", pipeline_text)
    pre_text = PRE.replace('name: "pre"', 'name: "prep"')
    uri = await opened(client, project / "models/pre/config.pbtxt", pre_text, ["TL201"])
    # The ensemble gets a line at its top: the step's model_name moves a line down.
    edited = "# runs prep\n" + pipeline_text
    change_document(client, pipeline, edited, 2)
    actions = await code_actions(client, uri, at(0, 7, 0, 7))
    both = actions[0]
    assert both.title == 'Set name to "pre" and rename it in the ensemble "pipeline" that runs it'
    assert both.edit and both.edit.changes
    assert [e.range for e in both.edit.changes[pipeline]] == [at(9, 18, 9, 24)]
    assert apply(edited, list(both.edit.changes[pipeline])) == "# runs prep\n" + PIPELINE
    assert apply(pre_text, list(both.edit.changes[uri])) == PRE


def fixed_by_the_command_line(project: Path, copy: Path, text: str) -> bytes:
    """The bytes of classifier's config after ``tritonlint check --fix`` on a copy of the
    project holding ``text``."""
    shutil.copytree(project, copy)
    config = copy / "models/classifier/config.pbtxt"
    config.write_text(text, encoding="utf-8")
    subprocess.run(
        [sys.executable, "-m", "tritonlint", "check", "--fix", str(config)],
        capture_output=True,
        check=False,
    )
    return config.read_bytes()


async def test_fix_all_gives_what_the_command_lines_fix_gives(
    client: LanguageClient, project: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    path = project / CLASSIFIER_CONFIG
    uri = await opened(client, path, TWO_ROUNDS, ["TL010"])
    (fix_all,) = await code_actions(client, uri, at(0, 0, 0, 0), ["source.fixAll"])
    assert fix_all.kind == "source.fixAll.tritonlint"
    assert fix_all.edit and fix_all.edit.changes and list(fix_all.edit.changes) == [uri]
    fixed = apply(TWO_ROUNDS, list(fix_all.edit.changes[uri]))
    assert fixed == CLASSIFIER.replace(
        "max_batch_size: 8", "max_batch_size: 8\n# This is the classifier we ship to production"
    )
    copy = tmp_path_factory.mktemp("copy") / "project"
    assert fixed.encode() == fixed_by_the_command_line(project, copy, TWO_ROUNDS)
    assert path.read_text(encoding="utf-8") == CLASSIFIER  # the disk is the editor's to write


async def test_fix_all_is_worked_out_when_asked_for_not_as_the_cursor_moves(
    client: LanguageClient, project: Path
) -> None:
    text = CLASSIFIER.replace('name: "classifier"', 'name: "classify"')
    uri = await opened(client, project / CLASSIFIER_CONFIG, text, ["TL201"])

    async def kinds(trigger: types.CodeActionTriggerKind) -> list[str | None]:
        return [a.kind for a in await code_actions(client, uri, at(2, 0, 2, 0), trigger=trigger)]

    assert await kinds(types.CodeActionTriggerKind.Automatic) == []
    assert await kinds(types.CodeActionTriggerKind.Invoked) == ["source.fixAll.tritonlint"]
