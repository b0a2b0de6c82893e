"""The real server judges the fixtures, and the linter agrees with it.

* ``fixtures/model_repository``: the server loads every model; the linter reports no error.
* ``fixtures/broken/<case>``: the server refuses the model named in ``fixtures/broken/README.md``
  with the message given there (and loads the others); the linter reports an error inside that
  model's folder.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from tritonlint.server import TritonInstall, Verdict, judge_repositories
from tritonlint.server.devices import has_gpu
from tritonlint.server.prepare import ADJUST_KIND_GPU

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
VALID = FIXTURES / "model_repository"
BROKEN = FIXTURES / "broken"
VALID_MODELS = {
    "bert_pytorch",
    "classifier_onnx",
    "echo_python",
    "image_pipeline",
    "lightseq_transformer",
    "preprocess",
    "resnet_trt",
    "segmenter_tf",
}

_ROW = re.compile(
    r"^\| `(?P<fixture>[^`]+)` \| .* \| `(?P<model>[^`]+)` \| `(?P<message>[^`]+)` \|$"
)


def expected_refusals() -> dict[str, tuple[str, str]]:
    """fixture -> (refused model, server message) from the table in fixtures/broken/README.md."""
    table: dict[str, tuple[str, str]] = {}
    for line in (BROKEN / "README.md").read_text().splitlines():
        match = _ROW.match(line)
        if match:
            table[match["fixture"]] = (match["model"], match["message"])
    return table


EXPECTED = expected_refusals()
BROKEN_CASES = sorted(EXPECTED)


@pytest.fixture(scope="module")
def verdicts(triton_install: TritonInstall) -> dict[Path, dict[str, Verdict]]:
    """One judge for all fixture repositories (a fresh server for each)."""
    repositories = [VALID, *(BROKEN / case for case in BROKEN_CASES)]
    return judge_repositories(repositories, install=triton_install)


def test_table_lists_every_broken_fixture() -> None:
    folders = {path.name for path in BROKEN.iterdir() if path.is_dir()}
    assert folders == set(EXPECTED)


@pytest.mark.server
def test_server_loads_the_valid_repository(verdicts: dict[Path, dict[str, Verdict]]) -> None:
    judged = verdicts[VALID]
    assert set(judged) == VALID_MODELS
    refused = {name: v.message for name, v in judged.items() if not v.loaded}
    assert refused == {}
    adjusted = {name: v.adjustments for name, v in judged.items() if v.adjustments}
    if has_gpu():
        assert adjusted == {}
    else:
        # Judged as KIND_CPU, and the verdict says so.
        assert adjusted == {"resnet_trt": (ADJUST_KIND_GPU,)}


@pytest.mark.server
@pytest.mark.parametrize("case", BROKEN_CASES)
def test_server_refuses_the_broken_model(
    verdicts: dict[Path, dict[str, Verdict]], case: str
) -> None:
    model, message = EXPECTED[case]
    repository = BROKEN / case
    judged = verdicts[repository]
    assert not judged[model].loaded, f"the server loaded {case}/{model}"
    expected = message.replace("<repo>", str(repository.resolve()))
    assert expected in judged[model].message
    # One mistake per fixture: every other model loads.
    others = {name: v.message for name, v in judged.items() if name != model and not v.loaded}
    assert others == {}


# -- the linter agrees (these run the linter only, no server) ------------------------------------


@pytest.fixture(scope="module")
def lint() -> Callable[[Sequence[Path]], Any]:
    from tritonlint.engine import lint_paths

    return lint_paths


def _errors(result: Any) -> list[Any]:
    return [d for d in result.diagnostics if d.severity.value == "error"]


def _inside(path: Path, folder: Path) -> bool:
    return Path(path).resolve().is_relative_to(folder.resolve())


def test_linter_reports_no_error_for_the_valid_repository(
    lint: Callable[[Sequence[Path]], Any],
) -> None:
    errors = _errors(lint([VALID]))
    assert [f"{d.code} {d.path}: {d.message}" for d in errors] == []


@pytest.mark.parametrize("case", BROKEN_CASES)
def test_linter_flags_the_model_the_server_refuses(
    lint: Callable[[Sequence[Path]], Any], case: str
) -> None:
    model, message = EXPECTED[case]
    repository = BROKEN / case
    errors = _errors(lint([repository]))
    assert any(_inside(d.path, repository / model) for d in errors), (
        f"no error inside {case}/{model}; the server says: {message}; the linter reported: "
        + "; ".join(f"{d.code} {d.path}: {d.message}" for d in errors)
    )
