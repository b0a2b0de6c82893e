"""Conformance of the linter with the real server, over the shared corpus and the fixtures.

``python -m conformance``, run from the repository root, judges every model of each set on a
real tritonserver (:mod:`tritonlint.tritonserver`), lints the same files, and reports, per set, the
refusals the linter flags (*detected*), those it does not (*missed*), the models the server
loads but the linter calls wrong (*false errors*), the refusals that depend on the environment,
and how often the predicted message matches the server's. See :mod:`conformance.classify` for
the rules.

A development tool of this repository, not part of the installed package: it reads the shared
corpus beside the checkout and the checkout's fixtures, and uses only the public API of
``tritonlint`` (the engine, the rule registry and message templates, and the server judge).
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from conformance.classify import Classified, Match, Outcome, classify_records
from conformance.corpus import DEFAULT_CORPUS, FIXTURES, SETS, build_sets
from conformance.report import Summary, render_gaps, render_markdown, summarize
from conformance.run import SetRun, judge_set
from tritonlint.tritonserver import TritonInstall, provision

__all__ = [
    "DEFAULT_CORPUS",
    "SETS",
    "Classified",
    "ConformanceRun",
    "Match",
    "Outcome",
    "Summary",
    "run_conformance",
]


@dataclass
class ConformanceRun:
    server_version: str
    lint_options: str
    runs: dict[str, SetRun] = field(default_factory=dict)
    results: dict[str, list[Classified]] = field(default_factory=dict)
    build_seconds: float = 0.0

    def summary(self, name: str) -> Summary:
        return summarize(name, self.results[name])

    def summaries(self) -> list[Summary]:
        return [self.summary(name) for name in self.results]

    def markdown(self) -> str:
        return render_markdown(
            self.results,
            server=self.server_version,
            lint_options=self.lint_options,
        )

    def gaps(self) -> str:
        return render_gaps(self.results)


def run_conformance(
    sets: tuple[str, ...] = SETS,
    corpus: Path = DEFAULT_CORPUS,
    *,
    install: TritonInstall | None = None,
    fixtures: Path = FIXTURES,
    triton_version: str | None = "server",
    progress: Callable[[str], None] | None = None,
    work: Path | None = None,
) -> ConformanceRun:
    """Judge, lint and classify every model of ``sets``.

    ``triton_version`` is the release the linter checks against: ``"server"`` (the default) is
    the judge's own release, ``None`` the linter's default (the newest shipped schema).
    """
    install = install or provision()
    release = install.version if triton_version == "server" else triton_version
    options = "default options"
    if release == install.version:
        options += f" and `--triton-version {release}` (the judge's release)"
    elif release:
        options += f" and `--triton-version {release}`"
    conformance = ConformanceRun(server_version=install.version, lint_options=options)
    own_work = work is None
    work = work or Path(tempfile.mkdtemp(prefix="tritonlint-conformance-"))
    try:
        started = time.monotonic()
        built = build_sets(sets, corpus, work, fixtures)
        conformance.build_seconds = time.monotonic() - started
        for name, repositories in built.items():
            run = judge_set(name, repositories, install, triton_version=release, progress=progress)
            conformance.runs[name] = run
            conformance.results[name] = classify_records(run.records)
    finally:
        if own_work:
            shutil.rmtree(work, ignore_errors=True)
    return conformance
