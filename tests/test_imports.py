"""The modules of the tritonlint package import each other without a cycle.

Data flows one way (bytes -> syntax -> schema -> repository -> rules -> engine -> front ends),
and so do the imports: a module that needs something from a module "above" it means that
something lives in the wrong place.

What counts as an arrow from module A to module B (read from A's source with :mod:`ast`):

* ``import B`` and ``from B import name``, relative or absolute, at module level *or* inside a
  function: an import that runs late still ties A to B, and a cycle through one only waits for
  the first call to show itself (a half-initialised module, an order that matters);
* ``from P import B`` where ``P.B`` is a module: both ``P`` and ``P.B``;
* ``from P import name`` where the ``__init__`` of ``P`` resolves ``name`` lazily (a
  module-level ``__getattr__`` with an ``_EXPORTS = {name: module}`` table): ``P.<module>``
  too, the module that the name really comes from;
* not an import under ``if TYPE_CHECKING:`` (it never runs), and not an import of a package
  that A is itself inside (importing A runs that package's ``__init__`` first anyway).

A second check counts the ``TYPE_CHECKING`` imports too: a module that names a type "above"
it is a smaller fault (nothing runs), so the cycles there today are listed, with the reason,
and only a new one fails.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "tritonlint"

# Arrows that close a cycle today and are kept on purpose, each with the reason. An arrow here
# is dropped from the graph before the check, so any *new* cycle still fails the test.
ALLOWED: dict[tuple[str, str], str] = {}

# The same, for the graph that counts imports under ``if TYPE_CHECKING:`` as well.
ALLOWED_IN_TYPES: dict[tuple[str, str], str] = {}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(part for part in parts if part != "__init__")


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def lazy_exports(name: str) -> dict[str, str]:
    """Name -> module, for a package whose ``__init__`` imports its names on first use."""
    if not is_package(name):
        return {}
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    if not any(
        isinstance(node, ast.FunctionDef) and node.name == "__getattr__" for node in tree.body
    ):
        return {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and [
            getattr(target, "id", None) for target in node.targets
        ] == ["_EXPORTS"]:
            table = ast.literal_eval(node.value)
            return {export: f"{name}.{module}" for export, module in table.items()}
    raise AssertionError(f"{name} has a __getattr__ but no _EXPORTS table to read")


def is_type_checking(test: ast.expr) -> bool:
    """Whether an ``if`` tests ``TYPE_CHECKING`` (or ``typing.TYPE_CHECKING``)."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports(node: ast.AST, types: bool = False) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements under ``node``, anywhere but under ``if TYPE_CHECKING:`` (there
    too with ``types``)."""
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        yield node
        return
    if isinstance(node, ast.If) and is_type_checking(node.test) and not types:
        children: list[ast.AST] = list(node.orelse)
    else:
        children = list(ast.iter_child_nodes(node))
    for child in children:
        yield from imports(child, types)


def absolute(importer: str, node: ast.ImportFrom) -> str:
    """The module a ``from ... import`` names, relative ones resolved against ``importer``."""
    if node.level == 0:
        return node.module or ""
    package = importer if is_package(importer) else importer.rpartition(".")[0]
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}" if node.module else package


def imported(name: str, types: bool = False) -> set[str]:
    """The modules of the package that module ``name`` imports (see the module docstring)."""
    targets: set[str] = set()
    for node in imports(ast.parse(MODULES[name].read_text(encoding="utf-8")), types):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
            continue
        source = absolute(name, node)
        targets.add(source)
        if source in MODULES:
            lazy = lazy_exports(source)
            for alias in node.names:
                targets.add(f"{source}.{alias.name}")
                if alias.name in lazy:
                    targets.add(lazy[alias.name])
    return {
        target
        for target in targets
        if target in MODULES and target != name and not name.startswith(target + ".")
    }


def arrows(types: bool = False) -> dict[str, set[str]]:
    """Module -> the modules of the package it imports (``types``: for types only, too)."""
    return {name: imported(name, types) for name in MODULES}


def tangles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of ``graph`` with more than one module: every cycle lies
    inside one of them (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    part: list[str] = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        part.append(member)
                        if member == node:
                            break
                    if len(part) > 1:
                        found.append(sorted(part))
    return sorted(found)


def shortest_cycle(graph: dict[str, set[str]], part: list[str]) -> list[str]:
    """A shortest cycle through the first module of ``part`` (a strongly connected part)."""
    start = part[0]
    inside = set(part)
    trails = {start: [start]}
    frontier = [start]
    while frontier:
        following: list[str] = []
        for node in frontier:
            for target in sorted(graph[node] & inside):
                if target == start:
                    return [*trails[node], start]
                if target not in trails:
                    trails[target] = [*trails[node], target]
                    following.append(target)
        frontier = following
    raise AssertionError(f"{part} is not strongly connected")


def describe(graph: dict[str, set[str]], parts: list[list[str]]) -> str:
    lines = []
    for part in parts:
        lines.append("cycle: " + " -> ".join(shortest_cycle(graph, part)))
        for node in part:
            inner = sorted(graph[node] & set(part))
            lines.append(f"    {node} imports {', '.join(inner)}")
    return "\n".join(lines)


def without(graph: dict[str, set[str]], allowed: dict[tuple[str, str], str]) -> None:
    """Drop the allowed arrows from ``graph`` (each must still be there)."""
    for importer, target in allowed:
        assert target in graph[importer], f"allowed arrow {importer} -> {target} is gone: drop it"
        graph[importer] = graph[importer] - {target}


def test_the_package_imports_itself_without_a_cycle() -> None:
    graph = arrows()
    without(graph, ALLOWED)
    parts = tangles(graph)
    assert not parts, "import cycles in tritonlint:\n" + describe(graph, parts)


def test_no_new_cycle_through_imports_for_types() -> None:
    graph = arrows(types=True)
    without(graph, ALLOWED_IN_TYPES)
    parts = tangles(graph)
    assert not parts, "import cycles in tritonlint, counting types:\n" + describe(graph, parts)


def test_the_graph_sees_every_kind_of_import() -> None:
    """The arrows the checks above rely on are read: late, relative and lazily resolved."""
    graph = arrows()
    assert len(graph) > 100
    assert "tritonlint.rules.packs" in graph["tritonlint.rules.registry"]
    # late, inside a function
    assert "tritonlint.format.api" in graph["tritonlint.lsp.formatting"]
    # for types only: in the second graph alone
    assert "tritonlint.lsp.state" not in graph["tritonlint.lsp.features"]
    assert "tritonlint.lsp.state" in arrows(types=True)["tritonlint.lsp.features"]
    # every module is inside ``tritonlint``, whose ``__init__`` never counts as a target
    assert all("tritonlint" not in targets for targets in graph.values())


def test_lazy_exports_and_relative_imports_are_resolved() -> None:
    """No module of the package uses either today; the graph would still read them."""
    assert lazy_exports("tritonlint.format")["format_text"] == "tritonlint.format.api"
    assert lazy_exports("tritonlint.smoke")["run_smoke"] == "tritonlint.smoke.runner"
    assert lazy_exports("tritonlint.rules") == {}

    def statement(source: str) -> ast.ImportFrom:
        node = ast.parse(source).body[0]
        assert isinstance(node, ast.ImportFrom)
        return node

    assert absolute("tritonlint.lsp.server", statement("from . import features")) == (
        "tritonlint.lsp"
    )
    assert absolute("tritonlint.lsp", statement("from .server import x")) == (
        "tritonlint.lsp.server"
    )
    assert absolute("tritonlint.lsp.server", statement("from ..format import format_text")) == (
        "tritonlint.format"
    )


def test_a_cycle_is_found_and_named() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": {"e"}, "e": {"d"}, "f": {"a"}}
    parts = tangles(graph)
    assert parts == [["a", "b", "c"], ["d", "e"]]
    assert shortest_cycle(graph, parts[0]) == ["a", "b", "c", "a"]
    assert "cycle: d -> e -> d" in describe(graph, parts)
    graph["c"] = {"d"}
    graph["e"] = set()
    assert tangles(graph) == []
