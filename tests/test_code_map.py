"""CONTRIBUTING.md's code map says how the packages of tritonlint import each other: listed
from the bottom up, each imports only packages above it. These tests hold the list to the
code: every package is in it, every name in it is a module of tritonlint, and no import goes
downwards.

The imports are those :mod:`test_imports` reads (at module level or inside a function, not
under ``if TYPE_CHECKING:``). The modules at the top of ``tritonlint/`` that the map does not
list (the shared vocabulary: spans, diagnostics, settings, ...) are left out of the check.
"""

from __future__ import annotations

import re

from test_imports import MODULES, PACKAGE, ROOT, arrows

CONTRIBUTING = ROOT / "CONTRIBUTING.md"
#: A row of the code map's table: ``| `tritonlint.NAME` | what it holds |``.
ROW = re.compile(r"^\| `(tritonlint\.[a-z_]+)` \|", re.MULTILINE)


def listed() -> list[str]:
    """The code map's names, from the bottom up."""
    section = CONTRIBUTING.read_text(encoding="utf-8").split("## Code map", 1)[1]
    return ROW.findall(section.split("\n## ", 1)[0])


def unit(module: str, names: list[str]) -> str | None:
    """The listed name that ``module`` is, or is inside of; None for one the map leaves out."""
    for name in names:
        if module == name or module.startswith(name + "."):
            return name
    return None


def test_the_code_map_lists_every_package_once() -> None:
    names = listed()
    assert len(names) == len(set(names)), names
    packages = {
        f"tritonlint.{folder.name}"
        for folder in PACKAGE.iterdir()
        if folder.is_dir() and any(folder.glob("*.py"))
    }
    assert sorted(packages - set(names)) == [], "packages missing from CONTRIBUTING.md's code map"
    assert sorted(set(names) - set(MODULES) - packages) == [], "names in the map that are no module"


def test_no_package_imports_one_listed_below_it() -> None:
    names = listed()
    place = {name: index for index, name in enumerate(names)}
    downwards = sorted(
        f"{importer} imports {target}"
        for importer, targets in arrows().items()
        for target in targets
        if (own := unit(importer, names)) is not None
        and (other := unit(target, names)) is not None
        and place[other] > place[own]
    )
    assert downwards == [], "imports against the order of CONTRIBUTING.md's code map"
