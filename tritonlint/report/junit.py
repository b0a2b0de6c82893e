"""``--format junit``: JUnit XML, for CI systems that show test reports.

One ``testsuite`` per model checked (a loose config file: per file), named by its path; in
it one ``testcase`` per finding, or one passing ``tritonlint`` test case when the model has
no finding. A finding of error severity is a ``failure``; warnings and info findings are
passing test cases that carry their message in ``system-out``. A finding outside every model
checked (a path that does not exist, a repository-wide finding) gets a suite of its own path.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

from tritonlint.diagnostics import Diagnostic, Severity
from tritonlint.report.paths import display_path

#: Characters XML 1.0 cannot hold, even escaped.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
CLEAN_CASE = "tritonlint"


def _xml(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def _owner(path: Path, checked: Sequence[Path]) -> Path:
    """The model (or loose file) a finding belongs to: the nearest checked path above it."""
    owners = [c for c in checked if c == path or c in path.parents]
    return max(owners, key=lambda c: len(c.parts)) if owners else path


def _location(diagnostic: Diagnostic) -> str:
    where = display_path(diagnostic.path)
    if diagnostic.span is not None:
        where += f":{diagnostic.span.line}:{diagnostic.span.column}"
    return where


def _details(diagnostic: Diagnostic) -> str:
    lines = [
        f"{_location(diagnostic)}: {diagnostic.code} [{diagnostic.severity.value}] "
        f"{diagnostic.message}"
    ]
    for related in diagnostic.related:
        where = display_path(related.path)
        if related.span is not None:
            where += f":{related.span.line}:{related.span.column}"
        lines.append(f"  = note: {related.message} ({where})")
    return _xml("\n".join(lines))


def _testcase(suite: ET.Element, classname: str, diagnostic: Diagnostic) -> None:
    name = f"{diagnostic.code} {diagnostic.name} ({_location(diagnostic)})"
    case = ET.SubElement(
        suite,
        "testcase",
        {"name": _xml(name), "classname": _xml(classname), "time": "0"},
    )
    case.set("file", _xml(display_path(diagnostic.path)))
    if diagnostic.span is not None:
        case.set("line", str(diagnostic.span.line))
    if diagnostic.severity is Severity.ERROR:
        failure = ET.SubElement(
            case, "failure", {"message": _xml(diagnostic.message), "type": diagnostic.code}
        )
        failure.text = _details(diagnostic)
    else:
        ET.SubElement(case, "system-out").text = _details(diagnostic)


def render_junit(diagnostics: list[Diagnostic], checked: Sequence[Path]) -> str:
    """The JUnit XML report of ``diagnostics`` about the models (or files) ``checked``."""
    groups: dict[Path, list[Diagnostic]] = {path: [] for path in checked}
    for diagnostic in diagnostics:
        groups.setdefault(_owner(diagnostic.path, checked), []).append(diagnostic)
    root = ET.Element("testsuites", {"name": "tritonlint"})
    total = failures = 0
    for path, found in sorted(groups.items(), key=lambda item: str(item[0])):
        name = _xml(display_path(path))
        failed = sum(1 for d in found if d.severity is Severity.ERROR)
        tests = max(1, len(found))
        suite = ET.SubElement(
            root,
            "testsuite",
            {
                "name": name,
                "tests": str(tests),
                "failures": str(failed),
                "errors": "0",
                "skipped": "0",
                "time": "0",
            },
        )
        if not found:
            ET.SubElement(suite, "testcase", {"name": CLEAN_CASE, "classname": name, "time": "0"})
        for diagnostic in found:
            _testcase(suite, name, diagnostic)
        total += tests
        failures += failed
    root.set("tests", str(total))
    root.set("failures", str(failures))
    root.set("errors", "0")
    root.set("time", "0")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode")
