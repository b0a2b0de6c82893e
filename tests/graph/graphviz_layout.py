"""A real Graphviz that lays out DOT texts as SVG, and what its SVG shows.

Two of them: the ``dot`` program where it is on PATH, and Graphviz's own C code built to
WebAssembly (``@hpcc-js/wasm-graphviz``, pinned in tools/graph-render's lock file, run in Node
by tools/graph-render/dot.mjs) wherever scripts/graph_render/setup.sh can install it, so that
machines without Graphviz (CI among them) lay the DOT out too.

The program reports warnings as well as errors on its standard error, and a warning fails the
layout here. The WebAssembly build keeps only errors: it sets Graphviz's error level to
errors, and its warnings go to a buffer the package does not expose; what a warning would
point at (an unknown shape or colour, drawn as a default) is checked in the SVG instead.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "vscode"))
from vscode_session import browser_tools, run_script  # noqa: E402

TOOLS = ROOT / "tools" / "graph-render"
WASM_PACKAGE = "@hpcc-js/wasm-graphviz"
_SVG = "{http://www.w3.org/2000/svg}"
_XLINK_TITLE = "{http://www.w3.org/1999/xlink}title"


class GraphvizError(Exception):
    """Graphviz refused a DOT text, or warned about it."""


@dataclass(frozen=True)
class Outcome:
    """What Graphviz made of one text: its SVG (empty where it refused the text) and what it
    reported (errors, and the program's warnings)."""

    svg: str
    messages: str


@dataclass(frozen=True)
class Laid:
    """Texts laid out by one Graphviz, by name."""

    #: The Graphviz: the program's ``dot -V`` or the package's name, version and Graphviz's.
    graphviz: str
    outcomes: Mapping[str, Outcome]

    def svg(self, name: str) -> Svg:
        """The SVG of text ``name``; raises :class:`GraphvizError` where Graphviz reported
        anything."""
        outcome = self.outcomes[name]
        if outcome.messages or not outcome.svg:
            raise GraphvizError(f"{self.graphviz} on {name}: {outcome.messages or 'no SVG'}")
        return Svg.parse(outcome.svg)


def program() -> str | None:
    return shutil.which("dot")


@cache
def program_version() -> str:
    """``dot -V``: ``dot - graphviz version 2.43.0 (0)``."""
    dot = program()
    assert dot is not None
    done = subprocess.run([dot, "-V"], capture_output=True, text=True, timeout=30, check=True)
    return (done.stderr or done.stdout).strip()


def program_id() -> str:
    """The program in a test's id: ``dot-2.43.0``."""
    if program() is None:
        return "dot"
    found = re.search(r"version (\S+)", program_version())
    return f"dot-{found.group(1) if found else 'unknown'}"


def wasm_pin() -> str:
    """The package's version as tools/graph-render/package.json pins it."""
    manifest = json.loads((TOOLS / "package.json").read_text(encoding="utf-8"))
    pin: str = manifest["dependencies"][WASM_PACKAGE]
    return pin


def wasm_id() -> str:
    """The WebAssembly build in a test's id: ``wasm-graphviz-1.29.2``."""
    return f"wasm-graphviz-{wasm_pin()}"


def lay_out_with_program(texts: Mapping[str, str]) -> Laid:
    dot = program()
    if dot is None:
        pytest.skip("Graphviz (dot) is not installed")
    outcomes = {}
    for name, text in texts.items():
        done = subprocess.run(
            [dot, "-Tsvg"], input=text, capture_output=True, text=True, timeout=60, check=False
        )
        failed = f"exit status {done.returncode}\n" if done.returncode else ""
        outcomes[name] = Outcome(done.stdout, failed + done.stderr.strip())
    return Laid(program_version(), outcomes)


def lay_out_with_wasm(texts: Mapping[str, str], folder: Path) -> Laid:
    """The texts laid out in one Node process (tools/graph-render/dot.mjs); skips where
    scripts/graph_render/setup.sh cannot install Node and the package."""
    tools = browser_tools()
    job, result = folder / "dot-job.json", folder / "dot-result.json"
    job.write_text(
        json.dumps({"dot": [{"name": n, "text": t} for n, t in texts.items()]}), encoding="utf-8"
    )
    status, output = run_script(
        [tools["node"], str(TOOLS / "dot.mjs"), str(job), str(result)],
        env={**os.environ, "MODULES": tools["modules"]},
        timeout=120,
    )
    assert status == 0, f"dot.mjs failed ({status}):\n{output}"
    data = json.loads(result.read_text(encoding="utf-8"))
    assert data["package"] == f"{WASM_PACKAGE} {wasm_pin()}", (data["package"], wasm_pin())
    outcomes = {
        item["name"]: Outcome(item.get("svg", ""), item.get("error", ""))
        for item in data["results"]
    }
    return Laid(f"{data['package']} (Graphviz {data['graphviz']})", outcomes)


@dataclass(frozen=True)
class Element:
    """A node, edge or cluster of Graphviz's SVG (a ``g`` of that class)."""

    kind: str
    #: Its ``title``: the DOT id (``n3``, ``cluster_c1``) or ``n1->n2`` for an edge.
    title: str
    classes: frozenset[str]
    texts: tuple[str, ...]
    tooltips: tuple[str, ...]
    #: Each shape's tag (``ellipse``, ``polygon``, ``path``), fill, stroke and point count.
    shapes: tuple[tuple[str, str, str, int], ...] = field(default=())


@dataclass(frozen=True)
class Svg:
    elements: tuple[Element, ...]
    #: Every text drawn, in order.
    texts: tuple[str, ...]

    @classmethod
    def parse(cls, text: str) -> Svg:
        root = ET.fromstring(text)
        elements = []
        for group in root.iter(f"{_SVG}g"):
            classes = frozenset((group.get("class") or "").split())
            kind = next((k for k in ("node", "edge", "cluster") if k in classes), None)
            if kind is None:
                continue
            title = group.find(f"{_SVG}title")
            elements.append(
                Element(
                    kind,
                    (title.text or "") if title is not None else "",
                    classes,
                    _texts(group),
                    tuple(a.get(_XLINK_TITLE, "") for a in group.iter(f"{_SVG}a")),
                    tuple(
                        (
                            shape.tag.removeprefix(_SVG),
                            shape.get("fill", ""),
                            shape.get("stroke", ""),
                            len((shape.get("points") or "").split()),
                        )
                        for shape in group.iter()
                        if shape.tag in {f"{_SVG}{t}" for t in ("ellipse", "polygon", "path")}
                    ),
                )
            )
        return cls(tuple(elements), _texts(root))

    def of_kind(self, kind: str) -> list[Element]:
        return [e for e in self.elements if e.kind == kind]


def _texts(element: ET.Element) -> tuple[str, ...]:
    return tuple("".join(t.itertext()) for t in element.iter(f"{_SVG}text"))
