"""The lint pipeline: paths → repositories → rules → sorted diagnostics."""

from __future__ import annotations

import gc
import multiprocessing
import os
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from tritonlint.dependencies import composing_model_failures
from tritonlint.diagnostics import Diagnostic, RelatedLocation, Severity
from tritonlint.document import ConfigDocument
from tritonlint.repository.model import ModelFolder, Repository, WalkProblem
from tritonlint.repository.walker import Source, iter_target_models, plan, read
from tritonlint.rules.context import ModelContext, RepositoryContext
from tritonlint.rules.registry import Rule, all_rules, by_name
from tritonlint.schema.releases import load_schema
from tritonlint.settings import PathPatterns, rule_matches
from tritonlint.suppression import FileSuppressions, apply_suppressions, read_suppressions


@dataclass(frozen=True)
class LintOptions:
    #: Codes, code prefixes or rule names to report (empty: all rules).
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

    def enabled(self, rule: Rule) -> bool:
        def matches(patterns: Iterable[str]) -> bool:
            return any(rule_matches(p, rule.code, rule.name) for p in patterns)

        if self.select and not matches(self.select) and not matches(self.extend_select):
            return False
        return not matches(self.ignore)

    def severity_of(self, diagnostic: Diagnostic) -> Severity:
        """The configured severity of a finding: the most specific matching key decides."""
        best: tuple[int, Severity] | None = None
        for key, level in self.severity.items():
            if rule_matches(key, diagnostic.code, diagnostic.name):
                specificity = len(diagnostic.code) if key == diagnostic.name else len(key)
                if best is None or specificity > best[0]:
                    best = (specificity, level)
        return diagnostic.severity if best is None else best[1]


@dataclass
class LintResult:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    models_checked: int = 0
    triton_version: str = ""
    #: What was checked: each model folder (a loose config file: the file), sorted.
    checked: list[Path] = field(default_factory=list)


def _walk_diagnostics(problems: Iterable[WalkProblem]) -> Iterable[Diagnostic]:
    for problem in problems:
        yield by_name(problem.rule).diagnostic(problem.message, problem.path)


def _document_diagnostics(document: ConfigDocument) -> Iterable[Diagnostic]:
    for problem in document.problems:
        related = tuple(
            RelatedLocation(path=document.path, span=span, message=message)
            for span, message in problem.related
        )
        yield by_name(problem.rule).diagnostic(
            problem.message, document.path, problem.span, related
        )


def _model_diagnostics(
    repository: Repository, model: ModelFolder, rules: list[Rule]
) -> Iterable[Diagnostic]:
    if model.config is not None:
        yield from _document_diagnostics(model.config)
    context = ModelContext(repository, model)
    for rule in rules:
        if rule.check is not None:
            yield from map(rule.from_finding, rule.check(context))


def _repository_diagnostics(repository: Repository, rules: list[Rule]) -> Iterable[Diagnostic]:
    yield from _walk_diagnostics(repository.problems)
    if repository.whole:
        whole = RepositoryContext(repository)
        for rule in rules:
            if rule.repository_check is not None:
                yield from map(rule.from_finding, rule.repository_check(whole))
    # Context models are checked too (their findings are not reported) so that an ensemble
    # learns whether the models it runs would load.
    per_model = {
        model.path: list(_model_diagnostics(repository, model, rules))
        for model in repository.models
    }
    for model in iter_target_models(repository):
        yield from per_model[model.path]
    yield from composing_model_failures(repository, per_model)


