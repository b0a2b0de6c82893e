"""The installed pygls is one the language server's adapter of pygls' private members was
checked against (tritonlint/lsp/pygls_adapter.py), and pyproject.toml pins that same range:
a pygls outside it may have renamed or dropped any of them."""

from __future__ import annotations

import sys
from importlib.metadata import version
from pathlib import Path

from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

from tritonlint.lsp.pygls_adapter import PYGLS_VERSIONS

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def pinned() -> SpecifierSet:
    """The versions of pygls pyproject.toml's dependencies allow."""
    dependencies = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["dependencies"]
    found = [Requirement(line) for line in dependencies if Requirement(line).name == "pygls"]
    assert len(found) == 1, f"pygls is not among the dependencies once: {dependencies}"
    return found[0].specifier


def test_pyproject_pins_pygls_to_the_range_the_adapter_was_checked_against() -> None:
    assert pinned() == SpecifierSet(PYGLS_VERSIONS)


def test_the_installed_pygls_is_in_that_range() -> None:
    installed = version("pygls")
    assert SpecifierSet(PYGLS_VERSIONS).contains(installed, prereleases=True), (
        f"pygls {installed} is installed; tritonlint/lsp/pygls_adapter.py was checked against "
        f"pygls{PYGLS_VERSIONS}: check its uses of pygls' private members against this "
        "release, then widen PYGLS_VERSIONS and the pin in pyproject.toml"
    )


def test_a_release_outside_the_range_is_refused() -> None:
    """The comparison above can fail: the next minor release and the last 2.0 are outside."""
    allowed = SpecifierSet(PYGLS_VERSIONS)
    assert not allowed.contains("2.2.0")
    assert not allowed.contains("2.0.3")
    assert allowed.contains("2.1.1")
