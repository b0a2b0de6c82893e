"""Check the paths a user names (repositories, model folders, config files, all at once), or a
config's text read from elsewhere as if it were a file.

The paths come to planned checks (:class:`~tritonlint.repository.walker.PlannedCheck`: a
repository, some of its models, or a loose file), each checked through a workspace of its
own; :func:`lint_plan` is that loop, for linting and for fixing alike.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from tritonlint.diagnostics import Diagnostic
from tritonlint.engine.checks import walk_diagnostics
from tritonlint.engine.forked import can_fork, default_jobs, forked_map
from tritonlint.engine.options import LintOptions
from tritonlint.engine.outside import base_of, guarded
from tritonlint.engine.workspace import Workspace
from tritonlint.repository.walker import PlannedCheck, plan, text_source
from tritonlint.schema.releases import load_schema

#: What checking one planned check found, and the models (or loose file) it checked.
Checked = tuple[list[Diagnostic], list[Path]]


@dataclass
class LintResult:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    models_checked: int = 0
    triton_version: str = ""
    #: What was checked: each model folder (a loose config file: the file), sorted.
    checked: list[Path] = field(default_factory=list)
    #: Folders named under which nothing was found to check.
    empty: list[Path] = field(default_factory=list)
    #: Texts checked in place of a file's contents (standard input), by path.
    texts: dict[Path, str] = field(default_factory=dict)


def workspace_for(source: PlannedCheck, options: LintOptions, jobs: int = 1) -> Workspace:
    """The workspace that carries out one planned check."""
    if source.file is not None:
        return Workspace(None, options, loose_file=source.file)
    return Workspace(source.root, options, targets=source.targets, jobs=jobs)


def lint_paths(
    paths: Sequence[Path],
    options: LintOptions | None = None,
    *,
    repositories: Sequence[Path] = (),
) -> LintResult:
    """Lint repositories, model folders and config files; never raises for bad input.

    ``repositories``: folders known to be repositories (named in the settings), taken as
    such wherever the paths name them or their models. See :func:`plan` for what a path
    means, and where repositories are searched for.
    """
    options = options or LintOptions()
    return lint_plan(paths, options, repositories, _lint_source, default_jobs())


def lint_plan(
    paths: Sequence[Path],
    options: LintOptions,
    repositories: Sequence[Path],
    check: Callable[..., Checked],
    jobs: int = 1,
) -> LintResult:
    """Plan ``paths`` (see :func:`plan`), ``check`` each planned check, and gather what they
    found into one result: the lint loop of :func:`lint_paths` and of fixing alike.

    ``check`` is called with the planned check and ``jobs=``: the worker processes it may
    use itself. With ``jobs`` > 1 one large repository is spread over workers model by
    model; many, one planned check to a worker (then ``check`` must be a module-level
    function, and gets ``jobs=1``).
    """
    checks, unusable, empty = plan(paths, repositories, options.excluded.match)
    found: list[Diagnostic] = list(options.report(walk_diagnostics(unusable)))
    checked: list[Path] = []
    spread = _spread(jobs, len(checks))
    each = partial(check, options=options, jobs=1 if spread else jobs)
    results = _map_checks(each, checks, jobs) if spread else map(each, checks)
    for check_found, check_checked in results:
        found.extend(check_found)
        checked.extend(check_checked)
    ordered = sorted(dict.fromkeys(found), key=lambda d: d.sort_key)
    release = load_schema(options.triton_version).release
    return LintResult(ordered, len(checked), release, sorted(checked), empty)


def lint_text(path: Path, text: str | bytes, options: LintOptions | None = None) -> LintResult:
    """Lint ``text`` as the contents of the config file ``path`` (which need not exist).

    A model's ``config.pbtxt`` or ``configs/*.pbtxt`` is checked as that model of its
    repository, with the other files on disk; any other path as a config on its own.
    Bytes are judged as a file's bytes are (binary, not UTF-8).
    """
    options = options or LintOptions()
    path = Path(os.path.abspath(path))
    source = text_source(path)
    workspace = workspace_for(source, options)
    workspace.open(path, text)
    found, checked = check_source(workspace, source, options, read_from_disk=False)
    release = load_schema(options.triton_version).release
    decoded = workspace.text(path)
    texts = {path: decoded} if decoded is not None else {}
    return LintResult(found, len(checked), release, sorted(checked), texts=texts)


def _lint_source(source: PlannedCheck, *, options: LintOptions, jobs: int) -> Checked:
    return check_source(workspace_for(source, options, jobs), source, options)


def check_source(
    workspace: Workspace, source: PlannedCheck, options: LintOptions, *, read_from_disk: bool = True
) -> Checked:
    """What checking ``workspace`` found, and the models (or loose file) it checked.

    The findings in files read from the disk through a symbolic link to outside the
    repository do not quote those files (see :mod:`tritonlint.engine.outside`), unless
    ``options`` follow such links; ``read_from_disk`` is False where the text checked came
    from elsewhere (standard input).
    """
    result = workspace.check()
    repository = workspace.repository
    checked = [
        model.config.path if source.file is not None and model.config else model.path
        for model in repository.target_models()
        if not options.excluded.match(model.path)
    ]
    found = result.diagnostics
    if read_from_disk and not options.follow_outside_links:
        found = guarded(found, base_of(source), workspace.text)
    return found, checked


#: Below this many repositories they are checked one after another.
_SPREAD_FROM = 16


def _spread(jobs: int, count: int) -> bool:
    return jobs > 1 and count >= _SPREAD_FROM and can_fork()


def _map_checks(
    work: Callable[[PlannedCheck], Checked], checks: list[PlannedCheck], jobs: int
) -> list[Checked]:
    """``work`` over the planned checks in forked worker processes, each whole in one."""
    return forked_map(work, checks, jobs, chunksize=max(1, len(checks) // (jobs * 16)))
