"""Every rule that offers a fix, fixed by `tritonlint check --fix`: the exact bytes written, the
finding gone when checked again; and the rules that declare fixes are those that offer them."""

from __future__ import annotations

from pathlib import Path

import pytest
from fix_cases import CASES, FixCase
from helpers import codes, lint, make_tree

from tritonlint.cli import main
from tritonlint.diagnostics import Applicability
from tritonlint.engine import LintOptions
from tritonlint.fixing import fix_paths
from tritonlint.rules.registry import all_rules

FIXTURES = Path(__file__).parent.parent / "fixtures"


@pytest.mark.parametrize("code", sorted(CASES))
def test_check_fix_applies_the_rule_s_fix(
    code: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    case: FixCase = CASES[code]
    root = make_tree(tmp_path / "repo", case.files)
    config = root / case.config
    before = config.read_bytes()
    about = config.parent if case.moved else config
    found = [d for d in lint(root, select=(code,)).diagnostics if d.path == about]
    assert found and all(d.fixes for d in found), found
    expected = Applicability.UNSAFE if case.unsafe else Applicability.SAFE
    assert found[0].fixes[0].applicability is expected

    command = ["check", str(root), "--select", code, "--fix"]
    assert main(command) in (0, 1)
    if case.unsafe:  # a safe --fix leaves it, and says --unsafe-fixes would fix it
        assert config.read_bytes() == before
        out = capsys.readouterr().out
        assert "hidden fix can be enabled with the `--unsafe-fixes` option" in out
        assert main([*command, "--unsafe-fixes"]) == 0
    capsys.readouterr()
    assert config.read_bytes() == case.fixed.encode("utf-8")
    for source, target in case.moved:
        assert not (root / source).exists() and (root / target).is_file()
    assert code not in codes(lint(root, select=(code,)))


def test_the_rules_that_declare_fixes_are_those_with_a_fix_case() -> None:
    declared = {rule.code for rule in all_rules() if rule.fix is not None}
    assert declared == set(CASES)


@pytest.mark.parametrize("code", sorted(CASES))
def test_a_declared_fix_has_the_applicability_its_rule_declares(code: str, tmp_path: Path) -> None:
    rule = next(r for r in all_rules() if r.code == code)
    assert rule.fix is not None
    root = make_tree(tmp_path / "repo", CASES[code].files)
    for diagnostic in lint(root, select=(code,)).diagnostics:
        for fix in diagnostic.fixes:
            assert fix.applicability in rule.fix.applicability, (code, fix)


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
    case = CASES["TL201"]
    root = make_tree(tmp_path / "repo", case.files)
    before = (root / case.config).read_bytes()
    run = fix_paths([root], LintOptions(select=("TL201",)))
    assert [p.name for p in run.changed] == ["config.pbtxt"]
    assert (root / case.config).read_bytes() == before
