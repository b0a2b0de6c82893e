"""Settings read from the environment, each checked where it is read.

A value tritonlint cannot use is an error, never ignored and never a traceback:
:class:`EnvironmentSettingError`, whose message is one line naming the variable, its value and
the values accepted; the command line reports it as a usage error (exit status 2), as it does a
bad option.
"""

from __future__ import annotations

import math
import os
import re

from tritonlint.usage import UsageError

#: Worker processes of a check (``1``: stay in one process; ``0`` or unset: one per core).
JOBS = "TRITONLINT_JOBS"
#: How long the language server waits after an edit before checking, in milliseconds.
DEBOUNCE_MS = "TRITONLINT_LSP_DEBOUNCE_MS"

#: The most worker processes asked for: far more than the cores of any machine.
MAX_JOBS = 1024
#: The longest wait after an edit: a minute.
MAX_DEBOUNCE_MS = 60_000

_WHOLE = re.compile(r"[0-9]+")
_DECIMAL = re.compile(r"[0-9]+(\.[0-9]*)?|\.[0-9]+")


class EnvironmentSettingError(UsageError, ValueError):
    """An environment variable whose value tritonlint cannot use: a usage error."""


def _refuse(name: str, value: str, accepted: str) -> EnvironmentSettingError:
    return EnvironmentSettingError(f"{name}={value!r}: accepted values are {accepted}")


def jobs() -> int | None:
    """``TRITONLINT_JOBS``: the number of worker processes (None: unset, empty or ``0``, which
    mean one per core)."""
    value = os.environ.get(JOBS, "")
    text = value.strip()
    if not text:
        return None
    if not _WHOLE.fullmatch(text) or int(text) > MAX_JOBS:
        raise _refuse(
            JOBS,
            value,
            f"whole numbers of worker processes from 0 to {MAX_JOBS} "
            "(1: one process; 0, empty or unset: one per core)",
        )
    return int(text) or None


def debounce_ms() -> float | None:
    """``TRITONLINT_LSP_DEBOUNCE_MS``: the delay between an edit and its check, in
    milliseconds (None: unset or empty)."""
    value = os.environ.get(DEBOUNCE_MS, "")
    text = value.strip()
    if not text:
        return None
    number = float(text) if _DECIMAL.fullmatch(text) else math.nan
    if not 0 <= number <= MAX_DEBOUNCE_MS:
        raise _refuse(
            DEBOUNCE_MS,
            value,
            f"numbers of milliseconds from 0 to {MAX_DEBOUNCE_MS} (empty or unset: no delay)",
        )
    return number
