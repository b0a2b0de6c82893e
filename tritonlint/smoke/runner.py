"""The smoke stage: load every model of a repository into one real tritonserver.

::

    result = run_smoke(Path("model_repository"), SmokeOptions(stub_missing_backends=True))
    result.ok, [(m.name, m.status) for m in result.models], result.diagnostics

The repository is staged in a temporary copy
(:func:`tritonlint.tritonserver.prepare.stage_repository`; the user's files are never touched); one
server is started on it; the models are loaded one at a time, ensembles after the models they use. A
server that dies during a load is started again and the load tried once more; one that hangs or runs
past the timeout is killed and started again for the models that follow. Whatever happens (a
refusal, a crash, a timeout, Ctrl-C) the server is stopped with all its processes, and its ports are
free again, before :func:`run_smoke` returns or raises.
"""

from __future__ import annotations

import contextlib
import enum
import os
import re
import shutil
import sys
import time
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from tritonlint.diagnostics import Diagnostic
from tritonlint.rules.base import Rule
from tritonlint.rules.registry import by_code
from tritonlint.smoke.inference import Inference, InferTarget, infer, not_inferred
from tritonlint.smoke.mapping import Attributed, Attribution, attribute, in_folder, locate
from tritonlint.smoke.model_file_notes import model_file_notes
from tritonlint.smoke.options import SmokeUsageError
from tritonlint.smoke.python_code import CodeLocation, python_error_location
from tritonlint.smoke.residency import RESIDENT_LIMIT, Residency
from tritonlint.smoke.servers import (
    DockerSettings,
    DockerTritonServer,
    ExternalTritonServer,
    ServerChoice,
    ServerKind,
    choose_server,
    embedded_install,
    external_install,
)
from tritonlint.smoke.shard import Shard, in_share
from tritonlint.smoke.workdir import WorkFolder, work_folder
from tritonlint.tritonserver import devices
from tritonlint.tritonserver.framework_backends import (
    FRAMEWORKS,
    Framework,
    build_framework_backend_dir,
    framework_for,
    framework_has_cuda,
    framework_version,
)
from tritonlint.tritonserver.libpython import link_library, unresolved_libraries
from tritonlint.tritonserver.logs import instance_devices
from tritonlint.tritonserver.prepare import (
    CONFIG_NAME,
    ModelInfo,
    StagedRepository,
    stage_repository,
)
from tritonlint.tritonserver.process import LoadOutcome, LoadStatus, ServerError, TritonServer
from tritonlint.tritonserver.provision import PYTHON_STUB_NAME, ProvisionError
from tritonlint.tritonserver.stub_packages import (
    StubPackagesError,
    stub_environment,
    stub_packages_dir,
)
from tritonlint.tritonserver.stubs import PLATFORM_NAMES, StubError, native_stub_library
from tritonlint.tritonserver.verdict import explain

FLAG_STUB_BACKENDS = "--stub-missing-backends"
FLAG_NO_STUB_BACKENDS = "--no-stub-missing-backends"
FLAG_GPUS = "--gpus"
FLAG_STUB_PYTHON = "--stub-python-models"
FLAG_CPU_ONLY = "--cpu-only"
FLAG_FRAMEWORK_BACKENDS = "--framework-backends"

_MISSING_BACKEND = re.compile(r"unable to find backend library for backend '([^']*)'")
#: The backends Triton's autofill picks by the model file, in its order.
_AUTOFILLED = ("tensorflow", "tensorrt", "onnxruntime", "pytorch")
#: The instance kinds that keep a model off the GPU.
_CPU_KINDS = re.compile(r"\bKIND_(?:CPU|MODEL)\b")
#: The first GPU of an instance group's ``gpus`` list.
_GPUS_LIST = re.compile(r"\bgpus\s*:\s*\[\s*(\d+)")
_NO_GPU = re.compile(
    r"has kind KIND_GPU but (?:no GPUs are available|server does not support GPUs)"
    r"|GPU instances not supported|TensorRT backend supports only GPU device"
)
#: The server's start: 60 s for a server on this machine; a container image may need pulling.
_START_TIMEOUT = 60.0
_DOCKER_START_TIMEOUT = 300.0


class SmokeError(RuntimeError):
    """The smoke stage could not run at all (no server could be fetched or started)."""


class ModelStatus(str, enum.Enum):
    LOADED = "loaded"
    STUBBED = "stubbed"  # loaded, with a stand-in for its backend: the config is validated
    #: loaded by the real framework (ONNX Runtime, OpenVINO, torch, TensorFlow, TensorRT)
    #: standing in for the backend the server lacks
    FRAMEWORK = "framework"
    REFUSED = "refused"
    BACKEND_MISSING = "backend-missing"
    NEEDS_GPU = "needs-gpu"
    TIMEOUT = "timeout"
    CRASHED = "crashed"
    SKIPPED = "skipped"

    @property
    def loaded(self) -> bool:
        return self in (ModelStatus.LOADED, ModelStatus.STUBBED, ModelStatus.FRAMEWORK)

    @property
    def text(self) -> str:
        return _STATUS_TEXT[self]


