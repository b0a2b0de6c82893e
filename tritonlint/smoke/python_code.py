"""Where in a python model's own code the server's message points.

The python backend reports an error in ``model.py`` in one of three ways, all with the user's
paths once the staged copy's paths are put back:

* a syntax error, by file name only: ``IndentationError: unexpected indent (model.py, line 30)``
  (the file is in the folder of the version the message names);
* an exception, with the backend's traceback, innermost frame first::

      ValueError: boom

      At:
        /repo/m/1/model.py(30): helper
        /repo/m/1/model.py(12): initialize

* a Python traceback, innermost frame last: ``File "/repo/m/1/model.py", line 30, in helper``.

The place is the innermost frame inside the model's folder (frames in installed packages are
not the user's to fix), at the statement's first character (so too for an indentation error),
or for another syntax error at the column Python's own parser gives for that line. The file is
only parsed, never run.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import NamedTuple

from tritonlint.smoke.mapping import span_of_line
from tritonlint.span import Span

_SYNTAX_ERROR = re.compile(
    r"\b(?P<kind>Syntax|Indentation|Tab)Error: .*?"
    r"\((?P<file>[^()\n,]+\.py), line (?P<line>\d+)\)"
)
_VERSION = re.compile(r"\bversion (?P<version>-?\d+)(?: is at UNAVAILABLE state|: )")
_BACKEND_FRAME = re.compile(r"^\s*(?P<path>/[^\n]*?\.py)\((?P<line>\d+)\): ", re.MULTILINE)
_PYTHON_FRAME = re.compile(r'File "(?P<path>[^"\n]+\.py)", line (?P<line>\d+)')


class CodeLocation(NamedTuple):
    """A place in a Python file of the model folder."""

    path: Path
    span: Span | None
    #: A syntax error (the code cannot run), not an exception that the code raised.
    syntax: bool


def python_error_location(message: str, folder: Path) -> CodeLocation | None:
    """The place in the Python code of the model in ``folder`` that ``message`` is about."""
    syntax = _SYNTAX_ERROR.search(message)
    if syntax is not None:
        path = _syntax_error_file(syntax.group("file"), message, folder)
        if path is None:
            return None
        line = int(syntax.group("line"))
        if syntax.group("kind") == "Syntax":
            return CodeLocation(path, _syntax_error_span(path, line), syntax=True)
        return CodeLocation(path, _statement_span(path, line), syntax=True)  # its indentation
    frames = [
        *(m for m in reversed(list(_PYTHON_FRAME.finditer(message)))),
        *_BACKEND_FRAME.finditer(message),
    ]
    for frame in frames:  # innermost first
        path = _inside(Path(frame.group("path")), folder)
        if path is not None:
            return CodeLocation(path, _statement_span(path, int(frame.group("line"))), False)
    return None


def _syntax_error_file(name: str, message: str, folder: Path) -> Path | None:
    """The file a syntax error names (by its name only): in the version folder the message
    names, else the first file of that name in the model folder."""
    version = _VERSION.search(message)
    if version is not None and "/" not in name:
        candidate = folder / version.group("version") / name
        if candidate.is_file():
            return candidate
    if os.path.isabs(name):
        return _inside(Path(name), folder)
    found = sorted(p for p in folder.rglob(Path(name).name) if p.is_file())
    return found[0] if found else None


def _inside(path: Path, folder: Path) -> Path | None:
    """``path`` written under ``folder`` when it is inside it (links resolved), else None."""
    try:
        relative = Path(os.path.realpath(path)).relative_to(os.path.realpath(folder))
    except ValueError:
        return None
    found = folder / relative
    return found if found.is_file() else None


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def _statement_span(path: Path, line: int) -> Span | None:
    """``line`` from its first non-blank character to its end."""
    text = _read(path)
    if text is None:
        return None
    lines = text.split("\n")
    if not 1 <= line <= len(lines):
        return None
    content = lines[line - 1]
    column = len(content) - len(content.lstrip()) + 1
    return span_of_line(text, line, column)


def _syntax_error_span(path: Path, line: int) -> Span | None:
    """One character at the column Python's parser reports on ``line`` (1 if it reports
    another line: the server's Python may differ from this one)."""
    text = _read(path)
    if text is None:
        return None
    column = 1
    try:
        compile(text, str(path), "exec", dont_inherit=True)
    except SyntaxError as error:
        if error.lineno == line and error.offset:
            column = error.offset
    except ValueError:  # a null byte: the server's message has the line
        pass
    return span_of_line(text, line, column, 1)
