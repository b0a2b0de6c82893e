"""The machine-readable report formats: one renderer each, its module imported when used."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from tritonlint.diagnostics import Diagnostic


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
