"""Changes on disk and of the workspace folders, as the editor's file watchers report them."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from helpers import make_tree
from lsp_documents import at, codes, opened, save
from lsp_session import (
    CLASSIFIER,
    CLASSIFIER_CONFIG,
    NEGATIVE_BATCH,
    SERVER,
    capabilities,
    start,
    until,
)
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

pytestmark = pytest.mark.asyncio

Kind = types.FileChangeType


def changed(client: LanguageClient, *changes: tuple[Path, types.FileChangeType]) -> None:
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=path.as_uri(), type=kind) for path, kind in changes]
        )
    )


def messages(client: LanguageClient, uri: str) -> list[tuple[str, str, types.Range]]:
    return [(str(d.code), d.message, d.range) for d in client.diagnostics.get(uri, [])]


async def delete_model_py(client: LanguageClient, project: Path) -> str:
    """Delete ``pre``'s model file and wait for the finding on its config (TL217); its URI."""
    model = project / "models/pre"
    uri = (model / "config.pbtxt").as_uri()
    (model / "1/model.py").unlink()
    changed(client, (model / "1/model.py", Kind.Deleted))
    await until(lambda: codes(client, uri) == ["TL217"])
    return uri


async def test_a_new_version_folder_clears_the_missing_version_finding(
    client: LanguageClient, project: Path
) -> None:
    model = project / "models/classifier"
    uri = (model / "config.pbtxt").as_uri()
    shutil.rmtree(model / "1")
    changed(client, (model / "1", Kind.Deleted))
    await until(lambda: codes(client, uri) == ["TL212"])
    (model / "1").mkdir()
    (model / "1/model.onnx").write_bytes(b"")  # an empty placeholder
    changed(client, (model / "1", Kind.Created), (model / "1/model.onnx", Kind.Created))
    await until(lambda: codes(client, uri) == [])
    assert messages(client, uri) == []


async def test_deleting_the_model_file_reports_it_missing(
    client: LanguageClient, project: Path
) -> None:
    uri = await delete_model_py(client, project)
    # Shown on the config's `name: "pre"`: the finding is about the model's folder.
    assert messages(client, uri) == [
        (
            "TL217",
            "version 1 has no 'model.py' for the python backend (it is empty)",
            at(0, 0, 0, 11),
        )
    ]


async def test_a_python_model_that_does_not_compile_is_shown_in_its_model_py(
    client: LanguageClient, project: Path
) -> None:
    source = project / "models/pre/1/model.py"
    config = (project / "models/pre/config.pbtxt").as_uri()
    source.write_text("class TritonPythonModel:\n    def execute(self, requests)\n")
    changed(client, (source, Kind.Changed))
    await until(lambda: codes(client, source.as_uri()) == ["TL910"])
    assert messages(client, source.as_uri()) == [
        (
            "TL910",
            "model.py does not compile: expected ':' (line 2, column 32); the Python backend "
            "cannot load the model",
            at(1, 31, 1, 31),
        )
    ]
    assert not codes(client, config)
    source.write_text("class TritonPythonModel:\n    def execute(self, requests):\n        pass\n")
    changed(client, (source, Kind.Changed))
    await until(lambda: codes(client, source.as_uri()) == [])


async def test_a_renamed_model_folder_clears_the_old_files_findings(
    client: LanguageClient, project: Path
) -> None:
    old, new = project / "models/classifier", project / "models/renamed"
    shutil.rmtree(old / "1")
    changed(client, (old / "1", Kind.Deleted))
    await until(lambda: codes(client, (old / "config.pbtxt").as_uri()) == ["TL212"])
    shutil.move(old, new)
    changed(client, (old, Kind.Deleted), (new, Kind.Created))
    await until(lambda: codes(client, (old / "config.pbtxt").as_uri()) == [])
    await until(lambda: "TL212" in (codes(client, (new / "config.pbtxt").as_uri()) or []))
    assert messages(client, (old / "config.pbtxt").as_uri()) == []
    assert messages(client, (new / "config.pbtxt").as_uri()) == [
        (
            "TL212",
            "no numbered version folder such as 1/; tritonserver refuses the model: at least "
            "one version must be available under the version policy of model 'classifier'",
            at(0, 0, 0, 18),
        ),
        (
            "TL201",
            'name "classifier" differs from the model folder "renamed"; tritonserver refuses '
            "it: unexpected directory name 'renamed' for model 'classifier', directory name "
            "must equal model name",
            at(0, 6, 0, 18),
        ),
    ]


async def test_a_deleted_repository_clears_its_findings(
    client: LanguageClient, project: Path
) -> None:
    uri = (project / "models/classifier/config.pbtxt").as_uri()
    shutil.rmtree(project / "models/classifier/1")
    changed(client, (project / "models/classifier/1", Kind.Deleted))
    await until(lambda: codes(client, uri) == ["TL212"])
    shutil.rmtree(project / "models")
    changed(client, (project / "models", Kind.Deleted))
    await until(lambda: codes(client, uri) == [])
    assert messages(client, uri) == []


