"""The rule registry: every rule's code, name, severity and documentation, and its check.

Rules of the syntax and schema packs are reported by those stages (they are *declared*
here, with their documentation); every other rule is a small function registered with
:func:`rule` that looks at one model and yields findings.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from tritonlint.diagnostics import Applicability, Diagnostic, Fix, RelatedLocation, Severity
from tritonlint.schema.source_map import Path as FieldPath
from tritonlint.span import Span
from tritonlint.stage_rules import StageRule

if TYPE_CHECKING:
    from tritonlint.rules.context import ModelContext, RepositoryContext


class Finding(NamedTuple):
    """What a check yields: a message about a place. The registry adds code and severity."""

    message: str
    path: Path
    span: Span | None = None
    related: tuple[RelatedLocation, ...] = ()
    #: Edits that resolve the finding, for ``--fix`` and the editor's code actions.
    fixes: tuple[Fix, ...] = ()
    #: The field of the model's config the finding is about (None: a file or folder).
    field: FieldPath | None = None


class FixAvailability(str, Enum):
    """How often a rule's findings carry a fix."""

    #: Every finding of the rule carries one.
    ALWAYS = "always"
    #: Some findings do (where the rule can tell what was meant, and where it can be written).
    SOMETIMES = "sometimes"


class FixDeclaration(NamedTuple):
    """What a rule declares about its fixes: how often, and how safe they are."""

    availability: FixAvailability
    #: The applicabilities its fixes have (both, where it depends on the finding).
    applicability: frozenset[Applicability]

    def describe(self) -> str:
        """``sometimes available (safe)``, as a rule's documentation says it."""
        kinds = " or ".join(a.value for a in Applicability if a in self.applicability)
        return f"{self.availability.value} available ({kinds})"


def fixable(availability: FixAvailability, *applicability: Applicability) -> FixDeclaration:
    """The fix declaration of a rule whose findings carry fixes of these applicabilities."""
    if not applicability:
        raise ValueError("a fixable rule names the applicability of its fixes")
    return FixDeclaration(availability, frozenset(applicability))


Check = Callable[["ModelContext"], Iterable[Finding]]
RepositoryCheck = Callable[["RepositoryContext"], Iterable[Finding]]


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    severity: Severity
    pack: str
    summary: str
    #: The explanation and the bad and good examples, indented as written in the rule's
    #: module; dedented when first read (a lint reads none of them).
    written: tuple[str, str, str]
    #: What tritonserver logs when it refuses a model for this reason, where it does.
    server_message: str | None = None
    check: Check | None = None
    repository_check: RepositoryCheck | None = None
    #: Checked by the backend itself (not by the server's core): a server that runs a
    #: stand-in for the backend cannot confirm it; the smoke stage with the real one can.
    backend_check: bool = False
    #: A ModelConfig field the rule is about, where only some releases have it.
    requires_field: str | None = None
    #: Not in the default set: reported only where ``select`` or ``extend-select`` names it
    #: (by code, prefix, name or ``ALL``). For advice that correct configs often do not take.
    opt_in: bool = False
    #: Whether and how the rule's findings carry fixes (None: they never do).
    fix: FixDeclaration | None = None

    @cached_property
    def explanation(self) -> str:
        return inspect.cleandoc(self.written[0])

    @cached_property
    def bad(self) -> str:
        return inspect.cleandoc(self.written[1])

    @cached_property
    def good(self) -> str:
        return inspect.cleandoc(self.written[2])

    def diagnostic(
        self,
        message: str,
        path: Path,
        span: Span | None = None,
        related: tuple[RelatedLocation, ...] = (),
        fixes: tuple[Fix, ...] = (),
    ) -> Diagnostic:
        return Diagnostic(self.code, self.name, self.severity, message, path, span, related, fixes)

    def from_finding(self, finding: Finding) -> Diagnostic:
        return self.diagnostic(
            finding.message, finding.path, finding.span, finding.related, finding.fixes
        )


