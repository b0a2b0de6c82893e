"""The rule registry: every rule of every pack, by code and by name.

The tables are built once, when this module is first imported, from the packs that
``rules/packs.py`` lists: a pack module's rules are the declarations bound to its names (see
``rules/base.py``). Rules of the files, syntax, schema, suppressions and smoke packs, and TL720,
are reported by pipeline stages (they are declared with their documentation like the others);
every other rule is a small check that looks at one model, or at the repository, and yields
findings.
"""

from __future__ import annotations

from types import ModuleType

from tritonlint.rules.base import Declaration, Rule
from tritonlint.rules.packs import PACKS
from tritonlint.stage_rules import StageRule


def _declarations(module: ModuleType) -> list[Declaration]:
    return [value for value in vars(module).values() if isinstance(value, Declaration)]


def _tables() -> tuple[dict[str, Rule], dict[str, Rule]]:
    """Every rule by code and by name; a code or name declared twice is a mistake."""
    by_code: dict[str, Rule] = {}
    by_name: dict[str, Rule] = {}
    for pack in PACKS:
        for module in pack.modules:
            for declaration in _declarations(module):
                rule = declaration.filed(pack.name)
                if rule.code in by_code or rule.name in by_name:
                    raise ValueError(f"rule {rule.code} {rule.name} is declared twice")
                by_code[rule.code] = rule
                by_name[rule.name] = rule
    return by_code, by_name


_BY_CODE, _BY_NAME = _tables()


def all_rules() -> list[Rule]:
    return sorted(_BY_CODE.values(), key=lambda r: r.code)


def by_code(code: str) -> Rule | None:
    return _BY_CODE.get(code.upper())


def by_name(name: str) -> Rule | None:
    return _BY_NAME.get(name)


def by_stage(stage_rule: StageRule) -> Rule:
    """The rule a pipeline stage reports its problems of this kind under."""
    return _BY_NAME[stage_rule.value]
