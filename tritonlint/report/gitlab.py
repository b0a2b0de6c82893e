"""``--format gitlab``: a GitLab Code Quality report (a JSON array of issues).

Each finding is an issue with a ``description`` (code, rule name and message), a
``check_name`` (the rule's code), a ``severity`` (``major`` for an error, ``minor`` for a
warning, ``info`` for an info finding), a ``location`` (``path``; ``lines.begin``, line 1 for a
finding about a folder or a whole file) and a ``fingerprint`` that GitLab uses to tell new
issues from old ones. The fingerprint does not depend on lines, so moving a finding up or down
a file keeps it: it is the SHA-256 of the path, the code, the message and which of the
findings with that same path, code and message it is (the first, the second, ...).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import Path
from typing import Any

from tritonlint.diagnostics import Diagnostic, Severity
from tritonlint.paths import display_path
from tritonlint.report.printable import json_text, valid_unicode

SEVERITIES = {Severity.ERROR: "major", Severity.WARNING: "minor", Severity.INFO: "info"}


def fingerprint(path: str, code: str, message: str, occurrence: int) -> str:
    """The fingerprint of the ``occurrence``-th (0-based) finding ``code``: ``message`` in
    ``path``."""
    key = "\0".join((path, code, message, str(occurrence)))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def _issue(diagnostic: Diagnostic, path: str, occurrence: int) -> dict[str, Any]:
    lines = {"begin": 1}
    if diagnostic.span is not None:
        lines = {"begin": diagnostic.span.line, "end": diagnostic.span.end_line}
    return {
        "description": f"{diagnostic.code} {diagnostic.name}: {diagnostic.message}",
        "check_name": diagnostic.code,
        "fingerprint": fingerprint(
            path, diagnostic.code, valid_unicode(diagnostic.message), occurrence
        ),
        "severity": SEVERITIES[diagnostic.severity],
        "location": {"path": path, "lines": lines},
    }


def gitlab_issues(diagnostics: list[Diagnostic]) -> list[dict[str, Any]]:
    """The Code Quality issues of ``diagnostics`` as JSON-ready objects."""
    seen: Counter[tuple[str, str, str]] = Counter()
    issues = []
    for diagnostic in diagnostics:
        path = valid_unicode(Path(display_path(diagnostic.path)).as_posix())
        key = (path, diagnostic.code, valid_unicode(diagnostic.message))
        issues.append(_issue(diagnostic, path, seen[key]))
        seen[key] += 1
    return issues


def render_gitlab(diagnostics: list[Diagnostic]) -> str:
    return json_text(gitlab_issues(diagnostics))
