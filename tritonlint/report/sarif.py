"""``--format sarif``: a SARIF 2.1.0 log with one run, for code-scanning services.

Every rule is described in ``tool.driver.rules`` (id = code, name, short and full
description, help and the URL of its section of the published docs/rules.md, default level);
each finding is a result with its rule, level, message and place, and the fixes it carries
(``fixes``: the edits as ``replacements`` of regions, with ``properties.applicability`` safe
or unsafe). Paths are relative to the
working directory (``uriBaseId`` ``%SRCROOT%``, which ``originalUriBaseIds`` resolves), with
forward slashes; a path outside the working directory is an absolute ``file:`` URI. Columns
count Unicode code points (``columnKind``), and ``endColumn`` is the column after the last
character.

A finding about a folder (a model folder without a version folder) has the folder's URI, with
the trailing ``/`` that marks a folder, and the region ``startLine: 1``: it has no lines, but
code-scanning services (GitHub's among them) and the SARIF multitool's validation want a
region in every location, and this one stands for the whole of it.

A fix that moves files (a model file into its version folder) has no place in ``fixes``: a
SARIF ``artifactChange`` replaces regions of one file and cannot rename one. Such a fix is
given in the result's property bag instead, as ``properties.moves``: its title
(``description``), ``applicability``, and each move's ``from`` and ``to`` artifact
locations, written as the finding's own location is.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from tritonlint import __version__
from tritonlint.diagnostics import Diagnostic, Fix, Severity
from tritonlint.paths import display_path
from tritonlint.report.links import DOCUMENTATION_HOME, rule_url
from tritonlint.report.printable import json_text, uri_path
from tritonlint.report.rules_doc import rule_markdown
from tritonlint.rules.base import Rule
from tritonlint.rules.registry import all_rules
from tritonlint.span import Span

SCHEMA_URI = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
SRCROOT = "%SRCROOT%"
LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def _rule_object(rule: Rule) -> dict[str, Any]:
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.explanation},
        "help": {"text": rule.explanation, "markdown": rule_markdown(rule, heading="#")},
        "helpUri": rule_url(rule),
        "defaultConfiguration": {"level": LEVELS[rule.severity]},
        "properties": {"pack": rule.pack},
    }


def _artifact(path: Path) -> dict[str, str]:
    shown = display_path(path)
    folder = "/" if os.path.isdir(path) else ""
    if os.path.isabs(shown):
        return {"uri": Path(shown).as_uri().rstrip("/") + folder}
    return {"uri": uri_path(Path(shown).as_posix()) + folder, "uriBaseId": SRCROOT}


def _region(span: Span | None) -> dict[str, int]:
    if span is None:  # a folder, or a file as a whole
        return {"startLine": 1}
    return {
        "startLine": span.line,
        "startColumn": span.column,
        "endLine": span.end_line,
        "endColumn": span.end_column,
    }


def _location(path: Path, span: Span | None, message: str | None = None) -> dict[str, Any]:
    physical: dict[str, Any] = {
        "artifactLocation": _artifact(path),
        "region": _region(span),
    }
    location: dict[str, Any] = {"physicalLocation": physical}
    if message is not None:
        location["message"] = {"text": message}
    return location


def _fix(path: Path, fix: Fix) -> dict[str, Any]:
    """A SARIF ``fix``: its edits as replacements of regions, one artifact change per file
    (the finding's, and any other a fix edits; an insertion deletes an empty region);
    whether it is safe is a property."""
    return {
        "description": {"text": fix.title},
        "artifactChanges": [
            {
                "artifactLocation": _artifact(file),
                "replacements": [
                    {
                        "deletedRegion": _region(edit.span),
                        "insertedContent": {"text": edit.new_text},
                    }
                    for edit in edits
                ],
            }
            for file, edits in fix.by_file(path).items()
        ],
        "properties": {"applicability": fix.applicability.value},
    }


def _moves(fix: Fix) -> dict[str, Any]:
    """A fix that moves files, for the result's property bag."""
    return {
        "description": {"text": fix.title},
        "applicability": fix.applicability.value,
        "moves": [
            {"from": _artifact(move.source), "to": _artifact(move.target)} for move in fix.moves
        ],
    }


def _result(diagnostic: Diagnostic, index: int) -> dict[str, Any]:
    result: dict[str, Any] = {
        "ruleId": diagnostic.code,
        "ruleIndex": index,
        "level": LEVELS[diagnostic.severity],
        "message": {"text": diagnostic.message},
        "locations": [_location(diagnostic.path, diagnostic.span)],
    }
    edits = [fix for fix in diagnostic.fixes if fix.edits]
    if edits:
        result["fixes"] = [_fix(diagnostic.path, fix) for fix in edits]
    moves = [_moves(fix) for fix in diagnostic.fixes if fix.moves]
    if moves:
        result["properties"] = {"moves": moves}
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
        "informationUri": DOCUMENTATION_HOME,
        "rules": [_rule_object(rule) for rule in rules],
    }
    root = Path.cwd().as_uri().rstrip("/") + "/"
    run = {
        "tool": {"driver": driver},
        "originalUriBaseIds": {SRCROOT: {"uri": root}},
        "columnKind": "unicodeCodePoints",
        "results": [_result(d, index[d.code]) for d in diagnostics],
    }
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}


def render_sarif(diagnostics: list[Diagnostic]) -> str:
    return json_text(sarif_log(diagnostics))
