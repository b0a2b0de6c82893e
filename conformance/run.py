"""Judge every model of a set on the real server, lint the same files, and pair the results."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from conformance.corpus import CorpusRepository
from tritonlint.diagnostics import Diagnostic
from tritonlint.tritonserver import Judge, PythonPlaceholders, TritonInstall, Verdict

#: Per-load limit: a load that takes longer is a hang (the harness restarts the server).
LOAD_TIMEOUT_S = 60.0
REPO_MARK = "<repo>"
JUDGE_MARK = "<judge>"
_JUDGE_DIR = re.compile(r"[^\s'\"]*tritonlint-judge-[\w-]+")


@dataclass(frozen=True)
class Finding:
    """One linter finding inside a model folder, its paths written relative to ``<repo>``."""

    code: str
    name: str
    severity: str
    message: str
    location: str

    @property
    def is_error(self) -> bool:
        return self.severity == "error"


@dataclass(frozen=True)
class ModelRecord:
    """The server's verdict on one model and the linter's findings inside its folder."""

    repository: CorpusRepository
    model: str
    loaded: bool
    status: str
    server_message: str
    adjustments: tuple[str, ...]
    findings: tuple[Finding, ...]

    @property
    def label(self) -> str:
        return self.repository.model_label(self.model)

    @property
    def errors(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.is_error)


@dataclass
class SetRun:
    name: str
    records: list[ModelRecord] = field(default_factory=list)
    judge_seconds: float = 0.0
    lint_seconds: float = 0.0


def normalize(text: str, repository: Path) -> str:
    """``text`` with the repository's (temporary) location written ``<repo>``."""
    for form in sorted({str(repository), str(repository.resolve())}, key=len, reverse=True):
        text = text.replace(form, REPO_MARK)
    # The judge's temporary backend folder (named in "searched: ..." lists).
    text = _JUDGE_DIR.sub(JUDGE_MARK, text)
    return text.rstrip()


def findings_by_model(
    repository: CorpusRepository, diagnostics: Iterable[Diagnostic]
) -> dict[str, list[Finding]]:
    """The findings whose path lies inside each model folder of ``repository``."""
    found: dict[str, list[Finding]] = {model: [] for model in repository.models}
    root = repository.path.resolve()
    for diagnostic in diagnostics:
        path = Path(diagnostic.path).resolve()
        if not path.is_relative_to(root) or path == root:
            continue
        model = path.relative_to(root).parts[0]
        if model not in found:
            continue
        where = normalize(str(path), repository.path)
        if diagnostic.span is not None:
            where += f":{diagnostic.span.line}:{diagnostic.span.column}"
        found[model].append(
            Finding(
                code=diagnostic.code,
                name=diagnostic.name,
                severity=diagnostic.severity.value,
                message=normalize(diagnostic.message, repository.path),
                location=where,
            )
        )
    return found


def lint_repositories(
    repositories: list[CorpusRepository], triton_version: str | None = None
) -> dict[str, dict[str, list[Finding]]]:
    """Lint each repository as a whole (default options but the release); findings by model."""
    from tritonlint.engine import LintOptions, lint_paths

    options = LintOptions(triton_version=triton_version)
    result: dict[str, dict[str, list[Finding]]] = {}
    for repository in repositories:
        path = repository.path
        diagnostics = lint_paths([path], options, repositories=[path]).diagnostics
        result[repository.label] = findings_by_model(repository, diagnostics)
    return result


def judge_set(
    name: str,
    repositories: list[CorpusRepository],
    install: TritonInstall | None = None,
    *,
    triton_version: str | None = None,
    progress: Callable[[str], None] | None = None,
) -> SetRun:
    """Judge every repository (a fresh server each), then lint them; one record per model."""
    run = SetRun(name)
    started = time.monotonic()
    verdicts: dict[str, dict[str, Verdict]] = {}
    # Python models whose model files are empty placeholders (the corpus copies no code) are
    # served by the native stub: the real python backend would refuse the empty model.py, a
    # fault of the corpus and not of the config. A python model with no model.py at all still
    # goes to the real python backend, which refuses it.
    with Judge(
        install,
        python_placeholders=PythonPlaceholders.NATIVE,
        load_timeout=LOAD_TIMEOUT_S,
    ) as judge:
        for index, repository in enumerate(repositories, 1):
            verdicts[repository.label] = judge.judge(repository.path)
            if progress is not None:
                progress(f"{name}: {index}/{len(repositories)} {repository.label}")
    run.judge_seconds = time.monotonic() - started

    started = time.monotonic()
    findings = lint_repositories(repositories, triton_version)
    run.lint_seconds = time.monotonic() - started

    for repository in repositories:
        judged = verdicts[repository.label]
        for model in repository.models:
            verdict = judged.get(model)
            if verdict is None:  # the harness judges every model folder; never expected
                raise RuntimeError(f"no verdict for {repository.model_label(model)}")
            run.records.append(
                ModelRecord(
                    repository=repository,
                    model=model,
                    loaded=verdict.loaded,
                    status=verdict.status.value,
                    server_message=normalize(verdict.message, repository.path),
                    adjustments=verdict.adjustments,
                    findings=tuple(findings[repository.label][model]),
                )
            )
    run.records.sort(key=lambda r: r.label)
    return run
