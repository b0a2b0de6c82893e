"""Changing a user's file: apply text edits, show the change as a diff, write it in place.

What the formatter and ``--fix`` share. A file is only ever rewritten through
:func:`write_in_place`: the new text goes to a temporary file beside it, which is renamed over
the original, so a reader or an interrupted run never sees half a file; the file keeps its
permission bits, and a symbolic link stays a link (its target is rewritten). Reports are
written the same way by :func:`write_file`.
"""

from __future__ import annotations

import contextlib
import difflib
import os
import stat
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path

from tritonlint.diagnostics import TextEdit


class OverlappingEdits(ValueError):
    """Two edits change the same part of a text: they cannot both be applied."""


def apply_edits(text: str, edits: Iterable[TextEdit]) -> str:
    """``text`` with ``edits`` applied by their offsets; raises :class:`OverlappingEdits`.

    Two insertions at the same offset are applied in the order given.
    """
    ordered = sorted(enumerate(edits), key=lambda item: (item[1].span.start, item[0]))
    pieces: list[str] = []
    done = 0
    for _, edit in ordered:
        start, end = edit.span.start, edit.span.end
        if start < done or end < start or end > len(text):
            raise OverlappingEdits(f"edit of {start}..{end} overlaps another or leaves the text")
        pieces.append(text[done:start])
        pieces.append(edit.new_text)
        done = end
    pieces.append(text[done:])
    return "".join(pieces)


def touch_same_text(edit: TextEdit, other: TextEdit) -> bool:
    """Whether two edits touch the same text: their spans overlap, or an insertion lies
    inside or at an end of the other's span. Such edits are not applied in one go by the
    fixer: the later one is computed again on the text the first made."""
    a, b = edit.span, other.span
    if a.start == a.end or b.start == b.end:
        return a.start <= b.end and b.start <= a.end
    return a.start < b.end and b.start < a.end


def unified_diff(name: str, before: str, after: str) -> str:
    """The change from ``before`` to ``after`` as a unified diff of file ``name`` ('' when
    they are equal); a last line without a newline is marked as ``diff`` marks it."""
    lines = difflib.unified_diff(
        _lines(before), _lines(after), fromfile=f"a/{name}", tofile=f"b/{name}"
    )
    return "".join(lines)


def _lines(text: str) -> list[str]:
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith(("\n", "\r")):
        lines[-1] += "\n\\ No newline at end of file\n"
    return lines


def write_in_place(path: Path, text: str) -> None:
    """Replace the contents of the existing file ``path`` with ``text`` (UTF-8, line endings
    as they are in ``text``), atomically; raises OSError when it cannot."""
    write_all({path: text})


def write_all(texts: Mapping[Path, str]) -> None:
    """Replace the contents of several existing files, each as :func:`write_in_place` does,
    all or none: every new text is written to a temporary file first, and only when all are
    written are they renamed over the originals. Raises OSError when one cannot be written:
    then the temporaries are removed and no file is changed. (A rename within a folder does
    not fail once its temporary is written, short of the folder's removal meanwhile.)"""
    staged: list[tuple[str, Path]] = []
    try:
        for path, text in texts.items():
            staged.append(_stage(path, text))
        for temporary, target in staged:
            os.replace(temporary, target)
    except BaseException:
        for temporary, _ in staged:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        raise


def write_file(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path``, a new file or one to replace (a symbolic link is
    replaced, not followed), atomically, with the mode a new file gets; raises OSError when it
    cannot. Reports are written so: a reader never sees half of one, and one that cannot be
    written leaves the old file as it was."""
    folder = path.parent if str(path.parent) else Path(".")
    temporary = _write_temporary(folder, path.name, text, 0o666 & ~_umask())
    try:
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _stage(path: Path, text: str) -> tuple[str, Path]:
    """Write ``text`` to a temporary file beside ``path``'s target, with its mode; return the
    temporary's name and the target (a symbolic link's target, which is what is rewritten)."""
    target = Path(os.path.realpath(path))
    mode = stat.S_IMODE(os.stat(target).st_mode)
    return _write_temporary(target.parent, target.name, text, mode), target


def _write_temporary(folder: Path, name: str, text: str, mode: int) -> str:
    """A new temporary file in ``folder`` (named after ``name``) holding ``text`` on disk, with
    permission bits ``mode``; its name."""
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(text.encode("utf-8"))
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, mode)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return temporary


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
