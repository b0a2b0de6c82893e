"""How rules declare their fixes, and how the documentation and the rules table show it."""

from __future__ import annotations

import pytest

from tritonlint.cli import main
from tritonlint.diagnostics import Applicability
from tritonlint.report.rules_doc import render_rules_doc, rule_markdown
from tritonlint.rules.base import FixAvailability, fixable
from tritonlint.rules.registry import by_code


def test_a_fix_declaration_names_its_applicability() -> None:
    with pytest.raises(ValueError, match="applicability"):
        fixable(FixAvailability.SOMETIMES)
    both = fixable(FixAvailability.SOMETIMES, Applicability.UNSAFE, Applicability.SAFE)
    assert both.describe() == "sometimes available (safe or unsafe)"
    assert fixable(FixAvailability.ALWAYS, Applicability.SAFE).describe() == (
        "always available (safe)"
    )


def test_the_documentation_of_a_rule_says_how_it_fixes() -> None:
    safe, mixed, none = by_code("TL102"), by_code("TL105"), by_code("TL401")
    assert safe is not None and mixed is not None and none is not None
    assert (
        "\nFix: sometimes available (safe); applied by `tritonlint check --fix`.\n"
        in rule_markdown(safe)
    )
    assert (
        "\nFix: sometimes available (safe or unsafe); applied by `tritonlint check --fix` "
        "(the unsafe ones with `--unsafe-fixes`).\n" in rule_markdown(mixed)
    )
    assert "\nFix: none (the findings carry no automatic fix).\n" in rule_markdown(none)


def test_the_rules_index_has_a_fix_column() -> None:
    doc = render_rules_doc()
    assert (
        "| [TL102](#tl102-wrong-value-type) | wrong-value-type | error | yes | safe | schema |"
        in doc
    )
    assert "| safe, unsafe | schema |" in doc
    assert "| [TL401](#tl401-" in doc and "| yes |  | " in doc


def test_the_rules_table_has_a_fix_column(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    header = next(line for line in out.splitlines() if " code " in line)
    names = [cell.strip() for cell in header.split("┃") if cell.strip()]
    assert names == ["code", "name", "severity", "default", "fix", "pack", "summary"]
    row = next(line for line in out.splitlines() if " TL719 " in line)
    assert " unsafe " in row
