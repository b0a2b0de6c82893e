"""``--format json``: one JSON array of findings, 1-based lines and columns."""

from __future__ import annotations

import json
from typing import Any

from tritonlint.diagnostics import Diagnostic
from tritonlint.report.paths import display_path
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


def to_json_object(diagnostic: Diagnostic) -> dict[str, Any]:
    return {
        "code": diagnostic.code,
        "name": diagnostic.name,
        "severity": diagnostic.severity.value,
        "message": diagnostic.message,
        "path": display_path(diagnostic.path),
        **_position(diagnostic.span),
        "related": [
            {"path": display_path(r.path), "message": r.message, **_position(r.span)}
            for r in diagnostic.related
        ],
        "fixes": [
            {
                "title": fix.title,
                "applicability": fix.applicability.value,
                "edits": [
                    {"new_text": edit.new_text, **_position(edit.span)} for edit in fix.edits
                ],
            }
            for fix in diagnostic.fixes
        ],
    }


def render_json(diagnostics: list[Diagnostic]) -> str:
    return json.dumps([to_json_object(d) for d in diagnostics], indent=2, ensure_ascii=False)
