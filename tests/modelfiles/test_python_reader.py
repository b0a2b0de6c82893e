"""The Python model reader: what model.py defines, where it fails to compile as Python itself
says, and never an import or a run of it."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tritonlint.modelfiles.python import (
    MAX_PYTHON_BYTES,
    MAX_PYTHON_UNITS,
    ModelClass,
    PythonModel,
    PythonSyntaxError,
    read_python,
)
from tritonlint.modelfiles.signature import ModelFileProblem

MODEL = """\
import json

import triton_python_backend_utils as pb_utils


class TritonPythonModel:
    @staticmethod
    def auto_complete_config(auto_complete_model_config):
        return auto_complete_model_config

    def initialize(self, args):
        self.config = json.loads(args["model_config"])

    def execute(self, requests):
        return [pb_utils.InferenceResponse([]) for _ in requests]

    def finalize(self):
        pass
"""


def write(tmp_path: Path, source: str | bytes) -> Path:
    path = tmp_path / "model.py"
    if isinstance(source, str):
        path.write_text(textwrap.dedent(source), encoding="utf-8")
    else:
        path.write_bytes(source)
    return path


def model(tmp_path: Path, source: str | bytes) -> PythonModel:
    result = read_python(write(tmp_path, source))
    assert isinstance(result, PythonModel), result
    return result


def model_class(tmp_path: Path, source: str | bytes) -> ModelClass:
    found = model(tmp_path, source)
    assert found.syntax_error is None, found.syntax_error
    assert found.model_class is not None
    return found.model_class


def test_a_whole_model(tmp_path: Path) -> None:
    path = write(tmp_path, MODEL)
    assert read_python(path) == PythonModel(
        path=path,
        syntax_error=None,
        model_class=ModelClass(
            line=6,
            column=1,
            methods=frozenset({"auto_complete_config", "initialize", "execute", "finalize"}),
            auto_complete_config="staticmethod",
            bases=(),
        ),
    )
    found = model_class(tmp_path, MODEL)
    assert found.has_execute and {"initialize", "finalize"} <= found.methods


def test_no_model_class(tmp_path: Path) -> None:
    found = model(tmp_path, "class Model:\n    def execute(self, requests):\n        return []\n")
    assert found.syntax_error is None
    assert found.model_class is None
    assert not found.model_class_elsewhere


def test_a_class_without_execute(tmp_path: Path) -> None:
    found = model_class(
        tmp_path, "class TritonPythonModel:\n    def initialize(self, args):\n        pass\n"
    )
    assert not found.has_execute and found.methods == {"initialize"}
    assert found.auto_complete_config is None


@pytest.mark.parametrize(
    ("decorator", "kind"),
    [
        ("@staticmethod", "staticmethod"),
        ("@builtins.staticmethod", "staticmethod"),
        ("@classmethod", "classmethod"),
        ("", "method"),
        ("@functools.cache", "method"),
    ],
)
def test_how_auto_complete_config_is_defined(tmp_path: Path, decorator: str, kind: str) -> None:
    source = f"""\
        class TritonPythonModel:
            {decorator}
            def auto_complete_config(config):
                return config

            async def execute(self, requests):
                return []
    """
    found = model_class(tmp_path, source)
    assert found.auto_complete_config == kind
    assert found.has_execute


def test_the_last_class_statement_is_the_one_imported(tmp_path: Path) -> None:
    source = """\
        class TritonPythonModel:
            def execute(self, requests):
                return []

        if True:
            class TritonPythonModel(Base, metaclass=Meta):
                execute = staticmethod(run)
    """
    found = model_class(tmp_path, source)
    assert (found.line, found.column) == (6, 5)
    assert found.bases == ("Base",)
    assert found.methods == frozenset({"execute"})


def test_a_class_inside_try(tmp_path: Path) -> None:
    source = """\
        try:
            import numpy
        except ImportError:
            class TritonPythonModel:
                def execute(self, requests):
                    return []
    """
    assert model_class(tmp_path, source).line == 4


@pytest.mark.parametrize(
    "source",
    [
        "from implementation import TritonPythonModel\n",
        "import implementation as TritonPythonModel\n",
        "TritonPythonModel = make_model()\n",
        "TritonPythonModel: type = make_model()\n",
        "(TritonPythonModel, other) = make_models()\n",
    ],
)
def test_a_model_class_bound_otherwise(tmp_path: Path, source: str) -> None:
    found = model(tmp_path, source)
    assert found.model_class is None
    assert found.model_class_elsewhere


def test_a_class_in_a_function_is_not_the_model(tmp_path: Path) -> None:
    found = model(tmp_path, "def make():\n    class TritonPythonModel:\n        pass\n")
    assert found.model_class is None
    assert not found.model_class_elsewhere


def python_says(source: bytes) -> tuple[int, int, str]:
    """Where and why Python itself refuses the source (line 1, column 1 where it gives no place,
    as for an unknown encoding)."""
    with pytest.raises(SyntaxError) as refused:
        compile(source, "model.py", "exec")
    error = refused.value
    return max(error.lineno or 1, 1), max(error.offset or 1, 1), error.msg


BROKEN = {
    "missing colon": b"class TritonPythonModel:\n    def execute(self, requests)\n        return []\n",
    "indentation": b"class TritonPythonModel:\ndef execute(self, requests):\n    return []\n",
    "tabs and spaces": b"if True:\n\tx = 1\n        y = 2\n",
    "unclosed": b"x = [1,\n     2,\n",
    "non-ascii line": "name = 'caf\u00e9' +\n".encode(),
    "not utf-8": b"x = '\xe9'\n",
    "declared latin-1, then broken": b"# -*- coding: latin-1 -*-\nx = '\xe9'\ny = (\n",
    "unknown encoding": b"# -*- coding: klingon -*-\nx = 1\n",
    "nested too deep": b"x = " + b"(" * 300 + b")" * 300 + b"\n",
    "bad token": b"x = 1\ny = $\n",
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_syntax_errors_are_where_python_says(tmp_path: Path, case: str) -> None:
    source = BROKEN[case]
    line, column, message = python_says(source)
    found = model(tmp_path, source)
    assert found.syntax_error == PythonSyntaxError(line=line, column=column, message=message)
    assert found.model_class is None


def test_a_null_byte_is_located(tmp_path: Path) -> None:
    found = model(tmp_path, b"x = 1\ny = 2\0\n")
    assert found.syntax_error == PythonSyntaxError(
        line=2, column=6, message="source code string cannot contain null bytes"
    )


def test_a_declared_encoding_is_honoured(tmp_path: Path) -> None:
    source = b"# -*- coding: latin-1 -*-\nname = '\xe9'\nclass TritonPythonModel:\n    def execute(self, r):\n        return r\n"
    assert model_class(tmp_path, source).line == 3


def test_a_byte_order_mark(tmp_path: Path) -> None:
    source = b"\xef\xbb\xbfclass TritonPythonModel:\n    def execute(self, r):\n        return r\n"
    assert model_class(tmp_path, source).has_execute


def test_an_empty_file(tmp_path: Path) -> None:
    found = model(tmp_path, b"")
    assert (found.syntax_error, found.model_class, found.model_class_elsewhere) == (
        None,
        None,
        False,
    )


def test_the_file_is_never_run(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    source = f"open({str(marker)!r}, 'w').close()\nraise SystemExit(3)\nclass TritonPythonModel:\n    pass\n"
    found = model(tmp_path, source)
    assert found.model_class is not None
    assert not marker.exists()


def test_a_file_over_the_size_limit(tmp_path: Path) -> None:
    path = tmp_path / "model.py"
    with path.open("wb") as file:
        file.truncate(MAX_PYTHON_BYTES + 1)
    assert read_python(path) == ModelFileProblem(path, "the Python model is larger than 2 MiB")


def test_a_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "model.py"
    assert read_python(path) == ModelFileProblem(
        path, "the Python model cannot be read: No such file or directory"
    )


def test_random_bytes_never_raise(tmp_path: Path) -> None:
    for seed in range(20):
        data = os.urandom(256 + seed)
        result = read_python(write(tmp_path, data))
        assert isinstance(result, PythonModel)
        assert result.syntax_error is not None or result.model_class is None


def test_a_base_class_nested_too_deeply_to_read(tmp_path: Path) -> None:
    chain = "a" + ".b" * 900
    path = write(tmp_path, f"import a\n\nclass TritonPythonModel({chain}):\n    pass\n")
    assert read_python(path) == ModelFileProblem(
        path,
        "the Python model is too deeply nested to read: a base class of TritonPythonModel "
        "(line 3) nests more than 100 levels",
    )


def test_a_long_base_class_within_the_limit_is_read(tmp_path: Path) -> None:
    chain = "a" + ".b" * 90
    found = model_class(tmp_path, f"class TritonPythonModel({chain}):\n    pass\n")
    assert found.bases == (chain,)


MEASURE = """
import resource, sys
from pathlib import Path
from tritonlint.modelfiles.python import read_python
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
result = read_python(Path(sys.argv[1]))
grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
print(grown // 1024, getattr(result, "message", type(result).__name__))
"""


def test_a_file_of_more_units_than_are_parsed_takes_little_memory(tmp_path: Path) -> None:
    # Within the size limit, one-character lines would make a syntax tree of 1.8 GB.
    path = write(tmp_path, b"x\n" * (MAX_PYTHON_BYTES // 2))
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, str(path)], capture_output=True, text=True, check=True
    )
    megabytes, message = done.stdout.strip().split(" ", 1)
    assert message == (
        f"the Python model has more than {MAX_PYTHON_UNITS} words, symbols and lines, more than "
        "are parsed (its syntax tree would take hundreds of megabytes)"
    )
    assert int(megabytes) < 100


def test_most_of_a_megabyte_of_code_is_parsed(tmp_path: Path) -> None:
    methods = "".join(
        f"    def step_{index}(self, value):\n        return value * {index} + self.offset\n\n"
        for index in range(10_000)
    )
    source = (
        f"class TritonPythonModel:\n{methods}    def execute(self, requests):\n        return []\n"
    )
    assert len(source) > 700_000
    found = model_class(tmp_path, source)
    assert found.has_execute
    assert len(found.methods) == 10_001
