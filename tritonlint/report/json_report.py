"""``--format json``: one JSON array of findings, 1-based lines and columns.

Each finding carries ``url``, its rule's documentation, and ``fix``: the fix the rule suggests
first, in the shape ruff's JSON output gives fixes (``message``, ``applicability``, and
``edits`` of ``content`` from ``location`` to ``end_location``, each a ``row`` and a
``column``), or null. ``fixes`` lists every fix offered, in tritonlint's own shape. An edit
of another file than the finding's (an ensemble that names the model) has its ``path``. A fix
that moves files (a model file into its version folder) has ``moves``, each ``from`` and
``to`` (paths as findings give them); its ``edits`` are empty.
"""

from __future__ import annotations

from typing import Any

from tritonlint.diagnostics import Diagnostic, Fix, TextEdit
from tritonlint.paths import display_path
from tritonlint.report.links import rule_url
from tritonlint.report.printable import json_text
from tritonlint.rules.registry import by_code
from tritonlint.span import Span


def _position(span: Span | None) -> dict[str, int | None]:
    if span is None:
        return {"line": None, "column": None, "end_line": None, "end_column": None}
    return {
        "line": span.line,
        "column": span.column,
        "end_line": span.end_line,
        "end_column": span.end_column,
    }


def _fix(fix: Fix) -> dict[str, Any]:
    """A fix as ruff writes one: where each edit starts and ends, and what goes there."""
    return {
        "message": fix.title,
        "applicability": fix.applicability.value,
        "edits": [
            {
                "content": edit.new_text,
                "location": {"row": edit.span.line, "column": edit.span.column},
                "end_location": {"row": edit.span.end_line, "column": edit.span.end_column},
                **_other_file(edit),
            }
            for edit in fix.edits
        ],
        **_moves(fix),
    }


def _moves(fix: Fix) -> dict[str, list[dict[str, str]]]:
    """``moves``, for a fix that moves files."""
    if not fix.moves:
        return {}
    return {
        "moves": [
            {"from": display_path(move.source), "to": display_path(move.target)}
            for move in fix.moves
        ]
    }


def _other_file(edit: TextEdit) -> dict[str, str]:
    """``path``, for an edit of a file other than the finding's."""
    return {"path": display_path(edit.path)} if edit.path is not None else {}


def _url(code: str) -> str | None:
    rule = by_code(code)
    return rule_url(rule) if rule is not None else None


def to_json_object(diagnostic: Diagnostic) -> dict[str, Any]:
    return {
        "code": diagnostic.code,
        "name": diagnostic.name,
        "severity": diagnostic.severity.value,
        "message": diagnostic.message,
        "url": _url(diagnostic.code),
        "path": display_path(diagnostic.path),
        **_position(diagnostic.span),
        "related": [
            {"path": display_path(r.path), "message": r.message, **_position(r.span)}
            for r in diagnostic.related
        ],
        "fix": _fix(diagnostic.fixes[0]) if diagnostic.fixes else None,
        "fixes": [
            {
                "title": fix.title,
                "applicability": fix.applicability.value,
                "edits": [
                    {"new_text": edit.new_text, **_position(edit.span), **_other_file(edit)}
                    for edit in fix.edits
                ],
                **_moves(fix),
            }
            for fix in diagnostic.fixes
        ],
    }


def render_json(diagnostics: list[Diagnostic]) -> str:
    return json_text([to_json_object(d) for d in diagnostics])
