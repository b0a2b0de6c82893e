"""Where in a python model's code the server's message points (the messages are Triton 2.51's
python backend's, with the user's paths)."""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree

from tritonlint.smoke.python_code import CodeLocation, python_error_location

MODEL_PY = """\
import json


class TritonPythonModel:
    def initialize(self, args):
        self.x = helper()
      broken = 1

    def execute(self, requests):
        x = (1,
        return []
"""


def _model(tmp_path: Path) -> Path:
    return (
        make_tree(
            tmp_path / "models",
            {
                "m/config.pbtxt": 'backend: "python"\n',
                "m/1/model.py": MODEL_PY,
                "m/2/model.py": MODEL_PY,
                "m/2/util.py": "def helper():\n    raise ValueError('boom')\n",
                "m/3/model.py": MODEL_PY.replace("      broken = 1\n", "\n"),
            },
        )
        / "m"
    )


def _place(found: CodeLocation | None) -> tuple[str, int, int, bool] | None:
    if found is None or found.span is None:
        return None
    return (str(found.path), found.span.line, found.span.column, found.syntax)


def _unavailable(version: int, error: str) -> str:
    """The server's message for version ``version`` of model m refused with ``error``."""
    return (
        f"load failed for model 'm': version {version} is at UNAVAILABLE state: Internal: {error}"
    )


def _assert_place(
    message: str, folder: Path, file: str, line: int, column: int, syntax: bool
) -> CodeLocation:
    """The place ``message`` points to is ``file`` (below ``folder``), ``line``, ``column``."""
    found = python_error_location(message, folder)
    assert _place(found) == (str(folder / file), line, column, syntax)
    assert found is not None
    return found


def test_an_indentation_error_is_at_the_statement_in_the_version_folder_named(
    tmp_path: Path,
) -> None:
    folder = _model(tmp_path)
    message = _unavailable(
        2,
        "IndentationError: unindent does not match any outer indentation level (model.py, line 7);",
    )
    _assert_place(message, folder, "2/model.py", 7, 7, True)


def test_a_syntax_error_is_at_the_column_pythons_parser_gives(tmp_path: Path) -> None:
    folder = _model(tmp_path)
    message = _unavailable(3, "SyntaxError: '(' was never closed (model.py, line 10);")
    found = _assert_place(message, folder, "3/model.py", 10, 13, True)
    assert found.span is not None
    assert (found.span.end_line, found.span.end_column) == (10, 14)
    # Another line than this Python's parser finds (another Python version): column 1.
    _assert_place(message.replace("line 10", "line 11"), folder, "3/model.py", 11, 1, True)


def test_the_innermost_frame_of_the_backends_traceback_inside_the_model_folder(
    tmp_path: Path,
) -> None:
    folder = _model(tmp_path)
    message = _unavailable(
        2,
        "ValueError: boom\n\nAt:\n"
        "  /usr/lib/python3/dist-packages/numpy/core.py(100): reshape\n"
        f"  {folder}/2/util.py(2): helper\n"
        f"  {folder}/2/model.py(6): initialize\n;",
    )
    _assert_place(message, folder, "2/util.py", 2, 5, False)


def test_the_last_frame_of_a_python_traceback_inside_the_model_folder(tmp_path: Path) -> None:
    folder = _model(tmp_path)
    message = (
        "Traceback (most recent call last):\n"
        f'  File "{folder}/1/model.py", line 6, in initialize\n'
        '  File "/usr/lib/python3.11/json/__init__.py", line 346, in loads\n'
        "json.decoder.JSONDecodeError: Expecting value"
    )
    _assert_place(message, folder, "1/model.py", 6, 9, False)


def test_no_place_when_the_code_is_not_the_models(tmp_path: Path) -> None:
    folder = _model(tmp_path)
    outside = "ValueError: x\n\nAt:\n  /usr/lib/python3/site.py(3): f\n"
    assert python_error_location(outside, folder) is None
    missing = "version 1 is at UNAVAILABLE state: SyntaxError: bad (other.py, line 3)"
    assert python_error_location(missing, folder) is None
    config_error = "'max_batch_size' must be non-negative value for m"
    assert python_error_location(config_error, folder) is None
