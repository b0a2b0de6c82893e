"""Findings to LSP diagnostics.

A finding about a folder or a file that is no config (a missing version folder, a missing
model file) has no place in a text; it is shown in its model's ``config.pbtxt``, where the
user can act on it, on the config's ``name`` field (what names the model, as the outline
has it), else on the first line with text. So is a finding about a config as a whole. A
finding at a place in another file (a syntax error in a Python model's model.py) is shown
there. Related places become ``relatedInformation``, in this file or others.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from pathlib import Path

from lsprotocol import types

from tritonlint.diagnostics import Diagnostic, Severity
from tritonlint.lsp.positions import Positions
from tritonlint.report.links import rule_url
from tritonlint.rules.registry import by_code
from tritonlint.span import Span
from tritonlint.syntax.parser import parse

SOURCE = "tritonlint"

_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
}
#: Rules whose findings mark text that does nothing (an editor shows it faded).
_UNNECESSARY = frozenset({"TL020", "TL710"})
_TOP = types.Range(start=types.Position(0, 0), end=types.Position(0, 0))
#: A line's text, from its first character that is not a blank to its last.
_TEXT = re.compile(r"\S(?:[^\r\n]*\S)?")


def shown_in(diagnostic: Diagnostic, config: Path | None) -> Path | None:
    """The file a finding is shown in: its own config file, or the file it has a place in;
    else ``config`` (its model's)."""
    if diagnostic.path.suffix == ".pbtxt" and not diagnostic.path.is_dir():
        return diagnostic.path
    if diagnostic.span is not None:
        return diagnostic.path
    return config


def to_lsp(
    diagnostic: Diagnostic, shown: Path, positions: Callable[[Path], Positions | None]
) -> types.Diagnostic:
    """The LSP diagnostic of a finding shown in the file ``shown`` (see :func:`shown_in`);
    ``positions`` converts places in a file (None: it cannot be read)."""
    rule = by_code(diagnostic.code)
    if diagnostic.span is not None:
        where = _range(diagnostic.path, diagnostic.span, positions)
    else:
        converter = positions(shown)
        where = converter.range(anchor(converter.text)) if converter is not None else _TOP
    return types.Diagnostic(
        range=where,
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


@functools.lru_cache(maxsize=32)
def anchor(text: str) -> Span:
    """Where a finding without a place in a config's text is shown: the config's ``name``
    field (``name: "resnet"``), else the text of its first line with any (an empty span at
    the start of a blank text). Kept for the texts of the last few files: a file's findings
    are converted one after another."""
    for field in parse(text).document.fields:
        if field.name.text == "name" and not field.name.missing:
            return field.name.span.cover(field.value.span)
    found = _TEXT.search(text)
    start, end = (found.start(), found.end()) if found else (0, 0)
    line = text.count("\n", 0, start) + 1
    column = start - (text.rfind("\n", 0, start) + 1) + 1
    return Span(line, column, line, column + end - start, start, end)


def _range(
    path: Path, span: Span | None, positions: Callable[[Path], Positions | None]
) -> types.Range:
    if span is None:
        return _TOP
    converter = positions(path)
    return converter.range(span) if converter is not None else _TOP
