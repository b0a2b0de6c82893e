"""The command line of ``tritonlint format`` (what it runs is in ``command``, imported
when it runs)."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_format_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    command = commands.add_parser(
        "format",
        help="format config files in one canonical layout",
        description="Format config.pbtxt files (and other text-format files named) in one "
        "canonical layout, comments kept; see docs/formatting.md. A file with a syntax error "
        "is left as it is.",
    )
    command.add_argument(
        "paths",
        nargs="*",
        type=Path,
        metavar="PATH",
        help="files, or folders whose configs to format as `tritonlint check` finds them "
        "(default: the settings' repositories, else the current folder); - formats standard "
        "input to standard output",
    )
    command.add_argument(
        "--check",
        action="store_true",
        help="write nothing; list the files that would change, and exit with status 1 if any",
    )
    command.add_argument(
        "--diff",
        action="store_true",
        help="write nothing; print the changes as a unified diff, and exit with status 1 if "
        "there are any",
    )
    command.add_argument(
        "--follow-outside-links",
        action="store_true",
        help="format a config that is a symbolic link to a file outside its repository too, "
        "writing through the link (by default it is skipped, with a warning)",
    )
    command.add_argument(
        "--stdin-filename",
        type=Path,
        metavar="PATH",
        help="format standard input to standard output, naming it PATH in messages",
    )
