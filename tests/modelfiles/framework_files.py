"""The model files that real frameworks made for these tests, and the script that makes them."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
#: Files made by scripts/make_model_files.py, one folder per format.
DATA = ROOT / "tests" / "data" / "modelfiles"


def generator() -> ModuleType:
    """scripts/make_model_files.py, imported (it imports each framework only when asked)."""
    spec = importlib.util.spec_from_file_location(
        "make_model_files", ROOT / "scripts" / "make_model_files.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
