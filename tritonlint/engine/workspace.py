"""A repository as the engine checks it: the disk, with the texts open in an editor on top.

A :class:`Workspace` remembers what it found. After an edit (:meth:`Workspace.change`) or a
change on disk (:meth:`Workspace.refresh`), the next :meth:`Workspace.check` re-reads only the
changed model and re-checks it and the models whose findings depend on it (the ensembles
that run it, directly or through other ensembles, and the models that share a rate-limiter
resource with them), and the models whose fixes edit the changed config (a model's rename
that renames the ensemble steps naming it: the edits must be placed in the config's new
text); every other model's findings are reused.

An edited text is parsed once (:meth:`Workspace.document`), for the checks and the editor
features alike, and from the document of the text before it: only the fields the edit
touched are read and bound again (see :func:`tritonlint.document.reparse_config`).

Every public method holds the workspace's lock, so a language server may call them from
several threads.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

from tritonlint.diagnostics import Diagnostic
from tritonlint.document import ConfigDocument, load_config, parse_config, reparse_config
from tritonlint.engine.alternatives import alternative_findings
from tritonlint.engine.checks import (
    first_error,
    folder_of,
    repository_diagnostics,
    walk_diagnostics,
)
from tritonlint.engine.model_check import ModelCheck, check_models
from tritonlint.engine.options import LintOptions
from tritonlint.repository.model import ConfigLoader, ModelFolder, Repository, WalkProblem
from tritonlint.repository.recognise import CONFIG_NAME, CONFIGS_FOLDER
from tritonlint.repository.walker import read_loose_file, read_model, read_repository
from tritonlint.rules.base import Rule
from tritonlint.rules.ensemble.across_models import composing_model_failures
from tritonlint.rules.registry import all_rules
from tritonlint.schema.releases import Schema, load_schema
from tritonlint.suppression import apply_suppressions


class CheckResult(NamedTuple):
    """What one :meth:`Workspace.check` found, and how much it had to re-check."""

    #: The reported findings of each checked model, by model folder.
    by_model: Mapping[Path, list[Diagnostic]]
    #: Findings about the repository itself, outside every model folder.
    repository: list[Diagnostic]
    #: The models this check looked at again (the others' findings were reused).
    rechecked: frozenset[str]
    #: The Triton release the configs were checked against.
    triton_version: str

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """Every reported finding, in report order."""
        found = [*self.repository]
        for diagnostics in self.by_model.values():
            found.extend(diagnostics)
        return sorted(found, key=lambda d: d.sort_key)

    def for_file(self, path: Path) -> list[Diagnostic]:
        """The findings located in one file."""
        path = Path(os.path.abspath(path))
        return [d for d in self.diagnostics if d.path == path]


class Workspace:
    """A model repository (or one loose config file) and what was found in it."""

    def __init__(
        self,
        root: Path | None,
        options: LintOptions | None = None,
        *,
        targets: frozenset[Path] | None = None,
        loose_file: Path | None = None,
        jobs: int = 1,
    ) -> None:
        """``root``: the repository folder (None for ``loose_file``, a config checked alone).

        ``targets``: the model folders to report on (default: every model); the others are
        read only as context, for the ensembles that run them. ``jobs``: how many worker
        processes a full check may use (see :func:`check_models`).
        """
        self.root = Path(os.path.abspath(root)) if root is not None else None
        self.options = options or LintOptions()
        self._targets = targets
        self._loose_file = Path(os.path.abspath(loose_file)) if loose_file else None
        self._jobs = jobs
        self._schema: Schema = load_schema(self.options.triton_version)
        self._rules: list[Rule] = all_rules()
        self._lock = threading.RLock()
        self._overlay: dict[Path, str | bytes] = {}
        self._documents: dict[Path, ConfigDocument] = {}
        #: The document of an open text before its last edits, until the new text is parsed
        #: (from it).
        self._earlier: dict[Path, ConfigDocument] = {}
        self._repository: Repository | None = None
        self._walk_problems: dict[str | None, list[WalkProblem]] = {}
        self._checks: dict[str, ModelCheck] = {}
        self._composing: dict[str, list[Diagnostic]] = {}
        self._reported: dict[str, list[Diagnostic]] = {}
        #: Each model's findings' fixes: the files they edit besides the finding's own.
        self._fix_edits: dict[str, frozenset[Path]] = {}
        #: Models to check again (None: all of them, after a full read).
        self._dirty: set[str] | None = None

    # -- the texts of open documents ----------------------------------------------------------

    def open(self, path: Path, text: str | bytes) -> None:
        """Check ``text`` in place of the file at ``path`` from now on (an editor's buffer).

        Bytes (such as standard input) are decoded and judged as the file's bytes would be:
        binary or non-UTF-8 contents are findings, not errors.
        """
        self.change(path, text)

    def change(self, path: Path, text: str | bytes) -> None:
        path = Path(os.path.abspath(path))
        with self._lock:
            checked = self._documents.get(path)
            self._overlay[path] = text
            if checked is None or checked.text != text:
                if checked is not None and isinstance(text, str) and checked.text is not None:
                    self._earlier[path] = checked
                self._config_changed(path)

    def close(self, path: Path) -> None:
        """Go back to the file on disk for ``path``."""
        path = Path(os.path.abspath(path))
        with self._lock:
            self._earlier.pop(path, None)
            if self._overlay.pop(path, None) is not None:
                self._config_changed(path)

    def text(self, path: Path) -> str | None:
        """The text the engine checks for ``path``: the open document's, else the file's."""
        path = Path(os.path.abspath(path))
        with self._lock:
            overlay = self._overlay.get(path)
            if isinstance(overlay, str):
                return overlay
            return self._document(path).text

    def document(self, path: Path) -> ConfigDocument:
        """The config at ``path`` as the engine checks it (the open document's text, else the
        file's), parsed and bound; the same document until the text changes."""
        with self._lock:
            return self._document(Path(os.path.abspath(path)))

    # -- the disk ------------------------------------------------------------------------------

    def refresh(self, path: Path | None = None) -> None:
        """Something changed on disk: at ``path`` (a file or folder), or anywhere (None)."""
        with self._lock:
            if path is None or self.root is None or self._repository is None:
                self._repository = None
                self._documents = {p: d for p, d in self._documents.items() if p in self._overlay}
                self._dirty = None
                return
            path = Path(os.path.abspath(path))
            self._documents.pop(path, None)
            self._mark_fixes_editing(path)
            try:
                name = path.relative_to(self.root).parts[0]
            except (ValueError, IndexError):
                self.refresh()  # the repository folder itself
                return
            self._reread_model(name)

    # -- checking ------------------------------------------------------------------------------

    def check(self) -> CheckResult:
        """Check what changed since the last check; report on every target model."""
        with self._lock:
            repository = self._read()
            changed = self._recheck(repository)
            return CheckResult(
                {
                    repository.by_name[name].path: found
                    for name, found in self._reported.items()
                    if name in repository.by_name and repository.is_target(repository.by_name[name])
                },
                self._repository_findings(repository),
                frozenset(changed),
                self._schema.release,
            )

    @property
    def repository(self) -> Repository:
        """The repository as last read (read now, if it never was)."""
        with self._lock:
            return self._read()

    # -- reading -------------------------------------------------------------------------------

    def _loader(self, path: Path) -> ConfigLoader:
        return lambda: self._document(path)

    def _document(self, path: Path) -> ConfigDocument:
        document = self._documents.get(path)
        if document is None:
            text = self._overlay.get(path)
            earlier = self._earlier.pop(path, None)
            if text is None:
                document = load_config(path, self._schema)
            elif isinstance(text, str) and earlier is not None:
                document = reparse_config(earlier, text, self._schema)
            else:
                document = parse_config(path, text, self._schema)
            self._documents[path] = document
        return document

    def _read(self) -> Repository:
        if self._repository is not None:
            return self._repository
        if self._loose_file is not None:
            repository = read_loose_file(self._loose_file, self._loader)
        else:
            assert self.root is not None
            repository = read_repository(self.root, self._loader, self._targets)
            for name in self._overlay_models():
                model = repository.by_name.get(name)
                if model is None:
                    self._add_unsaved_model(repository, name)
                elif model.loader is None:  # the text of a config missing on disk
                    loader = self._loader(model.config_path)
                    repository.by_name[name] = replace(model, loader=loader)
        self._walk_problems = {}
        for problem in repository.problems:
            self._walk_problems.setdefault(folder_of(repository, problem.path), []).append(problem)
        self._repository = repository
        self._dirty = None
        return repository

    def _overlay_models(self) -> set[str]:
        """Names of the model folders that open config documents belong to."""
        if self.root is None:
            return set()
        return {
            path.parent.name
            for path in self._overlay
            if path.name == CONFIG_NAME and path.parent.parent == self.root
        }

    def _add_unsaved_model(self, repository: Repository, name: str) -> None:
        """A model whose config is open in an editor but whose folder is not on disk (yet)."""
        assert self.root is not None
        folder = self.root / name
        repository.by_name[name] = ModelFolder(
            name, folder, loader=self._loader(folder / CONFIG_NAME)
        )
        repository.by_name = dict(sorted(repository.by_name.items(), key=_byte_order))
        repository.targets.add(folder)

    def _config_changed(self, path: Path) -> None:
        self._documents.pop(path, None)
        repository = self._repository
        if repository is None:
            return
        self._mark_fixes_editing(path)
        if self._loose_file is not None:
            if path == self._loose_file:
                self._repository = None
            return
        if self.root is not None and _is_alternative(path, self.root):
            self._reread_model(path.parent.parent.name)  # its configs/ is listed anew
            return
        if path.name != CONFIG_NAME or self.root is None or path.parent.parent != self.root:
            return
        name = path.parent.name
        model = repository.by_name.get(name)
        if model is None:
            self._add_unsaved_model(repository, name)
        elif path not in self._overlay and not model.path.is_dir():
            # An unsaved model's text was closed: the model never existed on disk.
            del repository.by_name[name]
            repository.targets.discard(model.path)
        else:
            readable = path in self._overlay or path.is_file()
            loader = self._loader(path) if readable else None
            repository.by_name[name] = replace(model, loader=loader, _config=None)
        self._mark_dirty(name)

    def _reread_model(self, name: str) -> None:
        repository = self._repository
        assert repository is not None and self.root is not None
        folder = self.root / name
        problems: list[WalkProblem] = []
        if folder.is_dir() and not name.startswith("."):
            targeted = self._targets is None or folder in self._targets
            if targeted or (folder / CONFIG_NAME).is_file():
                repository.by_name[name] = read_model(folder, self._loader, problems)
                repository.by_name = dict(sorted(repository.by_name.items(), key=_byte_order))
                if self._targets is None:
                    repository.targets.add(folder)
        elif (folder / CONFIG_NAME) in self._overlay:
            self._add_unsaved_model(repository, name)
        else:
            repository.by_name.pop(name, None)
            repository.targets.discard(folder)
        folders = set(repository.folder_names)
        if folder.is_dir():
            folders.add(name)
        else:
            folders.discard(name)
        repository.folder_names = frozenset(folders)
        repository.hidden_folders = [
            self.root / n for n in sorted(folders, key=os.fsencode) if n.startswith(".")
        ]
        self._walk_problems[name] = problems
        repository.problems = [p for found in self._walk_problems.values() for p in found]
        self._mark_dirty(name)

    def _mark_dirty(self, name: str) -> None:
        if self._dirty is not None:
            self._dirty.add(name)

    def _mark_fixes_editing(self, path: Path) -> None:
        """Check again the models with a fix that edits ``path`` (in another model's config)."""
        for name, paths in self._fix_edits.items():
            if path in paths:
                self._mark_dirty(name)

    # -- re-checking ---------------------------------------------------------------------------

    def _changed_models(self, repository: Repository) -> tuple[set[str], set[str]]:
        """The models changed since the last check, and the models that depended on them."""
        graph = repository.graph
        if self._dirty is None:
            self._dirty = set()
            self._checks, self._composing, self._reported = {}, {}, {}
            self._fix_edits = {}
            graph.clear()
            return _needed(repository), set()
        dirty, self._dirty = self._dirty, set()
        dependents = graph.dependents(dirty) - dirty
        for name in dirty:
            graph.remove(name)  # read again, from the new config, when next needed
        return dirty, dependents

    def _recheck(self, repository: Repository) -> set[str]:
        """Check the changed models and their dependents again; return their names."""
        graph = repository.graph
        dirty, dependents = self._changed_models(repository)
        if not dirty:
            return set()
        present = [name for name in sorted(dirty) if name in repository.by_name]
        whole = self._jobs > 1 and len(present) == len(repository.by_name)
        checked = check_models(repository, present, self._rules, self._jobs if whole else 1)
        for name, check in checked.items():
            graph.record(name, check.edges)
        dependents = (dependents | graph.dependents(dirty)) - dirty
        present = [name for name in sorted(dependents) if name in repository.by_name]
        checked.update(check_models(repository, present, self._rules, 1))
        changed = dirty | dependents
        for name in changed - checked.keys():
            self._checks.pop(name, None)
            self._composing.pop(name, None)
            self._reported.pop(name, None)
            self._fix_edits.pop(name, None)
        self._checks.update(checked)
        errors = {
            name: error
            for name, check in self._checks.items()
            if (error := first_error(check.findings)) is not None
        }
        ensembles = [name for name in checked if graph.steps(name)]
        self._composing.update(composing_model_failures(repository, errors, ensembles))
        for name in checked:
            self._reported[name] = self._report(repository, name)
            self._fix_edits[name] = _edited_elsewhere(self._reported[name])
        return changed

    def _report(self, repository: Repository, name: str) -> list[Diagnostic]:
        """One model's findings as the user sees them: suppressed, filtered, ordered."""
        check = self._checks[name]
        found = [
            *check.findings,
            *self._composing.get(name, ()),
            *walk_diagnostics(self._walk_problems.get(name, ())),
        ]
        if check.suppressions is not None:
            found = apply_suppressions(found, [check.suppressions])
        model = repository.by_name[name]
        found.extend(alternative_findings(repository, model, found, self._rules))
        return sorted(self.options.report(dict.fromkeys(found)), key=lambda d: d.sort_key)

    def _repository_findings(self, repository: Repository) -> list[Diagnostic]:
        found = [
            *walk_diagnostics(self._walk_problems.get(None, ())),
            *repository_diagnostics(repository, self._rules),
        ]
        return sorted(self.options.report(dict.fromkeys(found)), key=lambda d: d.sort_key)


def _needed(repository: Repository) -> set[str]:
    """The models a first check looks at: the targets, and every model their ensembles run.

    A model that is only context matters through its findings (a refused composing model
    refuses the ensemble), so those of the models the targets run, at any depth, are needed.
    """
    if repository.whole:
        return set(repository.by_name)
    pending = [model.name for model in repository.target_models()]
    needed: set[str] = set()
    while pending:
        name = pending.pop()
        if name in needed or name not in repository.by_name:
            continue
        needed.add(name)
        pending.extend(repository.graph.steps(name))
    return needed


def _edited_elsewhere(found: list[Diagnostic]) -> frozenset[Path]:
    """The files the fixes of ``found`` edit besides each finding's own file."""
    return frozenset(
        path
        for diagnostic in found
        for fix in diagnostic.fixes
        for path in fix.by_file(diagnostic.path)
        if path != diagnostic.path
    )


def _is_alternative(path: Path, root: Path) -> bool:
    """Whether ``path`` is an alternative config of a model of the repository at ``root``."""
    folder = path.parent
    return (
        folder.name == CONFIGS_FOLDER and folder.parent.parent == root and path.suffix == ".pbtxt"
    )


def _byte_order(item: tuple[str, ModelFolder]) -> bytes:
    return os.fsencode(item[0])
