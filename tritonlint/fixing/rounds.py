"""Fix one workspace: apply the fixes its findings carry, check again, and repeat.

Each round takes the findings of a check and, file by file, the first fix of each finding
that may be applied (safe, or unsafe where asked for). Fixes whose edits overlap an edit
already taken this round wait for the next round, when their findings are checked anew; a
fix whose edits are all already taken (two findings offering the same edit) is applied once
and resolves both. Each fix is verified on its own before it is taken (see
:func:`~tritonlint.fixing.verify.refusal`). The new texts go to the workspace's overlay; the
disk is not touched here.

In a file with syntax errors the fields are the parser's guesses, so only the fixes of the
syntax rules are applied there.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from tritonlint.diagnostics import Applicability, Diagnostic, Fix, TextEdit
from tritonlint.document import ConfigDocument, parse_config
from tritonlint.engine import CheckResult, Workspace
from tritonlint.fixing.verify import refusal
from tritonlint.rewrite import apply_edits
from tritonlint.rules.registry import by_code
from tritonlint.schema.releases import Schema

#: How many rounds of fixing before giving up on fixes that keep making more to fix.
MAX_ROUNDS = 10


class Applied(NamedTuple):
    """A finding that a fix resolved."""

    diagnostic: Diagnostic
    fix: Fix


class Refused(NamedTuple):
    """A fix that was not applied because it would break the file or change other fields."""

    diagnostic: Diagnostic
    fix: Fix
    reason: str


@dataclass
class WorkspaceFixes:
    """What fixing one workspace did."""

    #: The check of the fixed texts: what remains.
    result: CheckResult
    #: The text of each changed file before fixing and after.
    changed: dict[Path, tuple[str, str]] = field(default_factory=dict)
    applied: list[Applied] = field(default_factory=list)
    refused: list[Refused] = field(default_factory=list)
    #: Whether fixes were still being applied when the rounds ran out.
    unsettled: bool = False


def applicable_fix(diagnostic: Diagnostic, unsafe: bool) -> Fix | None:
    """The fix of ``diagnostic`` that ``--fix`` applies (with ``--unsafe-fixes``: ``unsafe``)."""
    for fix in diagnostic.fixes:
        if fix.edits and (unsafe or fix.applicability is Applicability.SAFE):
            return fix
    return None


def fix_workspace(
    workspace: Workspace, schema: Schema, unsafe: bool, max_rounds: int = MAX_ROUNDS
) -> WorkspaceFixes:
    """Apply the fixes of ``workspace``'s findings in its overlay until none is left."""
    originals: dict[Path, str] = {}
    outcome = WorkspaceFixes(workspace.check())
    refused: set[tuple[str, Path, Fix]] = set()
    for _ in range(max_rounds):
        took = False
        for path, found in _by_file(outcome.result.diagnostics, unsafe).items():
            text = workspace.text(path)
            if text is None:
                continue
            document = parse_config(path, text, schema)
            edits = _round(path, document, text, found, schema, outcome, refused)
            if edits:
                originals.setdefault(path, text)
                workspace.change(path, apply_edits(text, edits))
                took = True
        if not took:
            break
        outcome.result = workspace.check()
    else:
        outcome.unsettled = any(
            (d.code, d.path, fix) not in refused
            for d, fix in _fixable(outcome.result.diagnostics, unsafe)
        )
    for path, before in originals.items():
        after = workspace.text(path)
        if after is not None and after != before:
            outcome.changed[path] = (before, after)
    return outcome


def _round(
    path: Path,
    document: ConfigDocument,
    text: str,
    found: list[tuple[Diagnostic, Fix]],
    schema: Schema,
    outcome: WorkspaceFixes,
    refused: set[tuple[str, Path, Fix]],
) -> list[TextEdit]:
    """The edits of one file to apply this round; records what they resolve and refuses."""
    taken: list[TextEdit] = []
    for diagnostic, fix in found:
        key = (diagnostic.code, path, fix)
        if key in refused or not _allowed_in(document, diagnostic):
            continue
        if all(edit in taken for edit in fix.edits):
            outcome.applied.append(Applied(diagnostic, fix))  # the same edit, offered twice
            continue
        if any(_overlap(edit, other) for edit in fix.edits for other in taken):
            continue  # checked again next round, after the other fix
        try:
            reason = refusal(path, document, fix.edits, apply_edits(text, fix.edits), schema)
        except ValueError as error:
            reason = f"its edits cannot be applied ({error})"
        if reason is not None:
            refused.add(key)
            outcome.refused.append(Refused(diagnostic, fix, reason))
            continue
        taken.extend(edit for edit in fix.edits if edit not in taken)
        outcome.applied.append(Applied(diagnostic, fix))
    return taken


def _allowed_in(document: ConfigDocument, diagnostic: Diagnostic) -> bool:
    """Whether a finding's fix may change this file: any, unless its syntax is broken."""
    if not document.has_syntax_errors:
        return True
    rule = by_code(diagnostic.code)
    return rule is not None and rule.pack == "syntax"


def _overlap(edit: TextEdit, other: TextEdit) -> bool:
    """Whether two edits touch the same text (two insertions at one place do)."""
    a, b = edit.span, other.span
    if a.start == a.end or b.start == b.end:
        return a.start <= b.end and b.start <= a.end
    return a.start < b.end and b.start < a.end


def _fixable(diagnostics: Iterable[Diagnostic], unsafe: bool) -> Iterable[tuple[Diagnostic, Fix]]:
    for diagnostic in diagnostics:
        fix = applicable_fix(diagnostic, unsafe)
        if fix is not None and os.path.isfile(diagnostic.path):
            yield diagnostic, fix


def _by_file(
    diagnostics: Iterable[Diagnostic], unsafe: bool
) -> dict[Path, list[tuple[Diagnostic, Fix]]]:
    """The findings with a fix to apply, by the file their edits change, in report order."""
    files: dict[Path, list[tuple[Diagnostic, Fix]]] = {}
    for diagnostic, fix in _fixable(diagnostics, unsafe):
        files.setdefault(diagnostic.path, []).append((diagnostic, fix))
    return files
