"""Findings to LSP diagnostics.

A finding about a folder or a file that is no config (a missing version folder, a missing
model file) has no place in a text; it is shown at the top of its model's ``config.pbtxt``,
where the user can act on it. Related places become ``relatedInformation``, in this file or
others.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from lsprotocol import types

from tritonlint.diagnostics import Diagnostic, Severity
from tritonlint.lsp.positions import Positions
from tritonlint.report.links import rule_url
from tritonlint.rules.registry import by_code
from tritonlint.span import Span

SOURCE = "tritonlint"

_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
}
#: Rules whose findings mark text that does nothing (an editor shows it faded).
_UNNECESSARY = frozenset({"TL020", "TL710"})
_TOP = types.Range(start=types.Position(0, 0), end=types.Position(0, 0))


def shown_in(diagnostic: Diagnostic, config: Path | None) -> Path | None:
    """The file a finding is shown in: its own config file, else ``config`` (its model's)."""
    if diagnostic.path.suffix == ".pbtxt" and not diagnostic.path.is_dir():
        return diagnostic.path
    return config


def to_lsp(
    diagnostic: Diagnostic, positions: Callable[[Path], Positions | None]
) -> types.Diagnostic:
    """The LSP diagnostic of a finding shown in ``diagnostic.path`` (or at the top of its
    model's config); ``positions`` converts places in a file (None: it cannot be read)."""
    rule = by_code(diagnostic.code)
    return types.Diagnostic(
        range=_range(diagnostic.path, diagnostic.span, positions),
        severity=_SEVERITY[diagnostic.severity],
        code=diagnostic.code,
        code_description=types.CodeDescription(href=rule_url(rule)) if rule else None,
        source=SOURCE,
        message=diagnostic.message,
        related_information=[
            types.DiagnosticRelatedInformation(
                location=types.Location(
                    uri=related.path.as_uri(),
                    range=_range(related.path, related.span, positions),
                ),
                message=related.message,
            )
            for related in diagnostic.related
        ]
        or None,
        tags=[types.DiagnosticTag.Unnecessary] if diagnostic.code in _UNNECESSARY else None,
    )


def _range(
    path: Path, span: Span | None, positions: Callable[[Path], Positions | None]
) -> types.Range:
    if span is None:
        return _TOP
    converter = positions(path)
    return converter.range(span) if converter is not None else _TOP
