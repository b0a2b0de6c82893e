"""Which engine workspace checks a file, and with which options.

A repository found in the editor's workspace folders (as the command line finds them), or the
repository of a model whose config is opened, is checked by one engine
:class:`~tritonlint.engine.Workspace`; a ``.pbtxt`` outside every model folder by a workspace
of its own. Options come from the project's settings file, with the editor's settings
(``tritonlint.tritonVersion``, ``select``, ``ignore``) over them; ``run`` says when
an edited document is checked.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from tritonlint.engine import LintOptions, Workspace, options_from_settings
from tritonlint.repository.walker import text_source
from tritonlint.schema.releases import resolve_release
from tritonlint.settings import Settings, SettingsError, load_settings


@dataclass(frozen=True)
class EditorSettings:
    """The ``tritonlint`` section of the editor's settings (None or empty: not given)."""

    triton_version: str | None = None
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    #: ``run: onSave``: a document is checked when opened and saved, not as it is typed.
    on_save: bool = False

    @classmethod
    def from_client(cls, section: object) -> EditorSettings:
        """Read what the client sent, leaving out values of the wrong type."""
        if not isinstance(section, dict):
            return cls()
        version = section.get("tritonVersion")
        return cls(
            version if isinstance(version, str) and version else None,
            _codes(section.get("select")),
            _codes(section.get("ignore")),
            section.get("run") == "onSave",
        )


def _codes(value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        value = value.split(",")
    if not isinstance(value, list):
        return ()
    return tuple(c.strip() for c in value if isinstance(c, str) and c.strip())


@dataclass
class Project:
    """One engine workspace, and the files whose findings were last published from it."""

    workspace: Workspace
    #: Model name -> the files its findings were last published on.
    published: dict[str, set[Path]] = field(default_factory=dict)
    #: Bumped by every change of a text this workspace checks.
    generation: int = 0


class Projects:
    """The engine workspaces of an editor session, made when first needed."""

    def __init__(self, editor: EditorSettings | None = None) -> None:
        self.editor = editor or EditorSettings()
        self.by_key: dict[Path, Project] = {}
        #: What went wrong reading settings, to be told to the user once each.
        self.problems: list[str] = []

    def add_repositories(self, folder: Path) -> list[Project]:
        """Make a workspace for each repository at or below ``folder``, and for those its
        settings file names."""
        from tritonlint.repository.discovery import find_repositories

        folder = Path(os.path.abspath(folder))
        settings = self._settings(folder)
        roots = [*find_repositories(folder), *settings.repository_paths]
        return [self._repository(root) for root in dict.fromkeys(roots) if root.is_dir()]

    def for_file(self, path: Path) -> Project:
        """The workspace that checks the config ``path`` (made when it is the first)."""
        source = text_source(path)
        if source.root is None:
            key = Path(os.path.abspath(path))
            if key not in self.by_key:
                workspace = Workspace(None, self.options(key), loose_file=key)
                self.by_key[key] = Project(workspace)
            return self.by_key[key]
        return self._repository(source.root)

    def in_repository(self, path: Path) -> Project | None:
        """The workspace of the repository holding the config ``path``, if it is in one."""
        source = text_source(path)
        return None if source.root is None else self._repository(source.root)

    def options(self, start: Path) -> LintOptions:
        """The options for what is at ``start``: its settings file's, the editor's over them."""
        settings = self._settings(start)
        requested = self.editor.triton_version or settings.triton_version
        try:
            release = resolve_release(requested)
        except ValueError as error:
            self._problem(f"tritonlint.tritonVersion: {error}")
            release = resolve_release(settings.triton_version)
        return options_from_settings(
            settings, release, select=self.editor.select or None, ignore=self.editor.ignore
        )

    def _repository(self, root: Path) -> Project:
        root = Path(os.path.abspath(root))
        if root not in self.by_key:
            self.by_key[root] = Project(Workspace(root, self.options(root)))
        return self.by_key[root]

    def _settings(self, start: Path) -> Settings:
        try:
            return load_settings(start)
        except SettingsError as error:
            self._problem(str(error))
            return Settings()

    def _problem(self, message: str) -> None:
        if message not in self.problems:
            self.problems.append(message)
