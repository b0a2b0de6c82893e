"""The modules of tritonlint/rules import each other in one direction only: the registry imports
the list of packs, which imports the pack modules, which import the types rules are made of and
what a check sees; nothing imports back (not even late, inside a function, or for types only)."""

from __future__ import annotations

import ast
from pathlib import Path

RULES = Path(__file__).resolve().parents[1] / "tritonlint" / "rules"
PACKAGE = "tritonlint.rules"


def module_name(path: Path) -> str:
    parts = [part for part in path.relative_to(RULES).with_suffix("").parts if part != "__init__"]
    return ".".join([PACKAGE, *parts])


MODULES = {module_name(path): path for path in sorted(RULES.rglob("*.py"))}


def imported(path: Path) -> set[str]:
    """The modules of tritonlint/rules that the file imports, anywhere in it."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            names.add(node.module)
            # ``from package import module`` imports the module.
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in names if name in MODULES}


def arrows() -> dict[str, set[str]]:
    """Module -> the modules of tritonlint/rules it imports (a package it is in does not count:
    importing a module runs its package's ``__init__`` first, whatever the import says)."""
    return {
        name: {target for target in imported(path) if not name.startswith(target + ".")} - {name}
        for name, path in MODULES.items()
    }


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """Some cycle of ``graph``, as the modules along it (None: there is none)."""
    state: dict[str, str] = {}  # "open" while on the current path, "done" after

    def visit(name: str, trail: list[str]) -> list[str] | None:
        state[name] = "open"
        for target in sorted(graph[name]):
            if state.get(target) == "open":
                return [*trail[trail.index(target) :], target]
            if target not in state and (found := visit(target, [*trail, target])) is not None:
                return found
        state[name] = "done"
        return None

    for start in sorted(graph):
        if start not in state and (found := visit(start, [start])) is not None:
            return found
    return None


def test_the_rule_modules_import_each_other_without_a_cycle() -> None:
    graph = arrows()
    assert graph[f"{PACKAGE}.registry"] >= {f"{PACKAGE}.packs", f"{PACKAGE}.base"}
    assert cycle(graph) is None


def test_no_rule_module_imports_the_registry() -> None:
    importers = {name for name, targets in arrows().items() if f"{PACKAGE}.registry" in targets}
    assert importers == set()


def test_a_cycle_is_found() -> None:
    """The check above can fail: a back arrow closes a cycle, which is named."""
    graph = {"registry": {"packs"}, "packs": {"naming"}, "naming": {"registry", "base"}}
    graph["base"] = set()
    assert cycle(graph) == ["naming", "registry", "packs", "naming"]
    graph["naming"] = {"base"}
    assert cycle(graph) is None
