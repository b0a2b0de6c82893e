"""Shared fixtures for the unit tests (none of them starts a server)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import Files, make_tree

from tritonlint.schema.releases import Schema, load_schema


@pytest.fixture(scope="session")
def schema() -> Schema:
    """The newest ModelConfig schema shipped."""
    return load_schema()


@pytest.fixture
def repo(tmp_path: Path) -> Callable[[Files], Path]:
    """Build a model repository under ``tmp_path/models`` from a ``{path: content}`` dict.

    Calling it again writes more files into the same repository.
    """

    def build(files: Files) -> Path:
        return make_tree(tmp_path / "models", files)

    return build


@pytest.fixture(autouse=True)
def _not_in_github_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests expect the text report by default, also when they run in GitHub Actions (where
    ``GITHUB_ACTIONS=true`` makes github annotations the default)."""
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="rewrite fixtures/broken/<case>/expected.txt from the reports (tests/test_golden.py)",
    )
