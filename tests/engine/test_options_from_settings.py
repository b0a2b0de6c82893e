"""The options of a check from a settings file and what a front end was told, as the command
line and the language server both make them."""

from __future__ import annotations

from pathlib import Path

from tritonlint.diagnostics import Severity
from tritonlint.engine import options_from_settings
from tritonlint.settings import Settings

SETTINGS = Settings(
    path=Path("/project/.tritonlint.toml"),
    select=("TL1",),
    extend_select=("TL505",),
    ignore=("TL101",),
    per_file_ignores={"legacy/**": ("TL2",)},
    severity={"TL102": Severity.WARNING},
    exclude=("scratch/**",),
)


def test_without_overrides_the_settings_file_decides() -> None:
    options = options_from_settings(SETTINGS, "2.51.0")
    assert (options.select, options.extend_select, options.ignore) == (
        ("TL1",),
        ("TL505",),
        ("TL101",),
    )
    assert options.triton_version == "2.51.0"
    assert options.per_file_ignores == {"legacy/**": ("TL2",)}
    assert options.severity == {"TL102": Severity.WARNING}
    assert options.exclude == ("scratch/**",)
    assert options.root == Path("/project")
    assert not options.follow_outside_links


def test_a_selection_replaces_the_files_select_and_extend_select() -> None:
    options = options_from_settings(SETTINGS, "2.51.0", select=("TL4",), extend_select=("TL3",))
    assert (options.select, options.extend_select) == (("TL4",), ("TL3",))


def test_extend_select_and_ignore_add_to_the_files() -> None:
    options = options_from_settings(
        SETTINGS, "2.51.0", extend_select=("TL3",), ignore=("TL201",), follow_outside_links=True
    )
    assert options.select == ("TL1",)
    assert options.extend_select == ("TL505", "TL3")
    assert options.ignore == ("TL101", "TL201")
    assert options.follow_outside_links
