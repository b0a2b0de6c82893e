"""Differential test over the real-world corpus: whatever the server loads, the linter accepts.

The corpus (``shared/corpus/realworld`` beside this checkout) holds 929 configs from public
repositories, without their model files. ``materialize.py`` lays out placeholders for the files
and folders each model folder had. Every realworld repository group (the folder holding sibling
model folders) is judged as its own model repository, by a fresh server, in turn.

Adjustments made in the judge's temporary copy (the materialized copy is what the linter sees):

* all backends but python are stubs; without a GPU, KIND_GPU instance groups become KIND_CPU;
* python models whose model files are all empty placeholders are served by the native stub
  backend instead of the python backend (``PythonPlaceholders.NATIVE``). With the python backend
  each such load costs over a second (a fixed 1 s wait in the backend when it stops the stub it
  starts for auto-complete) and the corpus has about 350 of them; a python model whose
  ``model.py`` is missing still goes to the real python backend, which refuses it.

Nothing is cached between runs except the downloaded server and the compiled native stub.
"""

from __future__ import annotations

import collections
import time
from pathlib import Path
from typing import NamedTuple

import pytest

from conformance.corpus import materialize, realworld_repositories
from tritonlint.tritonserver import (
    LoadStatus,
    PythonPlaceholders,
    TritonInstall,
    Verdict,
    judge_repositories,
)

pytestmark = pytest.mark.server

CORPUS = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus"
#: The whole corpus must be judged well within the 10 minutes a CI step gets.
TIME_BUDGET_S = 480.0


@pytest.fixture(scope="module")
def realworld(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A materialized copy of the realworld corpus (version folders and placeholder files)."""
    corpus = CORPUS.resolve()
    if not (corpus / "realworld").is_dir() or not (corpus / "materialize.py").is_file():
        pytest.skip(f"no corpus at {corpus}")
    return materialize(corpus, tmp_path_factory.mktemp("corpus")) / "realworld"


class CorpusRun(NamedTuple):
    verdicts: dict[Path, dict[str, Verdict]]
    seconds: float


@pytest.fixture(scope="module")
def corpus_run(triton_install: TritonInstall, realworld: Path) -> CorpusRun:
    started = time.monotonic()
    verdicts = judge_repositories(
        [group.path for group in realworld_repositories(realworld.parent)],
        install=triton_install,
        python_placeholders=PythonPlaceholders.NATIVE,
        load_timeout=60.0,
    )
    seconds = time.monotonic() - started
    statuses = collections.Counter(
        verdict.status.value for models in verdicts.values() for verdict in models.values()
    )
    print(f"\nrealworld corpus: {len(verdicts)} repositories, {dict(statuses)}, {seconds:.0f} s")
    return CorpusRun(verdicts, seconds)


def test_corpus_is_judged_within_budget(corpus_run: CorpusRun) -> None:
    assert corpus_run.seconds < TIME_BUDGET_S


def test_server_judges_every_model(corpus_run: CorpusRun, realworld: Path) -> None:
    for config in realworld.glob("*/*/*/config.pbtxt"):
        model = config.parent
        assert model.name in corpus_run.verdicts[model.parent], f"no verdict for {model}"
    statuses = collections.Counter(
        v.status for models in corpus_run.verdicts.values() for v in models.values()
    )
    # The corpus has both kinds, and the server never stayed dead or silent.
    assert statuses[LoadStatus.LOADED] > 0
    assert statuses[LoadStatus.REFUSED] > 0
    assert statuses[LoadStatus.CRASHED] == 0
    assert statuses[LoadStatus.TIMEOUT] == 0


def test_linter_reports_no_error_for_models_the_server_loads(corpus_run: CorpusRun) -> None:
    from tritonlint.engine import lint_paths
    from tritonlint.rules.registry import all_rules

    # Backend checks cannot be confirmed here: every backend but python is a stand-in, and
    # python models with placeholder files are served by the stand-in too.
    backend_checks = {rule.code for rule in all_rules() if rule.backend_check}
    groups = sorted(corpus_run.verdicts)
    result = lint_paths(groups)
    errors = [
        d
        for d in result.diagnostics
        if d.severity.value == "error" and d.code not in backend_checks
    ]
    disagreements = []
    for group, models in corpus_run.verdicts.items():
        for name, verdict in models.items():
            if not verdict.loaded:
                continue
            folder = (group / name).resolve()
            for diagnostic in errors:
                if Path(diagnostic.path).resolve().is_relative_to(folder):
                    disagreements.append(
                        f"{folder}: {diagnostic.code} {diagnostic.message}"
                        f" (the server loaded it; adjustments: {list(verdict.adjustments)})"
                    )
    assert disagreements == [], "\n".join(disagreements)
