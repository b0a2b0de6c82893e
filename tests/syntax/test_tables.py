"""The shipped parser tables: up to date with the grammar, and all a parse needs."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from tritonlint.resources import data_path

ROOT = Path(__file__).resolve().parents[2]
GRAMMAR = data_path("grammar")


def _build_script() -> ModuleType:
    path = ROOT / "scripts" / "build_parser_tables.py"
    spec = importlib.util.spec_from_file_location("build_parser_tables", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_shipped_tables_are_those_of_the_grammar() -> None:
    """If this fails, the grammar changed: run scripts/build_parser_tables.py."""
    built = _build_script().build_tables((GRAMMAR / "pbtxt.lark").read_text(encoding="utf-8"))
    assert (GRAMMAR / "pbtxt.tables.json").read_text(encoding="utf-8") == built


def test_parsing_does_not_import_lark() -> None:
    program = (
        "import sys\n"
        "from tritonlint.syntax.parser import parse\n"
        "assert not parse('name: \"x\"').problems\n"
        "assert parse('name \"x\" @ }').problems\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'lark'))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert run.stdout.strip() == "[]"
