"""Code actions: the fixes findings carry, suppression comments, and fixing a whole file.

* each fix of a finding in the range asked about is a ``quickfix`` (the first safe one
  preferred); a fix that edits other files too (an ensemble that names a renamed model)
  edits them in the same workspace edit;
* "Disable CODE for this line" writes ``# tritonlint: disable=CODE`` after the line the
  finding starts on, or on a line of its own before it when that line has a comment already;
* "Disable CODE for this file" writes ``# tritonlint: disable-file=CODE`` at the top;
* ``source.fixAll.tritonlint`` applies, in one go, the safe fixes of the file's findings that
  edit only this file and do not overlap one another.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from lsprotocol import types

from tritonlint.diagnostics import Diagnostic, Fix, TextEdit
from tritonlint.lsp.positions import Positions
from tritonlint.rewrite import touch_same_text

FIX_ALL = f"{types.CodeActionKind.SourceFixAll.value}.tritonlint"

#: A finding as shown: the engine's finding and the LSP diagnostic made of it.
Shown = tuple[Diagnostic, types.Diagnostic]
PositionsOf = Callable[[Path], Positions | None]


def quick_fixes(
    shown: Shown, positions: PositionsOf, uri_of: Callable[[Path], str]
) -> list[types.CodeAction]:
    """A code action for each fix with edits of one finding."""
    diagnostic, lsp_diagnostic = shown
    preferred = diagnostic.fix_to_apply(unsafe=False)
    actions = []
    for fix in diagnostic.fixes:
        edit = _workspace_edit(fix.by_file(diagnostic.path), positions, uri_of)
        if edit is None:
            continue
        actions.append(
            types.CodeAction(
                title=fix.title,
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[lsp_diagnostic],
                is_preferred=fix is preferred or None,
                edit=edit,
            )
        )
    return actions


def disable_line(shown: Shown, text: str, positions: Positions, uri: str) -> types.CodeAction:
    """Silence the finding's rule on the line the finding starts on (a finding with a place
    in the text)."""
    diagnostic, lsp_diagnostic = shown
    line = lsp_diagnostic.range.start.line
    content = positions.lines[line].removesuffix("\r")
    directive = f"# tritonlint: disable={diagnostic.code}"
    if "#" not in content:
        edit = types.TextEdit(
            range=types.Range(start=positions.line_end(line + 1), end=positions.line_end(line + 1)),
            new_text=f"  {directive}",
        )
    else:
        indent = content[: len(content) - len(content.lstrip())]
        start = types.Position(line=line, character=0)
        edit = types.TextEdit(
            range=types.Range(start=start, end=start),
            new_text=f"{indent}{directive}{_newline(text)}",
        )
    return types.CodeAction(
        title=f"Disable {diagnostic.code} for this line",
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[lsp_diagnostic],
        edit=types.WorkspaceEdit(changes={uri: [edit]}),
    )


def disable_file(shown: Shown, text: str, uri: str) -> types.CodeAction:
    """Silence the finding's rule in the whole file (and its model's folder)."""
    diagnostic, lsp_diagnostic = shown
    start = types.Position(line=0, character=0)
    edit = types.TextEdit(
        range=types.Range(start=start, end=start),
        new_text=f"# tritonlint: disable-file={diagnostic.code}{_newline(text)}",
    )
    return types.CodeAction(
        title=f"Disable {diagnostic.code} for this file",
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[lsp_diagnostic],
        edit=types.WorkspaceEdit(changes={uri: [edit]}),
    )


def fix_all(
    path: Path, uri: str, found: Iterable[Diagnostic], positions: Positions
) -> types.CodeAction | None:
    """Every safe fix of the file's findings (in report order) that edits only this file and
    overlaps no edit taken before it; None when there is none."""
    taken: list[TextEdit] = []
    for diagnostic in found:
        fix = diagnostic.fix_to_apply(unsafe=False)
        if fix is None:
            continue
        edits = _own_edits(diagnostic, fix, path)
        if edits is None or any(touch_same_text(edit, other) for edit in edits for other in taken):
            continue
        taken.extend(edit for edit in edits if edit not in taken)
    if not taken:
        return None
    changes = [types.TextEdit(range=positions.range(e.span), new_text=e.new_text) for e in taken]
    return types.CodeAction(
        title="Fix all safely fixable tritonlint findings",
        kind=FIX_ALL,
        edit=types.WorkspaceEdit(changes={uri: changes}),
    )


def _own_edits(diagnostic: Diagnostic, fix: Fix, path: Path) -> list[TextEdit] | None:
    files = fix.by_file(diagnostic.path)
    return files[path] if set(files) == {path} else None


def _workspace_edit(
    files: dict[Path, list[TextEdit]], positions: PositionsOf, uri_of: Callable[[Path], str]
) -> types.WorkspaceEdit | None:
    changes: dict[str, list[types.TextEdit]] = {}
    for path, edits in files.items():
        converter = positions(path)
        if converter is None:
            return None  # a file that cannot be read: the fix is all or nothing
        changes[uri_of(path)] = [
            types.TextEdit(range=converter.range(e.span), new_text=e.new_text) for e in edits
        ]
    return types.WorkspaceEdit(changes=changes) if changes else None


def _newline(text: str) -> str:
    first = text.find("\n")
    return "\r\n" if first > 0 and text[first - 1] == "\r" else "\n"
