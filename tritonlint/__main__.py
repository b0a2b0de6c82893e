"""``python -m tritonlint``, and the installed ``tritonlint`` script (:func:`run`)."""

from __future__ import annotations

import os
import sys
from typing import NoReturn

from tritonlint.cycle_collection import without_cycle_collection


def run() -> NoReturn:
    """The ``tritonlint`` command in a process of its own: :func:`tritonlint.cli.main`, then
    the process ends at once.

    The command line's modules are imported with the cyclic garbage collector paused, and
    frozen once imported: they live as long as the process, and the collector would scan
    them again and again while they load. When ``main`` returns nothing is left to clean up
    (reports are written and closed, worker processes and servers stopped), so the output
    is flushed and the process exits without tearing down its modules and objects one by
    one. Where the output cannot be flushed (a closed pipe; the language server closes its
    standard output when the editor tells it to exit), the interpreter exits as usual.
    """
    with without_cycle_collection():
        from tritonlint.cli import main

    status = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        sys.exit(status)
    os._exit(status)


if __name__ == "__main__":
    run()
