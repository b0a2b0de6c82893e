"""``tritonlint report merge FILE...``: one report from several, such as the reports of the
shares of ``tritonlint smoke --shard I/N`` (the jobs of a CI matrix).

The format is read from each file's content (or given with ``--format``); all must be of one
format:

* ``json``: arrays of findings (``check --format json``, or GitLab Code Quality reports) are
  concatenated, a finding found twice kept once; smoke reports (``smoke --format json``, an
  object) become one smoke report: the models and findings of all, ``ok`` when every share's
  was, ``seconds`` the longest share's, and ``share`` saying which shares were merged and
  which are missing (``merged``, ``missing``, ``total``, ``models`` and ``of``); two reports
  of one share, or shares of different totals, are an error.
* ``sarif``: one run per tool (its driver's name and version): the results of the runs of
  one tool concatenated, their ``artifacts`` listed once (each result's artifact index
  renumbered), their paths against one ``%SRCROOT%`` (a path of a run whose ``%SRCROOT%``
  differs from the first's becomes an absolute URI).
* ``junit``: the ``testsuite`` elements of all, under one ``testsuites`` whose counts are
  their sums.
"""

from __future__ import annotations

import copy
import json
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tritonlint.report.printable import json_text
from tritonlint.usage import UsageError


class MergeError(UsageError):
    """Reports that cannot be merged (unreadable, of no known format, of mixed formats)."""


@dataclass(frozen=True)
class Report:
    """One report to merge: where it came from, and its text."""

    name: str
    text: str


def detect_format(report: Report) -> str:
    """``json``, ``sarif`` or ``junit``, read from the report's content."""
    text = report.text.lstrip("\ufeff \t\r\n")
    if text.startswith("<"):
        return "junit"
    try:
        data = json.loads(text)
    except ValueError:
        raise MergeError(f"{report.name}: neither JSON, SARIF nor JUnit XML") from None
    if isinstance(data, dict) and "runs" in data and str(data.get("version")) == "2.1.0":
        return "sarif"
    if isinstance(data, list) or (isinstance(data, dict) and "models" in data):
        return "json"
    raise MergeError(f"{report.name}: a JSON object that is neither SARIF nor a smoke report")


def merge_reports(reports: Sequence[Report], report_format: str | None = None) -> str:
    """The merged report of ``reports``, in their format (or ``report_format``)."""
    if not reports:
        raise MergeError("no report to merge")
    formats = {report.name: detect_format(report) for report in reports}
    wanted = report_format or formats[reports[0].name]
    for name, found in formats.items():
        if found != wanted:
            raise MergeError(f"{name} is a {found} report, not {wanted}")
    if wanted == "junit":
        return _merge_junit(reports)
    loaded = [json.loads(report.text.lstrip("\ufeff")) for report in reports]
    try:
        if wanted == "sarif":
            return json_text(_merge_sarif(loaded))
        return json_text(_merge_json(reports, loaded))
    except (AttributeError, KeyError, TypeError, ValueError) as error:
        raise MergeError(
            f"a {wanted} report is not in the shape tritonlint writes: {error!r}"
        ) from None


# -- JSON --------------------------------------------------------------------------------------


def _merge_json(reports: Sequence[Report], loaded: Sequence[Any]) -> Any:
    arrays = [isinstance(data, list) for data in loaded]
    if all(arrays):
        merged: list[Any] = []
        seen: set[str] = set()
        for data in loaded:
            for item in data:
                key = json.dumps(item, sort_keys=True)
                if key not in seen:
                    seen.add(key)
                    merged.append(item)
        return merged
    if any(arrays):
        names = [r.name for r, array in zip(reports, arrays, strict=True) if array]
        raise MergeError(
            f"{names[0]} is an array of findings and the others smoke reports: merge one kind"
        )
    return _merge_smoke(reports, loaded)


def _merge_smoke(reports: Sequence[Report], loaded: Sequence[dict[str, Any]]) -> dict[str, Any]:
    shares: dict[int, str] = {}
    totals: set[int] = set()
    of = 0
    for report, data in zip(reports, loaded, strict=True):
        share = data.get("share")
        if share is None:
            continue
        index, total = int(share["index"]), int(share["total"])
        if index in shares:
            raise MergeError(f"{shares[index]} and {report.name} are both share {index}/{total}")
        shares[index] = report.name
        totals.add(total)
        of = max(of, int(share["of"]))
    if len(totals) > 1:
        raise MergeError(
            "the reports are shares of different numbers of shares: "
            + ", ".join(str(t) for t in sorted(totals))
        )
    first = loaded[0]
    models = [model for data in loaded for model in data.get("models", [])]
    flags: dict[str, list[str]] = {}
    for data in loaded:
        for flag, names in data.get("flags_needed", {}).items():
            flags.setdefault(flag, []).extend(names)
    merged: dict[str, Any] = {
        "repository": first.get("repository"),
        "server": first.get("server"),
        "share": _merged_share(shares, totals, len(models), of),
        "ok": all(bool(data.get("ok")) for data in loaded),
        "seconds": max(float(data.get("seconds", 0)) for data in loaded),
        "models": models,
        "python_models_ran_model_py": [
            name for data in loaded for name in data.get("python_models_ran_model_py", [])
        ],
        "flags_needed": flags,
        "findings": [finding for data in loaded for finding in data.get("findings", [])],
    }
    extra = {key: value for key, value in first.items() if key not in merged}
    return {**merged, **extra}


