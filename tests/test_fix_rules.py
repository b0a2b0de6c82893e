"""Every rule that offers a fix, fixed by `tritonlint check --fix`: the exact bytes written, the
finding gone when checked again; and the rules that declare fixes are those that offer them.

The repositories and the bytes are the failing cases of tests/rules/cases/ that name their
fix's ``applicability`` (tests/case_files.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from case_files import Case, case_files
from helpers import codes, lint

from tritonlint.cli import main
from tritonlint.engine import LintOptions
from tritonlint.fixing import fix_paths
from tritonlint.rules.registry import all_rules

FIXTURES = Path(__file__).parent.parent / "fixtures"
#: The failing cases that `tritonlint check --fix` fixes.
FIXED = [case for file in case_files() for case in file.fail if case.applicability is not None]


def _contents(root: Path) -> dict[str, bytes]:
    """Every file under ``root``, by path relative to it, with its bytes."""
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and not path.is_symlink()
    }


@pytest.mark.parametrize("case", FIXED, ids=[case.id for case in FIXED])
def test_check_fix_applies_the_rule_s_fix(
    case: Case, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = case.build(tmp_path / "repo")
    target = root / case.lint if case.lint else root
    before = _contents(root)
    command = ["check", str(target), "--select", case.code, "--fix"]
    if "triton_version" in case.options:
        command += ["--triton-version", case.options["triton_version"]]
    assert main(command) in (0, 1)
    if case.applicability == "unsafe":  # a safe --fix leaves it, and says --unsafe-fixes would
        assert _contents(root) == before
        out = capsys.readouterr().out
        assert "hidden fix can be enabled with the `--unsafe-fixes` option" in out
        assert main([*command, "--unsafe-fixes"]) == 0
    capsys.readouterr()
    expected = dict(before)
    for source, target_path in (case.moved or {}).items():
        moved = {p: b for p, b in expected.items() if p == source or p.startswith(f"{source}/")}
        for path, content in moved.items():
            del expected[path]
            expected[target_path + path[len(source) :]] = content
    if case.checked_fix is not None:
        expected[case.file] = case.checked_fix.encode("utf-8")
    assert _contents(root) == expected
    for source in case.moved or {}:
        assert not (root / source).exists()
    assert case.code not in codes(lint(target, select=(case.code,)))


def test_the_rules_that_declare_fixes_are_those_with_a_fix_case() -> None:
    declared = {rule.code for rule in all_rules() if rule.fix is not None}
    assert declared == {case.code for case in FIXED}


@pytest.mark.parametrize("case", FIXED, ids=[case.id for case in FIXED])
def test_a_declared_fix_has_the_applicability_its_rule_declares(case: Case, tmp_path: Path) -> None:
    rule = next(r for r in all_rules() if r.code == case.code)
    assert rule.fix is not None
    root = case.build(tmp_path / "repo")
    found = lint(root, select=(case.code,)).diagnostics
    assert any(diagnostic.fixes for diagnostic in found)
    for diagnostic in found:
        for fix in diagnostic.fixes:
            assert fix.applicability in rule.fix.applicability, (case.code, fix)


def test_every_fix_found_in_the_fixtures_belongs_to_a_rule_that_declares_it() -> None:
    declared = {rule.code: rule.fix for rule in all_rules()}
    result = lint(FIXTURES / "broken", FIXTURES / "model_repository", select=("ALL",))
    offered = [(d.code, fix.applicability) for d in result.diagnostics for fix in d.fixes]
    assert offered  # the fixtures hold findings with fixes
    for code, applicability in offered:
        declaration = declared[code]
        assert declaration is not None, code
        assert applicability in declaration.applicability, code


def test_fix_paths_writes_nothing(tmp_path: Path) -> None:
    case = next(case for case in FIXED if case.code == "TL201")
    root = case.build(tmp_path / "repo")
    before = _contents(root)
    run = fix_paths([root], LintOptions(select=("TL201",)))
    assert [p.relative_to(root).as_posix() for p in run.changed] == [case.file]
    assert _contents(root) == before
