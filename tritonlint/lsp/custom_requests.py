"""tritonlint's own requests, beside LSP's, for editors that show more than diagnostics.

* ``tritonlint/status`` (no params, or ``{"uri": ...}``): ``{"version", "tritonRelease",
  "tritonContainer"}``, the server's tritonlint version and the Triton release it checks
  against (for the document ``uri``, else for the first workspace folder), with that
  release's container (``24.10``; null where unknown);
* ``tritonlint/releases`` (no params): ``{"releases": [{"release", "container"}, ...]}``,
  every release tritonlint ships a schema of, newest first;
* ``tritonlint/rules`` (no params): ``{"rules": [{"code", "name", "summary"}, ...]}``, every
  rule, by code;
* ``tritonlint/ruleDocumentation`` (``{"code": "TL201"}``, a code or a rule's name):
  ``{"code", "name", "markdown"}``, the rule's section of ``tritonlint rules --markdown``;
  an unknown rule is an InvalidParams error (-32602).

Their params and results are plain JSON objects; docs/editors.md documents them.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pygls.exceptions import JsonRpcInvalidParams

from tritonlint import __version__
from tritonlint.lsp.uris import path_of
from tritonlint.schema.releases import available_releases, container_release

if TYPE_CHECKING:
    from tritonlint.lsp.state import TritonLintServer

STATUS = "tritonlint/status"
RELEASES = "tritonlint/releases"
RULES = "tritonlint/rules"
RULE_DOCUMENTATION = "tritonlint/ruleDocumentation"


def status(ls: TritonLintServer, params: Any) -> dict[str, Any]:
    """The server's version and the Triton release it checks against."""
    release = _release(ls, _string(params, "uri"))
    return {
        "version": __version__,
        "tritonRelease": release,
        "tritonContainer": container_release(release),
    }


def releases(ls: TritonLintServer, params: Any) -> dict[str, Any]:
    """Every shipped release with its container, newest first."""
    return {
        "releases": [
            {"release": release, "container": container_release(release)}
            for release in reversed(available_releases())
        ]
    }


def rules(ls: TritonLintServer, params: Any) -> dict[str, Any]:
    """Every rule's code, name and summary (what a list to pick one from shows)."""
    from tritonlint.rules.registry import all_rules

    return {
        "rules": [
            {"code": rule.code, "name": rule.name, "summary": rule.summary} for rule in all_rules()
        ]
    }


def rule_documentation(ls: TritonLintServer, params: Any) -> dict[str, str]:
    """A rule's documentation as markdown, by its code or its name."""
    from tritonlint.report.rules_doc import rule_markdown
    from tritonlint.rules.registry import all_rules, by_code

    code = _string(params, "code")
    if code is None:
        raise JsonRpcInvalidParams(f"{RULE_DOCUMENTATION}: params need a string 'code'")
    rule = by_code(code.strip()) or next((r for r in all_rules() if r.name == code.strip()), None)
    if rule is None:
        raise JsonRpcInvalidParams(f"{RULE_DOCUMENTATION}: no rule {code!r}")
    return {"code": rule.code, "name": rule.name, "markdown": rule_markdown(rule)}


def _release(ls: TritonLintServer, uri: str | None) -> str:
    """The release the workspace of ``uri`` checks against; without a document, the one the
    first workspace folder's settings (under the editor's) name."""
    path = path_of(uri) if uri is not None else None
    if path is not None and path in ls.uris:
        return ls.projects.for_file(path).workspace.options.triton_version or ""
    start = ls.folders[0] if ls.folders else Path(os.getcwd())
    told = list(ls.projects.problems)
    release = ls.projects.options(start).triton_version or ""
    # A settings problem is told when a check reads the settings, not once per status asked.
    ls.projects.problems[:] = told
    return release


def _string(params: Any, key: str) -> str | None:
    """``params[key]`` where it is a string; pygls gives untyped params as a dict or as an
    object with attributes."""
    value = params.get(key) if isinstance(params, dict) else getattr(params, key, None)
    return value if isinstance(value, str) else None


def register(server: TritonLintServer) -> None:
    server.feature(STATUS)(status)
    server.feature(RELEASES)(releases)
    server.feature(RULES)(rules)
    server.feature(RULE_DOCUMENTATION)(rule_documentation)
