"""What every stage reports: diagnostics with a code, a severity, a place and fixes."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import NamedTuple

from tritonlint.span import Span


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 2, "warning": 1, "info": 0}[self.value]


class Applicability(str, Enum):
    """Whether a fix may be applied without a person looking at it."""

    #: The edit keeps the meaning the author evidently intended (e.g. a folder's own name).
    SAFE = "safe"
    #: The edit is a guess a person should confirm (e.g. the closest valid field name).
    UNSAFE = "unsafe"


class TextEdit(NamedTuple):
    """Replace the text at ``span`` (offsets into the decoded file) with ``new_text``."""

    span: Span
    new_text: str
    #: The file edited, where it is not the finding's own (an ensemble that names the model).
    path: Path | None = None


class FileMove(NamedTuple):
    """Move the file or folder ``source`` to ``target`` (absolute paths, within one
    repository), creating the folders above ``target`` that are missing. A move never
    replaces anything: where ``target`` exists when it is to be made, it is refused."""

    source: Path
    target: Path


class Fix(NamedTuple):
    """Edits that resolve a finding, with a title for a code action.

    The edits are of the finding's own file, but for those that name another file: a fix that
    edits several files is applied to all of them or to none. A fix may move files instead
    (``moves``: a model file left outside its version folder); such a fix changes no text.
    """

    title: str
    edits: tuple[TextEdit, ...]
    applicability: Applicability = Applicability.UNSAFE
    moves: tuple[FileMove, ...] = ()

    @property
    def changes_anything(self) -> bool:
        """Whether the fix edits a text or moves a file."""
        return bool(self.edits or self.moves)

    def by_file(self, own: Path) -> dict[Path, list[TextEdit]]:
        """The edits by the file they change (``own``: the finding's file, for an edit that
        names none), each without its path."""
        files: dict[Path, list[TextEdit]] = {}
        for edit in self.edits:
            files.setdefault(edit.path or own, []).append(edit._replace(path=None))
        return files


class RelatedLocation(NamedTuple):
    """Another place that explains a finding (the composing model's input, the first duplicate)."""

    path: Path
    message: str
    span: Span | None = None


class Diagnostic(NamedTuple):
    """One finding about one file or folder."""

    code: str
    name: str
    severity: Severity
    message: str
    path: Path
    span: Span | None = None
    related: tuple[RelatedLocation, ...] = ()
    fixes: tuple[Fix, ...] = ()
    #: Whether a report may quote the file's text (show its lines): not where the file is
    #: read through a symbolic link to outside the repository checked.
    quotable: bool = True

    @property
    def sort_key(self) -> tuple[str, int, int, str, str]:
        line = self.span.line if self.span else 0
        column = self.span.column if self.span else 0
        return (str(self.path), line, column, self.code, self.message)

    def fix_to_apply(self, unsafe: bool) -> Fix | None:
        """The fix ``--fix`` applies (with ``--unsafe-fixes``: ``unsafe``): the first with
        edits that may be applied."""
        for fix in self.fixes:
            if fix.changes_anything and (unsafe or fix.applicability is Applicability.SAFE):
                return fix
        return None

    @property
    def fix_is_hidden(self) -> bool:
        """Whether only ``--unsafe-fixes`` would fix this finding."""
        return (
            self.fix_to_apply(unsafe=False) is None and self.fix_to_apply(unsafe=True) is not None
        )

    def with_severity(self, severity: Severity) -> Diagnostic:
        return self if severity is self.severity else self._replace(severity=severity)
