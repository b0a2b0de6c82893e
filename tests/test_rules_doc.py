"""docs/rules.md is generated from the registry and must not go stale."""

from __future__ import annotations

from pathlib import Path

import pytest

from tritonlint.cli import main
from tritonlint.report.rules_doc import render_rules_doc
from tritonlint.rules.registry import all_rules

DOC = Path(__file__).resolve().parents[1] / "docs" / "rules.md"


def test_docs_rules_md_is_up_to_date() -> None:
    assert DOC.read_text(encoding="utf-8") == render_rules_doc(), (
        "docs/rules.md is stale: run `tritonlint rules --markdown > docs/rules.md`"
    )


def test_every_rule_has_a_section_with_examples_and_releases() -> None:
    text = render_rules_doc()
    for rule in all_rules():
        section = text.split(f"## {rule.code} {rule.name}\n", 1)[1].split("\n## ", 1)[0]
        assert "Bad:" in section and "Good:" in section
        assert rule.bad in section and rule.good in section
        assert "Applies to " in section
        if rule.server_message:
            assert rule.server_message in section


def test_rules_markdown_command_prints_the_document(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--markdown"]) == 0
    assert capsys.readouterr().out == render_rules_doc()