_STATUS_TEXT = {
    ModelStatus.LOADED: "loaded",
    ModelStatus.STUBBED: "config validated, backend stubbed",
    ModelStatus.FRAMEWORK: "loaded by a framework standing in for the backend",
    ModelStatus.REFUSED: "refused",
    ModelStatus.BACKEND_MISSING: "backend missing",
    ModelStatus.NEEDS_GPU: "needs a GPU",
    ModelStatus.TIMEOUT: "timed out",
    ModelStatus.CRASHED: "server crashed",
    ModelStatus.SKIPPED: "skipped",
}

#: The rule each status is reported with.
STATUS_RULES = {
    ModelStatus.REFUSED: "TL030",
    ModelStatus.BACKEND_MISSING: "TL031",
    ModelStatus.NEEDS_GPU: "TL032",
    ModelStatus.TIMEOUT: "TL033",
    ModelStatus.CRASHED: "TL034",
}


@dataclass(frozen=True)
class SmokeOptions:
    #: ``--server PATH`` and ``--docker IMAGE`` (see :mod:`tritonlint.smoke.servers`).
    server: Path | None = None
    docker: str | None = None
    #: Stand-ins for the backends the server lacks; None: with the embedded server only (it
    #: has just the python backend), not with a server chosen for its backends.
    stub_missing_backends: bool | None = None
    stub_python_models: bool = False
    #: Backends the server lacks are served by their framework where it is importable (ONNX
    #: Runtime for onnxruntime, OpenVINO for openvino, torch for pytorch, TensorFlow for
    #: tensorflow, TensorRT for tensorrt, see
    #: :mod:`tritonlint.tritonserver.framework_backends`); None: with the embedded server, unless
    #: ``stub_missing_backends`` is given (True or False).
    framework_backends: bool | None = None
    #: True: KIND_GPU as written, the server gets the GPUs (``--gpus``); False:
    #: ``--cpu-only``, KIND_GPU rewritten to KIND_CPU in the copy; None: whether this machine
    #: has a GPU decides between the two.
    gpus: bool | None = None
    #: Seconds for one model's load, and for the whole run (None: no limit).
    timeout: float = 120.0
    total_timeout: float | None = None
    #: Load only these models (None: every model folder).
    models: Collection[str] | None = None
    #: Models not to load, with the reason (``check --smoke``: static errors).
    skip: Mapping[str, str] = field(default_factory=dict)
    #: Static lint's findings for the repository (computed when None): they place the
    #: server's messages and tell which rule predicted them.
    static: Sequence[Diagnostic] | None = None
    #: ``--shard I/N``: load only that share of the models (see :mod:`tritonlint.smoke.shard`).
    shard: Shard | None = None
    #: One inference request per loaded model (``--no-infer``: none), each within
    #: ``infer_timeout`` seconds (see :mod:`tritonlint.smoke.inference`).
    infer: bool = True
    infer_timeout: float = 30.0
    #: Loaded models that no later model needs are unloaded together once there are this
    #: many (see :mod:`tritonlint.smoke.residency`).
    resident_limit: int = RESIDENT_LIMIT


@dataclass(frozen=True)
class ShareInfo:
    """What ``--shard`` kept: share ``shard`` holds ``models`` of the ``of`` models."""

    shard: Shard
    models: int
    of: int


@dataclass
class ModelResult:
    name: str
    #: The user's model folder and config file.
    folder: Path
    status: ModelStatus
    #: The server's own words (paths are the user's), or why the model was not loaded.
    message: str = ""
    seconds: float = 0.0
    attempts: int = 0
    #: What the temporary copy changed for this model, and the options that made the changes.
    adjustments: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()
    rule: Rule | None = None
    #: The finding the smoke stage reports for the model (none for a loaded or skipped one).
    diagnostic: Diagnostic | None = None
    #: What the static checks read of the model file, where a stand-in served the model (it
    #: loads no model file); see :mod:`tritonlint.smoke.model_file_notes`.
    model_file: str | None = None
    #: The framework that loaded the model in place of its backend, with its version.
    framework: tuple[str, str] | None = None
    #: The GPU the framework ran the model on (None: the CPU).
    framework_gpu: int | None = None
    #: What became of its one inference request (None: not loaded, or ``--no-infer``).
    inference: Inference | None = None
    #: The instances the server made of the loaded model, each with where it runs
    #: (``GPU 0``, ``CPU``), as the backend logged them.
    instances: tuple[tuple[str, str], ...] = ()

    @property
    def status_text(self) -> str:
        """The status as the table and the JSON report say it, for this model."""
        if self.status is ModelStatus.FRAMEWORK and self.framework is not None:
            return framework_status(*self.framework, self.framework_gpu)
        return self.status.text

    @property
    def config(self) -> Path:
        return self.folder / CONFIG_NAME

    @property
    def stubbed(self) -> bool:
        """Whether a stand-in served the model in place of its backend."""
        return FLAG_STUB_BACKENDS in self.flags or FLAG_STUB_PYTHON in self.flags


@dataclass
class ServerInfo:
    kind: ServerKind
    description: str
    #: The version the running server reports (``GET /v2``).
    version: str = ""
    #: Whether the server was given the machine's GPUs.
    gpus: bool = False
    #: Whether the backends it lacks get stand-ins, and whether that was by default (no
    #: ``--[no-]stub-missing-backends``: the embedded server).
    stub_backends: bool = False
    stub_backends_by_default: bool = False
    #: KIND_GPU was validated as KIND_CPU because no GPU was found (no ``--cpu-only``).
    cpu_by_default: bool = False
    #: Backend -> the version of the framework that stands in for it in this run.
    frameworks: dict[str, str] = field(default_factory=dict)
    #: Backends whose framework would stand in but is not importable here.
    frameworks_missing: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        return f"tritonserver {self.version}" if self.version else "tritonserver"


