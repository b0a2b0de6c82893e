"""What a Python backend model (``model.py``) defines, read with :func:`ast.parse` only.

Triton's Python backend imports ``model.py`` and instantiates its ``TritonPythonModel`` class:
it calls ``initialize`` (optional), ``execute`` (required) and ``finalize`` (optional) on the
instance, and ``auto_complete_config`` (optional) on the class itself before any instance
exists, so that one must be a ``@staticmethod``. A file that does not compile never loads.

Linting never runs the user's code: the file is parsed, never imported, and what it defines is
read from the tree. Parsing the file's bytes (not a decoded text) lets Python apply the file's
own encoding declaration and report a bad encoding as the syntax error it is on import.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tritonlint.modelfiles.depth import MAX_DEPTH, deeper_than
from tritonlint.modelfiles.files import UnreadableFile, read_bounded
from tritonlint.modelfiles.signature import ModelFileProblem

#: Larger files are not parsed: the syntax tree takes some 130 times the source's size in
#: memory (benchmarks/model_file_readers.py), and a model.py is some kilobytes.
MAX_PYTHON_BYTES = 2 * 1024 * 1024

#: Words, symbols and line ends a parsed file may have. Each costs up to about 900 bytes of
#: syntax tree (a line of one name: a statement and a name), so a file of one-character
#: lines within the size limit would take 1.8 GB; this bounds the tree to some 270 MB. Real
#: code has a unit every 4 bytes or so: a megabyte of it is within the limit.
MAX_PYTHON_UNITS = 300_000

_UNITS = re.compile(rb"\w+|[^\w\s]|\n")
#: Bytes of source counted at a time.
_STRETCH = 64 * 1024

#: The class the Python backend instantiates.
MODEL_CLASS = "TritonPythonModel"

#: Statements whose blocks run at module level (``TryStar``, ``except*``: Python 3.11 on).
_BLOCK_STATEMENTS = frozenset({"If", "Try", "TryStar", "With", "AsyncWith"})


@dataclass(frozen=True)
class PythonSyntaxError:
    """Why ``model.py`` does not compile, where Python says: 1-based line and column (line 1,
    column 1 where Python gives no place, as for an unknown encoding)."""

    line: int
    column: int
    message: str


@dataclass(frozen=True)
class ModelClass:
    """The ``TritonPythonModel`` class statement and what its body defines."""

    #: 1-based line and column of the ``class`` keyword.
    line: int
    column: int
    #: Every name the class body defines (methods, and names assigned in the body).
    methods: frozenset[str]
    #: How ``auto_complete_config`` is defined: ``"staticmethod"``, ``"classmethod"``,
    #: ``"method"`` (neither decorator, which the backend cannot call), or None when absent.
    auto_complete_config: str | None
    #: The base classes as written; methods may come from them, which this reader cannot see.
    bases: tuple[str, ...]

    @property
    def has_execute(self) -> bool:
        return "execute" in self.methods


@dataclass(frozen=True)
class PythonModel:
    """What ``model.py`` defines, or why it does not compile."""

    path: Path
    #: Set when the file does not compile; then nothing else is known.
    syntax_error: PythonSyntaxError | None
    #: The last top-level ``class TritonPythonModel`` (the one an import ends up with).
    model_class: ModelClass | None
    #: The name is bound at the top level some other way (imported, assigned), so the class
    #: exists but is defined elsewhere; set only when there is no class statement for it.
    model_class_elsewhere: bool = False


def read_python(path: Path) -> PythonModel | ModelFileProblem:
    """What the Python model at ``path`` defines; a problem only when the file cannot be read."""
    try:
        source = read_bounded(path, MAX_PYTHON_BYTES)
    except UnreadableFile as error:
        return ModelFileProblem(path, f"the Python model {error}")
    if _too_many_units(source):
        return ModelFileProblem(
            path,
            f"the Python model has more than {MAX_PYTHON_UNITS} words, symbols and lines, "
            "more than are parsed (its syntax tree would take hundreds of megabytes)",
        )
    try:
        tree = ast.parse(source, filename=str(path))
    except SyntaxError as error:
        return PythonModel(path, _syntax_error(error, source), model_class=None)
    except ValueError as error:
        return PythonModel(path, _null_byte(source, str(error)), model_class=None)
    except (RecursionError, MemoryError):
        return ModelFileProblem(path, "the Python model is too deeply nested to read")
    model_class: ModelClass | None = None
    elsewhere = False
    for statement in _top_level(tree.body):
        if isinstance(statement, ast.ClassDef) and statement.name == MODEL_CLASS:
            deep = next((base for base in statement.bases if deeper_than(base)), None)
            if deep is not None:
                return ModelFileProblem(
                    path,
                    f"the Python model is too deeply nested to read: a base class of "
                    f"{MODEL_CLASS} (line {deep.lineno}) nests more than {MAX_DEPTH} levels",
                )
            model_class = _model_class(statement)
        elif MODEL_CLASS in _bound_names(statement):
            elsewhere = True
    return PythonModel(
        path, None, model_class=model_class, model_class_elsewhere=elsewhere and not model_class
    )


def _too_many_units(source: bytes) -> bool:
    """Whether ``source`` has more than :data:`MAX_PYTHON_UNITS` units; counted a stretch at
    a time (a unit cut in two at a stretch's end counts twice) and only where the file has
    more bytes than that, as a unit takes one byte at least."""
    if len(source) <= MAX_PYTHON_UNITS:
        return False
    count = 0
    for start in range(0, len(source), _STRETCH):
        count += _UNITS.subn(b"", source[start : start + _STRETCH])[1]
        if count > MAX_PYTHON_UNITS:
            return True
    return False


def _syntax_error(error: SyntaxError, source: bytes) -> PythonSyntaxError:
    if error.lineno is None and b"\0" in source:
        return _null_byte(source, error.msg)
    return PythonSyntaxError(
        line=max(error.lineno or 1, 1), column=max(error.offset or 1, 1), message=error.msg
    )


def _null_byte(source: bytes, message: str) -> PythonSyntaxError:
    """Where the first NUL byte is: Python refuses such a source without saying where (with a
    SyntaxError or, from a text, a ValueError)."""
    at = source.find(b"\0")
    if at < 0:
        return PythonSyntaxError(line=1, column=1, message=message)
    line_start = source.rfind(b"\n", 0, at) + 1
    return PythonSyntaxError(
        line=source.count(b"\n", 0, at) + 1,
        column=at - line_start + 1,
        message=message,
    )


def _top_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Module-level statements, also those in ``if``/``try``/``with`` blocks at module level,
    in the order they run."""
    for statement in body:
        yield statement
        if type(statement).__name__ not in _BLOCK_STATEMENTS:
            continue
        for block in ("body", "handlers", "orelse", "finalbody"):
            for child in getattr(statement, block, []):
                inner = child.body if isinstance(child, ast.ExceptHandler) else [child]
                yield from _top_level(inner)


def _bound_names(statement: ast.stmt) -> set[str]:
    """Names a statement binds at module level other than by ``class``."""
    if isinstance(statement, (ast.Import, ast.ImportFrom)):
        return {(alias.asname or alias.name).partition(".")[0] for alias in statement.names}
    targets: list[ast.expr] = []
    if isinstance(statement, ast.Assign):
        targets = statement.targets
    elif isinstance(statement, (ast.AnnAssign, ast.AugAssign)) and statement.value is not None:
        targets = [statement.target]
    return {
        node.id for target in targets for node in ast.walk(target) if isinstance(node, ast.Name)
    }


def _model_class(node: ast.ClassDef) -> ModelClass:
    methods: set[str] = set()
    auto_complete: str | None = None
    for statement in node.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            methods.add(statement.name)
            if statement.name == "auto_complete_config":
                auto_complete = _method_kind(statement)
        else:
            methods.update(_bound_names(statement))
    return ModelClass(
        line=node.lineno,
        column=node.col_offset + 1,
        methods=frozenset(methods),
        auto_complete_config=auto_complete,
        bases=tuple(ast.unparse(base) for base in node.bases),
    )


def _method_kind(function: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    for decorator in function.decorator_list:
        name = decorator.attr if isinstance(decorator, ast.Attribute) else None
        if isinstance(decorator, ast.Name):
            name = decorator.id
        if name in ("staticmethod", "classmethod"):
            return name
    return "method"
