"""Go to definition and find references across the configs of a repository."""

from __future__ import annotations

from pathlib import Path

import pytest
from editor_texts import PIPELINE, PREPROCESS, at_cursor, marked_in, pipeline_repository

from tritonlint.editor.navigation import FILE_START, Place, definition, references
from tritonlint.engine import LintOptions, Workspace
from tritonlint.repository.model import Repository
from tritonlint.schema.releases import Schema
from tritonlint.span import Span


@pytest.fixture
def repository(tmp_path: Path) -> Repository:
    return pipeline_repository(tmp_path)


def _marked(needle: str, text: str = PIPELINE) -> tuple[str, int, int]:
    return at_cursor(marked_in(needle, text))


def _found(found: list[Place], root: Path) -> list[tuple[str, tuple[int, int, int, int]]]:
    """Each place as its path in the repository and its line, column, end line, end column."""
    return [(place.path.relative_to(root).as_posix(), tuple(place.span[:4])) for place in found]


def _define(needle: str, repository: Repository, schema: Schema) -> list[Place]:
    assert repository.root is not None
    return definition(
        *_marked(needle), schema, repository.root / "pipeline/config.pbtxt", repository
    )


def test_a_step_model_goes_to_that_models_name(repository: Repository, schema: Schema) -> None:
    found = _define('model_name: "prep|rocess"', repository, schema)
    assert repository.root is not None
    assert found == [Place(repository.root / "preprocess/config.pbtxt", Span(1, 7, 1, 19, 6, 18))]


def test_a_model_without_a_name_is_found_at_its_files_start(
    repository: Repository, schema: Schema
) -> None:
    assert repository.root is not None
    config = repository.root / "preprocess/config.pbtxt"
    config.write_text(PREPROCESS.replace('name: "preprocess"\n', ""), encoding="utf-8")
    fresh = Workspace(repository.root, LintOptions()).repository
    found = definition(
        *_marked('model_name: "prep|rocess"'),
        schema,
        repository.root / "pipeline/config.pbtxt",
        fresh,
    )
    assert found == [Place(config, FILE_START)]


@pytest.mark.parametrize(
    ("needle", "expected"),
    [
        ('key: "im|ages"', ("classifier/config.pbtxt", (4, 17, 4, 25))),
        ('key: "PIX|ELS"', ("preprocess/config.pbtxt", (6, 11, 6, 19))),
        ('value: "pix|els" }\n    }', ("pipeline/config.pbtxt", (12, 41, 12, 49))),
        ('value: "IMA|GE"', ("pipeline/config.pbtxt", (4, 17, 4, 24))),
    ],
    ids=[
        "a-map-key-goes-to-the-step-models-input",
        "a-map-key-goes-to-the-step-models-output",
        "a-value-consumed-by-step-1-goes-to-step-0s-output-map",
        "a-value-consumed-by-step-0-goes-to-the-ensembles-input",
    ],
)
def test_a_map_name_goes_to_its_tensor(
    needle: str,
    expected: tuple[str, tuple[int, int, int, int]],
    repository: Repository,
    schema: Schema,
) -> None:
    assert repository.root is not None
    assert _found(_define(needle, repository, schema), repository.root) == [expected]


def test_no_definition_for_unknown_names_or_other_fields(
    repository: Repository, schema: Schema
) -> None:
    assert _define("model_version: -|1", repository, schema) == []
    assert _define('platform: "ens|emble"', repository, schema) == []
    path = Path("config.pbtxt")
    assert (
        definition(
            *at_cursor('ensemble_scheduling { step { model_name: "no|ne" } }'),
            schema,
            path,
            repository,
        )
        == []
    )
    assert (
        definition(
            *at_cursor('ensemble_scheduling { step { model_name: "pre|process" } }'), schema, path
        )
        == []
    )


def test_definition_in_a_half_typed_step(repository: Repository, schema: Schema) -> None:
    text = (
        'platform: "ensemble"\n'
        'input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1 ] } ]\n'
        "ensemble_scheduling {\n"
        "  step [\n"
        '    { model_name: "preprocess" input_map { key: "RAW" value: "IM|AGE" }\n'
        "    { model_name: \n"
    )
    found = definition(*at_cursor(text), schema, Path("config.pbtxt"), repository)
    assert found == [Place(Path("config.pbtxt"), Span(2, 17, 2, 24, 37, 44))]


