"""Small helpers shared by the tests: build repositories on disk, lint them, pick findings."""

from __future__ import annotations

import itertools
import os
import shlex
import socket
import subprocess
import sys
import textwrap
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

import pytest
from model_notation import ModelDescription, write_model

from tritonlint.cli import main
from tritonlint.diagnostics import Applicability, Diagnostic, Fix, Severity, TextEdit
from tritonlint.engine import LintOptions, LintResult, lint_paths
from tritonlint.rules import registry
from tritonlint.rules.base import FixAvailability, fixable, rule
from tritonlint.rules.context import Finding, ModelContext
from tritonlint.span import Span
from tritonlint.tritonserver.ports import LOOPBACK


class Link(NamedTuple):
    """A symbolic link to ``target``."""

    target: str


class Latin1(NamedTuple):
    """Text saved as Latin-1 (no UTF-8: a file tritonserver cannot read)."""

    text: str


#: What a path of a tree is: text, bytes, a folder (None), a link, Latin-1 text or a model
#: file made from its description (tests/model_notation.py).
Content = str | bytes | Link | Latin1 | ModelDescription | None
Files = Mapping[str, Content]


def make_tree(root: Path, files: Files, *, verbatim: bool = False) -> Path:
    """Create ``files`` under ``root`` and return ``root``: the one way the tests write a tree.

    Keys are paths relative to ``root``. A ``str`` value is written as UTF-8 text, dedented
    and without its leading newlines (so that it can be written indented in a test) unless
    ``verbatim``; ``bytes`` are written as they are, ``None`` makes an empty folder, and
    :class:`Link`, :class:`Latin1` and :class:`~model_notation.ModelDescription` a symbolic
    link, a Latin-1 file and a model file.
    """
    root.mkdir(parents=True, exist_ok=True)
    for relative, content in files.items():
        path = root / relative
        if content is None:
            path.mkdir(parents=True, exist_ok=True)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, Link):
            path.symlink_to(content.target)
        elif isinstance(content, ModelDescription):
            write_model(path, content)
        elif isinstance(content, Latin1):
            path.write_bytes(content.text.encode("latin-1"))
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            text = content if verbatim else textwrap.dedent(content).lstrip("\n")
            path.write_bytes(text.encode("utf-8"))
    return root


def python_launcher(path: Path, script: Path) -> Path:
    """An executable ``path`` that runs ``script`` with this Python (a fake tritonserver)."""
    path.write_text(
        f"#!{sys.executable}\nimport runpy\nrunpy.run_path({str(script)!r}, run_name='__main__')\n"
    )
    path.chmod(0o755)
    return path


