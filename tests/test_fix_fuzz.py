"""Mutated configs through ``check --fix`` (safe, and with ``--unsafe-fixes``): the fixed text
never reads worse than the text it was given.

A couple of hundred inputs each, the same each run (see ``tests/rewrite_fuzz.py`` for the
mutations and the judges; ``scripts/fuzz_rewrites.py`` runs tens of thousands).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import example, given
from rewrite_fuzz import fix_outcome, fuzz_settings, mutated_configs

# protobuf's unescaping warns about the invalid escapes a mutation may make.
pytestmark = pytest.mark.filterwarnings("ignore:invalid .*escape sequence:DeprecationWarning")

FUZZ = fuzz_settings(300)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fix_fuzz")


# What such a fuzz found: TL301 next to an empty backend wrote backend twice, and the
# rename of 'dimz' to 'dims' left a scalar list without its colon.
EXAMPLES = [
    'name: "m"\nplatform: "openvino"\nbackend: ""\n',
    'name: "m"\nbackend: "python"\ninput [ { name: "x" data_type: TYPE_FP32 dimz [ 1 ] } ]\n',
    'name: "m"\nbackend: "python"\nmax_batch_size: "4"\nmax_batch_size: 4\n',
]


@pytest.mark.parametrize("unsafe", [False, True], ids=["safe", "unsafe"])
def test_fixing_a_mutated_config_never_makes_it_worse(folder: Path, unsafe: bool) -> None:
    @FUZZ
    @given(mutated_configs())
    @example(EXAMPLES[0])
    @example(EXAMPLES[1])
    @example(EXAMPLES[2])
    def check(text: str) -> None:
        outcome = fix_outcome(text, folder, unsafe=unsafe)
        assert outcome.failure is None, text

    check()


def test_the_fixes_that_broke_files_are_applied_now(folder: Path) -> None:
    """The examples above are not merely left alone: their fixes are applied, none refused."""
    for text in EXAMPLES:
        outcome = fix_outcome(text, folder, unsafe=True)
        assert (outcome.failure, outcome.refused) == (None, []), text
        assert outcome.applied >= 1, text
