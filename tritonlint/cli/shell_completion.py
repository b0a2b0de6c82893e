"""``tritonlint completion bash|zsh|fish``: shell completion scripts, made from the command
line parser itself, so that they know every command and option the parser knows.

The scripts complete commands, options, the values of options that have a fixed set of them
(``--format``, ``--fail-on``, ...), file names where an option or argument takes a path, and
the extra words given for an argument (the rule codes of ``explain CODE``). As on the command
line, words before any command are those of ``check``. zsh runs the bash script through its
``bashcompinit``.
"""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

#: Metavariables of arguments that name a file or folder.
_PATH_METAVARS = ("FILE", "PATH", "REPO", "DIR")


class _Option(NamedTuple):
    flags: tuple[str, ...]
    help: str
    takes_value: bool
    #: The values it takes (empty: any) ...
    values: tuple[str, ...]
    #: ... or whether the value is a path.
    path: bool


class _Command(NamedTuple):
    name: str
    help: str
    options: tuple[_Option, ...]
    #: The words its positional argument takes (empty: none, or any) ...
    words: tuple[str, ...]
    #: ... or whether it takes paths.
    paths: bool


def _is_path(action: argparse.Action) -> bool:
    return action.type is Path or str(action.metavar or "") in _PATH_METAVARS


def _options(parser: argparse.ArgumentParser) -> tuple[_Option, ...]:
    return tuple(
        _Option(
            flags=tuple(action.option_strings),
            help=" ".join((action.help or "").split()),
            takes_value=action.nargs != 0,
            values=tuple(str(choice) for choice in action.choices or ()),
            path=_is_path(action),
        )
        for action in parser._actions
        if action.option_strings and action.help != argparse.SUPPRESS
    )


def _commands(
    parser: argparse.ArgumentParser, words: Mapping[str, Sequence[str]]
) -> list[_Command]:
    commands: list[_Command] = []
    for action in parser._actions:
        if not isinstance(action, argparse._SubParsersAction):
            continue
        helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
        for name, sub in action.choices.items():
            positionals = [a for a in sub._actions if not a.option_strings]
            choices = tuple(str(c) for a in positionals for c in a.choices or ())
            commands.append(
                _Command(
                    name=name,
                    help=helps.get(name, ""),
                    options=_options(sub),
                    words=choices or tuple(words.get(name, ())),
                    paths=any(_is_path(a) for a in positionals),
                )
            )
    return commands


def completion_script(
    parser: argparse.ArgumentParser,
    shell: str,
    default_command: str,
    words: Mapping[str, Sequence[str]] | None = None,
) -> str:
    """The completion script of ``parser``'s program for ``shell``.

    ``default_command`` is the command that words before any command belong to; ``words``
    gives, by command, words its positional argument takes besides paths.
    """
    program = parser.prog
    commands = _commands(parser, words or {})
    top = _options(parser)
    if shell == "fish":
        return _fish(program, top, commands, default_command)
    script = _bash(program, top, commands, default_command)
    if shell == "zsh":
        return f"#compdef {program}\nautoload -U +X bashcompinit && bashcompinit\n{script}"
    return script


def _words(words: Iterable[str]) -> str:
    return shlex.quote(" ".join(words))


def _bash_command(command: _Command, extra: Sequence[_Option] = ()) -> list[str]:
    """The bash case branch that completes the words of one command."""
    options = [*extra, *command.options]
    lines = ['            case "$prev" in']
    for option in options:
        if not option.takes_value:
            continue
        if option.values:
            reply = f'COMPREPLY=($(compgen -W {_words(option.values)} -- "$cur"))'
        elif option.path:
            reply = 'COMPREPLY=($(compgen -f -- "$cur"))'
        else:
            reply = "COMPREPLY=()"
        lines.append(f"                {'|'.join(option.flags)}) {reply}; return ;;")
    flags = dict.fromkeys(flag for option in options for flag in option.flags)
    lines += [
        "            esac",
        '            if [[ "$cur" == -* ]]; then',
        f'                COMPREPLY=($(compgen -W {_words(flags)} -- "$cur"))',
    ]
    # Its words (``report merge``), its paths (``smoke REPO``), or both (``report merge FILE``).
    replies = []
    if command.words:
        replies.append(f'$(compgen -W {_words(command.words)} -- "$cur")')
    if command.paths:
        replies.append('$(compgen -f -- "$cur")')
    if replies:
        lines += ["            else", f"                COMPREPLY=({' '.join(replies)})"]
    lines.append("            fi")
    return lines


def _bash(program: str, top: Sequence[_Option], commands: Sequence[_Command], default: str) -> str:
    function = "_" + program.replace("-", "_")
    names = [command.name for command in commands]
    lines = [
        f"# bash completion for {program}; load it with: source <({program} completion bash)",
        f"{function}() {{",
        '    local cur="${COMP_WORDS[COMP_CWORD]}" prev="" command="" i',
        '    (( COMP_CWORD > 0 )) && prev="${COMP_WORDS[COMP_CWORD-1]}"',
        "    for (( i = 1; i < COMP_CWORD; i++ )); do",
        '        case "${COMP_WORDS[i]}" in',
        f'            {"|".join(names)}) command="${{COMP_WORDS[i]}}"; break ;;',
        "        esac",
        "    done",
        "    if [[ -z $command && $COMP_CWORD -eq 1 && $cur != -* ]]; then",
        f'        COMPREPLY=($(compgen -W {_words(names)} -- "$cur") $(compgen -f -- "$cur"))',
        "        return",
        "    fi",
        '    case "${command:-' + default + '}" in',
    ]
    for command in commands:
        lines.append(f"        {command.name})")
        extra = top if command.name == default else ()
        lines += _bash_command(command, extra)
        lines.append("            ;;")
    lines += [
        "    esac",
        "}",
        f"complete -o filenames -F {function} {program}",
        "",
    ]
    return "\n".join(lines)


def _fish(program: str, top: Sequence[_Option], commands: Sequence[_Command], default: str) -> str:
    names = " ".join(command.name for command in commands)
    lines = [
        f"# fish completion for {program}; load it with: {program} completion fish | source",
        f"complete -c {program} -f",
    ]
    for command in commands:
        lines.append(
            f"complete -c {program} -n 'not __fish_seen_subcommand_from {names}' "
            f"-a {command.name} -d {shlex.quote(command.help)}"
        )
    lines += _fish_options(program, "", top)
    for command in commands:
        condition = f"__fish_seen_subcommand_from {command.name}"
        if command.name == default:
            condition = f"{condition}; or not __fish_seen_subcommand_from {names}"
        lines += _fish_options(program, condition, command.options)
        if command.words:
            lines.append(
                f"complete -c {program} -n {shlex.quote(condition)} "
                f"-a {shlex.quote(' '.join(command.words))}"
            )
        if command.paths:
            lines.append(f"complete -c {program} -n {shlex.quote(condition)} -F")
    return "\n".join(lines) + "\n"


def _fish_options(program: str, condition: str, options: Sequence[_Option]) -> list[str]:
    lines = []
    for option in options:
        parts = [f"complete -c {program}"]
        if condition:
            parts.append(f"-n {shlex.quote(condition)}")
        for flag in option.flags:
            parts.append(f"-l {flag[2:]}" if flag.startswith("--") else f"-s {flag[1:]}")
        if option.values:
            parts.append(f"-x -a {shlex.quote(' '.join(option.values))}")
        elif option.path:
            parts.append("-r -F")
        elif option.takes_value:
            parts.append("-x")
        parts.append(f"-d {shlex.quote(option.help)}")
        lines.append(" ".join(parts))
    return lines