def _merged_share(
    shares: dict[int, str], totals: set[int], models: int, of: int
) -> dict[str, Any] | None:
    """Which shares were merged, which are missing, and how many of the models they hold."""
    if not shares:
        return None
    total = totals.pop()
    missing = [index for index in range(1, total + 1) if index not in shares]
    return {
        "merged": sorted(shares),
        "missing": missing,
        "total": total,
        "models": models,
        "of": of,
    }


# -- SARIF -------------------------------------------------------------------------------------


def _tool(run: dict[str, Any]) -> tuple[str, str]:
    driver = run.get("tool", {}).get("driver", {})
    return str(driver.get("name", "")), str(driver.get("version", ""))


def _merge_sarif(loaded: Sequence[dict[str, Any]]) -> dict[str, Any]:
    runs: dict[tuple[str, str], dict[str, Any]] = {}
    for log in loaded:
        for run in log.get("runs", []):
            tool = _tool(run)
            if tool not in runs:
                base = copy.deepcopy(run)
                base["results"], base["artifacts"], base["invocations"] = [], [], []
                runs[tool] = base
            _add_run(runs[tool], run)
            runs[tool]["invocations"] += copy.deepcopy(run.get("invocations", []))
    for run in runs.values():
        for key in ("artifacts", "invocations"):
            if not run[key]:
                del run[key]
    log = {key: value for key, value in loaded[0].items() if key != "runs"}
    return {**log, "runs": list(runs.values())}


def _add_run(merged: dict[str, Any], run: dict[str, Any]) -> None:
    """Add ``run``'s results and artifacts to ``merged`` (a run of the same tool)."""
    bases = merged.get("originalUriBaseIds", {})
    own = run.get("originalUriBaseIds", {})
    absolute = {
        name: value["uri"]
        for name, value in own.items()
        if "uri" in value and bases.get(name, {}).get("uri") != value["uri"]
    }
    keys = [_artifact_key(a.get("location", {}), absolute) for a in run.get("artifacts", [])]
    known = [_artifact_key(a.get("location", {}), {}) for a in merged["artifacts"]]
    renumber: dict[int, int] = {}
    for number, (artifact, key) in enumerate(zip(run.get("artifacts", []), keys, strict=True)):
        if key in known:
            renumber[number] = known.index(key)
            continue
        artifact = copy.deepcopy(artifact)
        _rebase(artifact, absolute, {})
        renumber[number] = len(merged["artifacts"])
        merged["artifacts"].append(artifact)
        known.append(key)
    for result in run.get("results", []):
        result = copy.deepcopy(result)
        _rebase(result, absolute, renumber)
        merged["results"].append(result)


def _artifact_key(location: dict[str, Any], absolute: dict[str, str]) -> str:
    base = location.get("uriBaseId")
    if base in absolute:
        return absolute[base] + str(location.get("uri", ""))
    return f"{base or ''}|{location.get('uri', '')}"


def _rebase(node: Any, absolute: dict[str, str], renumber: dict[int, int]) -> None:
    """Every artifact location in ``node``: its index renumbered, its path made absolute where
    its ``uriBaseId`` is resolved otherwise than in the merged run."""
    if isinstance(node, list):
        for item in node:
            _rebase(item, absolute, renumber)
        return
    if not isinstance(node, dict):
        return
    for key, value in node.items():
        if key in ("artifactLocation", "location") and isinstance(value, dict):
            if isinstance(value.get("index"), int) and value["index"] in renumber:
                value["index"] = renumber[value["index"]]
            base = value.get("uriBaseId")
            if base in absolute and "uri" in value:
                value["uri"] = absolute[base] + value["uri"]
                del value["uriBaseId"]
        _rebase(value, absolute, renumber)


# -- JUnit -------------------------------------------------------------------------------------

_COUNTS = ("tests", "failures", "errors", "skipped")


def _merge_junit(reports: Sequence[Report]) -> str:
    root = ET.Element("testsuites")
    totals = dict.fromkeys(_COUNTS, 0)
    seconds = 0.0
    for report in reports:
        try:
            top = ET.fromstring(report.text.lstrip("\ufeff"))
        except ET.ParseError as error:
            raise MergeError(f"{report.name}: not well-formed XML ({error})") from None
        if top.tag == "testsuite":
            suites = [top]
        elif top.tag == "testsuites":
            suites = top.findall("testsuite")
            root.attrib.setdefault("name", top.get("name", ""))
        else:
            raise MergeError(f"{report.name}: not a JUnit report (its root is <{top.tag}>)")
        for suite in suites:
            for count in _COUNTS:
                totals[count] += _number(suite, count, report)
            seconds += float(suite.get("time") or 0)
            root.append(suite)
    if not root.get("name"):
        root.attrib.pop("name", None)
    for count, value in totals.items():
        root.set(count, str(value))
    root.set("time", f"{seconds:g}")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode")


def _number(suite: ET.Element, count: str, report: Report) -> int:
    text = suite.get(count)
    if text is None and count == "tests":
        return len(suite.findall("testcase"))
    if text is None:
        return 0
    try:
        return int(text)
    except ValueError:
        raise MergeError(f"{report.name}: {count}={text!r} is not a number") from None