@contextmanager
def _without_cycle_collection() -> Iterator[None]:
    """Pause the cyclic garbage collector while the pipeline builds its trees.

    Parsing creates many small objects that live until the run ends and form no cycles;
    the collector would scan them again and again (it tripled the time of a large run).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def lint_paths(paths: Sequence[Path], options: LintOptions | None = None) -> LintResult:
    """Lint repositories, model folders and config files; never raises for bad input."""
    with _without_cycle_collection():
        return _lint(paths, options or LintOptions())


def _lint(paths: Sequence[Path], options: LintOptions) -> LintResult:
    schema = load_schema(options.triton_version)
    rules = all_rules()
    sources, unusable = plan(paths)
    excluded = PathPatterns(options.exclude, options.root)
    found: list[Diagnostic] = list(_walk_diagnostics(unusable))
    checked: list[Path] = []
    lint_one = partial(_lint_source, release=schema.release, options=options)
    for source_found, source_checked in _map(lint_one, sources):
        found.extend(source_found)
        checked.extend(source_checked)
    reported = _filter(found, rules, options, excluded)
    unique = {d.model_dump_json(): d for d in reported}
    ordered = sorted(unique.values(), key=lambda d: d.sort_key)
    return LintResult(ordered, len(checked), schema.release, sorted(checked))


def _lint_source(
    source: Source, *, release: str, options: LintOptions
) -> tuple[list[Diagnostic], list[Path]]:
    """Read one repository (or loose file), run every rule, apply its suppressions."""
    schema = load_schema(release)
    rules = all_rules()
    repository = read(source, schema)
    _exclude_targets(repository, PathPatterns(options.exclude, options.root))
    found = list(_repository_diagnostics(repository, rules))
    checked: list[Path] = []
    suppressions: list[FileSuppressions] = []
    for model in iter_target_models(repository):
        loose = repository.root is None and model.config is not None
        checked.append(model.config.path if loose and model.config else model.path)
        if model.config is not None:
            folder = None if repository.root is None else model.path
            not_run = _rules_not_run(repository, ModelContext(repository, model), rules)
            suppressions.append(read_suppressions(model.config, folder, not_run))
    return apply_suppressions(found, suppressions), checked


#: Below this many repositories a run stays in one process: starting workers costs more.
_PARALLEL_FROM = 16


def _map(
    work: Callable[[Source], tuple[list[Diagnostic], list[Path]]], sources: list[Source]
) -> Iterable[tuple[list[Diagnostic], list[Path]]]:
    """``work`` over the sources: in worker processes when there are many, else here.

    Repositories are independent, so each is read and checked whole by one worker, which
    returns only its findings. Workers are forked (cheap, and they inherit the loaded parser
    and schemas); where forking is unsafe or unavailable, or ``TRITONLINT_JOBS=1``, the run
    stays in this process.
    """
    jobs = int(os.environ.get("TRITONLINT_JOBS", "0") or 0) or (os.cpu_count() or 1)
    forkable = "fork" in multiprocessing.get_all_start_methods()
    if jobs < 2 or len(sources) < _PARALLEL_FROM or not forkable or threading.active_count() > 1:
        return map(work, sources)
    context = multiprocessing.get_context("fork")
    chunk = max(1, len(sources) // (jobs * 16))
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        return list(pool.map(work, sources, chunksize=chunk))


def _rules_not_run(repository: Repository, model: ModelContext, rules: list[Rule]) -> list[str]:
    """Codes of rules that did not look at ``model``: a suppression of them is not "unused"."""
    codes = [] if repository.whole else [r.code for r in rules if r.repository_check]
    if model.has_config_errors:  # checks of the content skip a config with errors
        codes += [r.code for r in rules if r.check is not None]
    return codes


def _exclude_targets(repository: Repository, excluded: PathPatterns) -> None:
    """Make the excluded models context only: not checked, still seen by their neighbours."""
    if not excluded:
        return
    for model in repository.models:
        config = model.config.path if repository.root is None and model.config else None
        if excluded.match(model.path) or (config is not None and excluded.match(config)):
            repository.targets.discard(model.path)


def _filter(
    found: Iterable[Diagnostic], rules: list[Rule], options: LintOptions, excluded: PathPatterns
) -> Iterable[Diagnostic]:
    """The findings to report, with their configured severity: select, ignore, per-file
    ignores and exclude applied."""
    enabled = {rule.code for rule in rules if options.enabled(rule)}
    per_file = {
        pattern: PathPatterns([pattern], options.root) for pattern in options.per_file_ignores
    }
    for diagnostic in found:
        if diagnostic.code not in enabled or excluded.match(diagnostic.path):
            continue
        if any(
            patterns.match(diagnostic.path)
            and any(
                rule_matches(c, diagnostic.code, diagnostic.name)
                for c in options.per_file_ignores[pattern]
            )
            for pattern, patterns in per_file.items()
        ):
            continue
        severity = options.severity_of(diagnostic)
        if severity is not diagnostic.severity:
            diagnostic = diagnostic.model_copy(update={"severity": severity})
        yield diagnostic
