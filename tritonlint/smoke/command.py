"""``tritonlint smoke REPO`` and ``tritonlint check --smoke``: the command-line side.

Progress, notices and (for the machine-readable formats) the table go to standard error; the
report goes to standard output or ``--output``. ``smoke`` exits as ``check`` does (see
:mod:`tritonlint.exit_status`): 1 when a finding at or above ``--fail-on`` was reported, else
0; 2 for a usage error or when no server could be run.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text

from tritonlint.diagnostics import Diagnostic, Severity
from tritonlint.engine import LintOptions, LintResult
from tritonlint.exit_status import EXIT_USAGE, exit_status
from tritonlint.paths import display_path
from tritonlint.report.formats import chosen_format, render_report
from tritonlint.report.output import deliver, write_report
from tritonlint.report.text_report import render_text
from tritonlint.rules.registry import by_code
from tritonlint.smoke.mapping import in_folder
from tritonlint.smoke.options import DEFAULT_INFER_TIMEOUT, DEFAULT_TIMEOUT, SmokeUsageError
from tritonlint.smoke.report import plural, render_smoke_json, smoke_table, summary_lines
from tritonlint.smoke.runner import (
    Reporter,
    SmokeError,
    SmokeOptions,
    SmokeResult,
    run_smoke,
)
from tritonlint.smoke.shard import ShardError, shard_from


def smoke_options(args: argparse.Namespace, **more: object) -> SmokeOptions:
    return SmokeOptions(
        server=args.server,
        docker=args.docker,
        stub_missing_backends=args.stub_missing_backends,
        stub_python_models=bool(args.stub_python_models),
        framework_backends=args.framework_backends,
        gpus=args.gpus,
        timeout=args.smoke_timeout or DEFAULT_TIMEOUT,
        total_timeout=args.total_timeout,
        infer=args.infer is not False,
        infer_timeout=args.infer_timeout or DEFAULT_INFER_TIMEOUT,
        **more,  # type: ignore[arg-type]
    )


class ConsoleReporter(Reporter):
    """Notices and a progress bar on a (standard error) console."""

    def __init__(self, console: Console) -> None:
        self.console = console

    def notice(self, text: str) -> None:
        self.console.print(Text.assemble(("Note: ", "bold yellow"), text), highlight=False)

    def busy(self, text: str) -> contextlib.AbstractContextManager[object]:
        if not self.console.is_terminal:
            self.console.print(text + " ...", highlight=False)
            return contextlib.nullcontext()
        return self.console.status(text)

    @contextlib.contextmanager
    def loading(self, total: int) -> Iterator[Callable[[str, bool], None]]:
        progress = Progress(
            SpinnerColumn(),
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=self.console,
            transient=True,
        )
        with progress:
            task = progress.add_task("starting the server", total=total)

            def update(name: str, done: bool) -> None:
                if done:
                    progress.advance(task)
                else:
                    progress.update(task, description=f"loading {name}")

            yield update


@contextlib.contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM (a cancelled CI job) unwinds like Ctrl-C, so that the server is stopped."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def run_smoke_command(args: argparse.Namespace, console: Console) -> int:
    """``tritonlint smoke REPO``."""
    errors = Console(stderr=True, highlight=False)
    report_format = chosen_format(args.format)
    try:
        shard = shard_from(args.shard)
    except ShardError as error:
        raise SmokeUsageError(str(error)) from None
    options = smoke_options(args, shard=shard)
    with terminate_as_interrupt():
        try:
            result = run_smoke(args.repository, options, ConsoleReporter(errors))
        except SmokeError as error:
            errors.print(f"tritonlint: error: {error}", style="bold red", markup=False)
            return EXIT_USAGE
    diagnostics = sorted(result.diagnostics, key=lambda d: d.sort_key)
    _send_report(console, args.output, report_format, result, diagnostics)
    if report_format != "text":
        show_smoke(errors, [result], diagnostics, with_findings=False)
    return exit_status(diagnostics, args.fail_on, args.exit_zero)


def _send_report(
    console: Console,
    output: Path | None,
    report_format: str,
    result: SmokeResult,
    diagnostics: list[Diagnostic],
) -> None:
    """The report of ``tritonlint smoke``: on ``console`` or printed, or written to ``output``."""
    if report_format == "text":
        buffer = io.StringIO()
        if output is not None:
            console = Console(file=buffer, highlight=False, no_color=True, width=160)
        show_smoke(console, [result], diagnostics, with_findings=True)
        if output is not None:
            write_report(output, buffer.getvalue())
        return
    if report_format == "json":
        report = render_smoke_json(result)
    else:
        report = render_report(
            report_format,
            diagnostics,
            models_checked=len(result.models),
            checked=sorted(m.folder for m in result.models),
        )
    deliver(report, output)


def show_smoke(
    console: Console,
    results: Sequence[SmokeResult],
    diagnostics: list[Diagnostic],
    *,
    with_findings: bool,
) -> None:
    """The findings (text), the table of models, and each run's summary."""
    if with_findings and diagnostics:
        render_text(diagnostics, sum(len(r.models) for r in results), console)
        console.print()
    if any(r.models for r in results):
        console.print(Text("Smoke stage", style="bold"))
        console.print(smoke_table(results))
    for result in results:
        for line in summary_lines(result):
            console.print(line, highlight=False, soft_wrap=True)


