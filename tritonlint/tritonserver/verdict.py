"""Ask the real server, model by model, whether it loads a repository::

    verdicts = judge_repository(Path("model_repository"))
    verdicts["resnet"].loaded, verdicts["resnet"].message

Each repository is staged in a temporary copy (see :mod:`tritonlint.tritonserver.prepare`) and
served by a fresh server of its own; models are loaded one at a time, ensembles after the models
they use. A server that dies during a load is restarted and the load tried once more.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from tritonlint.tritonserver import logs
from tritonlint.tritonserver.devices import has_gpu
from tritonlint.tritonserver.prepare import (
    PythonPlaceholders,
    StagedRepository,
    stage_repository,
)
from tritonlint.tritonserver.process import LoadOutcome, LoadStatus, TritonServer
from tritonlint.tritonserver.provision import TritonInstall, provision
from tritonlint.tritonserver.stubs import StubKind, build_backend_dir, native_stub_library

_POLL_FAILED_HINT = "failed to poll from model repository"


@dataclass(frozen=True)
class Verdict:
    """The server's verdict on one model.

    ``message`` is the server's own words: the load response's error, or for errors found while
    polling the repository the log's ``Poll failed for model directory`` line (with the
    libprotobuf parse error appended in parentheses), or the log line that explains a load that
    would never finish. Paths in it and in ``log_lines`` are the user's, not the staged copy's.
    ``adjustments`` lists what the staged copy changed for this machine (see ``prepare``).
    """

    model: str
    loaded: bool
    message: str
    status: LoadStatus
    log_lines: tuple[str, ...] = ()
    adjustments: tuple[str, ...] = ()
    attempts: int = 1
    seconds: float = 0.0


class Judge:
    """One temporary work folder and backend folder, judging repositories one after another."""

    def __init__(
        self,
        install: TritonInstall | None = None,
        *,
        stub_kind: StubKind | None = None,
        gpu: bool | None = None,
        rewrite_gpu: bool = True,
        python_placeholders: PythonPlaceholders = PythonPlaceholders.KEEP,
        load_timeout: float = 120.0,
    ) -> None:
        self.install = install
        self.stub_kind = stub_kind
        self.gpu = gpu
        self.rewrite_gpu = rewrite_gpu
        self.python_placeholders = python_placeholders
        self.load_timeout = load_timeout
        self._work: Path | None = None
        self._backend_dir: Path | None = None
        self._count = 0

    def __enter__(self) -> Judge:
        self.install = self.install or provision()
        self._work = Path(tempfile.mkdtemp(prefix="tritonlint-judge-"))
        self._backend_dir = build_backend_dir(
            self.install, self._work / "backends", kind=self.stub_kind
        )
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._work is not None:
            shutil.rmtree(self._work, ignore_errors=True)
            self._work = None

    @property
    def cpu_only(self) -> bool:
        return not (self.gpu if self.gpu is not None else has_gpu())

    def judge(self, repository: Path) -> dict[str, Verdict]:
        """Load every model folder of ``repository`` and return the verdicts by model name."""
        if self._work is None or self._backend_dir is None or self.install is None:
            raise RuntimeError("use Judge as a context manager")
        self._count += 1
        stage_dir = self._work / f"repo-{self._count}"
        native = None
        if self.python_placeholders is PythonPlaceholders.NATIVE:
            native = native_stub_library()
        try:
            staged = stage_repository(
                repository,
                stage_dir / "models",
                cpu_only=self.rewrite_gpu and self.cpu_only,
                python_placeholders=self.python_placeholders,
                native_python_library=native,
            )
            self._add_stubs(staged)
            with self._server(staged, stage_dir / "server.log") as server:
                return {
                    name: self._judge_model(server, staged, name) for name in staged.load_order()
                }
        finally:
            shutil.rmtree(stage_dir, ignore_errors=True)

    def _add_stubs(self, staged: StagedRepository) -> None:
        assert self.install is not None and self._backend_dir is not None
        build_backend_dir(self.install, self._backend_dir, staged.backends, kind=self.stub_kind)
        for backend, runtimes in staged.runtimes.items():
            folder = self._backend_dir / backend
            for runtime in runtimes:
                target = folder / runtime
                if folder.is_dir() and not target.exists() and "/" not in runtime:
                    shutil.copyfile(native_stub_library(), target)

    @contextmanager
    def _server(self, staged: StagedRepository, log_path: Path) -> Iterator[TritonServer]:
        assert self.install is not None and self._work is not None
        server = TritonServer(
            self.install,
            staged.path,
            self._backend_dir,
            log_path=log_path,
            cleanup_paths=[self._work],  # removed by the server's supervisor if tritonlint dies
        )
        try:
            server.start()
            yield server
        finally:
            # No graceful shutdown needed: nothing is served, and the server's shared memory
            # is removed by name prefix.
            server.stop(graceful=False)

    def _judge_model(self, server: TritonServer, staged: StagedRepository, name: str) -> Verdict:
        if not server.alive:  # died after the previous load
            server.restart()
        attempts = 1
        outcome = server.load(name, timeout=self.load_timeout)
        if outcome.server_unusable:
            server.restart()
            if outcome.status is LoadStatus.CRASHED:
                attempts = 2
                retry = server.load(name, timeout=self.load_timeout)
                outcome = _merge(outcome, retry)
                if retry.server_unusable:
                    server.restart()
        model = staged.models[name]
        return Verdict(
            model=name,
            loaded=outcome.loaded,
            message=staged.to_source_paths(explain(outcome)),
            status=outcome.status,
            log_lines=tuple(staged.to_source_paths(line) for line in outcome.log_lines),
            adjustments=tuple(model.adjustments),
            attempts=attempts,
            seconds=outcome.seconds,
        )


def explain(outcome: LoadOutcome) -> str:
    """The most telling message for a load: the log's poll error, else the server's answer."""
    if outcome.loaded:
        return f"successfully loaded '{outcome.model}'"
    if _POLL_FAILED_HINT in outcome.error or not outcome.error:
        found = logs.poll_failure(outcome.model, outcome.log_lines)
        if found:
            return found
        errors = [line for line in logs.error_lines(outcome.log_lines) if outcome.model in line]
        if errors:
            return errors[-1]
    return outcome.error


def _merge(first: LoadOutcome, retry: LoadOutcome) -> LoadOutcome:
    """The retry's outcome, carrying the log lines of both attempts."""
    return LoadOutcome(
        model=retry.model,
        status=retry.status,
        error=retry.error,
        log_lines=[*first.log_lines, *retry.log_lines],
        seconds=first.seconds + retry.seconds,
    )


