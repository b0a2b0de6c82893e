"""``--format sarif``: a SARIF 2.1.0 log with one run, for code-scanning services.

Every rule is described in ``tool.driver.rules`` (id = code, name, short and full
description, help and a link to its section of docs/rules.md, default level); each finding is
a result with its rule, level, message and place. Paths are relative to the working directory
(``uriBaseId`` ``%SRCROOT%``, which ``originalUriBaseIds`` resolves), with forward slashes;
a path outside the working directory is an absolute ``file:`` URI. Columns count Unicode code
points (``columnKind``), ``endColumn`` is the column after the last character, and a finding
about a folder has no region.
"""

from __future__ import annotations

import json
import os
from importlib import metadata
from pathlib import Path
from typing import Any
from urllib.parse import quote

from tritonlint import __version__
from tritonlint.diagnostics import Diagnostic, Severity
from tritonlint.report.paths import display_path
from tritonlint.report.rules_doc import rule_markdown
from tritonlint.rules.registry import Rule, all_rules
from tritonlint.span import Span

SCHEMA_URI = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
SRCROOT = "%SRCROOT%"
#: Where a rule's documentation is, relative to the root of tritonlint's source tree.
RULES_DOC = "docs/rules.md"

LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def help_uri(rule: Rule) -> str:
    """The rule's section of docs/rules.md (the anchor its heading gets)."""
    return f"{RULES_DOC}#{rule.code.lower()}-{rule.name}"


def _information_uri() -> str | None:
    """The project's home page, where the installed package's metadata names one."""
    try:
        meta = metadata.metadata("tritonlint")
    except metadata.PackageNotFoundError:
        return None
    for entry in meta.get_all("Project-URL") or []:
        label, _, url = str(entry).partition(",")
        if label.strip().lower() in ("homepage", "home", "source", "repository"):
            return url.strip()
    home = meta.get_all("Home-page") or []
    return str(home[0]).strip() if home else None


def _rule_object(rule: Rule) -> dict[str, Any]:
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.explanation},
        "help": {"text": rule.explanation, "markdown": rule_markdown(rule, heading="#")},
        "helpUri": help_uri(rule),
        "defaultConfiguration": {"level": LEVELS[rule.severity]},
        "properties": {"pack": rule.pack},
    }


def _artifact(path: Path) -> dict[str, str]:
    shown = display_path(path)
    if os.path.isabs(shown):
        return {"uri": Path(shown).as_uri()}
    return {"uri": quote(Path(shown).as_posix(), safe="/"), "uriBaseId": SRCROOT}


def _region(span: Span) -> dict[str, int]:
    return {
        "startLine": span.line,
        "startColumn": span.column,
        "endLine": span.end_line,
        "endColumn": span.end_column,
    }


def _location(path: Path, span: Span | None, message: str | None = None) -> dict[str, Any]:
    physical: dict[str, Any] = {"artifactLocation": _artifact(path)}
    if span is not None:
        physical["region"] = _region(span)
    location: dict[str, Any] = {"physicalLocation": physical}
    if message is not None:
        location["message"] = {"text": message}
    return location


def _result(diagnostic: Diagnostic, index: int) -> dict[str, Any]:
    result: dict[str, Any] = {
        "ruleId": diagnostic.code,
        "ruleIndex": index,
        "level": LEVELS[diagnostic.severity],
        "message": {"text": diagnostic.message},
        "locations": [_location(diagnostic.path, diagnostic.span)],
    }
    if diagnostic.related:
        result["relatedLocations"] = [
            {"id": number, **_location(r.path, r.span, r.message)}
            for number, r in enumerate(diagnostic.related, start=1)
        ]
    return result


def sarif_log(diagnostics: list[Diagnostic]) -> dict[str, Any]:
    """The SARIF log of ``diagnostics`` as a JSON-ready object."""
    rules = all_rules()
    index = {rule.code: number for number, rule in enumerate(rules)}
    driver: dict[str, Any] = {
        "name": "tritonlint",
        "version": __version__,
        "semanticVersion": __version__,
        "rules": [_rule_object(rule) for rule in rules],
    }
    information = _information_uri()
    if information:
        driver["informationUri"] = information
    root = Path.cwd().as_uri().rstrip("/") + "/"
    run = {
        "tool": {"driver": driver},
        "originalUriBaseIds": {SRCROOT: {"uri": root}},
        "columnKind": "unicodeCodePoints",
        "results": [_result(d, index[d.code]) for d in diagnostics],
    }
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}


def render_sarif(diagnostics: list[Diagnostic]) -> str:
    return json.dumps(sarif_log(diagnostics), indent=2, ensure_ascii=False)