def _refer(
    needle: str, text: str, model: str, repository: Repository, schema: Schema
) -> list[tuple[str, tuple[int, int, int, int]]]:
    assert repository.root is not None
    path = repository.root / model / "config.pbtxt"
    return _found(references(*_marked(needle, text), schema, path, repository), repository.root)


def test_an_ensemble_tensors_references_are_its_productions_and_consumptions(
    repository: Repository, schema: Schema
) -> None:
    pixels = [
        ("pipeline/config.pbtxt", (12, 41, 12, 49)),
        ("pipeline/config.pbtxt", (17, 40, 17, 48)),
    ]
    assert _refer('value: "pix|els" }\n    }', PIPELINE, "pipeline", repository, schema) == pixels
    image = [("pipeline/config.pbtxt", (4, 17, 4, 24)), ("pipeline/config.pbtxt", (11, 37, 11, 44))]
    assert _refer('name: "IM|AGE"', PIPELINE, "pipeline", repository, schema) == image
    assert _refer('value: "IM|AGE"', PIPELINE, "pipeline", repository, schema) == image


def test_a_tensor_no_ensemble_maps_has_only_its_declaration_and_none_without_it(
    repository: Repository, schema: Schema
) -> None:
    assert repository.root is not None
    path = repository.root / "preprocess/config.pbtxt"
    marked = _marked('name: "SI|ZE"', PREPROCESS)
    assert _found(references(*marked, schema, path, repository), repository.root) == [
        ("preprocess/config.pbtxt", (7, 11, 7, 17))
    ]
    assert references(*marked, schema, path, repository, include_declaration=False) == []


#: Where ``preprocess``'s output ``PIXELS`` is named: the ensemble's map key, the declaration.
PIXELS_PLACES = [
    ("pipeline/config.pbtxt", (12, 25, 12, 33)),
    ("preprocess/config.pbtxt", (6, 11, 6, 19)),
]
#: Where ``preprocess`` is named: the ensemble's step, the model's own name.
PREPROCESS_PLACES = [
    ("pipeline/config.pbtxt", (9, 19, 9, 31)),
    ("preprocess/config.pbtxt", (1, 7, 1, 19)),
]


@pytest.mark.parametrize(
    ("needle", "text", "model", "expected"),
    [
        ('name: "PIX|ELS"', PREPROCESS, "preprocess", PIXELS_PLACES),
        ('key: "PIX|ELS"', PIPELINE, "pipeline", PIXELS_PLACES),
        ('name: "pre|process"', PREPROCESS, "preprocess", PREPROCESS_PLACES),
        ('model_name: "pre|process"', PIPELINE, "pipeline", PREPROCESS_PLACES),
    ],
    ids=[
        "a-model-tensor-from-its-declaration",
        "a-model-tensor-from-an-ensembles-map-key",
        "a-model-from-its-name",
        "a-model-from-a-step-naming-it",
    ],
)
def test_the_references_of_a_model_or_its_tensor_are_the_ensembles_naming_it(
    needle: str,
    text: str,
    model: str,
    expected: list[tuple[str, tuple[int, int, int, int]]],
    repository: Repository,
    schema: Schema,
) -> None:
    assert _refer(needle, text, model, repository, schema) == expected


def test_the_edited_text_counts_not_the_file_on_disk(
    repository: Repository, schema: Schema
) -> None:
    # A second step naming preprocess, not yet saved.
    edited = PIPELINE.replace("  ]\n}", '    , { model_name: "preprocess" }\n  ]\n}')
    assert _refer('model_name: "pre|process"', edited, "pipeline", repository, schema) == [
        ("pipeline/config.pbtxt", (9, 19, 9, 31)),
        ("pipeline/config.pbtxt", (20, 21, 20, 33)),
        ("preprocess/config.pbtxt", (1, 7, 1, 19)),
    ]