@dataclass(frozen=True)
class ServerStart:
    """One start of the server: its process id and ports (to check that all are released)."""

    pid: int
    ports: tuple[int, int, int]


@dataclass
class SmokeResult:
    repository: Path
    server: ServerInfo
    models: list[ModelResult] = field(default_factory=list)
    #: Python models that ran their own model.py.
    python_models: list[str] = field(default_factory=list)
    starts: list[ServerStart] = field(default_factory=list)
    seconds: float = 0.0
    #: With ``--shard``: which share was loaded, of how many models.
    share: ShareInfo | None = None

    @property
    def ok(self) -> bool:
        """Every model loaded (skipped models count as not loaded)."""
        return all(m.status.loaded for m in self.models)

    @property
    def diagnostics(self) -> list[Diagnostic]:
        found = [m.diagnostic for m in self.models if m.diagnostic is not None]
        found += [d for m in self.models if m.inference for d in m.inference.diagnostics]
        return found

    def flags_needed(self) -> dict[str, list[str]]:
        """Option -> the models that loaded only thanks to it."""
        needed: dict[str, list[str]] = {}
        for model in self.models:
            if model.status.loaded:
                for flag in model.flags:
                    needed.setdefault(flag, []).append(model.name)
        return needed


class Reporter:
    """What the smoke stage tells while it runs; the default tells nothing."""

    def notice(self, text: str) -> None:
        """A line said before the server starts."""

    def busy(self, text: str) -> contextlib.AbstractContextManager[object]:
        """Shown while something slow runs (fetching the server)."""
        return contextlib.nullcontext()

    @contextlib.contextmanager
    def loading(self, total: int) -> Iterator[Callable[[str, bool], None]]:
        """Progress over ``total`` models: call ``(name, done)`` when a load starts/ends."""
        yield lambda name, done: None


def run_smoke(
    repository: Path, options: SmokeOptions | None = None, reporter: Reporter | None = None
) -> SmokeResult:
    """Load every model of ``repository`` into one real tritonserver; see the module docs.

    Raises :class:`SmokeUsageError` for a bad request (no such repository, a bad ``--server``)
    and :class:`SmokeError` when no server can be fetched or started.
    """
    options = options or SmokeOptions()
    reporter = reporter or Reporter()
    source = Path(os.path.abspath(repository))
    if not source.is_dir():
        raise SmokeUsageError(f"{repository} is not a folder (a model repository)")
    if (source / CONFIG_NAME).is_file() and options.models is None:
        # A model folder: that model, in its repository (which the server reads from).
        options = replace(options, models=(source.name,))
        source = source.parent
    choice = choose_server(options.server, options.docker)
    gpus = options.gpus if options.gpus is not None else devices.has_gpu()
    stub = options.stub_missing_backends
    info = ServerInfo(
        choice.kind,
        choice.describe(),
        gpus=gpus,
        stub_backends=choice.kind is ServerKind.EMBEDDED if stub is None else stub,
        stub_backends_by_default=stub is None and choice.kind is ServerKind.EMBEDDED,
        cpu_by_default=options.gpus is None and not gpus,
    )
    if choice.kind is ServerKind.EMBEDDED:
        _choose_frameworks(info, options)
    started = time.monotonic()
    with work_folder() as work:
        run = _Run(source, work, choice, info, options, reporter)
        try:
            run.execute()
        finally:
            run.result.seconds = time.monotonic() - started
    return run.result


