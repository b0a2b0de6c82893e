"""The rule registry: every rule is complete, and every rule name a stage reports exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tritonlint.diagnostics import Severity
from tritonlint.document import parse_config
from tritonlint.engine import LintOptions
from tritonlint.rules.registry import Rule, all_rules, by_code, by_name, by_stage
from tritonlint.schema.releases import load_schema
from tritonlint.stage_rules import StageRule

PACKAGE = Path(__file__).resolve().parents[1] / "tritonlint"
RULES = all_rules()
#: Packs whose rules a pipeline stage (or the smoke stage) reports, rather than a check function.
DECLARED_PACKS = {"files", "syntax", "schema", "suppressions", "smoke"}


def rule_id(rule: Rule) -> str:
    return rule.code


def test_there_are_rules_in_every_pack_under_test() -> None:
    packs = {rule.pack for rule in RULES}
    assert {"files", "syntax", "schema", "naming", "layout", "platform", "ensemble"} <= packs


def test_codes_are_unique_and_well_formed() -> None:
    codes = [rule.code for rule in RULES]
    assert len(codes) == len(set(codes))
    assert all(re.fullmatch(r"TL\d{3}", code) for code in codes), codes
    assert codes == sorted(codes)


def test_names_are_unique_kebab_case() -> None:
    names = [rule.name for rule in RULES]
    assert len(names) == len(set(names))
    bad = [name for name in names if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", name)]
    assert bad == []


def test_codes_of_a_pack_share_their_hundred() -> None:
    prefixes: dict[str, set[str]] = {}
    for rule in RULES:
        prefixes.setdefault(rule.pack, set()).add(rule.code[:3])
    assert all(len(p) == 1 for p in prefixes.values()), prefixes
    assert prefixes["files"] == prefixes["syntax"] == {"TL0"}
    assert prefixes["schema"] == {"TL1"}


@pytest.mark.parametrize("rule", RULES, ids=rule_id)
def test_rule_is_documented(rule: Rule) -> None:
    assert isinstance(rule.severity, Severity)
    summary = rule.summary
    assert summary and summary == summary.strip() and "\n" not in summary
    assert not summary.endswith("."), "the summary is a phrase; `explain` adds the full stop"
    assert len(summary) <= 100
    assert rule.explanation.strip() and rule.explanation != summary
    assert rule.bad.strip() and rule.good.strip()
    assert rule.bad != rule.good
    assert rule.pack == rule.pack.strip() and rule.pack


#: Declared rules of check packs, reported by a pipeline stage rather than a check.
PIPELINE_RULES = {"TL720"}


@pytest.mark.parametrize("rule", RULES, ids=rule_id)
def test_rule_has_exactly_the_right_kind_of_check(rule: Rule) -> None:
    if rule.pack in DECLARED_PACKS or rule.code in PIPELINE_RULES:
        assert rule.check is None and rule.repository_check is None
    else:
        assert (rule.check is None) != (rule.repository_check is None)


@pytest.mark.parametrize("rule", RULES, ids=rule_id)
def test_rule_is_found_by_code_and_name(rule: Rule) -> None:
    assert by_code(rule.code) is rule
    assert by_code(rule.code.lower()) is rule
    assert by_name(rule.name) is rule


def test_unknown_code_and_name() -> None:
    assert by_code("TL999") is None
    assert by_name("no-such-rule") is None


def test_select_and_ignore_match_codes_prefixes_and_names() -> None:
    rule = by_code("TL201")
    assert rule is not None
    assert LintOptions().enabled(rule)
    assert LintOptions(select=("TL2",)).enabled(rule)
    assert LintOptions(select=("tl201",)).enabled(rule)
    assert LintOptions(select=("name-mismatch",)).enabled(rule)
    assert not LintOptions(select=("TL1",)).enabled(rule)
    assert not LintOptions(ignore=("TL20",)).enabled(rule)
    assert not LintOptions(select=("TL2",), ignore=("TL201",)).enabled(rule)


# --- Rules reported by the pipeline stages ----------------------------------------------------


@pytest.mark.parametrize("stage_rule", list(StageRule), ids=lambda r: r.value)
def test_every_stage_rule_is_declared_in_a_declaring_pack(stage_rule: StageRule) -> None:
    rule = by_stage(stage_rule)
    assert rule.name == stage_rule.value
    assert rule.pack in DECLARED_PACKS or rule.code in PIPELINE_RULES
    assert rule.check is None and rule.repository_check is None


def test_every_declared_rule_is_a_stage_rule() -> None:
    declared = {r.name for r in RULES if r.check is None and r.repository_check is None}
    assert declared == {member.value for member in StageRule}


def test_every_problem_of_broken_configs_names_a_declared_rule() -> None:
    schema = load_schema()
    broken = [
        b"\x00\x01",
        b"caf\xe9",
        b"name: ${X}",
        b'name: "open',
        b"a {",
        b"}",
        b"@",
        b'{"json": 1}',
        b"dim: 1\nname: x\nmax_batch_size: 1.5\ninput { data_type: NOPE }",
        b"input { data_type: 99 }\nmax_batch_size: 0\nmax_batch_size: 1",
        b"max_batch_size: 1\nmax_batch_size: 2\nmax_batch_size: 4294967296",
        b"dynamic_batching {} sequence_batching {}\ninput: 1\nname { }",
        b'parameters { key: "a" } parameters { key: "a" }\n[ext]: 1',
        b"max_batch_size [ 1 ]",
    ]
    rules = set()
    for data in broken:
        document = parse_config(Path("config.pbtxt"), data, schema)
        assert document.problems, data
        rules.update(problem.rule for problem in document.problems)
    assert all(isinstance(rule, StageRule) for rule in rules)
    assert len(rules) >= 14