def judge_repository(
    repository: Path,
    *,
    install: TritonInstall | None = None,
    stub_kind: StubKind | None = None,
    gpu: bool | None = None,
    rewrite_gpu: bool = True,
    python_placeholders: PythonPlaceholders = PythonPlaceholders.KEEP,
    load_timeout: float = 120.0,
) -> dict[str, Verdict]:
    """Load every model of ``repository`` on a real server; the verdicts by model name.

    Without a GPU (``gpu=None`` detects it) KIND_GPU instance groups are judged as KIND_CPU
    (``rewrite_gpu``); each verdict lists such adjustments. The user's files are never changed.
    """
    verdicts = judge_repositories(
        [repository],
        install=install,
        stub_kind=stub_kind,
        gpu=gpu,
        rewrite_gpu=rewrite_gpu,
        python_placeholders=python_placeholders,
        load_timeout=load_timeout,
    )
    return verdicts[repository]


def judge_repositories(
    repositories: Iterable[Path],
    *,
    install: TritonInstall | None = None,
    stub_kind: StubKind | None = None,
    gpu: bool | None = None,
    rewrite_gpu: bool = True,
    python_placeholders: PythonPlaceholders = PythonPlaceholders.KEEP,
    load_timeout: float = 120.0,
) -> dict[Path, dict[str, Verdict]]:
    """:func:`judge_repository` for many repositories in turn, one fresh server each."""
    with Judge(
        install,
        stub_kind=stub_kind,
        gpu=gpu,
        rewrite_gpu=rewrite_gpu,
        python_placeholders=python_placeholders,
        load_timeout=load_timeout,
    ) as judge:
        return {repository: judge.judge(repository) for repository in repositories}
