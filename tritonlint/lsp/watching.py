"""What the server asks the editor to watch on disk, and what a change there means.

The editor watches files for the server (``workspace/didChangeWatchedFiles``): configs
anywhere, the settings files, and everything under each repository (version folders, model
files, renamed model folders). Where the client can register watchers dynamically the server
registers these; otherwise it relies on the watchers the client sets up itself.
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

#: The files whose change means the options must be read again.
SETTINGS_FILES = frozenset({".tritonlint.toml", "pyproject.toml"})

#: The id of the server's watcher registration.
REGISTRATION_ID = "tritonlint-watched-files"


def can_register(capabilities: types.ClientCapabilities) -> bool:
    """Whether the client registers file watchers when the server asks."""
    workspace = capabilities.workspace
    watched = workspace.did_change_watched_files if workspace is not None else None
    return bool(watched is not None and watched.dynamic_registration)


def watchers(
    capabilities: types.ClientCapabilities, repositories: list[Path]
) -> list[types.FileSystemWatcher]:
    """Configs and settings files anywhere, and every file and folder in ``repositories``."""
    globs: list[str | types.RelativePattern] = [
        "**/*.pbtxt",
        "**/config.pbtxt",
        *(f"**/{name}" for name in sorted(SETTINGS_FILES)),
    ]
    workspace = capabilities.workspace
    watched = workspace.did_change_watched_files if workspace is not None else None
    relative = bool(watched is not None and watched.relative_pattern_support)
    for root in repositories:
        if relative:
            globs.append(types.RelativePattern(base_uri=root.as_uri(), pattern="**/*"))
        else:
            globs.append(f"{root.as_posix()}/**")
    return [types.FileSystemWatcher(glob_pattern=glob) for glob in globs]


def registration(
    capabilities: types.ClientCapabilities, repositories: list[Path]
) -> types.RegistrationParams:
    """The request registering :func:`watchers` (a newer one replaces it by its id)."""
    return types.RegistrationParams(
        registrations=[
            types.Registration(
                id=REGISTRATION_ID,
                method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                register_options=types.DidChangeWatchedFilesRegistrationOptions(
                    watchers=watchers(capabilities, repositories)
                ),
            )
        ]
    )


def is_settings_file(path: Path) -> bool:
    return path.name in SETTINGS_FILES
