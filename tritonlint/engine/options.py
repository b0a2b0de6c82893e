"""What a check is asked for: the target release, and which findings to report and how; and
how a settings file and what a front end was told (the command line's options, the editor's
settings) make them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from tritonlint.diagnostics import Diagnostic, Severity
from tritonlint.rules.base import Rule
from tritonlint.rules.registry import all_rules
from tritonlint.selection import PathPatterns, rule_matches
from tritonlint.settings import Settings


@dataclass(frozen=True)
class LintOptions:
    """Options of a check, as values (reading settings files is the front end's job)."""

    #: Codes, code prefixes or rule names to report (empty: the default set, every rule that
    #: is not opt-in; ``ALL``: every rule).
    select: tuple[str, ...] = ()
    #: Codes, code prefixes or rule names not to report (this wins over the selections).
    ignore: tuple[str, ...] = ()
    #: The Triton release the repository targets (default: the newest schema shipped).
    triton_version: str | None = None
    #: Codes, code prefixes or rule names to report besides ``select``.
    extend_select: tuple[str, ...] = ()
    #: Glob pattern (relative to ``root``) -> codes not reported for the paths it matches.
    per_file_ignores: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: Code, code prefix or rule name -> the severity its findings are reported with.
    severity: Mapping[str, Severity] = field(default_factory=dict)
    #: Glob patterns (relative to ``root``) of paths not to lint.
    exclude: tuple[str, ...] = ()
    #: The folder the glob patterns are relative to (None: the working directory).
    root: Path | None = None
    #: Whether a config read through a symbolic link to outside its repository is quoted in
    #: reports, and fixed, like any other (see :mod:`tritonlint.engine.outside`).
    follow_outside_links: bool = False

    def enabled(self, rule: Rule) -> bool:
        """Whether ``rule``'s findings are reported: selected (an opt-in rule only where a
        selection names it) and not ignored."""

        def matches(patterns: Iterable[str]) -> bool:
            return any(rule_matches(p, rule.code, rule.name) for p in patterns)

        named = matches(self.select) or matches(self.extend_select)
        by_default = not self.select and not rule.opt_in
        return (named or by_default) and not matches(self.ignore)

    def severity_of(self, diagnostic: Diagnostic) -> Severity:
        """The configured severity of a finding: the most specific matching key decides."""
        best: tuple[int, Severity] | None = None
        for key, level in self.severity.items():
            if rule_matches(key, diagnostic.code, diagnostic.name):
                specificity = len(diagnostic.code) if key == diagnostic.name else len(key)
                if best is None or specificity > best[0]:
                    best = (specificity, level)
        return diagnostic.severity if best is None else best[1]

    @cached_property
    def excluded(self) -> PathPatterns:
        return PathPatterns(self.exclude, self.root)

    @cached_property
    def _enabled_codes(self) -> frozenset[str]:
        return frozenset(rule.code for rule in all_rules() if self.enabled(rule))

    @cached_property
    def _per_file(self) -> list[tuple[PathPatterns, tuple[str, ...]]]:
        return [
            (PathPatterns([pattern], self.root), codes)
            for pattern, codes in self.per_file_ignores.items()
        ]

    def report(self, found: Iterable[Diagnostic]) -> Iterable[Diagnostic]:
        """The findings to report, with their configured severity: select, ignore,
        per-file ignores and exclude applied."""
        enabled = self._enabled_codes
        excluded = self.excluded
        for diagnostic in found:
            if diagnostic.code not in enabled or excluded.match(diagnostic.path):
                continue
            if any(
                patterns.match(diagnostic.path)
                and any(rule_matches(c, diagnostic.code, diagnostic.name) for c in codes)
                for patterns, codes in self._per_file
            ):
                continue
            yield diagnostic.with_severity(self.severity_of(diagnostic))


def options_from_settings(
    settings: Settings,
    release: str,
    *,
    select: tuple[str, ...] | None = None,
    extend_select: tuple[str, ...] = (),
    ignore: tuple[str, ...] = (),
    follow_outside_links: bool = False,
) -> LintOptions:
    """The options of a settings file with a front end's over them (the command line's or the
    editor's): ``select`` (None: not given) replaces the file's select *and* extend-select;
    ``extend_select`` and ``ignore`` add to the file's. ``release`` is the resolved target
    release: what is done with one that cannot be resolved is the front end's choice."""
    if select is None:
        select, extend_select = settings.select, settings.extend_select + extend_select
    return LintOptions(
        select=select,
        ignore=settings.ignore + ignore,
        triton_version=release,
        extend_select=extend_select,
        per_file_ignores=settings.per_file_ignores,
        severity=settings.severity,
        exclude=settings.exclude,
        root=settings.root,
        follow_outside_links=follow_outside_links,
    )
