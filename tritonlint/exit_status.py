"""When a run fails: ``--fail-on`` and ``--exit-zero``, the same for ``check`` and ``smoke``.

A run exits with status 1 when it reported a finding at or above the ``--fail-on`` severity
(default: error), else 0; ``--exit-zero`` and ``--fail-on never`` make it 0 whatever was
found. Status 2 (a usage error) is decided before any finding exists.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tritonlint.diagnostics import Diagnostic

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
FAIL_ON = ("error", "warning", "info", "never")
DEFAULT_FAIL_ON = "error"


def add_fail_options(parser: argparse.ArgumentParser) -> None:
    """``--fail-on`` and ``--exit-zero``."""
    parser.add_argument(
        "--fail-on",
        choices=FAIL_ON,
        default=DEFAULT_FAIL_ON,
        help="exit with status 1 when a finding of this severity or above is reported "
        f"(default: {DEFAULT_FAIL_ON})",
    )
    parser.add_argument(
        "--exit-zero",
        action="store_true",
        help="exit with status 0 even when there are findings (2 still means a usage error)",
    )


def exit_status(diagnostics: Iterable[Diagnostic], fail_on: str, exit_zero: bool) -> int:
    """1 when one of ``diagnostics`` is at or above ``fail_on``, else 0."""
    from tritonlint.diagnostics import Severity

    if exit_zero or fail_on == "never":
        return EXIT_CLEAN
    threshold = Severity(fail_on).rank
    failing = any(d.severity.rank >= threshold for d in diagnostics)
    return EXIT_FINDINGS if failing else EXIT_CLEAN
