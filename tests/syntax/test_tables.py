"""The shipped parser tables are up to date with the grammar."""

from __future__ import annotations

import importlib.util
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
