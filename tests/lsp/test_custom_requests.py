"""tritonlint's own requests (``tritonlint/status``, ``tritonlint/releases``,
``tritonlint/ruleDocumentation``) through a real ``tritonlint lsp`` over stdio."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from lsp_documents import open_document
from lsp_session import until
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from tritonlint import __version__
from tritonlint.rules.registry import all_rules, by_code
from tritonlint.schema.releases import available_releases, container_release, resolve_release

pytestmark = pytest.mark.asyncio


async def ask(client: LanguageClient, method: str, params: dict[str, Any]) -> Any:
    return await client.protocol.send_request_async(method, params)


def plain(value: Any) -> Any:
    """A result as JSON has it (pygls gives an untyped result as attributes)."""
    if hasattr(value, "_asdict"):
        return {key: plain(item) for key, item in value._asdict().items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value


def rules_markdown_section(code: str) -> str:
    """The rule's section of ``tritonlint rules --markdown``, from its heading to the next."""
    document = subprocess.run(
        [sys.executable, "-m", "tritonlint", "rules", "--markdown"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    start = document.index(f"\n## {code} ") + 1
    end = document.find("\n## ", start)
    return document[start : end if end != -1 else len(document)].rstrip("\n")


async def test_status_says_the_version_and_the_newest_release(client: LanguageClient) -> None:
    found = plain(await ask(client, "tritonlint/status", {}))
    newest = available_releases()[-1]
    assert found == {
        "version": __version__,
        "tritonRelease": newest,
        "tritonContainer": container_release(newest),
    }


async def test_status_follows_the_tritonversion_setting(
    client: LanguageClient, project: Path
) -> None:
    uri = open_document(client, project / "models/classifier/config.pbtxt", 'name: "classifier"\n')
    await until(lambda: uri in client.diagnostics)
    client.set_configuration({"tritonVersion": "24.05"}, section="tritonlint")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    wanted = resolve_release("24.05")

    async def release() -> str:
        return str(plain(await ask(client, "tritonlint/status", {"uri": uri}))["tritonRelease"])

    for _ in range(200):
        if await release() == wanted:
            break
    assert await release() == wanted == "2.46.0"
    assert plain(await ask(client, "tritonlint/status", {}))["tritonRelease"] == "2.46.0"


async def test_releases_are_the_shipped_ones_newest_first(client: LanguageClient) -> None:
    found = plain(await ask(client, "tritonlint/releases", {}))["releases"]
    assert [entry["release"] for entry in found] == list(reversed(available_releases()))
    by_release = {entry["release"]: entry["container"] for entry in found}
    assert by_release["2.51.0"] == "24.10"
    assert all(resolve_release(entry["release"]) == entry["release"] for entry in found)


async def test_rules_are_every_rule_by_code(client: LanguageClient) -> None:
    found = plain(await ask(client, "tritonlint/rules", {}))["rules"]
    assert [entry["code"] for entry in found] == [rule.code for rule in all_rules()]
    tl501 = next(entry for entry in found if entry["code"] == "TL501")
    assert tl501 == {
        "code": "TL501",
        "name": by_code("TL501").name,
        "summary": by_code("TL501").summary,
    }


async def test_rule_documentation_is_the_rules_section_of_the_rules_doc(
    client: LanguageClient,
) -> None:
    found = plain(await ask(client, "tritonlint/ruleDocumentation", {"code": "TL501"}))
    assert found["code"] == "TL501"
    assert found["markdown"] == rules_markdown_section("TL501")
    by_name = plain(await ask(client, "tritonlint/ruleDocumentation", {"code": found["name"]}))
    assert by_name == found


async def test_an_unknown_rule_is_an_invalid_params_error(client: LanguageClient) -> None:
    with pytest.raises(JsonRpcException) as raised:
        await ask(client, "tritonlint/ruleDocumentation", {"code": "TL999"})
    assert raised.value.code == types.ErrorCodes.InvalidParams
    assert "no rule 'TL999'" in raised.value.message
    with pytest.raises(JsonRpcException) as missing:
        await ask(client, "tritonlint/ruleDocumentation", {})
    assert missing.value.code == types.ErrorCodes.InvalidParams
    # The server goes on: it answers the next request.
    assert plain(await ask(client, "tritonlint/status", {}))["version"] == __version__