# -- check --smoke -----------------------------------------------------------------------------


@dataclass
class CheckSmoke:
    """The smoke stage of ``check --smoke``: one run per repository checked."""

    result: LintResult
    runs: list[SmokeResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def show(self, console: Console) -> None:
        console.print()
        for note in self.notes:
            console.print(Text.assemble(("Note: ", "bold yellow"), note), highlight=False)
        show_smoke(console, self.runs, [], with_findings=False)


def run_check_smoke(
    args: argparse.Namespace, result: LintResult, options: LintOptions
) -> CheckSmoke:
    """Static lint is done (``result``): load into a server every model checked that has no
    static error, and add what the server said to the findings."""
    errors = Console(stderr=True, highlight=False)
    repositories: dict[Path, list[str]] = {}
    outcome = CheckSmoke(result)
    for path in result.checked:
        if path.is_dir():
            repositories.setdefault(path.parent, []).append(path.name)
        else:
            outcome.notes.append(
                f"{display_path(path)} is not in a model folder: the smoke stage skips it"
            )
    found: list[Diagnostic] = []
    with terminate_as_interrupt():
        for repository, names in repositories.items():
            skip = _statically_broken(result.diagnostics, repository, names)
            run_options = smoke_options(args, models=names, skip=skip, static=result.diagnostics)
            try:
                run = run_smoke(repository, run_options, ConsoleReporter(errors))
            except SmokeError as error:
                raise SmokeUsageError(str(error)) from None
            outcome.runs.append(run)
            found += _selected(run.diagnostics, options)
    merged = sorted([*result.diagnostics, *found], key=lambda d: d.sort_key)
    outcome.result = LintResult(
        merged, result.models_checked, result.triton_version, result.checked
    )
    return outcome


def _statically_broken(
    diagnostics: Sequence[Diagnostic], repository: Path, names: Sequence[str]
) -> dict[str, str]:
    skip: dict[str, str] = {}
    for name in names:
        folder = repository / name
        errors = [d for d in diagnostics if d.severity is Severity.ERROR and in_folder(d, folder)]
        if errors:
            codes = ", ".join(sorted({d.code for d in errors}))
            skip[name] = f"not loaded: static lint found {plural(len(errors), 'error')} ({codes})"
    return skip


def _selected(diagnostics: Sequence[Diagnostic], options: LintOptions) -> list[Diagnostic]:
    """The smoke findings that --select/--ignore and the settings let through, each with its
    configured severity."""
    kept = []
    for diagnostic in diagnostics:
        rule = by_code(diagnostic.code)
        if rule is None or not options.enabled(rule):
            continue
        kept.append(diagnostic.with_severity(options.severity_of(diagnostic)))
    return kept
