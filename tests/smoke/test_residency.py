"""Which loaded models the smoke stage unloads, and when (tritonlint/smoke/residency.py)."""

from __future__ import annotations

from tritonlint.smoke.residency import Residency


def test_a_model_is_kept_until_every_ensemble_that_runs_it_was_judged() -> None:
    residency = Residency(
        ["a", "b", "pipeline", "other", "outer"],
        {"pipeline": ["a", "b"], "outer": ["pipeline", "a"]},
    )
    residency.judged("a", loaded=True)
    residency.judged("b", loaded=True)
    assert residency.releasable() == []
    residency.judged("pipeline", loaded=True)
    assert residency.releasable() == ["b"]  # a and pipeline: outer still runs them
    residency.judged("other", loaded=False)  # refused: nothing to unload
    assert residency.releasable() == ["b"]
    residency.judged("outer", loaded=True)
    assert residency.releasable() == ["outer", "pipeline", "b", "a"]  # ensembles first


def test_models_are_unloaded_together_once_there_are_enough() -> None:
    residency = Residency(["a", "b", "c"], {})
    residency.judged("a", loaded=True)
    assert residency.due(limit=2) == []
    residency.judged("b", loaded=True)
    assert residency.due(limit=2) == ["b", "a"]
    residency.unloaded(["b", "a"])
    residency.judged("c", loaded=True)
    assert residency.due(limit=2) == []
    assert residency.releasable() == ["c"]


def test_after_a_restart_nothing_is_loaded() -> None:
    residency = Residency(["a"], {})
    residency.judged("a", loaded=True)
    residency.forget()
    assert residency.due(limit=1) == []
