"""The same repository at two places on disk gets the same report, in every format.

A finding's message, its related places' messages and its fixes' titles never name an absolute
path, so that a report (and the fingerprints of SARIF and GitLab, which hash the message) reads
the same on every machine and in every checkout. The repository here is every broken fixture
and the bad example of every rule that static lint runs (TL708 and TL852 among them, ensembles
with related places), all rules selected; it is copied to two folders of different names and
depths.

* Run from inside each copy on relative paths, every format is the same byte for byte, but for
  the SARIF run's ``originalUriBaseIds``, which says where the working directory is.
* Run from elsewhere on absolute paths, the reports differ only in the path column: each copy's
  path, and the GitLab fingerprints, which hash it.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from rule_examples import parse_example, written

from tritonlint.cli import main
from tritonlint.rules.registry import all_rules

ROOT = Path(__file__).resolve().parents[1]
FORMATS = ("text", "concise", "json", "sarif", "github", "junit", "gitlab")
#: What each copy holds: repositories the command searches.
TARGETS = ("broken", "examples")
_FINGERPRINT = re.compile(r'"fingerprint": "[0-9a-f]{64}"')


def _build(copy: Path) -> Path:
    shutil.copytree(
        ROOT / "fixtures" / "broken",
        copy / "broken",
        ignore=shutil.ignore_patterns("expected.txt", "README.md"),
    )
    for rule in all_rules():
        example = parse_example(rule.bad)
        if rule.pack == "smoke" or example.modes:  # (no permissions to set back afterwards)
            continue
        with written(example, copy / "examples" / rule.code):
            pass
    return copy


@pytest.fixture(scope="module")
def places(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """The tmp root, and the two copies below it."""
    root = tmp_path_factory.mktemp("places").resolve()
    return root, _build(root / "one"), _build(root / "two" / "deeper")


_REPORTS: dict[tuple[Path, tuple[str, ...], str], str] = {}


def _report(cwd: Path, paths: list[str], report_format: str) -> str:
    """The report of ``tritonlint check`` (all rules) on ``paths``, run in ``cwd`` (each run
    once: several tests compare the same reports)."""
    key = (cwd, tuple(paths), report_format)
    if key not in _REPORTS:
        capture = cwd.parent / f"report.{report_format}"
        with pytest.MonkeyPatch.context() as monkeypatch:
            monkeypatch.chdir(cwd)
            monkeypatch.setenv("COLUMNS", "100")
            monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
            status = main(
                ["check", "--select", "ALL", "--format", report_format, "--color", "never",
                 "-o", str(capture), *paths]
            )  # fmt: skip
        assert status == 1
        _REPORTS[key] = capture.read_text(encoding="utf-8")
    return _REPORTS[key]


def _without_working_directory(report: str, cwd: Path) -> str:
    """The report, the SARIF run's ``originalUriBaseIds`` (the working directory's URI) left
    out."""
    return report.replace(json.dumps(cwd.as_uri() + "/"), '"<working directory>"')


def _without_place(report: str, copy: Path) -> str:
    """The report, the copy's path in the path column written ``<copy>``, and GitLab's
    fingerprints left out.

    The path column starts a line or follows ``(``, ``=``, ``"`` or ``file://``; a path that a
    message quotes would follow a word and a space, and stays.
    """
    report = re.sub(rf"(?<! ){re.escape(str(copy))}(?=/)", "<copy>", report)
    return _FINGERPRINT.sub('"fingerprint": "<hash of the path>"', report)


def test_the_repository_triggers_the_rules_that_quoted_paths(
    places: tuple[Path, Path, Path],
) -> None:
    _, one, _ = places
    findings = json.loads(_report(one, list(TARGETS), "json"))
    codes = {finding["code"] for finding in findings}
    assert {"TL218", "TL556", "TL708", "TL804", "TL852", "TL911"} <= codes
    assert any(finding["related"] for finding in findings if finding["code"].startswith("TL7"))


@pytest.mark.parametrize("report_format", FORMATS)
def test_two_copies_report_the_same_bytes_on_relative_paths(
    places: tuple[Path, Path, Path], report_format: str
) -> None:
    _, one, two = places
    first = _report(one, list(TARGETS), report_format)
    second = _report(two, list(TARGETS), report_format)
    assert _without_working_directory(first, one) == _without_working_directory(second, two)


@pytest.mark.parametrize("report_format", FORMATS)
def test_no_report_names_the_folder_the_repository_is_in(
    places: tuple[Path, Path, Path], report_format: str
) -> None:
    root, one, _ = places
    report = _without_working_directory(_report(one, list(TARGETS), report_format), one)
    for name in (str(root), root.as_uri()):
        assert name not in report


@pytest.mark.parametrize("report_format", FORMATS)
def test_two_copies_differ_only_in_the_path_column_on_absolute_paths(
    places: tuple[Path, Path, Path], report_format: str
) -> None:
    root, one, two = places
    elsewhere = root / "elsewhere"
    elsewhere.mkdir(exist_ok=True)
    first = _report(elsewhere, [str(one / target) for target in TARGETS], report_format)
    second = _report(elsewhere, [str(two / target) for target in TARGETS], report_format)
    assert str(one) in first and str(two) in second  # the path column: absolute here
    first, second = _without_place(first, one), _without_place(second, two)
    assert first == second
    assert str(root) not in _without_working_directory(first, elsewhere)
