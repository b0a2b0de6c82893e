"""Fix one workspace: apply the fixes its findings carry, check again, and repeat.

Each round takes the findings of a check and, in report order, the first fix of each
finding that may be applied (safe, or unsafe where asked for). A fix may edit several files
(a model's name and the ensemble steps that name it): it is taken in all of them or in none.
Fixes whose edits overlap an edit already taken this round wait for the next round, when
their findings are checked anew; a fix whose edits are all already taken (two findings
offering the same edit) is applied once and resolves both. Each fix is verified on its own
before it is taken, in each file it edits (see :func:`~tritonlint.fixing.verify.refusal`).
The new texts go to the workspace's overlay; the disk is not touched here, but by a fix
that moves files (a model file into its version folder), where a ``mover`` is given: it
makes the moves on disk (see :mod:`tritonlint.fixing.moves`), and the workspace reads the
model folders again, so that the next check sees the files where they now are. Without a
mover (``--diff``), the moves are only recorded.

In a file with syntax errors the fields are the parser's guesses, so only the fixes of the
syntax rules are applied there.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from tritonlint.diagnostics import Diagnostic, FileMove, Fix, TextEdit
from tritonlint.document import ConfigDocument, parse_config
from tritonlint.engine import CheckResult, Workspace
from tritonlint.fixing.verify import fix_refusal
from tritonlint.rewrite import apply_edits, touch_same_text
from tritonlint.rules.registry import by_code
from tritonlint.schema.releases import Schema

#: Makes the moves of one fix on disk, all or none; why not, or None.
Mover = Callable[[Sequence[FileMove]], "str | None"]

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
    #: Files that fixes would have changed but that may not be written (symbolic links to
    #: outside the repository).
    not_written: set[Path] = field(default_factory=set)
    #: The files moved (or, without a mover, to be moved), in the order of the moves.
    moved: list[FileMove] = field(default_factory=list)


def fix_workspace(
    workspace: Workspace,
    schema: Schema,
    unsafe: bool,
    max_rounds: int = MAX_ROUNDS,
    writable: Callable[[Path], bool] | None = None,
    mover: Mover | None = None,
) -> WorkspaceFixes:
    """Apply the fixes of ``workspace``'s findings in its overlay until none is left; a fix
    that edits (or moves) a file ``writable`` refuses is not applied at all. ``mover``
    makes the moves of the fixes that move files (None: they are only recorded)."""
    originals: dict[Path, str] = {}
    outcome = WorkspaceFixes(workspace.check())
    refused: set[tuple[str, Path, Fix]] = set()
    moving = _Moves(workspace, outcome, refused, writable, mover)
    for _ in range(max_rounds):
        fixing = _Round(workspace, schema, outcome, refused, set(originals), writable)
        moved = False
        for diagnostic, fix in _fixable(outcome.result.diagnostics, unsafe):
            if fix.moves:
                moved = moving.take(diagnostic, fix) or moved
            else:
                fixing.take(diagnostic, fix)
        if not fixing.taken and not moved:
            break
        for path, edits in fixing.taken.items():
            text = fixing.files[path][0]
            originals.setdefault(path, text)
            workspace.change(path, apply_edits(text, edits))
        outcome.result = workspace.check()
    else:
        outcome.unsettled = any(
            (d.code, d.path, fix) not in refused and not moving.planned_already(fix)
            for d, fix in _fixable(outcome.result.diagnostics, unsafe)
        )
    for path, before in originals.items():
        after = workspace.text(path)
        if after is not None and after != before:
            outcome.changed[path] = (before, after)
    return outcome


class _Moves:
    """The fixes that move files: made on disk by the mover, or recorded as planned."""

    def __init__(
        self,
        workspace: Workspace,
        outcome: WorkspaceFixes,
        refused: set[tuple[str, Path, Fix]],
        writable: Callable[[Path], bool] | None,
        mover: Mover | None,
    ) -> None:
        self._workspace = workspace
        self._outcome = outcome
        self._refused = refused
        self._writable = writable
        self._mover = mover
        self._planned: set[FileMove] = set()

    def planned_already(self, fix: Fix) -> bool:
        """Whether every move of ``fix`` is recorded already (found again, not made)."""
        return bool(fix.moves) and all(move in self._planned for move in fix.moves)

    def take(self, diagnostic: Diagnostic, fix: Fix) -> bool:
        """Make (or plan) the fix's moves; whether the disk changed."""
        key = (diagnostic.code, diagnostic.path, fix)
        if key in self._refused or self.planned_already(fix):
            return False
        if self._writable is not None:
            paths = [path for move in fix.moves for path in move]
            barred = {path for path in paths if not self._writable(path)}
            if barred:
                self._outcome.not_written |= barred
                return False
        if self._mover is None:
            self._planned.update(fix.moves)
            self._outcome.moved.extend(fix.moves)
            self._outcome.applied.append(Applied(diagnostic, fix))
            return False
        reason = self._mover(fix.moves)
        if reason is not None:
            self._refused.add(key)
            self._outcome.refused.append(Refused(diagnostic, fix, reason))
            return False
        self._outcome.moved.extend(fix.moves)
        self._outcome.applied.append(Applied(diagnostic, fix))
        for move in fix.moves:
            self._workspace.refresh(move.source)
            self._workspace.refresh(move.target)
        return True


