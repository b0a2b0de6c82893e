"""Mutated configs through ``format`` and ``check --fix``: a rewrite is never worse than its input.

The inputs are real configs (the fixtures, and the shared corpus where it is there) with
tokens and lines deleted, duplicated or swapped, and pieces inserted: ``{ }``, ``nan``,
comments, brackets, fields given twice, misspelt names, values of the wrong type. What a
rewrite writes must read as well as what it read:

- ``format``: where protobuf's ``text_format.Parse`` reads the input as a ModelConfig, it reads
  the output as the same message; the output has no syntax error and no field given twice
  that the input has not (by the project's parser and binder); formatting it again changes
  nothing.
- ``check --fix`` (safe, or with ``--unsafe-fixes``): where protobuf reads the input, it reads
  each fixed file; no fixed file has a syntax error or a field given twice that it had not.

The judges here are written anew, not taken from ``tritonlint.integrity``, so that they also
judge a tritonlint without it. Used by the hypothesis tests (``tests/format/test_format_fuzz.py``,
``tests/test_fix_fuzz.py``, a few hundred inputs) and by ``scripts/fuzz_rewrites.py``, which
runs as many as it is asked for.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import warnings
from collections import Counter
from functools import cache
from pathlib import Path

from google.protobuf import text_format
from google.protobuf.message import Message
from helpers import make_tree
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from tritonlint.document import ConfigDocument, parse_config
from tritonlint.engine import LintOptions
from tritonlint.fixing import fix_paths
from tritonlint.format import Formatted, format_text
from tritonlint.integrity import breakage_kind
from tritonlint.schema.releases import load_schema

ROOT = Path(__file__).resolve().parents[1]
#: The shared corpus of real configs, next to the checkout (or where the variable says).
CORPUS = Path(os.environ.get("TRITONLINT_CORPUS", ROOT.parent / "shared" / "corpus"))
SCHEMA = load_schema()

#: Pieces inserted by the mutations: what broke rewrites before, and the usual suspects.
PIECES = [
    "{ }", "{}", "nan", "-nan", "inf", "# a comment\n", "# c", "\n", ":", "{", "}", "[", "]",
    ",", ";", "<", ">", '"x"', "''", "-1", "0", "1.5", "true", "TYPE_FP32", "KIND_GPU",
    'backend: ""', 'platform: "openvino"', 'platform: "python"', 'backend: "python"',
    "dimz [ 1 ]", "dims [ 1 ]", "dims: [ 1 ]", "dims: [ { } ]", "default_model_filename: { }",
    "default_model_filename: [ { } ]", "string_value: 1", "max_batch_size: 0",
    "max_batch_size: 8", 'name: "m"', "dynamic_batching { }", "sequence_batching { }",
    "instance_group [ { kind: KIND_CPU } ]", 'parameters { key: "a" value: { string_value: 1 } }',
    "model_warmup [ # w\n { name: \"w\" batch_size: 1 } ]", "optimization: { }", "input",
    "output", "name", "dims", "dimz", "data_type", "platform", "backend", "key", "value",
    "max_batchsize: 4", "inputt { }", 'platform: "ensemble"', "version_policy: { latest { } }",
]  # fmt: skip

_TOKEN = re.compile(
    r'"(?:[^"\\\n]|\\.)*"?|\'(?:[^\'\\\n]|\\.)*\'?|#[^\n]*|[A-Za-z0-9_.+-]+|[ \t]+|\r?\n|.',
    re.DOTALL,
)

#: What the parser and binder report for a text that protobuf (and the server) would refuse
#: for its form: a syntax error, a field or a oneof given twice.


def tokens(text: str) -> list[str]:
    return [m.group(0) for m in _TOKEN.finditer(text)]


@cache
def seed_texts() -> tuple[str, ...]:
    """The configs mutated: every fixture, and every corpus config, under 4,000 characters."""
    paths = sorted((ROOT / "fixtures").rglob("*.pbtxt"))
    for group in ("realworld", "triton-qa"):
        if (CORPUS / group).is_dir():
            paths.extend(sorted((CORPUS / group).rglob("*.pbtxt")))
    texts = []
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if 0 < len(text) < 4000:
            texts.append(text)
    return tuple(texts)


def mutate(text: str, rng: random.Random) -> str:
    """``text`` with one to four mutations of its tokens or lines."""
    for _ in range(rng.randint(1, 4)):
        if rng.random() < 0.25:
            text = "".join(_mutated(text.splitlines(keepends=True), rng, lines=True))
        else:
            text = "".join(_mutated(tokens(text), rng, lines=False))
    return text


def _mutated(parts: list[str], rng: random.Random, *, lines: bool) -> list[str]:
    if not parts:
        return [rng.choice(PIECES)]
    i, j = rng.randrange(len(parts)), rng.randrange(len(parts))
    operation = rng.randrange(5)
    if operation == 0:
        del parts[i]
    elif operation == 1:
        parts.insert(i, parts[i])
    elif operation == 2:
        parts[i], parts[j] = parts[j], parts[i]
    elif operation == 3:
        piece = rng.choice(PIECES)
        parts.insert(i, piece + "\n" if lines else f" {piece} ")
    else:
        parts[i] = rng.choice(PIECES) + ("\n" if lines else "")
    return parts


def protobuf_message(text: str) -> Message | None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return text_format.Parse(text, SCHEMA.new_config())
        except Exception:  # a ParseError, or a recursion too deep: refused
            return None


def breakage(document: ConfigDocument) -> Counter[str]:
    """How many syntax errors and fields given twice the parser and binder find, by kind."""
    kinds = (breakage_kind(problem) for problem in document.problems)
    return Counter(
        "syntax error" if kind == "syntax" else "given twice" for kind in kinds if kind is not None
    )


def worse(before: str, after: str) -> str | None:
    """How ``after``, a rewrite of ``before``, reads worse than it, or None."""
    message = protobuf_message(before)
    if message is not None and protobuf_message(after) is None:
        return "protobuf reads the input but not the output"
    try:
        old = breakage(parse_config(Path("config.pbtxt"), before, SCHEMA))
        new = breakage(parse_config(Path("config.pbtxt"), after, SCHEMA))
    except RecursionError:
        return None
    for kind, count in sorted(new.items()):
        if count > old[kind]:
            return f"the output has a new {kind}"
    return None


def format_failure(text: str) -> str | None:
    """Why formatting ``text`` gives a worse text, or None."""
    result = format_text(text)
    if not isinstance(result, Formatted) or not result.changed:
        return None
    found = worse(text, result.text)
    if found is not None:
        return found
    before = protobuf_message(text)
    if before is not None:
        after = protobuf_message(result.text)
        assert after is not None
        if before.SerializeToString(deterministic=True) != after.SerializeToString(
            deterministic=True
        ):
            return "protobuf reads the output as another message"
    if format_text(result.text) != Formatted(result.text, False):
        return "formatting the output again changes it"
    return None


class FixOutcome:
    """What fixing one text did: the failure (None: none), how many fixes were applied and
    how many refused (with the reasons' first words)."""

    def __init__(self, failure: str | None, applied: int, refused: list[str]) -> None:
        self.failure = failure
        self.applied = applied
        self.refused = refused


def fix_outcome(text: str, folder: Path, *, unsafe: bool) -> FixOutcome:
    """Fix ``text`` as the config of model ``m`` of a repository made in ``folder`` (emptied
    first), in memory, as ``check --fix`` does before it writes."""
    shutil.rmtree(folder, ignore_errors=True)
    make_tree(folder / "repo", {"m/1": None, "m/config.pbtxt": text}, verbatim=True)
    run = fix_paths([folder / "repo"], LintOptions(), unsafe=unsafe)
    refused = [_reason(refused.reason) for refused in run.refused]
    for _path, (before, after) in run.changed.items():
        found = worse(before, after)
        if found is not None:
            return FixOutcome(found, len(run.applied), refused)
    return FixOutcome(None, len(run.applied), refused)


def _reason(reason: str) -> str:
    """A refusal's reason without the particulars (field names, lines and columns)."""
    return re.sub(r"\s*\(.*", "", re.sub(r"change \S+,", "change a field,", reason))


def fuzz_settings(examples: int) -> settings:
    """Hypothesis settings for the suite: ``examples`` inputs, the same ones each run."""
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


def mutated_configs() -> st.SearchStrategy[str]:
    """A seed config, mutated by :func:`mutate` with a random generator hypothesis picks."""
    seeds = seed_texts()
    return st.tuples(st.integers(0, len(seeds) - 1), st.integers(0, 2**32 - 1)).map(
        lambda pick: mutate(seeds[pick[0]], random.Random(pick[1]))
    )
