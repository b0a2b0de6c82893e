"""The report formats: which ones each command offers, the one a run reports in when none is
asked for, and the machine-readable ones' renderers (each module imported when used).

The names and the default are read by the command line's parser, so this module imports
nothing of the reports themselves until one is rendered.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tritonlint.diagnostics import Diagnostic

#: The formats of ``check --format``; ``full`` is ``text`` under ruff's name for it, ``concise``
#: is text with one line per finding.
REPORT_FORMATS = ("text", "full", "concise", "json", "sarif", "github", "junit", "gitlab")
#: The formats the text report's options (``--quiet``, the statistics table after it) apply to.
TEXT_FORMATS = ("text", "concise")
#: The formats of ``smoke --format`` (its json report is a smoke report of its own).
SMOKE_FORMATS = ("text", "json", "sarif", "github", "junit")
#: The formats ``report merge`` merges (tritonlint/report/merge.py).
MERGE_FORMATS = ("json", "sarif", "junit")
#: What the help of a ``--format`` option says of its default.
DEFAULT_FORMAT_HELP = "github when GITHUB_ACTIONS=true, else text"


def chosen_format(asked: str | None) -> str:
    """The format a run reports in: the one asked for (``full`` is ``text``), else github
    annotations in GitHub Actions, else text."""
    chosen = asked or ("github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text")
    return "text" if chosen == "full" else chosen


def render_report(
    report_format: str,
    diagnostics: list[Diagnostic],
    *,
    models_checked: int,
    checked: Sequence[Path],
    quiet: bool = False,
) -> str:
    """``diagnostics`` as a ``json``, ``sarif``, ``github``, ``gitlab`` or ``junit`` report;
    ``checked``: the model folders (or loose files) checked, ``models_checked`` their number."""
    if report_format == "json":
        from tritonlint.report.json_report import render_json

        return render_json(diagnostics)
    if report_format == "sarif":
        from tritonlint.report.sarif import render_sarif

        return render_sarif(diagnostics)
    if report_format == "github":
        from tritonlint.report.github import render_github

        return render_github(diagnostics, models_checked, quiet)
    if report_format == "gitlab":
        from tritonlint.report.gitlab import render_gitlab

        return render_gitlab(diagnostics)
    from tritonlint.report.junit import render_junit

    return render_junit(diagnostics, checked)
