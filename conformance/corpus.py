"""The model repositories each conformance set judges, built from the shared corpus.

Three sets:

* ``triton-qa``: one repository per ``MANIFEST.tsv`` row. A ``single_model`` case is copied to
  ``<repo>/<basename of case_path>``, as ``qa/L0_model_config/test.sh`` copies it into
  ``models/<basename>`` (so the model's name is the case folder's name); a ``repository`` case is
  a whole repository, every child folder a model.
* ``realworld``: every parent folder of model folders (``realworld/<owner>__<repo>/<parent>``),
  the way the models sat together in their own repository.
* ``fixtures``: ``fixtures/model_repository`` and each ``fixtures/broken/<case>``.

The corpus folder is read-only: it is copied to a work folder and laid out there with the
corpus's own ``materialize.py`` (empty version folders from ``LAYOUT.tsv``, realworld
placeholders from each ``layout.txt``).
"""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

SETS = ("triton-qa", "realworld", "fixtures")

#: The repository root of this checkout (``fixtures/`` lives there).
PROJECT_ROOT = Path(__file__).resolve().parents[1]
#: Where the corpus is looked for when ``--corpus`` is not given: ``shared/corpus`` beside the
#: checkout, as the server tests find it.
DEFAULT_CORPUS = PROJECT_ROOT.parent / "shared" / "corpus"
FIXTURES = PROJECT_ROOT / "fixtures"


@dataclass(frozen=True)
class QACase:
    """The MANIFEST row a triton-qa repository was built from (the columns the report uses)."""

    case_path: str
    case_kind: str
    expected_outcome: str
    expected_message: str
    server_args: str
    notes: str
    static_detectability: str
    category: str

    @classmethod
    def from_row(cls, row: Mapping[str, str]) -> QACase:
        return cls(
            case_path=row["case_path"],
            case_kind=row["case_kind"],
            expected_outcome=row["expected_outcome"],
            expected_message=row["expected_message"],
            server_args=row["server_args"],
            notes=row["notes"],
            static_detectability=row["static_detectability"],
            category=row["category"],
        )


@dataclass(frozen=True)
class CorpusRepository:
    """One model repository to judge and lint.

    ``label`` names it in the report (``triton-qa/<case_path>``, ``realworld/<owner>__<repo>/
    <parent>``, ``fixtures/broken/<case>``); ``path`` is where it lies on disk now.
    """

    set_name: str
    label: str
    path: Path
    qa_case: QACase | None = None
    models: tuple[str, ...] = field(default=())

    def model_label(self, model: str) -> str:
        return f"{self.label}/{model}"


def model_folders(repository: Path) -> tuple[str, ...]:
    """The folders the server takes for models: every visible child folder."""
    return tuple(
        sorted(
            entry.name
            for entry in repository.iterdir()
            if entry.is_dir() and not entry.name.startswith(".")
        )
    )


def materialize(corpus: Path, work: Path) -> Path:
    """A writable, materialized copy of ``corpus`` under ``work``; returns its root."""
    source = work / "source"
    shutil.copytree(corpus, source, copy_function=shutil.copyfile)
    for root, dirs, files in os.walk(source):
        for name in dirs:
            Path(root, name).chmod(0o755)
        for name in files:
            Path(root, name).chmod(0o644)
    source.chmod(0o755)
    dest = work / "materialized"
    subprocess.run(
        [sys.executable, str(source / "materialize.py"), str(dest)],
        check=True,
        capture_output=True,
    )
    shutil.rmtree(source, ignore_errors=True)
    return dest


def triton_qa_repositories(materialized: Path, work: Path) -> list[CorpusRepository]:
    """One repository per MANIFEST row, laid out as the QA harness lays it out."""
    qa = materialized / "triton-qa"
    with open(qa / "MANIFEST.tsv", newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    repositories = []
    for index, row in enumerate(sorted(rows, key=lambda r: r["case_path"])):
        case = QACase.from_row(row)
        source = qa / case.case_path
        # Case folders nest (a repository case holds other cases' folders): a flat, numbered
        # folder per case. Messages name it ``<repo>``.
        repo = work / "triton-qa" / f"{index:04d}"
        if case.case_kind == "repository":
            shutil.copytree(source, repo, symlinks=True)
        else:
            repo.mkdir(parents=True)
            shutil.copytree(source, repo / source.name, symlinks=True)
        repositories.append(
            CorpusRepository(
                set_name="triton-qa",
                label=f"triton-qa/{case.case_path}",
                path=repo,
                qa_case=case,
                models=model_folders(repo),
            )
        )
    return repositories


def realworld_repositories(materialized: Path) -> list[CorpusRepository]:
    """Every ``realworld/<owner>__<repo>/<parent>`` folder: the models that sat together."""
    realworld = materialized / "realworld"
    groups = sorted({config.parent.parent for config in realworld.glob("*/*/*/config.pbtxt")})
    return [
        CorpusRepository(
            set_name="realworld",
            label=f"realworld/{group.relative_to(realworld).as_posix()}",
            path=group,
            models=model_folders(group),
        )
        for group in groups
    ]


def fixture_repositories(fixtures: Path = FIXTURES) -> list[CorpusRepository]:
    """``fixtures/model_repository`` and every ``fixtures/broken/<case>``."""
    paths = [fixtures / "model_repository"]
    broken = fixtures / "broken"
    if broken.is_dir():
        paths += sorted(p for p in broken.iterdir() if p.is_dir())
    return [
        CorpusRepository(
            set_name="fixtures",
            label=f"fixtures/{path.relative_to(fixtures).as_posix()}",
            path=path,
            models=model_folders(path),
        )
        for path in paths
        if path.is_dir()
    ]


def build_sets(
    sets: tuple[str, ...], corpus: Path, work: Path, fixtures: Path = FIXTURES
) -> dict[str, list[CorpusRepository]]:
    """The repositories of each requested set, laid out under ``work`` where a copy is needed."""
    built: dict[str, list[CorpusRepository]] = {}
    needs_corpus = any(name in ("triton-qa", "realworld") for name in sets)
    materialized = materialize(corpus, work) if needs_corpus else None
    for name in sets:
        if name == "triton-qa":
            assert materialized is not None
            built[name] = triton_qa_repositories(materialized, work)
        elif name == "realworld":
            assert materialized is not None
            built[name] = realworld_repositories(materialized)
        elif name == "fixtures":
            built[name] = fixture_repositories(fixtures)
        else:
            raise ValueError(f"unknown set {name!r} (known: {', '.join(SETS)})")
    return built
