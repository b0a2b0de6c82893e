"""What every rule is made of, and the constructors a pack module declares its rules with.

A pack module declares each rule by binding what :func:`rule`, :func:`repository_rule` or
:func:`declare` returns, a :class:`Declaration`, to a name of the module: a check function
decorated with :func:`rule` becomes the declaration of its rule. Nothing here keeps a table
of rules: the registry (``rules/registry.py``) collects each module's declarations and files
them under the pack that ``rules/packs.py`` lists the module in. So importing a pack module
registers nothing, and no pack module needs the registry.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields
from enum import Enum
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from tritonlint.diagnostics import Applicability, Diagnostic, Fix, RelatedLocation, Severity
from tritonlint.span import Span
from tritonlint.stage_rules import StageRule

#: The longest message a finding has: a message that quotes a value of a config (a name of
#: 100 KB) is cut in its middle, so that a report grows with its findings, not with them
#: times the values they quote.
MAX_MESSAGE = 2_000

if TYPE_CHECKING:
    from tritonlint.rules.context import Finding, ModelContext, RepositoryContext


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


Check = Callable[["ModelContext"], Iterable["Finding"]]
RepositoryCheck = Callable[["RepositoryContext"], Iterable["Finding"]]


@dataclass(frozen=True)
class Declaration:
    """A rule as its module declares it: everything but the pack it belongs to."""

    code: str
    name: str
    severity: Severity
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
        message = shortened(message)
        return Diagnostic(self.code, self.name, self.severity, message, path, span, related, fixes)

    def from_finding(self, finding: Finding) -> Diagnostic:
        return self.diagnostic(
            finding.message, finding.path, finding.span, finding.related, finding.fixes
        )

    def filed(self, pack: str) -> Rule:
        """This rule as the registry lists it, in ``pack``."""
        return Rule(**{item.name: getattr(self, item.name) for item in fields(self)}, pack=pack)


@dataclass(frozen=True)
class Rule(Declaration):
    """A declared rule filed under its pack: what the registry hands to everyone else."""

    #: The pack the rule belongs to (shown by ``tritonlint rules``, the rules' documentation
    #: and SARIF reports; rule selectors never name packs).
    pack: str = field(kw_only=True)


def declare(
    code: str,
    stage_rule: StageRule,
    severity: Severity,
    *,
    summary: str,
    explanation: str,
    bad: str,
    good: str,
    server_message: str | None = None,
    fix: FixDeclaration | None = None,
) -> Declaration:
    """Declare a rule whose findings a pipeline stage (the walker, the config loader, the
    parser, the binder, the suppression pass, the smoke stage, the ensemble pass) reports."""
    written = (explanation, bad, good)
    return Declaration(
        code, stage_rule.value, severity, summary, written, server_message=server_message, fix=fix
    )


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
) -> Callable[[Check], Declaration]:
    """Declare a check function as a rule: the function becomes the rule's declaration.

    ``opt_in``: the rule is not in the default set (see :attr:`Declaration.opt_in`). ``fix``:
    how its findings carry fixes (see :func:`fixable`).
    """

    def declared(check: Check) -> Declaration:
        return Declaration(
            code,
            name,
            severity,
            summary,
            (explanation, bad, good),
            server_message,
            check=check,
            backend_check=backend_check,
            requires_field=requires_field,
            opt_in=opt_in,
            fix=fix,
        )

    return declared


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
) -> Callable[[RepositoryCheck], Declaration]:
    """Declare a check that looks at a repository as a whole, not at one model, as a rule."""

    def declared(check: RepositoryCheck) -> Declaration:
        written = (explanation, bad, good)
        return Declaration(
            code, name, severity, summary, written, server_message, repository_check=check, fix=fix
        )

    return declared


def shortened(message: str) -> str:
    """``message``, cut in its middle to :data:`MAX_MESSAGE` characters if it is longer:
    ``… (98,220 characters left out) …`` stands for what is cut."""
    if len(message) <= MAX_MESSAGE:
        return message
    head, tail = MAX_MESSAGE * 2 // 3, MAX_MESSAGE // 4
    left_out = len(message) - head - tail
    return f"{message[:head]} … ({left_out:,} characters left out) … {message[-tail:]}"
