"""Code actions: the fixes findings carry, suppression comments, and fixing a whole file.

* each fix of a finding in the range asked about is a ``quickfix`` (the first safe one
  preferred); a fix that edits other files too (an ensemble that names a renamed model)
  edits them in the same workspace edit. A fix that the fixer's verifier refuses (it would
  break the file: see :mod:`tritonlint.fixing.verify`) is not offered; a fix that moves
  files (a model file into its version folder) is a ``RenameFile`` operation of the edit's
  ``documentChanges``, offered only to a client that declares it can rename files, and not
  where a move could not be made now (its target exists);
* "Disable CODE for this line" writes ``# tritonlint: disable=CODE`` after the line the
  finding starts on, or on a line of its own before it when that line has a comment already;
* "Disable CODE for this file" writes ``# tritonlint: disable-file=CODE`` at the top;
* ``source.fixAll.tritonlint`` changes the files as ``tritonlint --fix`` on this file does
  (the fixer's rounds are run by the server; here their outcome becomes edits).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from lsprotocol import types

from tritonlint.diagnostics import Diagnostic, FileMove, TextEdit
from tritonlint.fixing.moves import move_refusal
from tritonlint.format.api import line_edits
from tritonlint.lsp.positions import Positions, insertion

FIX_ALL = f"{types.CodeActionKind.SourceFixAll.value}.tritonlint"

#: A finding as shown: the engine's finding and the LSP diagnostic made of it.
Shown = tuple[Diagnostic, types.Diagnostic]
PositionsOf = Callable[[Path], Positions | None]


def quick_fixes(
    shown: Shown,
    positions: PositionsOf,
    uri_of: Callable[[Path], str],
    refusal: Callable[[dict[Path, list[TextEdit]]], str | None],
    renames: bool = False,
) -> list[types.CodeAction]:
    """A code action for each fix with edits of one finding that ``refusal`` (the reason a
    fix's edits, by file, must not be taken) lets by; for each fix that moves files too,
    where the client can rename files (``renames``)."""
    diagnostic, lsp_diagnostic = shown
    preferred = diagnostic.fix_to_apply(unsafe=False)
    actions = []
    for fix in diagnostic.fixes:
        if fix.moves:
            edit = _rename_edit(fix.moves, uri_of) if renames else None
        else:
            by_file = fix.by_file(diagnostic.path)
            edit = _workspace_edit(by_file, positions, uri_of)
            if edit is not None and refusal(by_file) is not None:
                edit = None
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
    in the text). The line is the engine's, which only ``\n`` ends (a comment runs to it),
    whatever else the editor takes for a line end."""
    diagnostic, lsp_diagnostic = shown
    assert diagnostic.span is not None
    start = text.rfind("\n", 0, diagnostic.span.start) + 1
    end = text.find("\n", start)
    content = text[start : len(text) if end == -1 else end].removesuffix("\r")
    directive = f"# tritonlint: disable={diagnostic.code}"
    if "#" not in content:
        at = positions.at(start + len(content))
        new_text = f"  {directive}"
    else:
        indent = content[: len(content) - len(content.lstrip())]
        at = positions.at(start)
        new_text = f"{indent}{directive}{_newline(text)}"
    edit = insertion(at, new_text)
    return types.CodeAction(
        title=f"Disable {diagnostic.code} for this line",
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[lsp_diagnostic],
        edit=types.WorkspaceEdit(changes={uri: [edit]}),
    )


def disable_file(shown: Shown, text: str, uri: str) -> types.CodeAction:
    """Silence the finding's rule in the whole file (and its model's folder)."""
    diagnostic, lsp_diagnostic = shown
    top = types.Position(line=0, character=0)
    edit = insertion(top, f"# tritonlint: disable-file={diagnostic.code}{_newline(text)}")
    return types.CodeAction(
        title=f"Disable {diagnostic.code} for this file",
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[lsp_diagnostic],
        edit=types.WorkspaceEdit(changes={uri: [edit]}),
    )


def fix_all(
    changed: Mapping[Path, tuple[str, str]],
    encoding: types.PositionEncodingKind,
    uri_of: Callable[[Path], str],
) -> types.CodeAction | None:
    """The fixer's changes (each file's text before and after) as one workspace edit, whole
    lines each; None when nothing changed."""
    changes: dict[str, list[types.TextEdit]] = {}
    for path, (before, after) in sorted(changed.items()):
        positions = Positions(before, encoding)
        changes[uri_of(path)] = [positions.text_edit(edit) for edit in line_edits(before, after)]
    if not changes:
        return None
    return types.CodeAction(
        title="Fix all safely fixable tritonlint findings",
        kind=FIX_ALL,
        edit=types.WorkspaceEdit(changes=changes),
    )


def _workspace_edit(
    files: dict[Path, list[TextEdit]], positions: PositionsOf, uri_of: Callable[[Path], str]
) -> types.WorkspaceEdit | None:
    changes: dict[str, list[types.TextEdit]] = {}
    for path, edits in files.items():
        converter = positions(path)
        if converter is None:
            return None  # a file that cannot be read: the fix is all or nothing
        changes[uri_of(path)] = [converter.text_edit(edit) for edit in edits]
    return types.WorkspaceEdit(changes=changes) if changes else None


def can_rename_files(capabilities: types.ClientCapabilities) -> bool:
    """Whether the client applies a workspace edit's ``documentChanges`` with ``rename``
    operations."""
    workspace = capabilities.workspace
    edit = workspace.workspace_edit if workspace is not None else None
    if edit is None or not edit.document_changes:
        return False
    return types.ResourceOperationKind.Rename in (edit.resource_operations or [])


def _rename_edit(
    moves: tuple[FileMove, ...], uri_of: Callable[[Path], str]
) -> types.WorkspaceEdit | None:
    """The moves as ``RenameFile`` operations that never overwrite (None: one of them cannot
    be made now). The client creates the folders the new place needs, as it does for any
    rename (VS Code does)."""
    if any(move_refusal(move) is not None for move in moves):
        return None
    return types.WorkspaceEdit(
        document_changes=[
            types.RenameFile(
                old_uri=uri_of(move.source),
                new_uri=uri_of(move.target),
                options=types.RenameFileOptions(overwrite=False, ignore_if_exists=False),
            )
            for move in moves
        ]
    )


def _newline(text: str) -> str:
    first = text.find("\n")
    return "\r\n" if first > 0 and text[first - 1] == "\r" else "\n"