_BY_CODE: dict[str, Rule] = {}
_BY_NAME: dict[str, Rule] = {}


def _documented(
    code: str,
    name: str,
    severity: Severity,
    pack: str,
    text: tuple[str, str, str, str],
    server_message: str | None,
    check: Check | None = None,
    repository_check: RepositoryCheck | None = None,
    backend_check: bool = False,
    requires_field: str | None = None,
    opt_in: bool = False,
    fix: FixDeclaration | None = None,
) -> Rule:
    """A rule with its documentation: summary, explanation, bad and good examples."""
    summary, explanation, bad, good = text
    rule = Rule(
        code,
        name,
        severity,
        pack,
        summary,
        (explanation, bad, good),
        server_message,
        check,
        repository_check,
        backend_check,
        requires_field,
        opt_in,
        fix,
    )
    if rule.code in _BY_CODE or rule.name in _BY_NAME:
        raise ValueError(f"rule {rule.code} {rule.name} is registered twice")
    _BY_CODE[rule.code] = rule
    _BY_NAME[rule.name] = rule
    return rule


def _pack_of(check: Callable[..., object]) -> str:
    return check.__module__.rsplit(".", 1)[-1]


def declare(
    code: str,
    stage_rule: StageRule,
    severity: Severity,
    *,
    pack: str,
    summary: str,
    explanation: str,
    bad: str,
    good: str,
    server_message: str | None = None,
    fix: FixDeclaration | None = None,
) -> Rule:
    """Register a rule whose findings a pipeline stage (syntax, schema, walker) reports."""
    text = (summary, explanation, bad, good)
    return _documented(code, stage_rule.value, severity, pack, text, server_message, fix=fix)


def rule(
    code: str,
    name: str,
    severity: Severity,
    *,
    summary: str,
    explanation: str,
    bad: str,
    good: str,
    server_message: str | None = None,
    backend_check: bool = False,
    requires_field: str | None = None,
    opt_in: bool = False,
    fix: FixDeclaration | None = None,
) -> Callable[[Check], Check]:
    """Register a check function as a rule; its pack is the module it is defined in.

    ``opt_in``: the rule is not in the default set (see :attr:`Rule.opt_in`). ``fix``: how
    its findings carry fixes (see :func:`fixable`).
    """

    def register(check: Check) -> Check:
        text = (summary, explanation, bad, good)
        _documented(
            code,
            name,
            severity,
            _pack_of(check),
            text,
            server_message,
            check=check,
            backend_check=backend_check,
            requires_field=requires_field,
            opt_in=opt_in,
            fix=fix,
        )
        return check

    return register


def repository_rule(
    code: str,
    name: str,
    severity: Severity,
    *,
    summary: str,
    explanation: str,
    bad: str,
    good: str,
    server_message: str | None = None,
    fix: FixDeclaration | None = None,
) -> Callable[[RepositoryCheck], RepositoryCheck]:
    """Register a check that looks at a repository as a whole, not at one model."""

    def register(check: RepositoryCheck) -> RepositoryCheck:
        text = (summary, explanation, bad, good)
        pack = _pack_of(check)
        _documented(
            code, name, severity, pack, text, server_message, repository_check=check, fix=fix
        )
        return check

    return register


def all_rules() -> list[Rule]:
    _load_packs()
    return sorted(_BY_CODE.values(), key=lambda r: r.code)


def by_code(code: str) -> Rule | None:
    _load_packs()
    return _BY_CODE.get(code.upper())


def by_name(name: str) -> Rule | None:
    _load_packs()
    return _BY_NAME.get(name)


def by_stage(stage_rule: StageRule) -> Rule:
    """The rule a pipeline stage reports its problems of this kind under."""
    _load_packs()
    return _BY_NAME[stage_rule.value]


def _load_packs() -> None:
    # Importing the packs registers their rules.
    from tritonlint.rules import packs  # noqa: F401
