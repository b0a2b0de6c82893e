"""Work spread over forked worker processes: the one way the engine runs anything in parallel.

Workers are forked, not spawned: they start at once and share, copy-on-write, what this
process has read so far (the schema, the repository). Forking is used only where it is safe:
the platform supports it and no other thread runs (a thread holding a lock at the fork would
leave the lock held forever in the child).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable
from typing import TypeVar

from tritonlint import environment

Item = TypeVar("Item")
Result = TypeVar("Result")


def can_fork() -> bool:
    """Whether worker processes can be forked safely: supported, and no other thread runs."""
    if threading.active_count() != 1:
        return False
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


def default_jobs() -> int:
    """Worker processes to use: ``TRITONLINT_JOBS``, else one per core (an
    :class:`~tritonlint.environment.EnvironmentSettingError` for a value that is neither)."""
    return environment.jobs() or os.cpu_count() or 1


def forked_map(
    work: Callable[[Item], Result], items: Iterable[Item], jobs: int, chunksize: int = 1
) -> list[Result]:
    """``work`` over ``items`` in ``jobs`` forked worker processes, the results in order.

    The caller checks :func:`can_fork` first; ``work`` must be a module-level function (or a
    :func:`functools.partial` of one) and its results picklable.
    """
    import multiprocessing  # only a parallel run needs these
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        return list(pool.map(work, items, chunksize=chunksize))
