"""What a check sees (one model, its repository, and helpers to point at places) and what it
yields (findings)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, cast

from tritonlint.diagnostics import Fix, RelatedLocation
from tritonlint.repository.backend_auto_complete import AutoCompletion, auto_complete, may_complete
from tritonlint.repository.backend_model_file import ModelFile, model_file
from tritonlint.repository.graph import DependencyGraph
from tritonlint.repository.model import ModelFolder, Repository
from tritonlint.repository.server_fill_in import Completed, complete
from tritonlint.rules.reads import DoubtfulRead, ReadLog, TrackedMessage
from tritonlint.schema.releases import release_of
from tritonlint.schema.source_map import Path as FieldPath
from tritonlint.span import Span

if TYPE_CHECKING:
    from google.protobuf.descriptor import Descriptor

    from tritonlint.schema.config_types import ModelConfig


class Finding(NamedTuple):
    """What a check yields: a message about a place. The rule adds its code and severity."""

    message: str
    path: Path
    span: Span | None = None
    related: tuple[RelatedLocation, ...] = ()
    #: Edits that resolve the finding, for ``--fix`` and the editor's code actions.
    fixes: tuple[Fix, ...] = ()
    #: The field of the model's config the finding is about (None: a file or folder).
    field: FieldPath | None = None


@dataclass
class RepositoryContext:
    repository: Repository

    @property
    def root(self) -> Path | None:
        return self.repository.root


@dataclass
class ModelContext:
    repository: Repository
    model: ModelFolder
    #: Shared by every context a check looks through (its model's and the models it runs).
    log: ReadLog = field(default_factory=ReadLog)
    _completed: tuple[Completed, tuple[DoubtfulRead, ...]] | None = field(
        default=None, init=False, repr=False
    )
    _config: tuple[ModelConfig | None] | None = field(default=None, init=False, repr=False)
    _model_file: tuple[ModelFile | None] | None = field(default=None, init=False, repr=False)
    _auto_completion: tuple[AutoCompletion | None] | None = field(
        default=None, init=False, repr=False
    )

    @property
    def in_repository(self) -> bool:
        """False for a loose config file checked on its own (no folder layout to judge)."""
        return self.repository.root is not None

    @property
    def release(self) -> str | None:
        """The Triton release the config was checked against: the one whose schema bound it
        (None: no config was bound)."""
        document = self.model.config
        if document is None or document.bound is None:
            return None
        return release_of(cast("Descriptor", document.bound.message.DESCRIPTOR))

    @property
    def graph(self) -> DependencyGraph:
        return self.repository.graph

    @property
    def config(self) -> ModelConfig | None:
        """The bound ModelConfig, or None when there is none or it has syntax errors.

        Checks of a config's content skip a config with syntax errors: where the parser had
        to guess, its meaning is uncertain, and those errors are reported already. A config
        with schema problems is read through a :class:`TrackedMessage`, so that a finding
        that rests on a value the binder left out is not reported.
        """
        if self._config is None:
            self._config = (self._read_config(),)
        return self._config[0]

    def _read_config(self) -> ModelConfig | None:
        document = self.model.config
        if document is None or document.config is None or document.has_syntax_errors:
            return None
        if document.doubts:
            reader = self.log.reader(document)
            return cast("ModelConfig", TrackedMessage(document.config, (), document.doubts, reader))
        return cast("ModelConfig", document.config)

    @property
    def completed(self) -> Completed:
        """The platform, backend and model file name the server completes (read once)."""
        if self._completed is None:
            before = len(self.log.reads)
            value = complete(self.model, self.config)
            self._completed = (value, tuple(self.log.reads[before:]))
        value, reads = self._completed
        self.log.reads.extend(reads)
        return value

    @property
    def model_file(self) -> ModelFile | None:
        """The newest version's model file and what it declares (None: nothing to read)."""
        if self._model_file is None:
            self._model_file = (model_file(self.model, self.completed, self.config),)
        return self._model_file[0]

    @property
    def auto_completion(self) -> AutoCompletion | None:
        """What the backend's auto-complete adds to the config from the model file (None:
        nothing, or a config with syntax or schema errors, which the server does not load)."""
        if self._auto_completion is None:
            document = self.model.config
            config, backend = self.config, self.completed.backend
            written = document is None or (config is not None and not document.doubts)
            self._auto_completion = (
                auto_complete(config, backend, self.model_file, self.model.path)
                if written and may_complete(config, backend)  # (reads no model file needlessly)
                else None,
            )
        return self._auto_completion[0]

    @property
    def loaded_config(self) -> ModelConfig | None:
        """The config as the server validates it: :attr:`config` with what the backend's
        auto-complete adds. The fields it adds have no place in the config's text."""
        completion = self.auto_completion
        return completion.config if completion is not None else self.config

    @property
    def name(self) -> str:
        """The model's name as the server will know it (the folder name)."""
        config = self.config
        return config.name if config is not None and config.name else self.model.name

    @property
    def config_path(self) -> Path:
        document = self.model.config
        return document.path if document is not None else self.model.config_path

    def span(self, path: FieldPath, part: str = "value") -> Span | None:
        """The span of a field (``part``: "value", "name" or "field") or its closest parent."""
        document = self.model.config
        if document is None or document.bound is None:
            return None
        location = document.bound.source_map.nearest(path)
        if location is None:
            return None
        return getattr(location, part)  # type: ignore[no-any-return]

    def located(self, path: FieldPath) -> bool:
        """Whether the config sets exactly this field (not only a parent of it)."""
        document = self.model.config
        return (
            document is not None
            and document.bound is not None
            and document.bound.source_map.get(path) is not None
        )

    def at(
        self,
        path: FieldPath,
        message: str,
        part: str = "value",
        related: tuple[RelatedLocation, ...] = (),
        fixes: tuple[Fix, ...] = (),
    ) -> Finding:
        """A finding at a field of this model's config."""
        return Finding(message, self.config_path, self.span(path, part), related, fixes, path)

    def about(self, path: Path, message: str, fixes: tuple[Fix, ...] = ()) -> Finding:
        """A finding about a file or folder as a whole."""
        return Finding(message, path, fixes=fixes)

    def shown(self, path: Path) -> str:
        """``path`` as a message names it: from the repository's root, with forward slashes
        (outside a repository, from the model folder's parent), so that a message reads the
        same wherever the repository is."""
        base = self.repository.root or self.model.path.parent
        if path.is_relative_to(base):
            return path.relative_to(base).as_posix()
        return path.name

    def context_for(self, other: ModelFolder) -> ModelContext:
        """The context of another model, read within the same check (sharing its read log)."""
        return ModelContext(self.repository, other, self.log)

    def related_at(self, path: FieldPath, message: str, part: str = "value") -> RelatedLocation:
        return RelatedLocation(path=self.config_path, span=self.span(path, part), message=message)
