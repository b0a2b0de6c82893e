"""Mutated configs through the formatter: never a worse text than the one it was given.

A few hundred inputs, the same each run (see ``tests/rewrite_fuzz.py`` for the mutations and
the judges; ``scripts/fuzz_rewrites.py`` runs tens of thousands).
"""

from __future__ import annotations

import pytest
from hypothesis import example, given
from rewrite_fuzz import format_failure, fuzz_settings, mutated_configs

# protobuf's unescaping warns about the invalid escapes a mutation may make.
pytestmark = pytest.mark.filterwarnings("ignore:invalid .*escape sequence:DeprecationWarning")

FUZZ = fuzz_settings(800)


@FUZZ
@given(mutated_configs())
# What such a fuzz found: a scalar field given a message lost its colon.
@example('name: "m"\ndefault_model_filename: { }\n')
@example('name: "m"\ninput [ { name: "x" dims: [ { } ] } ]\n')
@example('name: "m"\nmax_batch_size: nan\noptimization { cuda { graphs: true } }  # c\n')
def test_formatting_a_mutated_config_never_makes_it_worse(text: str) -> None:
    assert format_failure(text) is None, text
