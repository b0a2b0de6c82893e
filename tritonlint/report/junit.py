"""``--format junit``: JUnit XML, for CI systems that show test reports.

One ``testsuite`` per model checked (a loose config file: per file), named by its path; in
it one ``testcase`` per rule with findings in the model, named by the rule alone (``TL201
name-mismatch``) so that a test case keeps its name, and its history in a CI system, when
lines move; or one passing ``tritonlint`` test case when the model has no finding. The
findings of one rule in one model are one test case that lists them all, each with its place
(``path:line:col: CODE [severity] message``): in its ``failure`` when one of them is an error
(the failure's ``message`` is the first finding's place and message, and how many more there
are), else in ``system-out`` of a passing test case. A finding outside every model checked (a
path that does not exist, a repository-wide finding) gets a suite of its own path.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

from tritonlint.diagnostics import Diagnostic, Severity
from tritonlint.paths import display_path
from tritonlint.report.printable import xml_text as _xml

CLEAN_CASE = "tritonlint"


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
    return "\n".join(lines)


def _headline(found: Sequence[Diagnostic]) -> str:
    """The failure's message: the first finding's place and message, and how many more."""
    first = found[0]
    more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    return f"{_location(first)}: {first.message}{more}"


def _testcase(suite: ET.Element, classname: str, found: Sequence[Diagnostic]) -> bool:
    """The test case of one rule's findings in one model; whether it failed."""
    first = found[0]
    case = ET.SubElement(
        suite,
        "testcase",
        {"name": f"{first.code} {first.name}", "classname": _xml(classname), "time": "0"},
    )
    case.set("file", _xml(display_path(first.path)))
    if first.span is not None:
        case.set("line", str(first.span.line))
    details = _xml("\n".join(_details(d) for d in found))
    if any(d.severity is Severity.ERROR for d in found):
        failure = ET.SubElement(
            case, "failure", {"message": _xml(_headline(found)), "type": first.code}
        )
        failure.text = details
        return True
    ET.SubElement(case, "system-out").text = details
    return False


def render_junit(diagnostics: list[Diagnostic], checked: Sequence[Path]) -> str:
    """The JUnit XML report of ``diagnostics`` about the models (or files) ``checked``."""
    groups: dict[Path, list[Diagnostic]] = {path: [] for path in checked}
    for diagnostic in diagnostics:
        groups.setdefault(_owner(diagnostic.path, checked), []).append(diagnostic)
    root = ET.Element("testsuites", {"name": "tritonlint"})
    total = failures = 0
    for path, found in sorted(groups.items(), key=lambda item: str(item[0])):
        name = _xml(display_path(path))
        suite = ET.SubElement(root, "testsuite", {"name": name})
        by_rule: dict[str, list[Diagnostic]] = {}
        for diagnostic in found:
            by_rule.setdefault(diagnostic.code, []).append(diagnostic)
        if not by_rule:
            ET.SubElement(suite, "testcase", {"name": CLEAN_CASE, "classname": name, "time": "0"})
        failed = sum(_testcase(suite, name, same) for _, same in sorted(by_rule.items()))
        tests = max(1, len(by_rule))
        suite.attrib.update(
            tests=str(tests), failures=str(failed), errors="0", skipped="0", time="0"
        )
        total += tests
        failures += failed
    root.set("tests", str(total))
    root.set("failures", str(failures))
    root.set("errors", "0")
    root.set("time", "0")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode")
