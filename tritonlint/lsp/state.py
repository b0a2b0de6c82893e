"""The language server's state: its engine workspaces, and their findings published.

Every open document's text is checked in place of its file, in the engine workspace of its
repository (a :class:`~tritonlint.lsp.projects.Project`; pygls' own workspace, which holds the
editor's documents, is :attr:`TritonLintServer.documents` here). A check re-checks the edited
model and those depending on it (``CheckResult.rechecked``); the diagnostics of each of their
files are published again, and files whose findings went away are cleared. An edit is checked
at once; edits made while a check runs are checked together by one more check when it ends
(:mod:`.scheduling`). A check whose texts were edited again while it ran publishes nothing
(the newer check will), so diagnostics of an older version never replace those of a newer
one. A client that pulls its diagnostics gets them from :meth:`TritonLintServer.pull_document`
and :meth:`TritonLintServer.pull_workspace`.

Engine work runs in a thread, off the event loop, so that other requests and notifications
are served meanwhile; what answers a request (code actions, pulled diagnostics) is worked
out again when the texts it read were edited while it ran.

The handlers that pygls calls with this server are registered by :mod:`.server`.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import sys
import threading
import traceback
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams, JsonRpcMethodNotFound
from pygls.io_ import StdinAsyncReader, StdoutWriter
from pygls.lsp.server import LanguageServer
from pygls.workspace import Workspace

from tritonlint import __version__
from tritonlint.diagnostics import Diagnostic
from tritonlint.engine import CheckResult
from tritonlint.lsp import watching
from tritonlint.lsp.convert import shown_in, to_lsp
from tritonlint.lsp.placing import related_file, shown_file
from tritonlint.lsp.positions import Positions
from tritonlint.lsp.projects import EditorSettings, Project, Projects
from tritonlint.lsp.protocol import Protocol
from tritonlint.lsp.pygls_adapter import stop_event
from tritonlint.lsp.scheduling import Checks, debounce
from tritonlint.lsp.stdio import PipeReader, Reader, is_pipe, serve
from tritonlint.lsp.uris import path_of
from tritonlint.repository.model import ModelFolder

_T = TypeVar("_T")

#: How many times a request's engine work is done before giving up on texts that keep
#: changing meanwhile.
TRIES = 3


class TritonLintServer(LanguageServer):
    """The server's state: the engine workspaces and what was last published on each file."""

    def __init__(self) -> None:
        super().__init__("tritonlint", __version__, protocol_cls=Protocol)
        self.projects = Projects()
        self.folders: list[Path] = []
        #: The URI the client uses for each open file.
        self.uris: dict[Path, str] = {}
        #: Per workspace (by id), the workspace and the checks of it.
        self._checks: dict[int, tuple[Project, Checks]] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        #: Per workspace, models checked again whose findings are not published yet.
        self._unpublished: dict[int, set[str]] = {}
        #: Per workspace, files to publish with the next check even if their model was not
        #: checked again (open documents, edited or closed).
        self._also: dict[int, set[Path]] = {}
        self.debounce = debounce()
        #: Standard input, when the event loop reads it (see :meth:`start_io`).
        self.reader: PipeReader | None = None
        #: The client pulls diagnostics (``textDocument/diagnostic``) instead of being sent them
        #: (it can, and can be asked to pull again: see :func:`.protocol.pulls`).
        self.pull = False
        #: Set once the editor's settings asked for at start-up are in place (and with them the
        #: repositories of the workspace folders): nothing is checked before, so that no finding
        #: of the default options is shown (a pulling client that cannot be asked to pull again
        #: would keep it until the next edit).
        self.configured = asyncio.Event()

    # -- the connection ---------------------------------------------------------------------------

    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """Serve over standard input and output; a pipe is read by the event loop itself
        (see :mod:`tritonlint.lsp.stdio`), anything else as pygls reads it, in a thread.
        Either way, the messages are taken out of their frames and read here, skipping what
        is not a message (:func:`tritonlint.lsp.stdio.serve`)."""
        source = stdin or sys.stdin.buffer
        stop = stop_event(self)
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        try:
            asyncio.run(self._serve(source, stop))
        except BrokenPipeError:
            logging.getLogger(__name__).error("the client is gone: shutting down")
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            self.shutdown()  # type: ignore[no-untyped-call]  # pygls, untyped

    async def _serve(self, source: BinaryIO, stop: threading.Event) -> None:
        reader: Reader
        if is_pipe(source):
            reader = self.reader = await PipeReader.open(source)
        else:
            reader = StdinAsyncReader(source, self.thread_pool)
        protocol = self.protocol
        assert isinstance(protocol, Protocol)
        await serve(stop, reader, partial(protocol.receive, skipped=self.skipped), self.skipped)

    def input_waiting(self) -> bool:
        """Whether messages from the client are waiting to be handled."""
        return self.reader is not None and self.reader.waiting()

    # -- telling the user ------------------------------------------------------------------------

    def log(self, message: str, kind: types.MessageType = types.MessageType.Info) -> None:
        self.window_log_message(types.LogMessageParams(type=kind, message=message))

    def skipped(self, what: str) -> None:
        """Log what the client sent that is not a message, and was skipped."""
        self.log(f"tritonlint: skipped input from the client: {what}", types.MessageType.Warning)

    def report_server_error(self, error: Exception, source: Any) -> None:
        """Log a failing handler's error and go on (the default shows a message box); a
        request for a method the server does not serve, or with params it refuses, is the
        client's, not an internal error (it is answered with MethodNotFound or InvalidParams)."""
        if isinstance(error, (JsonRpcMethodNotFound, JsonRpcInvalidParams)):
            self.log(f"tritonlint: {error.message}", types.MessageType.Warning)
            return
        trace = "".join(traceback.format_exception(type(error), error, error.__traceback__))
        self.log(
            f"tritonlint: internal error (please report it):\n{trace}", types.MessageType.Error
        )

    def tell_problems(self) -> None:
        """Log what went wrong reading settings, once each."""
        while self.projects.problems:
            self.log(self.projects.problems.pop(0), types.MessageType.Warning)

    # -- paths and texts ---------------------------------------------------------------------

    def uri_of(self, path: Path) -> str:
        return self.uris.get(path) or path.as_uri()

    @property
    def documents(self) -> Workspace:
        """pygls' workspace: the editor's documents (the texts the server checks are in the
        engine workspaces of :attr:`projects`)."""
        return self.workspace

    def text_of(self, uri: str) -> str:
        """The editor's text of the document ``uri``."""
        return self.documents.get_text_document(uri).source

    def open_texts(self) -> dict[Path, str]:
        """The editor's text of each open document."""
        return {path: self.text_of(uri) for path, uri in self.uris.items()}

    @property
    def encoding(self) -> types.PositionEncodingKind:
        """The position encoding agreed with the client."""
        return types.PositionEncodingKind(
            self.documents.position_encoding or types.PositionEncodingKind.Utf16
        )

    def positions(self, project: Project) -> Callable[[Path], Positions | None]:
        """Converters for the texts ``project`` checked (cached for one publication)."""
        encoding = self.encoding
        cache: dict[Path, Positions | None] = {}

        def positions(path: Path) -> Positions | None:
            if path not in cache:
                try:
                    text = project.workspace.text(path)
                except (OSError, ValueError):
                    text = None
                cache[path] = None if text is None else Positions(text, encoding)
            return cache[path]

        return positions

    def related_file(self, project: Project) -> Callable[[Path], Path | None]:
        """The file showing a related place of a finding of ``project`` (never a folder)."""
        return partial(related_file, repository=project.workspace.repository)

    # -- checking and publishing -------------------------------------------------------------

    def schedule(self, project: Project, delay: float = 0.0, also: Path | None = None) -> None:
        """Check ``project`` and publish: at once (or after ``delay`` without another
        request), or after the check of it that is running (see :class:`Checks`); ``also``:
        a file to publish even if its model was not checked again."""
        key = id(project)
        if also is not None:
            self._also.setdefault(key, set()).add(also)
        found = self._checks.get(key)
        if found is None or found[0] is not project:
            current = {id(p) for p in self.projects.by_key.values()}
            for gone in [k for k in self._checks if k not in current]:
                del self._checks[gone]  # a workspace replaced by new settings, or removed
            checks = Checks(lambda: self._check(project), self.input_waiting)
            found = self._checks[key] = (project, checks)
        found[1].request(delay)

    async def _check(self, project: Project) -> None:
        """Check ``project`` and publish what changed, unless its texts were edited meanwhile."""
        key = id(project)
        try:
            async with self._locks.setdefault(key, asyncio.Lock()):
                generation = project.generation
                result = await asyncio.to_thread(project.workspace.check)
                pending = self._unpublished.setdefault(key, set())
                pending.update(result.rechecked)
                if project.generation != generation:
                    return  # edited meanwhile: the check after this one publishes
                names = set(pending)
                pending.clear()
                shown_on_also: set[str] = set()
                for also in self._also.pop(key, ()):
                    shown_on_also |= self.models_showing(project, also)
                if self.pull:
                    # The client pulls the edited file itself; other files changed: ask it to.
                    if names - shown_on_also:
                        self.workspace_diagnostic_refresh(None)
                    return
                self.publish(project, result, names | shown_on_also, shown_on_also)
        except Exception as error:  # the server goes on; the user reads why in the log
            self.report_server_error(error, None)

    def models_showing(self, project: Project, path: Path) -> set[str]:
        """The models whose findings may be shown on ``path``."""
        repository = project.workspace.repository
        root = project.workspace.root
        if root is not None:  # a model's folder is the repository's folder of its name
            if not path.is_relative_to(root) or path == root:
                return set()
            model = repository.by_name.get(path.relative_to(root).parts[0])
            return {model.name} if model is not None and path.is_relative_to(model.path) else set()
        return {
            name
            for name, model in repository.by_name.items()
            if path == model.path / model.config_file or path.is_relative_to(model.path)
        }

    def publish(
        self,
        project: Project,
        result: CheckResult,
        names: set[str],
        first: frozenset[str] | set[str] = frozenset(),
    ) -> None:
        """Publish the diagnostics of every file of the models ``names``, those of the models
        ``first`` first (the edited ones: the user looks at them)."""
        repository = project.workspace.repository
        positions = self.positions(project)
        related = self.related_file(project)
        for name in sorted(names, key=lambda name: (name not in first, name)):
            model = repository.by_name.get(name)
            files = _files(result, model)
            before = project.published.get(name, set())
            project.published[name] = set(files)
            # An open document is published also when it is clean (the editor awaits it).
            shown = _files_of(model) | ({shown_file(model)} if model is not None else set())
            opened = {path for path in self.uris if path in shown}
            for path in sorted(before | set(files) | opened):
                self._publish_file(path, files.get(path, []), positions, related)

    def findings_on(self, project: Project, result: CheckResult, path: Path) -> list[Diagnostic]:
        """The findings shown on ``path`` (what a pull of its diagnostics answers)."""
        repository = project.workspace.repository
        found: list[Diagnostic] = []
        for name in sorted(self.models_showing(project, path)):
            found.extend(_files(result, repository.by_name.get(name)).get(path, []))
        return found

    async def run_current(
        self, project: Project, work: Callable[[], Callable[[], _T]]
    ) -> _T | None:
        """What ``work()`` (called here, on the event loop) returns when run in a thread, run
        again while texts ``project`` checks were edited meanwhile; None when they were each
        time (of :data:`TRIES`)."""
        for _ in range(TRIES):
            generation = project.generation
            done = await asyncio.to_thread(work())
            if project.generation == generation:
                return done
        return None

    def lock(self, project: Project) -> asyncio.Lock:
        """The lock held while ``project`` is checked (one check of a workspace at a time)."""
        return self._locks.setdefault(id(project), asyncio.Lock())

    async def check_now(self, project: Project) -> CheckResult | None:
        """A check of the current texts of ``project`` (None: they kept changing)."""
        async with self.lock(project):
            return await self.run_current(project, lambda: project.workspace.check)

    async def pull_document(self, uri: str, previous: str | None) -> types.DocumentDiagnosticReport:
        """The diagnostics of ``uri`` for a client that pulls them: checked now (what an edit
        changes is checked at once, without waiting for typing to stop)."""
        path = path_of(uri)
        if path is None:
            return types.RelatedFullDocumentDiagnosticReport(items=[])
        await self.configured.wait()
        project = self.projects.for_file(path)
        self.tell_problems()
        async with self._locks.setdefault(id(project), asyncio.Lock()):
            result = await asyncio.to_thread(project.workspace.check)
        if not self.pull:  # a client sent its diagnostics: send what this check re-checked
            self.publish_later(project, result)
        elif result.rechecked - self.models_showing(project, path):
            self.workspace_diagnostic_refresh(None)  # other files' findings may have changed
        positions = self.positions(project)
        related = self.related_file(project)
        found = self.findings_on(project, result, path)
        items = [to_lsp(d, path, positions, related) for d in found]
        result_id = _result_id(items)
        if previous == result_id:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
        return types.RelatedFullDocumentDiagnosticReport(items=items, result_id=result_id)

    async def pull_workspace(
        self, previous: Sequence[types.PreviousResultId]
    ) -> types.WorkspaceDiagnosticReport:
        """A report on every config file of every repository the server checks (and each
        open config outside them): the editor's text where it is open, else the disk's; one
        the client has a result id for that still holds is *unchanged*. A file the client
        has findings of that is reported no more (the template of a model that now has its
        config.pbtxt) is cleared."""
        await self.configured.wait()
        known = {entry.uri: entry.value for entry in previous}
        reports: list[types.WorkspaceDocumentDiagnosticReport] = []
        complete = True
        for key, project in sorted(self.projects.by_key.items()):
            if project.workspace.root is None and key not in self.uris:
                continue  # a loose config no longer open
            result = await self.check_now(project)
            if result is None:
                complete = False  # edited all along: the client keeps what it has
                continue
            if not self.pull:
                self.publish_later(project, result)
            reports.extend(self._workspace_reports(key, project, result, known))
        if complete:
            reported = {report.uri for report in reports}
            clean = _result_id([])
            reports.extend(
                types.WorkspaceFullDocumentDiagnosticReport(uri=uri, items=[], result_id=clean)
                for uri, result_id in sorted(known.items())
                if uri not in reported and result_id != clean
            )
        self.tell_problems()
        return types.WorkspaceDiagnosticReport(items=reports)

    def _workspace_reports(
        self, key: Path, project: Project, result: CheckResult, known: dict[str, str]
    ) -> list[types.WorkspaceDocumentDiagnosticReport]:
        """A report on each config file of ``project`` (the workspace ``key`` names)."""
        positions = self.positions(project)
        related = self.related_file(project)
        files: dict[Path, list[Diagnostic]] = {}
        if project.workspace.root is None:
            files[key] = []  # the loose config
        for model in project.workspace.repository.target_models():
            if model.loader is not None and project.workspace.root is not None:
                files.update({path: [] for path in _files_of(model)})
            for path, found in _files(result, model).items():
                files.setdefault(path, []).extend(found)
        reports: list[types.WorkspaceDocumentDiagnosticReport] = []
        for path, found in sorted(files.items()):
            uri = self.uri_of(path)
            document = self.documents.text_documents.get(uri) if path in self.uris else None
            version = document.version if document is not None else None
            items = [to_lsp(d, path, positions, related) for d in found]
            result_id = _result_id(items)
            if known.get(uri) == result_id:
                reports.append(
                    types.WorkspaceUnchangedDocumentDiagnosticReport(
                        uri=uri, result_id=result_id, version=version
                    )
                )
            else:
                reports.append(
                    types.WorkspaceFullDocumentDiagnosticReport(
                        uri=uri, items=items, result_id=result_id, version=version
                    )
                )
        return reports

    def publish_later(self, project: Project, result: CheckResult) -> None:
        """A check made to answer a request re-checked models: publish them (the scheduled
        check that does so would find nothing re-checked)."""
        if result.rechecked:
            self._unpublished.setdefault(id(project), set()).update(result.rechecked)
            self.schedule(project)

    def _publish_file(
        self,
        path: Path,
        found: list[Diagnostic],
        positions: Callable[[Path], Positions | None],
        related: Callable[[Path], Path | None],
    ) -> None:
        uri = self.uri_of(path)
        document = self.documents.text_documents.get(uri) if path in self.uris else None
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(
                uri=uri,
                diagnostics=[to_lsp(d, path, positions, related) for d in found],
                version=document.version if document is not None else None,
            )
        )

    # -- documents ---------------------------------------------------------------------------

    def edited(self, uri: str, delay: float, typed: bool = False) -> None:
        """The editor's text of ``uri`` was opened, saved or (``typed``) changed: check it.
        With ``run: onSave``, a typed change is not checked: the workspace keeps the text as
        last opened or saved (the editor features read the editor's text)."""
        path = path_of(uri)
        if path is None:
            return
        self.uris[path] = uri
        if typed and self.projects.editor.on_save:
            return
        project = self.projects.for_file(path)
        self.tell_problems()
        project.workspace.change(path, self.text_of(uri))
        project.generation += 1
        if self.configured.is_set():  # before, the start-up's reload checks every open text
            self.schedule(project, delay, also=path)

    def closed(self, uri: str) -> None:
        path = path_of(uri)
        if path is None:
            return
        project = self.projects.for_file(path)
        self.uris.pop(path, None)
        project.workspace.close(path)
        project.generation += 1
        self.schedule(project, also=path)

    def reload(self, editor: EditorSettings, force: bool = False) -> None:
        """New editor settings (or, ``force``, settings files): new workspaces (with the open
        texts), everything checked."""
        if editor == self.projects.editor and self.projects.by_key and not force:
            return
        old = self.projects
        self.projects = Projects(editor)
        for folder in self.folders:
            self.projects.add_repositories(folder)
        for uri in list(self.uris.values()):
            path = path_of(uri)
            if path is not None:
                text = self.text_of(uri)
                self.projects.for_file(path).workspace.open(path, text)
        self.tell_problems()
        for key, project in self.projects.by_key.items():
            if key in old.by_key:  # so that findings gone with the new options are cleared
                project.published = old.by_key[key].published
            self.schedule(project)

    # -- the disk and the workspace folders ------------------------------------------------------

    async def watch(self) -> None:
        """Ask the client to watch configs, settings files and the repositories (when it can
        register watchers; otherwise its own watchers report what changed)."""
        if not watching.can_register(self.client_capabilities):
            return
        roots = [key for key, p in self.projects.by_key.items() if p.workspace.root is not None]
        try:
            await self.client_register_capability_async(
                watching.registration(self.client_capabilities, roots)
            )
        except Exception as error:  # the client's own watchers, if any, still report changes
            self.log(f"tritonlint: could not register file watchers: {error}")

    def disk_changed(self, paths: list[Path]) -> None:
        """Files or folders changed on disk: re-read them and check what depends on them."""
        if any(watching.is_settings_file(path) for path in paths):
            self.reload(self.projects.editor, force=True)
            return
        touched: dict[int, Project] = {}
        for path in paths:
            if path in self.uris:
                continue  # the editor's text is checked, not the disk's
            for key, project in list(self.projects.by_key.items()):
                root = project.workspace.root
                if root is None and key == path:
                    project.workspace.refresh()
                elif root is not None and path.is_relative_to(root) and path != root:
                    project.workspace.refresh(path)
                    name = path.relative_to(root).parts[0]
                    self._unpublished.setdefault(id(project), set()).add(name)
                elif root is not None and root.is_relative_to(path):
                    project.workspace.refresh()  # the repository itself, or a folder above it
                    # Models gone with it are not checked again: clear what they showed.
                    self._unpublished.setdefault(id(project), set()).update(project.published)
                else:
                    continue
                touched[id(project)] = project
            if not touched and path.name == "config.pbtxt" and path.is_file():
                found = self.projects.in_repository(path)  # a model in a new repository
                if found is not None:
                    touched[id(found)] = found
        for project in touched.values():
            project.generation += 1
            self.schedule(project)

    async def folders_changed(self, added: list[Path], removed: list[Path]) -> None:
        """Workspace folders came or went: check the repositories of the new ones, forget
        (and clear the findings of) those of the removed ones that hold no open document."""
        for folder in removed:
            if folder in self.folders:
                self.folders.remove(folder)
            for key, project in list(self.projects.by_key.items()):
                inside = key.is_relative_to(folder)
                if not inside or any(path.is_relative_to(key) for path in self.uris):
                    continue
                del self.projects.by_key[key]
                for files in project.published.values():
                    for path in sorted(files):
                        if not self.pull:
                            self._publish_file(path, [], lambda _: None, lambda _: None)
        for folder in added:
            self.folders.append(folder)
            for project in self.projects.add_repositories(folder):
                self.schedule(project)
        self.tell_problems()
        await self.watch()


def _files(result: CheckResult, model: ModelFolder | None) -> dict[Path, list[Diagnostic]]:
    """A model's findings by the file each is shown on (a folder without config.pbtxt shows
    them on another of its files, see :mod:`tritonlint.lsp.placing`)."""
    files: dict[Path, list[Diagnostic]] = {}
    if model is not None:
        config = shown_file(model)
        for diagnostic in result.by_model.get(model.path, []):
            shown = shown_in(diagnostic, config)
            if shown is not None:
                files.setdefault(shown, []).append(diagnostic)
    return files


def _result_id(items: list[types.Diagnostic]) -> str:
    """A pulled report's result id: the same diagnostics, the same id."""
    return hashlib.sha256(repr(items).encode()).hexdigest()[:16]


def _files_of(model: ModelFolder | None) -> set[Path]:
    """A model's config files (its config.pbtxt and its alternative configs)."""
    if model is None:
        return set()
    return {m.path / m.config_file for m in (model, *model.alternatives)}
