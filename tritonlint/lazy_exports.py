"""Names a package exports but imports only when first used.

A package whose ``__init__`` would otherwise import heavy modules (the parser, the server
harness) lists its exports in an ``_EXPORTS`` table, name → module of the package, and
defines a module ``__getattr__`` that calls :func:`lazy_export`. The command line's parser
can then import a light module of the package without loading the rest.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any


def lazy_export(package: str, exports: Mapping[str, str], name: str) -> Any:
    """The attribute ``name`` of ``package``, imported from the module ``exports`` names for
    it (an AttributeError, as for any missing attribute, for a name it does not list)."""
    module = exports.get(name)
    if module is None:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{package}.{module}"), name)