class _Run:
    def __init__(
        self,
        source: Path,
        work: WorkFolder,
        choice: ServerChoice,
        info: ServerInfo,
        options: SmokeOptions,
        reporter: Reporter,
    ) -> None:
        self.source = source
        self.work = work.path
        self.work_folder = work
        self.choice = choice
        self.options = options
        self.reporter = reporter
        self.result = SmokeResult(source, info)
        self.server: TritonServer | None = None
        self.staged: StagedRepository | None = None
        self.deadline: float | None = None
        #: The server must be started afresh before the next load (after a hang or timeout).
        self.dirty = False
        #: Why the server cannot be used any more (it could not be started again).
        self.broken: str | None = None
        self.static: dict[str, list[Diagnostic]] = {}
        #: Why the embedded server's python backend stub has no numpy<2 (None: it has).
        self.stub_packages_error: str | None = None
        #: Why the embedded server's python backend cannot run a model here (None: it can).
        self.stub_problem: str | None = None
        #: The models loaded on the server, and which of them may be unloaded.
        self.residency = Residency([], {})

    # -- the run ------------------------------------------------------------------------------

    def execute(self) -> None:
        options = self.options
        cpu_only = not self.result.server.gpus
        staged = stage_repository(self.source, self.work / "models", cpu_only=cpu_only)
        self.staged = staged
        names = [n for n in staged.load_order() if _wanted(n, options.models)]
        if options.shard is not None:
            names = self._share(names, options.shard)
        self._collect_static(names)
        python = [n for n in names if staged.models[n].is_python and n not in options.skip]
        if options.stub_python_models:
            python = [n for n in python if not self._stub_python(staged.models[n])]
        self.result.python_models = python
        if python:
            one = len(python) == 1
            self.reporter.notice(
                f"{'This python model runs its' if one else 'These python models run their'} "
                f"own model.py in the server (initialize() included): {', '.join(python)}. "
                f"Pass {FLAG_STUB_PYTHON} to validate {'its config' if one else 'their configs'}"
                f" without running any of {'its' if one else 'their'} code."
            )
        if all(name in options.skip for name in names):  # nothing to load: no server
            self.result.models = [self._model(name) for name in names]
            return
        self.residency = Residency(names, {n: staged.models[n].composing for n in names})
        server = self._make_server(staged)
        self.server = server
        if self.stub_problem is not None:
            self.reporter.notice(f"Python models are not loaded: {self.stub_problem}.")
        try:
            self._start(server)
            if server.client is not None:
                with contextlib.suppress(Exception):
                    version = server.client.metadata().get("version")
                    self.result.server.version = str(version or "")
            with self.reporter.loading(len(names)) as progress:
                for name in names:
                    progress(name, False)
                    result = self._model(name)
                    self.result.models.append(result)
                    self._release(name, loaded=result.status.loaded)
                    progress(name, True)
        finally:
            server.stop(graceful=False)
        self._note_model_files()

    def _share(self, names: list[str], shard: Shard) -> list[str]:
        """The models of ``names`` in ``shard`` (in load order); an ensemble's steps are
        in its share."""
        assert self.staged is not None
        steps = {name: self.staged.models[name].composing for name in names}
        kept = in_share(shard, names, steps)
        self.result.share = ShareInfo(shard, len(kept), len(names))
        return [name for name in names if name in kept]

    def _make_server(self, staged: StagedRepository) -> TritonServer:
        log = self.work / "server.log"
        choice = self.choice
        timeout = _START_TIMEOUT
        # If tritonlint dies while the server runs, the server's supervisor removes the
        # temporary folder, and the server's shared memory by this prefix.
        cleanup = [self.work]
        shm_prefix = self.work_folder.shm_prefix
        if choice.kind is ServerKind.DOCKER:
            assert choice.docker is not None and choice.image is not None
            settings = DockerSettings(
                docker=choice.docker,
                image=choice.image,
                gpus=self.result.server.gpus,
                mounts=[self.source, *_link_targets(staged.path, self.source)],
            )
            return DockerTritonServer(
                settings,
                staged.path,
                log_path=log,
                startup_timeout=_DOCKER_START_TIMEOUT,
                cleanup_paths=cleanup,
                shm_prefix=shm_prefix,
            )
        if choice.kind is ServerKind.EMBEDDED:
            try:
                install = embedded_install(self.reporter.busy)
            except ProvisionError as error:
                raise SmokeError(f"the embedded Triton server is not available: {error}") from None
            backend_dir = None
            if self.result.server.frameworks:
                # Python-based backends are found only in the backend directory: one for this
                # run, with the real python backend and the framework-backed stand-ins.
                frameworks = [FRAMEWORKS[name] for name in self.result.server.frameworks]
                backend_dir = build_framework_backend_dir(
                    install, self.work / "backends", frameworks
                )
            python_library = link_library(self.work / "libpython")
            server = TritonServer(
                install,
                staged.path,
                backend_dir,
                log_path=log,
                startup_timeout=timeout,
                cleanup_paths=cleanup,
                shm_prefix=shm_prefix,
                python_executable=self._stub_interpreter(),
                library_dirs=[] if python_library is None else [python_library],
            )
            # Only a Python without its shared library where its build says needs asking
            # the loader (by running ldd: the system's folders may still hold one).
            stub = server.backend_dir / "python" / PYTHON_STUB_NAME
            missing = [] if python_library else unresolved_libraries(stub, server.environment())
            if missing:
                self.stub_problem = (
                    "the python backend's stub cannot start here: the loader finds no "
                    f"{', '.join(missing)} (this Python, {sys.executable}, has no shared "
                    "library: use a Python built with --enable-shared)"
                )
            return server
        assert choice.binary is not None
        install = external_install(choice.binary)
        return ExternalTritonServer(
            install,
            staged.path,
            log_path=log,
            startup_timeout=timeout,
            cleanup_paths=cleanup,
            shm_prefix=shm_prefix,
        )

    def _stub_interpreter(self) -> Path | None:
        """The python of an environment with numpy<2 for the embedded server's python backend
        stub, where models are inferred (None: this Python)."""
        if not self.options.infer:
            return None
        try:
            packages = stub_packages_dir(busy=self.reporter.busy)
            return stub_environment(self.work / "stub-env", packages)
        except (StubPackagesError, OSError) as error:
            self.stub_packages_error = str(error)
            return None

    def _start(self, server: TritonServer) -> None:
        if self.options.total_timeout is not None:
            self.deadline = time.monotonic() + self.options.total_timeout
            server.startup_timeout = min(server.startup_timeout, self.options.total_timeout)
        try:
            server.start()
        except ServerError as error:
            raise SmokeError(f"{self.result.server.description} did not start: {error}") from None
        finally:
            self._record_start(server)

    def _record_start(self, server: TritonServer) -> None:
        if server.pid is not None and server.ports is not None:
            ports = server.ports
            start = ServerStart(server.pid, (ports.http, ports.grpc, ports.metrics))
            if start not in self.result.starts:
                self.result.starts.append(start)

    def _release(self, name: str, *, loaded: bool) -> None:
        """Unload the models no later model needs, once there are enough of them (see
        :mod:`tritonlint.smoke.residency`); a server that does not manage is started again."""
        assert self.server is not None
        self.residency.judged(name, loaded=loaded)
        due = self.residency.due(self.options.resident_limit)
        if not due or self.dirty:
            return
        if self.server.unload(due):
            self.residency.unloaded(due)
        else:
            self.dirty = True

    def _restart(self) -> None:
        assert self.server is not None
        self.server.stop(graceful=False)
        self.residency.forget()
        self.dirty = False
        try:
            self.server.start()
        except ServerError as error:
            self.broken = f"the server could not be started again: {error}"
        self._record_start(self.server)

    # -- one model ----------------------------------------------------------------------------

    def _model(self, name: str) -> ModelResult:
        assert self.staged is not None
        model = self.staged.models[name]
        result = ModelResult(
            name=name,
            folder=self.source / name,
            status=ModelStatus.SKIPPED,
            adjustments=tuple(
                note.replace("(no GPU on this machine)", f"({FLAG_CPU_ONLY})")
                if self.options.gpus is False
                else note
                for note in model.adjustments
            ),
            flags=_flags(model.adjustments),
        )
        if name in self.options.skip:
            result.message = self.options.skip[name]
            return result
        blocked = self._blocked_by(model)
        if blocked is not None:
            result.message = blocked
            return result
        if self.broken is not None:
            result.status, result.message = ModelStatus.CRASHED, self.broken
            return self._finish(result)
        timeout = self._timeout()
        if timeout is None:
            result.status = ModelStatus.TIMEOUT
            result.message = self._overall_timeout_message()
            return self._finish(result)
        framework = self._framework_of(model)
        # An empty placeholder is no model for a framework to load, and a missing file is
        # refused by the config-only stand-in in the backend's own words: that stand-in serves
        # such a model, as without the framework; so it does a model the framework does not
        # load here (a GraphDef; a TensorRT plan without a GPU), saying why.
        reason = None if framework is None else self._not_stood_in(model, framework)
        if (
            framework is not None
            and self.result.server.stub_backends
            and (reason is not None or not _has_model_files(model, framework))
            and self._stub_backend(model, framework.backend) is None
        ):
            result.adjustments += (f"backend '{framework.backend}' stubbed (not in this server)",)
            if reason is not None:
                result.adjustments += (reason,)
            result.flags += (FLAG_STUB_BACKENDS,)
            framework = None
        runs_stub = framework is not None or (
            model.is_python and not (model.path / "libtriton_python.so").exists()
        )
        if runs_stub and self.stub_problem is not None:
            result.message = f"not loaded: {self.stub_problem}"
            return result
        if framework is not None:
            result.framework = (framework.backend, self.result.server.frameworks[framework.backend])
            result.framework_gpu = self._framework_gpu(model, framework)
            result.flags += (FLAG_FRAMEWORK_BACKENDS,)
        outcome, attempts = self._load(name, timeout)
        result.attempts, result.seconds = attempts, outcome.seconds
        backend = _missing_backend(outcome)
        refused = outcome.status in (LoadStatus.REFUSED, LoadStatus.HUNG)
        # A platform name in `backend` is a config error (TL302): no stand-in hides it.
        stub = backend is not None and backend not in PLATFORM_NAMES
        if stub and refused and self.result.server.stub_backends:
            assert backend is not None
            note = self._stub_backend(model, backend)
            if note is None:
                retry, more = self._load(name, self._timeout() or 0.001)
                outcome, result.attempts = retry, attempts + more
                result.seconds += retry.seconds
                result.adjustments += (f"backend '{backend}' stubbed (not in this server)",)
                result.flags += (FLAG_STUB_BACKENDS,)
            else:
                result.message = note
        self._classify(result, outcome, model)
        self._finish(result)
        if result.status.loaded:
            result.instances = tuple(instance_devices(outcome.log_lines))
        if result.status.loaded and self.options.infer:
            self._infer(result, model)
        return result

    def _infer(self, result: ModelResult, model: ModelInfo) -> None:
        """Send the loaded model its one request (see :mod:`tritonlint.smoke.inference`)."""
        assert self.server is not None and self.staged is not None
        reason = self._why_not_inferred(result, model)
        if reason is not None:
            result.inference = not_inferred(reason)
            return
        client = self.server.client
        assert client is not None
        staged = self.staged
        steps = [self.source / step for step in model.composing]
        target = InferTarget(
            result.name,
            result.folder,
            model.path,
            (result.folder, *steps),
            to_user_paths=staged.to_source_paths,
            to_finding_paths=staged.to_repository_paths,
        )
        result.inference = infer(
            client,
            target,
            timeout=self.options.infer_timeout,
            server_label=self.result.server.label,
        )
        if result.inference.server_unusable:
            self.dirty = True

    def _why_not_inferred(self, result: ModelResult, model: ModelInfo) -> str | None:
        """Why the loaded model gets no request: a stand-in that answers nothing serves it (or
        a step of it), or its python backend's stub has no numpy<2 to answer with."""
        assert self.staged is not None
        done = {m.name: m for m in self.result.models}
        done[result.name] = result
        models = self.staged.models
        pending, seen = [result.name], set()
        while pending:
            name = pending.pop()
            seen.add(name)
            found = done.get(name)
            if found is None or not found.status.loaded:
                return f"its step '{name}' is not loaded"
            if found.status is ModelStatus.STUBBED:
                who = "its backend" if name == result.name else f"its step '{name}'"
                return f"{who} is a stand-in that answers nothing (config validated only)"
            info = models.get(name)
            python = (info is not None and info.is_python) or found.framework is not None
            if python and self.stub_packages_error is not None:
                return f"the python backend's stub has no numpy<2: {self.stub_packages_error}"
            if info is not None:
                pending += [step for step in info.composing if step not in seen]
        return None

    def _classify(self, result: ModelResult, outcome: LoadOutcome, model: ModelInfo) -> None:
        assert self.staged is not None
        message = self.staged.to_source_paths(explain(outcome))
        if outcome.loaded and result.framework is not None:
            result.status = ModelStatus.FRAMEWORK
            result.message = result.status_text
            return
        if outcome.loaded:
            result.status = ModelStatus.STUBBED if result.stubbed else ModelStatus.LOADED
            result.message = "" if not result.stubbed else result.message
            return
        if result.framework is not None:
            served, version = result.framework
            message = framework_words(message, served)
            module = FRAMEWORKS[served].module
            result.adjustments += (
                f"backend '{served}' served by {module} {version} (not in this server)",
            )
        if outcome.status is LoadStatus.TIMEOUT:
            result.status = ModelStatus.TIMEOUT
            overall = self.deadline is not None and time.monotonic() >= self.deadline - 0.05
            result.message = (
                self._overall_timeout_message()
                if overall
                else f"no answer from the server within --timeout {self.options.timeout:g} s"
            )
            return
        if outcome.status is LoadStatus.CRASHED:
            result.status = ModelStatus.CRASHED
            tail = [line for line in outcome.log_lines if line.strip()][-5:]
            result.message = message + (" (server log: " + " | ".join(tail) + ")" if tail else "")
            result.message = self.staged.to_source_paths(result.message)
            return
        backend = _missing_backend(outcome)
        if backend is not None and backend not in PLATFORM_NAMES:
            result.status = ModelStatus.BACKEND_MISSING
            result.message = f"{message}{' (' + result.message + ')' if result.message else ''}"
            return
        if _NO_GPU.search(message):
            result.status = ModelStatus.NEEDS_GPU
            result.message = message
            return
        result.status = ModelStatus.REFUSED  # refused, or the log says the load never ends
        result.message = message

    def _load(self, name: str, timeout: float) -> tuple[LoadOutcome, int]:
        """Load on a usable server; a crash is tried once more on a fresh server."""
        server = self.server
        assert server is not None
        if self.dirty or not server.alive:
            self._restart()
            if self.broken is not None:
                return LoadOutcome(name, LoadStatus.CRASHED, self.broken), 0
        outcome = server.load(name, timeout=timeout)
        attempts = 1
        if outcome.server_unusable:
            self.dirty = True
        if outcome.status is LoadStatus.CRASHED:
            self._restart()
            if self.broken is None:
                retry_timeout = self._timeout()
                if retry_timeout is not None:
                    retry = server.load(name, timeout=retry_timeout)
                    attempts = 2
                    outcome = LoadOutcome(
                        name,
                        retry.status,
                        retry.error,
                        [*outcome.log_lines, *retry.log_lines],
                        outcome.seconds + retry.seconds,
                    )
                    self.dirty = retry.server_unusable
        return outcome, attempts

    def _timeout(self) -> float | None:
        """This load's timeout: --timeout, or what is left of --total-timeout (None: nothing)."""
        if self.deadline is None:
            return self.options.timeout
        left = self.deadline - time.monotonic()
        return None if left <= 0 else min(self.options.timeout, left)

    def _overall_timeout_message(self) -> str:
        return f"not loaded: --total-timeout {self.options.total_timeout:g} s ran out"

    def _blocked_by(self, model: ModelInfo) -> str | None:
        """Why an ensemble is not loaded: a step's model was not loaded for a reason that is
        not the config's (a missing backend, no GPU, a timeout, a crash, or skipped)."""
        done = {m.name: m for m in self.result.models}
        for step in model.composing:
            found = done.get(step)
            if found is None or found.status.loaded or found.status is ModelStatus.REFUSED:
                continue
            return f"not loaded: its step model '{step}' was not loaded ({found.status.text})"
        return None

    # -- stubs --------------------------------------------------------------------------------

    def _stub_backend(self, model: ModelInfo, backend: str) -> str | None:
        """Put a stand-in for ``backend`` into the staged model folder (the server looks for a
        backend library there before its backend folder); the reason when it cannot."""
        if not backend or "/" in backend or backend.startswith("."):
            return f"no stand-in for a backend named {backend!r}"
        try:
            library = native_stub_library()
        except StubError as error:
            return f"no stand-in backend could be built: {error}"
        shutil.copyfile(library, model.path / f"libtriton_{backend}.so")
        return None

    def _framework_of(self, model: ModelInfo) -> Framework | None:
        """The framework that stands in for the model's backend in this run, if any."""
        framework = framework_for(model.backend, model.platform)
        if framework is None and model.backend is None and model.platform is None:
            # Triton's autofill picks the backend of the model file in a version folder
            # (model.savedmodel, model.plan, model.onnx, model.pt, or those endings).
            folders = model.version_paths.values()
            for candidate in _AUTOFILLED:
                default = FRAMEWORKS[candidate].model_filename
                filename = model.default_model_filename or default
                suffix = default[default.rindex(".") :]
                if filename.endswith(suffix) and any((f / filename).exists() for f in folders):
                    framework = FRAMEWORKS[candidate]
                    break
        if framework is None or framework.backend not in self.result.server.frameworks:
            return None
        return framework

    def _not_stood_in(self, model: ModelInfo, framework: Framework) -> str | None:
        """Why the framework does not load this model in this run, or None where it does."""
        filename = model.default_model_filename
        reason = framework.not_stood_in_for(model.platform, filename)
        if reason is not None:
            return reason
        if framework.gpu_only and not self.result.server.gpus:
            return (
                f"{framework.module} needs a GPU and this server has none: the model file was "
                "not loaded, config validated only"
            )
        return None

    def _framework_gpu(self, model: ModelInfo, framework: Framework) -> int | None:
        """The GPU the framework runs the model on (None: the CPU)."""
        if framework.gpu_words is None or not self.result.server.gpus:
            return None
        try:
            text = (model.path / CONFIG_NAME).read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None
        return framework_gpu(text, framework)

    def _stub_python(self, model: ModelInfo) -> bool:
        """Serve a python model by the stand-in backend (its model.py is never run); only when
        every version folder has its model file (otherwise the real backend refuses it)."""
        filename = model.default_model_filename or "model.py"
        folders = model.version_paths.values()
        if not folders or not all((folder / filename).is_file() for folder in folders):
            return False
        try:
            library = native_stub_library()
        except StubError:
            return False
        shutil.copyfile(library, model.path / "libtriton_python.so")
        model.adjustments.append(f"python backend stubbed: {filename} not run")
        return True

    # -- findings -----------------------------------------------------------------------------

    def _collect_static(self, names: Sequence[str]) -> None:
        static = self.options.static
        if static is None:
            from tritonlint.engine import lint_paths

            static = lint_paths([self.source], repositories=[self.source]).diagnostics
        for name in names:
            folder = self.source / name
            self.static[name] = [d for d in static if in_folder(d, folder)]

    def _note_model_files(self) -> None:
        """Say what the static checks read of the model files that stand-ins did not load."""
        stubbed = {m.name: self.static.get(m.name, []) for m in self.result.models if m.stubbed}
        notes = model_file_notes(self.source, stubbed)
        for model in self.result.models:
            model.model_file = notes.get(model.name)

    def _finish(self, result: ModelResult) -> ModelResult:
        code = STATUS_RULES.get(result.status)
        if code is None:
            return result
        rule = by_code(code)
        assert rule is not None
        static = self.static.get(result.name, [])
        refused = result.status is ModelStatus.REFUSED
        code_error = python_error_location(result.message, result.folder) if refused else None
        # The server's message, its paths from the repository's root (once its frames are
        # found): a finding reads the same wherever the repository is.
        assert self.staged is not None
        result.message = self.staged.to_repository_paths(result.message)
        if refused:
            if code_error is not None:
                message = self._finding_message(result, code_error=code_error)
                result.diagnostic = rule.diagnostic(message, code_error.path, code_error.span)
                return result
            attributed = attribute(result.message, static)
        else:
            attributed = Attributed(None, Attribution.NONE)
        result.rule = attributed.rule
        config = result.config
        try:
            text: str | None = config.read_text(encoding="utf-8", errors="replace")
        except OSError:
            text = None
        hints: list[str] = []
        if result.status is ModelStatus.NEEDS_GPU:
            hints = ["KIND_GPU", "instance_group"]
        elif result.status is ModelStatus.BACKEND_MISSING:
            backend = backend_in(result.message) or ""
            hints = [backend, "backend", "platform"]
        span = locate(
            text,
            result.message,
            [d for d in static if d.path == config],
            result.rule,
            hints=hints,
            skip=[result.name],
        )
        message = self._finding_message(result, attributed)
        path = config if text is not None else result.folder
        same_rule = [d for d in static if result.rule is not None and d.code == result.rule.code]
        if span is None and same_rule and all(d.span is None for d in same_rule):
            path = same_rule[0].path  # a folder's finding: the version folder, the model folder
        result.diagnostic = rule.diagnostic(message, path, span)
        return result

    def _finding_message(
        self,
        result: ModelResult,
        attributed: Attributed | None = None,
        code_error: CodeLocation | None = None,
    ) -> str:
        """What the finding says: the verdict, the rule or the way out, then the server's
        exact message (always last)."""
        server = self.result.server.label
        status = result.status
        reported = {d.code for d in self.static.get(result.name, [])}
        if code_error is not None:
            what = "a syntax error" if code_error.syntax else "an exception"
            why = f"{what} in the model's Python code, not in config.pbtxt"
            return f"{server} refused the model [{why}]: {result.message}"
        if status is ModelStatus.REFUSED:
            return f"{server} refused the model [{_attribution_text(attributed)}]: {result.message}"
        if status is ModelStatus.BACKEND_MISSING:
            backend = backend_in(result.message) or "?"
            hint = f"{FLAG_STUB_BACKENDS} validates the config with a stand-in backend"
            if "TL306" in reported:
                hint += "; TL306 unknown-backend: is the name misspelt?"
            return (
                f"{server} has no '{backend}' backend, so the model was not loaded (not a "
                f"config error; {hint}): {result.message}"
            )
        if status is ModelStatus.NEEDS_GPU:
            return (
                f"the model needs a GPU and {server} has none (not a config error; run the "
                f"smoke stage on a GPU machine, or pass {FLAG_CPU_ONLY} to load it as "
                f"KIND_CPU): {result.message}"
            )
        if status is ModelStatus.TIMEOUT:
            return f"{server} did not load the model in time: {result.message}"
        return f"{server} died while loading the model: {result.message}"


