"""``tritonlint smoke --shard I/N``: one of N shares of the models, for the jobs of a CI matrix.

An ensemble and every model it runs (its steps, the steps of its nested ensembles, and any
other ensemble that shares one of those models) form one *group*, and a group is never split:
the steps of an ensemble are loaded in the share that loads the ensemble. The groups are
dealt out by their size and names alone, so every machine and every run makes the same shares
(nothing depends on Python's hash seed, the order of the folders on disk or the time):

1. the groups are sorted, the largest first, and groups of one size by their first name in
   sorted order;
2. each in turn goes to the share that has the fewest models so far (of equal shares, the one
   with the lowest number).

The N shares are disjoint and together hold every model; each has about 1/N of the models
(a group larger than that makes its share larger).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

#: The environment variable read when ``--shard`` is not given.
SHARD_VARIABLE = "TRITONLINT_SHARD"

_SHARD = re.compile(r"\s*([0-9]+)\s*/\s*([0-9]+)\s*")


class ShardError(ValueError):
    """A ``--shard`` value that is not ``I/N`` with 1 <= I <= N."""


@dataclass(frozen=True)
class Shard:
    """Share ``index`` (1-based) of ``total``."""

    index: int
    total: int

    def __str__(self) -> str:
        return f"{self.index}/{self.total}"


def parse_shard(text: str, source: str = "--shard") -> Shard:
    """``"2/4"`` -> ``Shard(2, 4)``; raises :class:`ShardError` with a one-line reason."""
    match = _SHARD.fullmatch(text)
    if match is None:
        raise ShardError(f"{source} {text!r}: expected I/N, share I of N (e.g. 2/4)")
    index, total = int(match.group(1)), int(match.group(2))
    if total < 1:
        raise ShardError(f"{source} {text!r}: N must be at least 1")
    if not 1 <= index <= total:
        raise ShardError(f"{source} {text!r}: I must be from 1 to {total}")
    return Shard(index, total)


def shard_from(option: str | None) -> Shard | None:
    """The shard of ``--shard``, else of ``TRITONLINT_SHARD`` (None: neither, or empty)."""
    if option is not None:
        return parse_shard(option)
    value = os.environ.get(SHARD_VARIABLE, "")
    if not value.strip():
        return None
    return parse_shard(value, SHARD_VARIABLE)


def groups(names: Sequence[str], steps: Mapping[str, Sequence[str]]) -> list[list[str]]:
    """The models ``names`` in groups that load together: an ensemble with the models it runs,
    transitively (``steps``: ensemble -> its step models; steps outside ``names`` are left
    out). Each group is sorted; the groups are in the order of their first names."""
    parent = {name: name for name in names}

    def root(name: str) -> str:
        while parent[name] != name:
            parent[name] = parent[parent[name]]
            name = parent[name]
        return name

    for name in names:
        for step in steps.get(name, ()):
            if step in parent:
                a, b = root(name), root(step)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    found: dict[str, list[str]] = {}
    for name in sorted(names):
        found.setdefault(root(name), []).append(name)
    return sorted(found.values(), key=lambda group: group[0])


def shares(names: Sequence[str], steps: Mapping[str, Sequence[str]], total: int) -> list[list[str]]:
    """The ``total`` shares of ``names`` (each sorted), as the module docs deal them."""
    dealt: list[list[str]] = [[] for _ in range(total)]
    for group in sorted(groups(names, steps), key=lambda group: (-len(group), group[0])):
        smallest = min(range(total), key=lambda number: (len(dealt[number]), number))
        dealt[smallest].extend(group)
    return [sorted(share) for share in dealt]


def in_share(shard: Shard, names: Sequence[str], steps: Mapping[str, Sequence[str]]) -> set[str]:
    """The models of ``names`` in share ``shard``."""
    return set(shares(names, steps, shard.total)[shard.index - 1])
