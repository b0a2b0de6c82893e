"""What ``--fix``, ``--diff`` and ``--show-fixes`` print besides the report: the list of what
was fixed, the warnings about refused and unsettled fixes, and the line under a diff."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from tritonlint.fixing.rounds import MAX_ROUNDS
from tritonlint.fixing.run import FixRun
from tritonlint.report.printable import shown_path

_TIMES = "\u00d7"


def _findings(count: int) -> str:
    return f"{count} finding{'s' if count != 1 else ''}"


def fix_listing(run: FixRun, verb: str = "Fixed") -> str:
    """``--show-fixes``: what the fixes resolved, file by file, rule by rule: a heading
    (``Fixed 2 findings:``), then ``- models/a/config.pbtxt:`` and under it a line per rule,
    ``    1 x TL201 (name-mismatch)`` (a multiplication sign for the x, as ruff writes it)."""
    if not run.applied:
        return f"{verb} nothing: no finding has a fix to apply.\n"
    by_file: dict[Path, Counter[tuple[str, str]]] = {}
    for diagnostic in run.fixed:
        by_file.setdefault(diagnostic.path, Counter())[(diagnostic.code, diagnostic.name)] += 1
    lines = [f"{verb} {_findings(len(run.applied))}:"]
    for path in sorted(by_file):
        lines.append(f"- {shown_path(path)}:")
        for (code, name), count in sorted(by_file[path].items()):
            lines.append(f"    {count} {_TIMES} {code} ({name})")
    return "\n".join(lines) + "\n"


def fix_warnings(run: FixRun) -> list[str]:
    """Warnings for standard error: fixes refused (a bug of the rule that offered them), and
    files whose fixes did not settle."""
    warnings = []
    seen: set[tuple[str, Path, str]] = set()
    for refused in run.refused:
        diagnostic, fix = refused.diagnostic, refused.fix
        key = (diagnostic.code, diagnostic.path, fix.title)
        if key in seen:
            continue
        seen.add(key)
        where = shown_path(diagnostic.path)
        if diagnostic.span is not None:
            where += f":{diagnostic.span.line}:{diagnostic.span.column}"
        if fix.moves:  # the disk is not as the check found it
            warnings.append(
                f"refused the fix of {diagnostic.code} at {where} ({fix.title!r}): {refused.reason}"
            )
            continue
        warnings.append(
            f"refused the fix of {diagnostic.code} at {where} ({fix.title!r}): {refused.reason}; "
            "this is a bug in the rule's fix, please report it"
        )
    for path in run.not_written:
        warnings.append(
            f"{shown_path(path)} is a symbolic link to a file outside the repository: its "
            "fixes are not applied (--follow-outside-links applies them)"
        )
    for path in run.unsettled:
        warnings.append(
            f"the fixes of {shown_path(path)} did not settle after {MAX_ROUNDS} rounds; "
            "the fixes made so far are kept, and what remains is reported"
        )
    return warnings


def move_listing(run: FixRun, verb: str = "moved") -> str:
    """A line for each file a fix moved: ``moved m/model.onnx to m/1/model.onnx``."""
    return "".join(
        f"{verb} {shown_path(move.source)} to {shown_path(move.target)}\n" for move in run.moved
    )


def diff_summary(run: FixRun) -> str:
    """The line under ``--diff``: how many findings the change would fix."""
    if not run.applied:
        hidden = run.hidden()
        if hidden:
            noun = "fix" if hidden == 1 else "fixes"
            return (
                f"No fixes available ({hidden} hidden {noun} can be enabled with the "
                "`--unsafe-fixes` option)."
            )
        return "No fixes available."
    files = len(run.changed) + len(run.moved)
    return f"Would fix {_findings(len(run.applied))} in {files} file{'s' if files != 1 else ''}."
