"""Fix the paths a user names: every repository, model folder or config file among them.

What :func:`fix_paths` returns says what would change; no text is written until
:func:`write_fixes` is called, and then every changed file is written or none is. Files that
fixes move (with ``move_files``) are moved as the fixer's rounds go, each fix's moves whole or
not at all, so that the rounds check the repository as it then is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tritonlint.diagnostics import Diagnostic, FileMove
from tritonlint.engine import LintOptions, LintResult, workspace_for
from tritonlint.engine.lint_paths import Checked, check_source, lint_plan
from tritonlint.engine.outside import base_of
from tritonlint.fixing.moves import make_moves
from tritonlint.fixing.rounds import Applied, Refused, fix_workspace
from tritonlint.paths import leaves
from tritonlint.report.printable import shown_path
from tritonlint.repository.walker import PlannedCheck
from tritonlint.rewrite import unified_diff, write_all
from tritonlint.schema.releases import load_schema


@dataclass
class FixRun:
    """What fixing found and did, before anything is written."""

    #: The findings that remain once the fixes are applied.
    result: LintResult
    #: Each changed file's text before and after, in path order.
    changed: dict[Path, tuple[str, str]] = field(default_factory=dict)
    applied: list[Applied] = field(default_factory=list)
    refused: list[Refused] = field(default_factory=list)
    #: Files whose fixes had not settled when the rounds ran out.
    unsettled: list[Path] = field(default_factory=list)
    #: Files with fixes that were not applied because they are symbolic links to outside
    #: the repository (without ``follow_outside_links``).
    not_written: list[Path] = field(default_factory=list)
    #: The files the fixes moved (or, without ``move_files``, would move).
    moved: list[FileMove] = field(default_factory=list)
    #: Whether the unsafe fixes were applied too (then none is hidden).
    unsafe: bool = False

    @property
    def fixed(self) -> list[Diagnostic]:
        """The findings the fixes resolved."""
        return [applied.diagnostic for applied in self.applied]

    def hidden(self) -> int:
        """How many remaining findings only ``--unsafe-fixes`` would fix (none, with it: the
        unsafe fixes that remain were refused)."""
        if self.unsafe:
            return 0
        return sum(1 for d in self.result.diagnostics if d.fix_is_hidden)

    def diff(self) -> str:
        """Every change as a unified diff, file by file; a move as git writes a rename."""
        texts = "".join(
            unified_diff(shown_path(path), before, after)
            for path, (before, after) in self.changed.items()
        )
        return texts + "".join(rename_diff(move) for move in self.moved)


def rename_diff(move: FileMove) -> str:
    """A move as ``git diff`` shows a rename without changes."""
    source, target = shown_path(move.source), shown_path(move.target)
    return f"diff --git a/{source} b/{target}\nrename from {source}\nrename to {target}\n"


def fix_paths(
    paths: Sequence[Path],
    options: LintOptions,
    *,
    repositories: Sequence[Path] = (),
    unsafe: bool = False,
    texts: Mapping[Path, str] | None = None,
    move_files: bool = False,
) -> FixRun:
    """Lint ``paths`` as :func:`~tritonlint.engine.lint_paths` does, applying fixes in memory.

    ``texts``: contents read in place of those files (an editor's unsaved documents), by
    absolute path; the fixes start from them, and a changed file's text before is its.
    ``move_files``: make the moves of the fixes that move files, on disk (else they are only
    listed, as ``--diff`` shows them).
    """
    schema = load_schema(options.triton_version)
    run = FixRun(LintResult(), unsafe=unsafe)

    def fix_one(source: PlannedCheck, *, options: LintOptions, jobs: int) -> Checked:
        workspace = workspace_for(source, options, jobs)
        for path, text in (texts or {}).items():
            if _reads(source, path):
                workspace.open(path, text)
        outcome = fix_workspace(
            workspace,
            schema,
            unsafe,
            writable=_writable(source, options),
            mover=make_moves if move_files else None,
        )
        run.changed.update(outcome.changed)
        run.applied.extend(outcome.applied)
        run.refused.extend(outcome.refused)
        run.moved.extend(outcome.moved)
        if outcome.unsettled:
            run.unsettled.extend(sorted({d.path for d in outcome.result.diagnostics if d.fixes}))
        run.not_written.extend(sorted(outcome.not_written))
        return check_source(workspace, source, options)

    # One check after another (jobs=1): the fixes of each are gathered here, in this process.
    run.result = lint_plan(paths, options, repositories, fix_one)
    run.result.texts.update({path: after for path, (_, after) in run.changed.items()})
    run.changed = dict(sorted(run.changed.items()))
    return run


def _writable(source: PlannedCheck, options: LintOptions) -> Callable[[Path], bool] | None:
    """Which files of ``source`` fixes may write: not those that are symbolic links to
    outside its repository, unless ``options`` follow such links (then all: None)."""
    if options.follow_outside_links:
        return None
    base = base_of(source)
    return lambda path: not leaves(path, base)


def _reads(source: PlannedCheck, path: Path) -> bool:
    """Whether checking ``source`` may read the file ``path``."""
    return path == source.file or (source.root is not None and path.is_relative_to(source.root))


def write_fixes(run: FixRun) -> None:
    """Write every changed file, or (on an OSError, which is raised) none."""
    write_all({path: after for path, (_, after) in run.changed.items()})
