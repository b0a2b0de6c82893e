"""A Python backend model's ``model.py``: whether it compiles and defines what the backend calls.

The Python backend's stub imports the file as a module and takes its ``TritonPythonModel``
(``Stub::Initialize`` in python_backend's src/pb_stub.cc): a file that does not compile, or
that has no such class, fails the load, after the stub process has started. A class without
``execute`` loads, and then fails every request.
"""

from __future__ import annotations

from collections.abc import Iterator

from tritonlint.diagnostics import Severity
from tritonlint.modelfiles.python import MODEL_CLASS, PythonModel
from tritonlint.rules.base import rule
from tritonlint.rules.context import Finding, ModelContext
from tritonlint.span import Span


def python_model(ctx: ModelContext) -> PythonModel | None:
    """What the model's model.py defines, where its backend is Python's and it was read."""
    found = ctx.model_file
    if found is None or not isinstance(found.read, PythonModel):
        return None
    return found.read


def _place(ctx: ModelContext, line: int, column: int) -> Span | None:
    """The rest of line ``line`` from ``column`` in model.py, where its text can be read."""
    found = ctx.model_file
    if found is None:
        return None
    if not found.path.is_relative_to(ctx.model.path):
        return None
    text = ctx.model.source(found.path.relative_to(ctx.model.path).as_posix())
    if text is None:
        return None
    lines = text.split("\n")
    if line > len(lines):
        return None
    start = sum(len(before) + 1 for before in lines[: line - 1])
    content = lines[line - 1].rstrip("\r")
    column = min(column, len(content) + 1)
    end_column = max(len(content) + 1, column)
    return Span(line, column, line, end_column, start + column - 1, start + end_column - 1)


@rule(
    "TL910",
    "python-model-syntax-error",
    Severity.ERROR,
    summary="a Python model's model.py that does not compile",
    explanation="""
    The Python backend imports model.py in the model's stub process: a syntax error fails
    the load, and the server's log says only that the model failed to load, after the stub
    has started (Python's own error is in the stub's output). The finding is where Python
    puts the error, in model.py. The file is parsed, never imported or run.
    """,
    bad="""
    model_repository/tokenizer/config.pbtxt:
      backend: "python"
      input [ { name: "TEXT" data_type: TYPE_STRING dims: [ 1 ] } ]
      output [ { name: "IDS" data_type: TYPE_INT64 dims: [ -1 ] } ]
    model_repository/tokenizer/1/model.py:
      class TritonPythonModel:
          def execute(self, requests)  # the colon is missing
              return []
    """,
    good="""
    model_repository/tokenizer/config.pbtxt:
      backend: "python"
      input [ { name: "TEXT" data_type: TYPE_STRING dims: [ 1 ] } ]
      output [ { name: "IDS" data_type: TYPE_INT64 dims: [ -1 ] } ]
    model_repository/tokenizer/1/model.py:
      class TritonPythonModel:
          def execute(self, requests):
              return []
    """,
    backend_check=True,
)
def python_model_syntax_error(ctx: ModelContext) -> Iterator[Finding]:
    model = python_model(ctx)
    if model is None or model.syntax_error is None:
        return
    error = model.syntax_error
    yield Finding(
        f"{model.path.name} does not compile: {error.message} (line {error.line}, column "
        f"{error.column}); the Python backend cannot load the model",
        model.path,
        _place(ctx, error.line, error.column),
    )


@rule(
    "TL911",
    "python-model-incomplete",
    Severity.ERROR,
    summary="a Python model.py without a `TritonPythonModel` class, or one without `execute`",
    explanation="""
    The Python backend instantiates the module's `TritonPythonModel` class: without one the
    load fails (Python's `AttributeError`). It calls the instance's `execute` for every
    batch of requests: without one the model loads and every request fails
    (`Stub::ProcessRequests` in python_backend's src/pb_stub.cc). A class whose bases might
    supply `execute`, or a `TritonPythonModel` imported or assigned rather than defined in
    model.py, is not reported; nor is a model.py of nothing but comments, a placeholder.
    """,
    bad="""
    model_repository/tokenizer/config.pbtxt:
      backend: "python"
      input [ { name: "TEXT" data_type: TYPE_STRING dims: [ 1 ] } ]
      output [ { name: "IDS" data_type: TYPE_INT64 dims: [ -1 ] } ]
    model_repository/tokenizer/1/model.py:
      class TritonPythonModel:
          def infer(self, requests):  # the backend calls execute
              return []
    """,
    good="""
    model_repository/tokenizer/config.pbtxt:
      backend: "python"
      input [ { name: "TEXT" data_type: TYPE_STRING dims: [ 1 ] } ]
      output [ { name: "IDS" data_type: TYPE_INT64 dims: [ -1 ] } ]
    model_repository/tokenizer/1/model.py:
      class TritonPythonModel:
          def execute(self, requests):
              return []
    """,
    server_message=(
        "module '{module}' has no attribute 'TritonPythonModel'\n"
        "Python model {path} does not implement `execute` method."
    ),
    backend_check=True,
)
def python_model_incomplete(ctx: ModelContext) -> Iterator[Finding]:
    model = python_model(ctx)
    if model is None or model.syntax_error is not None or model.model_class_elsewhere:
        return
    found = ctx.model_file
    assert found is not None
    module = f"{found.version}.{model.path.stem}"
    if model.model_class is None:
        yield ctx.about(
            model.path,
            f"module '{module}' has no attribute '{MODEL_CLASS}': {model.path.name} defines no "
            f"class {MODEL_CLASS}, which the Python backend loads",
        )
        return
    model_class = model.model_class
    if model_class.has_execute or any(base != "object" for base in model_class.bases):
        return
    yield Finding(
        f"Python model {ctx.shown(model.path)} does not implement `execute` method. (The model "
        "loads, and every request fails.)",
        model.path,
        _place(ctx, model_class.line, model_class.column),
    )