async def test_a_config_in_a_new_repository_checks_that_repository(
    client: LanguageClient, project: Path
) -> None:
    config = project / "more/lone/config.pbtxt"
    make_tree(project / "more", {"lone/config.pbtxt": 'name: "lone"\nbackend: "onnxruntime"\n'})
    changed(client, (config, Kind.Created))
    await until(lambda: codes(client, config.as_uri()) == ["TL212"])
    assert messages(client, config.as_uri()) == [
        (
            "TL212",
            "no numbered version folder such as 1/; tritonserver refuses the model: at least "
            "one version must be available under the version policy of model 'lone'",
            at(0, 0, 0, 12),
        )
    ]


async def test_a_config_changed_on_disk_is_checked_again(
    client: LanguageClient, project: Path
) -> None:
    config = project / CLASSIFIER_CONFIG
    config.write_text(NEGATIVE_BATCH)
    changed(client, (config, Kind.Changed))
    await until(lambda: codes(client, config.as_uri()) == ["TL501"])
    assert messages(client, config.as_uri()) == [
        ("TL501", "'max_batch_size' must be non-negative value for classifier", at(2, 16, 2, 18))
    ]


async def test_an_open_documents_text_wins_over_its_file_changed_on_disk(
    client: LanguageClient, project: Path
) -> None:
    config = project / CLASSIFIER_CONFIG
    uri = await opened(client, config, CLASSIFIER, [])
    config.write_text("max_batch_size: -1\n")
    changed(client, (config, Kind.Changed))
    save(client, uri)
    count = len(client.published)  # type: ignore[attr-defined]
    await until(lambda: len(client.published) > count)  # type: ignore[attr-defined]
    assert codes(client, uri) == []


async def test_a_settings_file_change_rechecks_with_the_new_options(
    client: LanguageClient, project: Path
) -> None:
    uri = await delete_model_py(client, project)
    (project / ".tritonlint.toml").write_text('ignore = ["TL217"]\n')
    changed(client, (project / ".tritonlint.toml", Kind.Created))
    await until(lambda: codes(client, uri) == [])
    assert messages(client, uri) == []


async def test_added_and_removed_workspace_folders_add_and_forget_repositories(
    client: LanguageClient, project: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    other = tmp_path_factory.mktemp("other")
    make_tree(other / "repo", {"lone/config.pbtxt": 'name: "lone"\nbackend: "onnxruntime"\n'})
    uri = (other / "repo/lone/config.pbtxt").as_uri()
    folder = types.WorkspaceFolder(uri=other.as_uri(), name="other")

    def folders(added: list[types.WorkspaceFolder], removed: list[types.WorkspaceFolder]) -> None:
        client.workspace_did_change_workspace_folders(
            types.DidChangeWorkspaceFoldersParams(
                event=types.WorkspaceFoldersChangeEvent(added=added, removed=removed)
            )
        )

    folders([folder], [])
    await until(lambda: codes(client, uri) == ["TL212"])
    assert messages(client, uri) == [
        (
            "TL212",
            "no numbered version folder such as 1/; tritonserver refuses the model: at least "
            "one version must be available under the version policy of model 'lone'",
            at(0, 0, 0, 12),
        )
    ]
    folders([], [folder])
    await until(lambda: codes(client, uri) == [])
    assert messages(client, uri) == []


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def watching_client(lsp_client: LanguageClient, project: Path) -> AsyncIterator[None]:
    """A client that registers file watchers when the server asks."""
    lsp_client.registrations = []  # type: ignore[attr-defined]

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:
        lsp_client.registrations.extend(params.registrations)  # type: ignore[attr-defined]

    given = capabilities()
    assert given.workspace is not None
    given.workspace.did_change_watched_files = types.DidChangeWatchedFilesClientCapabilities(
        dynamic_registration=True, relative_pattern_support=True
    )
    await start(lsp_client, project, given=given)
    yield
    await lsp_client.shutdown_session()


async def test_the_server_registers_watchers_for_configs_settings_and_repositories(
    watching_client: LanguageClient, project: Path
) -> None:
    await until(lambda: bool(watching_client.registrations))  # type: ignore[attr-defined]
    (registration,) = watching_client.registrations  # type: ignore[attr-defined]
    assert registration.method == "workspace/didChangeWatchedFiles"
    assert [w["globPattern"] for w in registration.register_options["watchers"]] == [
        "**/*.pbtxt",
        "**/config.pbtxt",
        "**/.tritonlint.toml",
        "**/pyproject.toml",
        {"baseUri": (project / "models").as_uri(), "pattern": "**/*"},
    ]
