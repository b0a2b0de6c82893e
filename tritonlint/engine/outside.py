"""Files read through a symbolic link that leads out of the repository checked.

A model repository may hold a ``config.pbtxt`` that is a link to a file elsewhere (or a model
folder that is a link to one). tritonlint checks it as the server would read it, but what it
reports must not carry that other file's text into a log, a pull request's annotations or a
SARIF upload, and ``--fix`` and ``format`` must not write through the link. So, unless
``--follow-outside-links`` is given, a finding in such a file is reported without its code
frame, without fixes (their edits may carry the file's text), and with every quoted fragment
of its message that the file's text holds, other than the names the ModelConfig schema
knows (``'dims'``, ``'TYPE_FP32'``), written as ``'…'``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path

from google.protobuf.descriptor import Descriptor

from tritonlint.diagnostics import Diagnostic
from tritonlint.paths import leaves
from tritonlint.repository.walker import PlannedCheck
from tritonlint.schema.releases import load_schema

#: A fragment a message quotes: '...' or "...".
_QUOTED = re.compile(r"'([^'\n]*)'|\"([^\"\n]*)\"")
HIDDEN = "\u2026"


def base_of(source: PlannedCheck) -> Path:
    """The folder a source's files are expected in: its repository, or a loose config
    file's own folder."""
    if source.root is not None:
        return source.root
    assert source.file is not None
    return source.file.parent


def outside_paths(paths: Iterable[Path], base: Path) -> set[Path]:
    """Those of ``paths`` that are in truth outside ``base`` (through a symbolic link)."""
    return {path for path in set(paths) if leaves(path, base)}


def guarded(
    diagnostics: Iterable[Diagnostic], base: Path, text: Callable[[Path], str | None]
) -> list[Diagnostic]:
    """``diagnostics`` with those in files outside ``base`` made unquotable (``text`` reads
    a file's text as checked)."""
    found = list(diagnostics)
    outside = outside_paths((d.path for d in found), base)
    if not outside:
        return found
    texts = {path: text(path) or "" for path in outside}
    return [
        _unquoted(diagnostic, texts[diagnostic.path]) if diagnostic.path in outside else diagnostic
        for diagnostic in found
    ]


def _unquoted(diagnostic: Diagnostic, text: str) -> Diagnostic:
    def hide(match: re.Match[str]) -> str:
        fragment = match.group(1) if match.group(1) is not None else match.group(2)
        if not fragment or fragment in _schema_names() or fragment not in text:
            return match.group(0)
        quote = match.group(0)[0]
        return f"{quote}{HIDDEN}{quote}"

    message = _QUOTED.sub(hide, diagnostic.message)
    return diagnostic._replace(message=message, fixes=(), quotable=False)


@cache
def _schema_names() -> frozenset[str]:
    """Every field, message and enum value name of the newest ModelConfig schema."""
    names: set[str] = set()
    seen: set[str] = set()

    def visit(descriptor: Descriptor) -> None:
        if descriptor.full_name in seen:
            return
        seen.add(descriptor.full_name)
        names.add(descriptor.name)
        for field in descriptor.fields:
            names.add(field.name)
            if field.enum_type is not None:
                names.update(value.name for value in field.enum_type.values)
            if field.message_type is not None:
                visit(field.message_type)

    visit(load_schema().model_config)
    return frozenset(names)