def run_cli(argv: Sequence[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``tritonlint argv`` in this process: its exit status, stdout and stderr."""
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def run_process(
    argv: Sequence[str],
    *,
    timeout: float,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    stdin: str | None = None,
) -> subprocess.CompletedProcess[str]:
    """``argv`` run as a process, its output captured as text; a failing exit status is the
    caller's to assert, not an exception."""
    return subprocess.run(
        list(argv),
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def report_workdir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: Files, *, columns: str = "400"
) -> Path:
    """``tmp_path`` as the working folder, with ``files`` under ``models/``, and no variable
    set that would change how a report looks (GitHub's annotations, colours, the width)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", columns)
    for name in ("GITHUB_ACTIONS", "FORCE_COLOR", "NO_COLOR", "TTY_COMPATIBLE"):
        monkeypatch.delenv(name, raising=False)
    make_tree(tmp_path / "models", files)
    return tmp_path


def register_rule(
    code: str,
    check: Callable[[ModelContext], Iterator[Finding]],
    applicability: Applicability = Applicability.SAFE,
) -> None:
    """Put a rule of the tests in the registry: an error whose fix, sometimes given, has
    ``applicability``. :func:`forget_rule` takes it out again."""
    declared = rule(
        code,
        f"test-rule-{code.lower()}",
        Severity.ERROR,
        fix=fixable(FixAvailability.SOMETIMES, applicability),
        summary="a rule of the tests",
        explanation="A rule of the tests.",
        bad="",
        good="",
    )(check)
    filed = declared.filed("tests")
    registry._BY_CODE[filed.code] = registry._BY_NAME[filed.name] = filed


def forget_rule(code: str) -> None:
    """Take the rule of ``code`` out of the registry."""
    del registry._BY_NAME[registry._BY_CODE.pop(code).name]


def port_in_use(port: int, host: str = LOOPBACK) -> bool:
    """Whether something still holds ``port`` (a listening or lingering socket): what a server
    that is gone must have released."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        # SO_REUSEADDR: connections lingering in TIME_WAIT do not count, only a live socket does.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return True
    return False


def lint(*paths: Path, **options: object) -> LintResult:
    """``lint_paths`` with keyword options (``select=("TL2",)``, ``triton_version="2.51"``)."""
    return lint_paths(list(paths), LintOptions(**options))  # type: ignore[arg-type]


def codes(result: LintResult | Iterable[Diagnostic]) -> list[str]:
    """The codes of all diagnostics, in report order."""
    return [d.code for d in _diagnostics(result)]


def codes_at(result: LintResult | Iterable[Diagnostic]) -> list[tuple[str, int | None, int | None]]:
    """``(code, line, column)`` of every diagnostic; line and column are None for a folder."""
    return [
        (d.code, d.span.line if d.span else None, d.span.column if d.span else None)
        for d in _diagnostics(result)
    ]


def with_code(result: LintResult | Iterable[Diagnostic], code: str) -> list[Diagnostic]:
    """The diagnostics of one code."""
    return [d for d in _diagnostics(result) if d.code == code]


def only(result: LintResult | Iterable[Diagnostic], code: str) -> Diagnostic:
    """The one diagnostic of ``code``; fails when there is none or more than one."""
    found = with_code(result, code)
    assert len(found) == 1, f"expected one {code}, got {codes_at(result)}"
    return found[0]


def position(diagnostic: Diagnostic) -> tuple[int, int] | None:
    """``(line, column)`` of a diagnostic, or None for a finding about a folder or file."""
    span = diagnostic.span
    return (span.line, span.column) if span else None


def errors(result: LintResult | Iterable[Diagnostic]) -> list[Diagnostic]:
    return [d for d in _diagnostics(result) if d.severity is Severity.ERROR]


def _diagnostics(result: LintResult | Iterable[Diagnostic]) -> list[Diagnostic]:
    return list(result.diagnostics if isinstance(result, LintResult) else result)


#: The config of a valid ONNX model.
ONNX_CONFIG = (
    'platform: "onnxruntime_onnx"\n'
    "max_batch_size: 8\n"
    'input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]\n'
    'output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]\n'
    "dynamic_batching { }\n"
)
#: A valid ONNX model: the config and the file the backend loads.
ONNX_MODEL: dict[str, str | bytes | None] = {"config.pbtxt": ONNX_CONFIG, "1/model.onnx": b""}


def model(name: str, files: Mapping[str, str | bytes | None]) -> dict[str, str | bytes | None]:
    """``files`` of one model, prefixed with its folder name, for :func:`make_tree`."""
    return {f"{name}/{path}": content for path, content in files.items()}


def onnx_ensemble(model_name: str) -> str:
    """The config of an ensemble whose one step runs the :data:`ONNX_MODEL` called
    ``model_name``: the ensemble's IN is that model's INPUT0, its OUTPUT0 the ensemble's OUT."""
    return (
        'platform: "ensemble"\n'
        "max_batch_size: 8\n"
        'input [ { name: "IN" data_type: TYPE_FP32 dims: [ 16 ] } ]\n'
        'output [ { name: "OUT" data_type: TYPE_FP32 dims: [ 16 ] } ]\n'
        "ensemble_scheduling { step [ {\n"
        f'  model_name: "{model_name}" model_version: -1\n'
        '  input_map { key: "INPUT0" value: "IN" }\n'
        '  output_map { key: "OUTPUT0" value: "OUT" }\n'
        "} ] }\n"
    )


#: Three models of a report: good; renamed (TL201, an error at 1:7 of its config); noversion
#: (TL212, an error about its folder).
GOOD_RENAMED_NOVERSION: dict[str, str | bytes | None] = {
    **model("good", ONNX_MODEL),
    **model("renamed", ONNX_MODEL),
    "renamed/config.pbtxt": 'name: "other"\n' + ONNX_CONFIG,
    "noversion/config.pbtxt": ONNX_CONFIG,
}


def locate(text: str, needle: str, nth: int = 1) -> tuple[int, int]:
    """1-based ``(line, column)`` of the ``nth`` occurrence of ``needle`` in ``text``.

    ``text`` is dedented as :func:`make_tree` writes it, so the position is the one in the file.
    """
    text = textwrap.dedent(text).lstrip("\n")
    index = -1
    for _ in range(nth):
        index = text.index(needle, index + 1)
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return line, column


def span_of(text: str, start: int, end: int) -> Span:
    """The span of ``text[start:end]``, its lines and columns counted from the offsets."""

    def line_and_column(offset: int) -> tuple[int, int]:
        return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1

    return Span(*line_and_column(start), *line_and_column(end), start, end)


def apply_edits(text: str, edits: Iterable[TextEdit]) -> str:
    """``text`` with ``edits`` applied by their offsets, the last one first.

    Fails when an edit's lines and columns disagree with its offsets, or when edits overlap.
    """
    ordered = sorted(edits, key=lambda edit: edit.span.start, reverse=True)
    for edit in ordered:
        assert edit.span == span_of(text, edit.span.start, edit.span.end), edit
    for later, earlier in itertools.pairwise(ordered):
        assert earlier.span.end <= later.span.start, f"{earlier} overlaps {later}"
    for edit in ordered:
        text = text[: edit.span.start] + edit.new_text + text[edit.span.end :]
    return text


def apply_fix(diagnostic: Diagnostic, fix: Fix | None = None) -> str:
    """Apply ``fix`` (default: the diagnostic's only fix) to the diagnostic's file; the new text."""
    if fix is None:
        assert len(diagnostic.fixes) == 1, diagnostic.fixes
        fix = diagnostic.fixes[0]
    text = diagnostic.path.read_bytes().decode("utf-8")
    fixed = apply_edits(text, fix.edits)
    diagnostic.path.write_bytes(fixed.encode("utf-8"))
    return fixed


def assert_fix_resolves(
    diagnostic: Diagnostic, *paths: Path, fix: Fix | None = None, **options: object
) -> str:
    """Apply the fix and lint ``paths`` again: the finding is gone and no error is new.

    Returns the fixed text.
    """
    before = lint(*paths, **options).diagnostics
    fixed = apply_fix(diagnostic, fix)
    after = lint(*paths, **options).diagnostics

    def counted(found: Iterable[Diagnostic]) -> Counter[tuple[str, str]]:
        return Counter((d.code, d.message) for d in found)

    key = (diagnostic.code, diagnostic.message)
    assert counted(after)[key] == counted(before)[key] - 1, codes_at(after)
    assert not counted(errors(after)) - counted(errors(before)), codes_at(after)
    return fixed


#: git hooks a repository could use to run its own commands.
GIT_HOOKS = (
    "pre-commit",
    "post-checkout",
    "post-index-change",
    "fsmonitor-watchman",
    "reference-transaction",
    "pre-auto-gc",
)


def armed_git_repository(folder: Path, marker: Path) -> None:
    """Make ``folder`` a git repository whose ``.git/config`` runs a command creating
    ``marker`` whenever git looks at its work tree: ``core.fsmonitor``, plus every hook in
    ``core.hooksPath`` and ``.git/hooks``. Proves the trap works (``git check-ignore``
    springs it), then removes ``marker``."""
    environ = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
    environ["GIT_CONFIG_NOSYSTEM"] = "1"
    subprocess.run(["git", "init", "-q", str(folder)], check=True, env=environ)
    command = f"touch {shlex.quote(str(marker))}"
    hooks = folder / ".trap-hooks"
    hooks.mkdir()
    for directory in (hooks, folder / ".git" / "hooks"):
        directory.mkdir(exist_ok=True)
        for name in GIT_HOOKS:
            hook = directory / name
            hook.write_text(f"#!/bin/sh\n{command}\n", encoding="utf-8")
            hook.chmod(0o755)
    for key, value in (("core.fsmonitor", f"{command} #"), ("core.hooksPath", str(hooks))):
        subprocess.run(["git", "-C", str(folder), "config", key, value], check=True, env=environ)
    subprocess.run(
        ["git", "check-ignore", "--stdin"],
        input=b"anything\n",
        cwd=folder,
        capture_output=True,
        env=environ,
        check=False,
    )
    assert marker.exists(), "git did not run the repository's fsmonitor command"
    marker.unlink()


SARIF_SCHEMA = Path(__file__).parent / "data" / "sarif-schema-2.1.0.json"


def validate_sarif(log: object) -> None:
    """Validate against the SARIF 2.1.0 schema, formats ("uri", "date-time", ...) included."""
    import json

    import jsonschema

    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    validator = jsonschema.validators.validator_for(schema)
    validator(schema, format_checker=validator.FORMAT_CHECKER).validate(log)
