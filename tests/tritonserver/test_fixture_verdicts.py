"""The real server judges the fixtures, and the linter agrees with it.

* ``fixtures/model_repository``: the server loads every model; the linter reports no error.
* ``fixtures/broken/<case>``: the server refuses the model named in ``fixtures/broken/README.md``
  with the message given there (and loads the others); the linter reports an error inside that
  model's folder of the rule named there, the rule whose predicted server message (its registry
  entry's ``server_message``) matches the server's message.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from conformance.classify import Match, match_message
from tritonlint.rules.registry import by_code
from tritonlint.tritonserver import TritonInstall, Verdict, judge_repositories
from tritonlint.tritonserver.devices import has_gpu
from tritonlint.tritonserver.prepare import ADJUST_KIND_GPU

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
    r"^\| `(?P<fixture>[^`]+)` \| .* \| `(?P<model>[^`]+)` \| `(?P<rule>TL\d+)` "
    r"\| `(?P<message>[^`]+)` \|$"
)


class Refusal(NamedTuple):
    """A row of the table: the model the server refuses, the rule that predicts its message,
    and the message."""

    model: str
    rule: str
    message: str


def expected_refusals() -> dict[str, Refusal]:
    """fixture -> its refusal, from the table in fixtures/broken/README.md."""
    table: dict[str, Refusal] = {}
    for line in (BROKEN / "README.md").read_text().splitlines():
        match = _ROW.match(line)
        if match:
            table[match["fixture"]] = Refusal(match["model"], match["rule"], match["message"])
    return table


def predicted(rule: str) -> str | None:
    """The server message the rule's registry entry predicts (a template)."""
    found = by_code(rule)
    assert found is not None, f"no rule {rule} in the registry"
    return found.server_message


def predicts(rule: str, message: str) -> bool:
    """Whether the rule's predicted server message matches ``message``."""
    return match_message(predicted(rule), message) is Match.TEMPLATE


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
    model, rule, message = EXPECTED[case]
    repository = BROKEN / case
    judged = verdicts[repository]
    assert not judged[model].loaded, f"the server loaded {case}/{model}"
    expected = message.replace("<repo>", str(repository.resolve()))
    assert expected in judged[model].message
    # The rule the linter reports for it predicts what the server says.
    assert predicts(rule, judged[model].message), (
        f"{rule}'s predicted message {predicted(rule)!r} does not match the "
        f"server's {judged[model].message!r}"
    )
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
    model, rule, message = EXPECTED[case]
    repository = BROKEN / case
    errors = _errors(lint([repository]))
    assert any(d.code == rule and _inside(d.path, repository / model) for d in errors), (
        f"no {rule} error inside {case}/{model}; the server says: {message}; the linter reported: "
        + "; ".join(f"{d.code} {d.path}: {d.message}" for d in errors)
    )


@pytest.mark.parametrize("case", BROKEN_CASES)
def test_the_rule_predicts_the_server_message(case: str) -> None:
    """The table's rule is the one whose registry entry predicts the message recorded there."""
    _, rule, message = EXPECTED[case]
    assert predicts(rule, message), (
        f"{rule}'s predicted message {predicted(rule)!r} does not match {message!r}"
    )
