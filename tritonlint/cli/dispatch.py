"""The parser of the ``tritonlint`` command line, and :func:`main`, which runs the command it
names: the one place where a :class:`~tritonlint.usage.UsageError` becomes one line on
standard error and exit status 2, and an unexpected exception a report of a bug."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tritonlint import __version__
from tritonlint.exit_status import EXIT_CLEAN, EXIT_USAGE
from tritonlint.report.console import reader_may_leave, rich_console
from tritonlint.usage import UsageError

if TYPE_CHECKING:
    Commands = argparse._SubParsersAction[argparse.ArgumentParser]

_COMMANDS = (
    "check",
    "format",
    "rules",
    "explain",
    "smoke",
    "report",
    "graph",
    "completion",
    "lsp",
)
#: The shells `tritonlint completion` writes a script for (tritonlint/cli/shell_completion.py).
SHELLS = ("bash", "zsh", "fish")


def _add_check(commands: Commands) -> None:
    from tritonlint.cli.check_options import add_check_command

    add_check_command(commands)


def _add_smoke(commands: Commands) -> None:
    from tritonlint.smoke.options import add_smoke_command

    add_smoke_command(commands)


def _add_report(commands: Commands) -> None:
    from tritonlint.cli.report_merge import add_report_command

    add_report_command(commands)


def _add_format(commands: Commands) -> None:
    from tritonlint.format.options import add_format_command

    add_format_command(commands)


def _add_graph(commands: Commands) -> None:
    from tritonlint.cli.graph import add_graph_command

    add_graph_command(commands)


def _add_rules(commands: Commands) -> None:
    from tritonlint.cli.rules_explain import add_rules_command

    add_rules_command(commands)


def _add_lsp(commands: Commands) -> None:
    lsp = commands.add_parser(
        "lsp",
        help="run the language server (for editors; see docs/editors.md)",
        description="Serve the Language Server Protocol on standard input and output.",
    )
    lsp.add_argument(
        "--stdio", action="store_true", help="talk over standard input and output (the default)"
    )


def _add_explain(commands: Commands) -> None:
    from tritonlint.cli.rules_explain import add_explain_command

    add_explain_command(commands)


def _add_completion(commands: Commands) -> None:
    completion = commands.add_parser(
        "completion",
        help="print a shell completion script",
        description="Print the completion script of tritonlint for a shell. bash: "
        "`source <(tritonlint completion bash)` (in ~/.bashrc); zsh: "
        "`source <(tritonlint completion zsh)` (in ~/.zshrc, after compinit); fish: "
        "`tritonlint completion fish > ~/.config/fish/completions/tritonlint.fish`.",
    )
    completion.add_argument("shell", choices=SHELLS, metavar="SHELL", help="bash, zsh or fish")


#: Each command's parser, in the order the help lists them.
_SUBPARSERS = {
    "check": _add_check,
    "smoke": _add_smoke,
    "report": _add_report,
    "graph": _add_graph,
    "format": _add_format,
    "rules": _add_rules,
    "lsp": _add_lsp,
    "explain": _add_explain,
    "completion": _add_completion,
}


def _parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with ``command``, only that command's options are built
    (the others are bare names), since a run parses one command and building every
    command's options (and importing their modules) is a good part of starting up."""
    parser = argparse.ArgumentParser(
        prog="tritonlint",
        description="Lint NVIDIA Triton Inference Server model repositories.",
    )
    parser.add_argument("--version", action="version", version=f"tritonlint {__version__}")
    commands = parser.add_subparsers(dest="command")
    for name, add in _SUBPARSERS.items():
        if command is None or name == command:
            add(commands)
        else:
            commands.add_parser(name)
    return parser


def _completion(parser: argparse.ArgumentParser, shell: str) -> int:
    from tritonlint.cli.shell_completion import completion_script
    from tritonlint.rules.registry import all_rules

    codes = [rule.code for rule in all_rules()]
    with reader_may_leave():
        print(completion_script(parser, shell, "check", {"explain": codes}), end="")
    return EXIT_CLEAN


def _run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Run the command ``args`` name; raises UsageError."""
    if args.command == "rules":
        from tritonlint.cli.rules_explain import run_rules

        return run_rules(args)
    if args.command == "explain":
        from tritonlint.cli.rules_explain import run_explain

        return run_explain(args.code)
    if args.command == "completion":
        return _completion(_parser(), args.shell)
    if args.command == "report":
        from tritonlint.cli.report_merge import run_report_merge

        return run_report_merge(args)
    if args.command == "graph":
        from tritonlint.cli.graph import run_graph

        return run_graph(args)
    if args.command == "lsp":
        from tritonlint.lsp.server import main as serve

        return serve()
    if args.command == "check":
        from tritonlint.cli.check import run_check

        return run_check(args)
    if args.command == "format":
        from tritonlint.format.command import run_format

        return run_format(args)
    if args.command == "smoke":
        from tritonlint.smoke.command import run_smoke_command

        return run_smoke_command(args, rich_console())
    parser.print_help()
    return EXIT_USAGE


def _misspelt_command(arguments: Sequence[str]) -> str | None:
    """What to say when the first argument is no path but close to a command's name."""
    if not arguments or arguments[0] in _COMMANDS or arguments[0].startswith("-"):
        return None
    first = arguments[0]
    if os.path.lexists(first):
        return None
    import difflib

    close = difflib.get_close_matches(first, _COMMANDS, n=1, cutoff=0.6)
    if not close:
        return None
    return f"{first!r} is neither a command nor a path; did you mean {close[0]!r}?"


def _implies_check(arguments: Sequence[str]) -> bool:
    """Whether the command line means ``check`` without saying so: no argument at all, a
    path (``-`` included) or an option of ``check`` first."""
    if not arguments:
        return True
    first = arguments[0]
    if first.startswith("-"):
        return first not in ("-h", "--help", "--version")
    return first not in _COMMANDS


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``tritonlint`` with ``argv`` (default: the process's arguments); the exit status."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    misspelt = _misspelt_command(arguments)
    if misspelt is not None:
        rich_console(stderr=True).print(f"tritonlint: error: {misspelt}", style="bold red")
        return EXIT_USAGE
    if _implies_check(arguments):
        arguments.insert(0, "check")
    parser = _parser(arguments[0] if arguments and arguments[0] in _SUBPARSERS else None)
    try:
        args = parser.parse_args(arguments)
    except SystemExit as done:  # --help, --version, or a usage error already printed
        return done.code if isinstance(done.code, int) else EXIT_USAGE
    try:
        return _run(parser, args)
    except UsageError as error:
        color = getattr(args, "color", "auto")
        rich_console(color, stderr=True).print(f"tritonlint: error: {error}", style="bold red")
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except Exception:
        import traceback

        errors = rich_console(stderr=True)
        errors.print(
            "tritonlint: internal error (this is a bug, please report it):", style="bold red"
        )
        errors.print(traceback.format_exc(), markup=False)
        return EXIT_USAGE
