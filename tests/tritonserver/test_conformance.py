"""Conformance over the whole corpus: the linter against the real server's verdicts.

``python -m conformance`` in a test: every model of the triton-qa and realworld
corpora and of the fixtures is judged by a real tritonserver and linted; the linter must report
no error on a model the server loads, must flag the refusals that do not depend on the
environment, and should predict the server's message. See docs/conformance.md for the last
committed report and ``conformance/classify.py`` for the criteria. The three sets take
about 95 s on two cores: 604 triton-qa repositories (one fresh server each, about 0.08 s a
repository with python placeholders on the native stub), 345 realworld repositories, 40 fixtures.

The unit tests at the end need no server.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from conformance import ConformanceRun, Outcome, run_conformance
from conformance.classify import Classified, Match, match_message
from conformance.corpus import SETS
from conformance.report import Summary, message_pattern, total
from tritonlint.tritonserver import TritonInstall

#: Models the server loads but the linter flags with an error.
MAX_FALSE_ERRORS = 0
#: Share of the environment-independent refusals the linter must flag with an error.
MIN_DETECTION_RATE = 0.98
#: Share of the detected refusals whose predicted message matches the server's.
MIN_MESSAGE_MATCH_RATE = 0.90
#: The three sets must be judged well within the 10 minutes a CI step gets.
TIME_BUDGET_S = 480.0

CORPUS = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus"


@pytest.fixture(scope="module")
def conformance(triton_install: TritonInstall) -> tuple[ConformanceRun, float]:
    corpus = CORPUS.resolve()
    if not (corpus / "triton-qa").is_dir() or not (corpus / "realworld").is_dir():
        pytest.skip(f"no corpus at {corpus}")
    started = time.monotonic()
    run = run_conformance(SETS, corpus, install=triton_install)
    seconds = time.monotonic() - started
    for s in [*run.summaries(), total(run.summaries())]:
        print(
            f"\n{s.name}: {s.models} models, {s.refused} refused, {s.detected} detected, "
            f"{s.missed} missed, {s.false_errors} false errors, {s.env} env-dependent; "
            f"detection {s.detection_rate}, message match {s.match_rate}"
        )
    for name, set_run in run.runs.items():
        print(
            f"{name}: judged in {set_run.judge_seconds:.0f} s, linted in {set_run.lint_seconds:.0f} s"
        )
    return run, seconds


@pytest.mark.server
def test_every_set_is_judged_within_budget(conformance: tuple[ConformanceRun, float]) -> None:
    run, seconds = conformance
    assert set(run.results) == set(SETS)
    assert all(run.results[name] for name in SETS)
    assert seconds < TIME_BUDGET_S


def _judged(run: ConformanceRun) -> list[Classified]:
    """Every model judged, over all the sets."""
    return [r for results in run.results.values() for r in results]


@pytest.mark.server
def test_server_never_crashed_or_timed_out(conformance: tuple[ConformanceRun, float]) -> None:
    run, _ = conformance
    bad = [
        f"{r.record.label}: {r.record.status}"
        for r in _judged(run)
        if r.record.status in ("crashed", "timeout")
    ]
    assert bad == []


@pytest.mark.server
def test_no_false_errors(conformance: tuple[ConformanceRun, float]) -> None:
    run, _ = conformance
    false_errors = [
        f"{r.record.label}: "
        + "; ".join(f"{f.code} {f.message}" for f in r.record.errors)
        + f" (the server: {r.record.server_message})"
        for r in _judged(run)
        if r.outcome is Outcome.FALSE_ERROR
    ]
    assert len(false_errors) <= MAX_FALSE_ERRORS, "\n".join(false_errors)


def _missed(overall: Summary, judged: list[Classified]) -> str:
    """How many refusals were flagged, then the refusals missed, one a line."""
    return f"{overall.detected}/{overall.gradable} refusals flagged; missed:\n" + "\n".join(
        f"{r.record.label}: {r.record.server_message}"
        for r in judged
        if r.outcome is Outcome.MISSED
    )


def _unmatched(overall: Summary, judged: list[Classified]) -> str:
    """How many predicted messages match, then the detected refusals whose message does not."""
    return f"{overall.matched}/{overall.detected} messages match; unmatched:\n" + "\n".join(
        f"{r.record.label}: {r.matched_code} vs {r.record.server_message}"
        for r in judged
        if r.outcome is Outcome.DETECTED and r.match is Match.NONE
    )


@pytest.mark.server
@pytest.mark.parametrize(
    ("rate", "minimum", "shortfall"),
    [
        pytest.param(lambda s: s.detection_rate, MIN_DETECTION_RATE, _missed, id="detection"),
        pytest.param(
            lambda s: s.match_rate, MIN_MESSAGE_MATCH_RATE, _unmatched, id="message-match"
        ),
    ],
)
def test_rate(
    conformance: tuple[ConformanceRun, float],
    rate: Callable[[Summary], float | None],
    minimum: float,
    shortfall: Callable[[Summary, list[Classified]], str],
) -> None:
    run, _ = conformance
    overall = total(run.summaries())
    value = rate(overall)
    assert value is not None
    assert value >= minimum, shortfall(overall, _judged(run))


# -- no server needed -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("template", "message", "expected"),
    [
        (
            "unexpected platform type '{platform}' for {model}",
            "Poll failed for model directory 'echo': unexpected platform type 'python' for echo",
            Match.TEMPLATE,
        ),
        (
            "circular dependency between ensembles: {start} -> ... -> {current} -> {start}",
            "circular dependency between ensembles: a -> ... -> b -> a",
            Match.TEMPLATE,
        ),
        (
            # The text around {version} differs; the longest fixed fragment is there.
            "version {version} is not served: model '{model}' has no such version",
            "load failed: version is not served: model 'm' has no such version",
            Match.FRAGMENT,
        ),
        (
            "unable to find '{path}' for model instance '{instance}'",
            "Python model file not found",
            Match.NONE,
        ),
        (None, "anything", Match.NONE),
    ],
)
def test_match_message(template: str | None, message: str, expected: Match) -> None:
    assert match_message(template, message) is expected


def test_message_pattern_hides_names_numbers_and_paths() -> None:
    assert (
        message_pattern(
            "load failed for model 'm': version 1 is at UNAVAILABLE state: Unavailable: unable to "
            "find '<repo>/m/1/model.onnx' for model instance 'm_0_0';"
        )
        == "Unavailable: unable to find '…' for model instance '…'"
    )
    assert message_pattern(
        "Poll failed for model directory 'c': failed to read text proto from "
        "<repo>/c/config.pbtxt (Error parsing text-format inference.ModelConfig: 4:15: "
        'Non-repeated field "max_batch_size" is specified multiple times.)'
    ) == (
        "failed to read text proto from <path> (Error parsing text-format "
        'inference.ModelConfig: L:C: Non-repeated field "…" is specified multiple times.)'
    )
