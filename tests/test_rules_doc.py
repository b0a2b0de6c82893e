"""docs/rules.md is generated from the registry and must not go stale; links to its sections
are the anchors GitHub gives their headings."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from tritonlint.cli import main
from tritonlint.report.links import DOCUMENTATION_HOME, github_anchor, rule_url
from tritonlint.report.rules_doc import render_rules_doc
from tritonlint.rules.registry import all_rules, by_code

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

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


# --- Links to the rules' sections ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [
        ("TL101 unknown-field", "tl101-unknown-field"),
        ("Hello World", "hello-world"),
        ("Foo Bar!", "foo-bar"),
        ("snake_case stays", "snake_case-stays"),
        ("C++ and C#", "c-and-c"),
        ("a -- b", "a----b"),
        ("`code`, (parens) & dots.", "code-parens--dots"),
        ("Ünïcödé 漢字", "ünïcödé-漢字"),
    ],
)
def test_github_anchor_follows_githubs_slug_rules(heading: str, anchor: str) -> None:
    assert github_anchor(heading) == anchor


def markdown_headings(text: str) -> list[str]:
    """The text of every heading of a Markdown document, outside fenced code blocks."""
    headings, fenced = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (heading := re.match(r"#{1,6} (.+)", line)):
            headings.append(heading[1].strip())
    return headings


def test_every_rule_url_is_the_anchor_of_its_heading_in_docs_rules_md() -> None:
    text = DOC.read_text(encoding="utf-8")
    headings = markdown_headings(text)
    assert len(headings) == len(all_rules()) + 1  # the title, then one per rule
    anchors = [github_anchor(heading) for heading in headings]
    assert len(set(anchors)) == len(anchors)  # no heading gets a "-1" suffix
    for rule in all_rules():
        url, _, fragment = rule_url(rule).partition("#")
        assert url == "https://github.com/tritonlint/tritonlint/blob/main/docs/rules.md"
        assert f"{rule.code} {rule.name}" in headings
        assert fragment == github_anchor(f"{rule.code} {rule.name}")
        assert fragment in anchors
        assert f"[{rule.code}](#{fragment})" in text  # the index links to it too
    assert rule_url(by_code("TL101")) == (  # type: ignore[arg-type]
        "https://github.com/tritonlint/tritonlint/blob/main/docs/rules.md#tl101-unknown-field"
    )


def test_the_documentation_home_is_the_projects_declared_home() -> None:
    project = tomllib.loads((DOC.parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    urls = project["project"]["urls"]
    assert urls["Homepage"] == DOCUMENTATION_HOME == "https://github.com/tritonlint/tritonlint"
    assert urls["Documentation"].startswith(DOCUMENTATION_HOME + "/")
    assert urls["Issues"] == DOCUMENTATION_HOME + "/issues"