def _attribution_text(attributed: Attributed | None) -> str:
    """Which rule the refusal is about, and how sure that is (inside the finding's [...])."""
    if attributed is None or attributed.rule is None:
        return "no tritonlint rule predicts this message"
    rule = f"{attributed.rule.code} {attributed.rule.name}"
    if attributed.how is Attribution.PREDICTED:
        return f"predicted by {rule}"
    if attributed.how is Attribution.UNREPORTED:
        return f"the message of {rule}, which static lint did not report here"
    text = f"static lint reported {rule} for this model"
    if attributed.predicted is not None:
        text += f"; the words are those of {attributed.predicted.code} {attributed.predicted.name}"
    return text


def framework_status(backend: str, version: str, gpu: int | None = None) -> str:
    """``loaded by onnxruntime 1.20.1 standing in for Triton's onnxruntime backend (CPU
    execution provider)``, ``loaded by torch 2.5.1 standing in for Triton's pytorch backend
    (on cuda:0)``."""
    framework = FRAMEWORKS[backend]
    device = framework.device_words(gpu)
    return (
        f"loaded by {framework.module} {version} standing in for Triton's {backend} backend "
        f"({device})"
    )


def framework_gpu(config_text: str, framework: Framework) -> int | None:
    """The GPU a framework runs a model on, on a server with GPUs: for a KIND_GPU model (or
    one whose config names no kind: the server makes it KIND_GPU where it has a GPU) and a
    framework built with CUDA, the first of the config's ``gpus``, else 0; None: the CPU."""
    if framework.gpu_words is None:
        return None
    on_gpu = "KIND_GPU" in config_text or not _CPU_KINDS.search(config_text)
    if not on_gpu or not framework_has_cuda(framework):
        return None
    listed = _GPUS_LIST.search(config_text)
    return int(listed.group(1)) if listed else 0


