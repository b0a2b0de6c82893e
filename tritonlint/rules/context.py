"""What a check sees: one model, its repository, and helpers to point at places."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from tritonlint.diagnostics import RelatedLocation
from tritonlint.repository.autofill import Completed, complete
from tritonlint.repository.model import ModelFolder, Repository
from tritonlint.rules.registry import Finding
from tritonlint.schema.source_map import Path as FieldPath
from tritonlint.span import Span


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

    @property
    def in_repository(self) -> bool:
        """False for a loose config file checked on its own (no folder layout to judge)."""
        return self.repository.root is not None

    @property
    def config(self) -> Any | None:
        """The bound ModelConfig when the file parsed without errors, else None.

        Checks of a config's content skip a config with syntax or schema errors: its meaning
        is uncertain, and those errors are reported already.
        """
        document = self.model.config
        if document is None or document.config is None or self.has_config_errors:
            return None
        return document.config

    @cached_property
    def has_config_errors(self) -> bool:
        from tritonlint.diagnostics import Severity
        from tritonlint.rules.registry import by_name

        document = self.model.config
        if document is None:
            return False
        return any(by_name(p.rule).severity is Severity.ERROR for p in document.problems)

    @cached_property
    def completed(self) -> Completed:
        return complete(self.model, self.config)

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
    ) -> Finding:
        """A finding at a field of this model's config."""
        return Finding(message, self.config_path, self.span(path, part), related)

    def about(self, path: Path, message: str) -> Finding:
        """A finding about a file or folder as a whole."""
        return Finding(message, path)

    def context_for(self, other: ModelFolder) -> ModelContext:
        return ModelContext(self.repository, other)

    def related_at(self, path: FieldPath, message: str, part: str = "value") -> RelatedLocation:
        return RelatedLocation(path=self.config_path, span=self.span(path, part), message=message)
