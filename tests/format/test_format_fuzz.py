"""Mutated configs through the formatter: never a worse text than the one it was given.

A few hundred inputs, the same each run (see ``tests/rewrite_fuzz.py`` for the mutations and
the judges; ``scripts/fuzz_rewrites.py`` runs tens of thousands).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from rewrite_fuzz import format_failure, mutate, seed_texts

# protobuf's unescaping warns about the invalid escapes a mutation may make.
pytestmark = pytest.mark.filterwarnings("ignore:invalid .*escape sequence:DeprecationWarning")

FUZZ = settings(
    max_examples=800,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def mutated() -> st.SearchStrategy[str]:
    seeds = seed_texts()
    return st.tuples(st.integers(0, len(seeds) - 1), st.integers(0, 2**32 - 1)).map(
        lambda pick: mutate(seeds[pick[0]], random.Random(pick[1]))
    )


@FUZZ
@given(mutated())
# What such a fuzz found: a scalar field given a message lost its colon.
@example('name: "m"\ndefault_model_filename: { }\n')
@example('name: "m"\ninput [ { name: "x" dims: [ { } ] } ]\n')
@example('name: "m"\nmax_batch_size: nan\noptimization { cuda { graphs: true } }  # c\n')
def test_formatting_a_mutated_config_never_makes_it_worse(text: str) -> None:
    assert format_failure(text) is None, text
