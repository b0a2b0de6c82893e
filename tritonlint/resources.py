"""Where the grammar and the derived protos live, installed or in a checkout."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_path(name: str) -> Path:
    """``grammar`` or ``protos``: in the wheel (``tritonlint/_data``) or at the checkout root."""
    installed = _PACKAGE / "_data" / name
    if installed.exists():
        return installed
    return _PACKAGE.parent / name