class _Round:
    """The edits one round takes, file by file; records what they resolve and refuses."""

    def __init__(
        self,
        workspace: Workspace,
        schema: Schema,
        outcome: WorkspaceFixes,
        refused: set[tuple[str, Path, Fix]],
        changed: set[Path],
        writable: Callable[[Path], bool] | None = None,
    ) -> None:
        self._workspace = workspace
        self._writable = writable
        #: The files an earlier round changed.
        self._changed = changed
        self._schema = schema
        self._outcome = outcome
        self._refused = refused
        #: Each file's text at the start of the round and its parse (None: not in the workspace).
        self.files: dict[Path, tuple[str, ConfigDocument]] = {}
        self.taken: dict[Path, list[TextEdit]] = {}

    def take(self, diagnostic: Diagnostic, fix: Fix) -> None:
        """Take the fix's edits, in every file they change, or none of them."""
        key = (diagnostic.code, diagnostic.path, fix)
        if key in self._refused:
            return
        by_file = fix.by_file(diagnostic.path)
        if any(path != diagnostic.path and path in self._changed for path in by_file):
            return  # computed before that file changed, and not checked again since
        if self._writable is not None:
            barred = {path for path in by_file if not self._writable(path)}
            if barred:
                self._outcome.not_written |= barred
                return
        files = {path: self._file(path) for path in by_file}
        if any(f is None or not _allowed_in(f[1], diagnostic) for f in files.values()):
            return
        taken = {path: self.taken.get(path, []) for path in by_file}
        if all(edit in taken[path] for path, edits in by_file.items() for edit in edits):
            self._outcome.applied.append(Applied(diagnostic, fix))  # the same edits, again
            return
        if any(
            touch_same_text(edit, other)
            for path, edits in by_file.items()
            for edit in edits
            for other in taken[path]
        ):
            return  # checked again next round, after the other fix
        reason = self._refusal(by_file, files)
        if reason is not None:
            self._refused.add(key)
            self._outcome.refused.append(Refused(diagnostic, fix, reason))
            return
        for path, edits in by_file.items():
            self.taken.setdefault(path, []).extend(e for e in edits if e not in taken[path])
        self._outcome.applied.append(Applied(diagnostic, fix))

    def _file(self, path: Path) -> tuple[str, ConfigDocument] | None:
        if path not in self.files:
            text = self._workspace.text(path)
            if text is None or not os.path.isfile(path):
                return None
            self.files[path] = (text, parse_config(path, text, self._schema))
        return self.files[path]

    def _refusal(
        self,
        by_file: dict[Path, list[TextEdit]],
        files: dict[Path, tuple[str, ConfigDocument] | None],
    ) -> str | None:
        def document_of(path: Path) -> ConfigDocument:
            found = files[path]
            assert found is not None
            return found[1]

        return fix_refusal(by_file, document_of, self._schema)


def _allowed_in(document: ConfigDocument, diagnostic: Diagnostic) -> bool:
    """Whether a finding's fix may change this file: any, unless its syntax is broken."""
    if not document.has_syntax_errors:
        return True
    rule = by_code(diagnostic.code)
    return rule is not None and rule.pack == "syntax"


def _fixable(diagnostics: Iterable[Diagnostic], unsafe: bool) -> Iterable[tuple[Diagnostic, Fix]]:
    for diagnostic in diagnostics:
        fix = diagnostic.fix_to_apply(unsafe)
        if fix is not None and (fix.moves or os.path.isfile(diagnostic.path)):
            yield diagnostic, fix
