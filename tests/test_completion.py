"""``tritonlint completion bash|zsh|fish``: scripts that the shells load and complete with."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

import pytest
from helpers import run_process

from tritonlint.cli import main
from tritonlint.cli.dispatch import _parser

ROOT = Path(__file__).resolve().parents[1]
#: The command that prints a script, as a shell runs it.
PRINT = f'"{sys.executable}" -m tritonlint completion'


def shell(program: str, script: str, cwd: Path) -> str:
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = run_process([program, "-c", script], cwd=cwd, env=environment, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture
def cwd(tmp_path: Path) -> Path:
    (tmp_path / "models").mkdir()
    (tmp_path / "report.json").write_text("")
    return tmp_path


#: (the words typed, the last one being completed) -> what bash offers.
BASH_CASES = [
    (["--for"], "--format"),
    (["--format", ""], "text full concise json sarif github junit gitlab"),
    (["--format", "j"], "json junit"),
    (["--output-format", "c"], "concise"),
    (["--color", ""], "auto always never"),
    (["--fail-on", "w"], "warning"),
    (["ch"], "check"),
    (["mod"], "models"),
    (["check", "models", "--co"], "--color"),
    (["models", "-q", "--ex"], "--exit-zero --extend-select"),
    (["-o", "rep"], "report.json"),
    (["explain", "TL10"], "TL101 TL102 TL103 TL104 TL105 TL106 TL107 TL108 TL109"),
    (["completion", ""], "bash zsh fish"),
    (["smoke", "--format", "s"], "sarif"),
    (["smoke", "--sh"], "--shard"),
    (["rep"], "report report.json"),
    (["report", "m"], "merge models"),
    (["report", "merge", "r"], "report.json"),
    (["report", "merge", "--format", ""], "json sarif junit"),
    (["rules", "--"], "--help --markdown --markdown-packs"),
    (["models", "--fix", "--fol"], "--follow-outside-links"),
    (["format", "--fol"], "--follow-outside-links"),
]


def test_bash_completion(cwd: Path) -> None:
    tries = "\n".join(
        f"COMP_WORDS=(tritonlint {' '.join(repr(w) for w in words)}); "
        f"COMP_CWORD={len(words)}; COMPREPLY=(); _tritonlint; "
        'echo "${COMPREPLY[*]}"'
        for words, _ in BASH_CASES
    )
    out = shell("bash", f"source <({PRINT} bash)\ncomplete -p tritonlint\n{tries}", cwd)
    lines = out.splitlines()
    assert lines[0] == "complete -o filenames -F _tritonlint tritonlint"
    assert lines[1:] == [expected for _, expected in BASH_CASES]


def test_the_scripts_know_every_option_of_the_parser(capsys: pytest.CaptureFixture[str]) -> None:
    parser = _parser()
    [commands] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    scripts = {}
    for name in ("bash", "zsh", "fish"):
        assert main(["completion", name]) == 0
        scripts[name] = capsys.readouterr().out
    assert scripts["zsh"].startswith("#compdef tritonlint\n")
    for command, sub in commands.choices.items():
        assert f"-a {command} " in scripts["fish"]
        for action in sub._actions:
            for flag in action.option_strings:
                assert flag in scripts["bash"], (command, flag)
                fish_flag = f"-l {flag[2:]}" if flag.startswith("--") else f"-s {flag[1:]}"
                assert fish_flag in scripts["fish"], (command, flag)


def test_an_unknown_shell_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["completion", "powershell"]) == 2
    assert "invalid choice: 'powershell'" in capsys.readouterr().err


#: What is typed after ``tritonlint `` -> the words fish offers.
FISH_CASES = [
    ("--for", ["--format"]),
    ("--format j", ["json", "junit"]),
    ("ch", ["check"]),
    ("mod", ["models/"]),
    (
        "explain TL10",
        ["TL101", "TL102", "TL103", "TL104", "TL105", "TL106", "TL107", "TL108", "TL109"],
    ),
    ("smoke --format s", ["sarif"]),
]


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed")
def test_fish_completion(cwd: Path) -> None:
    tries = "; echo ---\n".join(f'complete -C "tritonlint {typed}"' for typed, _ in FISH_CASES)
    blocks = [
        [line.split("\t")[0] for line in block.strip().splitlines()]
        for block in shell("fish", f"{PRINT} fish | source\n{tries}\n", cwd).split("---")
    ]
    assert blocks == [expected for _, expected in FISH_CASES]


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed")
def test_zsh_loads_the_script(cwd: Path) -> None:
    """zsh's bashcompinit runs the bash script (zsh itself then keeps the words that match)."""
    script = (
        f"autoload -U compinit && compinit -u\nsource <({PRINT} zsh)\n"
        "setopt ksharrays\n"
        "COMP_WORDS=(tritonlint --format ''); COMP_CWORD=2; _tritonlint\n"
        'echo "${COMPREPLY[@]}"\n'
        "echo ${_comps[tritonlint]}\n"
    )
    assert shell("zsh", script, cwd).splitlines() == [
        "text full concise json sarif github junit gitlab",
        "_bash_complete -o filenames -F _tritonlint",
    ]
