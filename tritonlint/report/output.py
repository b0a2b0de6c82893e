"""Where a report goes: standard output, or all of it (or nothing) to ``-o``/``--output``.

The one writer of reports for ``tritonlint check`` and ``tritonlint smoke``; the file is
written atomically (:func:`tritonlint.rewrite.write_file`).
"""

from __future__ import annotations

from pathlib import Path

from tritonlint.report.printable import shown_path
from tritonlint.usage import UsageError


class ReportNotWritten(UsageError):
    """The report file could not be written: a usage error of the command that was asked to."""


def write_report(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically; raises :class:`ReportNotWritten` saying why not."""
    try:
        from tritonlint.rewrite import write_file  # only a report to a file needs it

        write_file(path, text)
    except OSError as error:
        raise ReportNotWritten(
            f"cannot write the report to {shown_path(path)}: {error.strerror or error}"
        ) from None


def deliver(report: str, output: Path | None) -> None:
    """A machine-readable report: printed, or written to ``output`` (with a final newline
    unless it is empty); an empty report prints nothing."""
    if output is not None:
        write_report(output, report + "\n" if report else "")
    elif report:
        print(report)