def _choose_frameworks(info: ServerInfo, options: SmokeOptions) -> None:
    """Which frameworks stand in for the embedded server's missing backends."""
    wanted = options.framework_backends
    if wanted is None:  # on, unless the missing backends' handling is asked for explicitly
        wanted = options.stub_missing_backends is None
    if not wanted:
        return
    missing: list[str] = []
    for backend, framework in FRAMEWORKS.items():
        version = framework_version(framework)
        if version is None:
            if not framework.gpu_only or info.gpus:  # without a GPU it would not load either
                missing.append(backend)
        else:
            info.frameworks[backend] = version
    info.frameworks_missing = tuple(missing)


_EXCEPTION_NAME = re.compile(r"\bTritonModelException: ")


def framework_words(message: str, backend: str) -> str:
    """A framework-backed stand-in's refusal in the backend's words: without the python
    backend's exception name and the traceback of the stand-in's own model.py."""
    message = _EXCEPTION_NAME.sub("", message)
    frames = re.compile(
        r"\s*At:\s*(?:\S*/" + re.escape(backend) + r"/model\.py\(\d+\): \w+\s*)+(?=;|$)"
    )
    return frames.sub("", message)


def _has_model_files(model: ModelInfo, framework: Framework) -> bool:
    """Every version folder (named as the server reads it) holds a model file of the framework
    that is not an empty placeholder."""
    filename = model.default_model_filename or framework.model_filename
    if not model.version_paths:
        return False
    for version, folder in model.version_paths.items():
        if version < 0 or folder.name != str(version):
            return False  # the server reads another folder (``-1`` is read as 2**64 - 1)
        path = folder / filename
        if path.is_dir():
            if framework.folder_file is None:
                return False
            path = path / framework.folder_file
        try:
            if not path.is_file() or not path.read_bytes().strip():
                return False
        except OSError:
            return False
    return True


def _wanted(name: str, models: Collection[str] | None) -> bool:
    return models is None or name in models


def _flags(adjustments: Sequence[str]) -> tuple[str, ...]:
    flags: list[str] = []
    for note in adjustments:
        if "KIND_GPU" in note or "gpus list" in note:
            flag = FLAG_CPU_ONLY
        elif note.startswith("python backend stubbed"):
            flag = FLAG_STUB_PYTHON
        else:
            continue
        if flag not in flags:
            flags.append(flag)
    return tuple(flags)


def _missing_backend(outcome: LoadOutcome) -> str | None:
    if outcome.loaded:
        return None
    return backend_in(outcome.error) or backend_in("\n".join(outcome.log_lines))


def backend_in(text: str) -> str | None:
    match = _MISSING_BACKEND.search(text)
    return match.group(1) if match else None


def _link_targets(staged: Path, source: Path) -> list[Path]:
    """Files outside ``source`` that the staged copy links to (a container must see them)."""
    targets: list[Path] = []
    for folder, _dirs, files in os.walk(staged):
        for name in files:
            path = Path(folder, name)
            if path.is_symlink():
                target = Path(os.path.realpath(path))
                if source not in target.parents and target not in targets and target.exists():
                    targets.append(target)
    return targets
