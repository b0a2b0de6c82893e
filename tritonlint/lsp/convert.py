"""Findings to LSP diagnostics.

A finding about a folder or a file that is no config (a missing version folder, a missing
model file) has no place in a text; it is shown in its model's ``config.pbtxt``, where the
user can act on it, on the config's ``name`` field (what names the model, as the outline
has it), else on the first line with text. So is a finding about a config as a whole. A
finding at a place in another file (a syntax error in a Python model's model.py) is shown
there. A model folder without ``config.pbtxt`` shows its findings on another of its files
(see :mod:`tritonlint.lsp.placing`): a config under another name is anchored like a config, any
other file on its first line with text. Related places become ``relatedInformation``, in this
file or others, never at a folder (see :func:`tritonlint.lsp.placing.related_file`).
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


def _same(path: Path) -> Path | None:
    return path


def to_lsp(
    diagnostic: Diagnostic,
    shown: Path,
    positions: Callable[[Path], Positions | None],
    related_file: Callable[[Path], Path | None] = _same,
) -> types.Diagnostic:
    """The LSP diagnostic of a finding shown in the file ``shown`` (see :func:`shown_in`);
    ``positions`` converts places in a file (None: it cannot be read); ``related_file``
    gives the file showing a related place (None: none does, the place is left out)."""
    rule = by_code(diagnostic.code)
    if diagnostic.span is not None:
        where = _range(diagnostic.path, diagnostic.span, positions)
    else:
        where = _anchored(shown, positions)
    related: list[types.DiagnosticRelatedInformation] = []
    for place in diagnostic.related:
        file = related_file(place.path)
        if file is None:
            continue
        span = place.span if file == place.path else None
        related.append(
            types.DiagnosticRelatedInformation(
                location=types.Location(
                    uri=file.as_uri(),
                    range=_range(file, span, positions) if span else _anchored(file, positions),
                ),
                message=place.message,
            )
        )
    return types.Diagnostic(
        range=where,
        severity=_SEVERITY[diagnostic.severity],
        code=diagnostic.code,
        code_description=types.CodeDescription(href=rule_url(rule)) if rule else None,
        source=SOURCE,
        message=diagnostic.message,
        related_information=related or None,
        tags=[types.DiagnosticTag.Unnecessary] if diagnostic.code in _UNNECESSARY else None,
    )


def _anchored(path: Path, positions: Callable[[Path], Positions | None]) -> types.Range:
    """Where a finding without a place is shown in the file ``path``: at :func:`anchor` in
    a config (or a config under another name), on the first line with text elsewhere."""
    converter = positions(path)
    if converter is None:
        return _TOP
    config = "config" in path.name or path.suffix == ".pbtxt"
    return converter.range(anchor(converter.text, fields=config))


@functools.lru_cache(maxsize=32)
def anchor(text: str, fields: bool = True) -> Span:
    """Where a finding without a place in a config's text is shown: the config's ``name``
    field (``name: "resnet"``), else the text of its first line with any (an empty span at
    the start of a blank text). Kept for the texts of the last few files: a file's findings
    are converted one after another. ``fields``: whether the text is a config's (else only
    its first line with text is looked for)."""
    for field in parse(text).document.fields if fields else ():
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
