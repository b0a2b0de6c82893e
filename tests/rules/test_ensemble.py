"""Ensemble pack: what the cases of tests/rules/cases/ cannot say (related places, every
finding of a cycle, exact fixes).

Every test starts from one valid repository, ``pipe`` = ``pre`` (python) -> ``clf`` (ONNX),
and changes one thing.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import Files, assert_fix_resolves, codes, lint, locate, only, position

from tritonlint.diagnostics import Applicability, Diagnostic, Fix, Severity, TextEdit
from tritonlint.span import Span

Repo = Callable[[Files], Path]

PRE = """\
backend: "python"
max_batch_size: 8
input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 4, 4 ] } ]
dynamic_batching { }
"""

CLF = """\
platform: "onnxruntime_onnx"
max_batch_size: 8
input [ { name: "x" data_type: TYPE_FP32 dims: [ 3, 4, 4 ] } ]
output [ { name: "y" data_type: TYPE_FP32 dims: [ 10 ] } ]
dynamic_batching { }
"""

PIPE = """\
platform: "ensemble"
max_batch_size: 8
input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 10 ] } ]
ensemble_scheduling {
  step [
    {
      model_name: "pre"
      model_version: -1
      input_map { key: "IMAGE" value: "IMAGE" }
      output_map { key: "PIXELS" value: "pixels" }
    },
    {
      model_name: "clf"
      model_version: -1
      input_map { key: "x" value: "pixels" }
      output_map { key: "y" value: "PROBS" }
    }
  ]
}
"""


def replace(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def repository(
    repo: Repo, pipe: str = PIPE, pre: str = PRE, clf: str = CLF, **extra: str | bytes | None
) -> Path:
    files: dict[str, str | bytes | None] = {
        "pipe/config.pbtxt": pipe,
        "pipe/1/": None,
        "pre/config.pbtxt": pre,
        "pre/1/model.py": "",
        "clf/config.pbtxt": clf,
        "clf/1/model.onnx": b"",
    }
    files.update({path.replace("__", "/"): content for path, content in extra.items()})
    return repo(files)


def at(text: str, needle: str, nth: int = 1) -> tuple[int, int]:
    return locate(text, needle, nth)


# --- The data flow inside the ensemble ------------------------------------------------------


def test_a_misspelt_input_block_leaves_no_echo_about_any_tensor_it_held(repo: Repo) -> None:
    """`inputs` (for `input`) leaves the ensemble with no inputs: every step reading one of
    them is an echo of TL101, however many there are and in whatever order the maps iterate."""
    pipe = replace(
        PIPE,
        'input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]',
        'inputs [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] },\n'
        '         { name: "HINT" data_type: TYPE_FP32 dims: [ 1 ] } ]',
    )
    pipe = replace(
        pipe,
        'input_map { key: "IMAGE" value: "IMAGE" }',
        'input_map { key: "IMAGE" value: "IMAGE" }\n      input_map { key: "HINT" value: "HINT" }',
    )
    pre = replace(PRE, "dims: [ -1, -1, 3 ] } ]", 'dims: [ -1, -1, 3 ] }, { name: "HINT" '
                  "data_type: TYPE_FP32 dims: [ 1 ] } ]")  # fmt: skip
    assert codes(lint(repository(repo, pipe=pipe, pre=pre))) == ["TL101"]


def test_steps_listed_out_of_order_are_fine(repo: Repo) -> None:
    start = PIPE.index('    {\n      model_name: "pre"')
    middle = PIPE.index('    {\n      model_name: "clf"')
    end = PIPE.index("  ]\n}")
    first, second = PIPE[start:middle].replace("},", "}"), PIPE[middle:end].rstrip("\n") + ",\n"
    pipe = PIPE[:start] + second + first + PIPE[end:]
    assert codes(lint(repository(repo, pipe=pipe))) == []


# --- Each step against the model it runs: related places ------------------------------------


def test_tl713_input_map_key_that_is_not_an_input_of_the_model(repo: Repo) -> None:
    pipe = replace(PIPE, 'input_map { key: "x"', 'input_map { key: "images"')
    root = repository(repo, pipe=pipe)
    found = only(lint(root), "TL713")
    assert found.severity is Severity.ERROR
    assert position(found) == at(pipe, '"images"')
    assert "mapping to non-existing input images in model clf" in found.message
    [related] = found.related
    assert related.path == root / "clf" / "config.pbtxt"


def test_tl714_required_input_of_the_model_not_fed(repo: Repo) -> None:
    clf = replace(CLF, "dims: [ 3, 4, 4 ] } ]", 'dims: [ 3, 4, 4 ] }, { name: "mask" '
                  "data_type: TYPE_FP32 dims: [ 1 ] } ]")  # fmt: skip
    root = repository(repo, clf=clf)
    found = only(lint(root), "TL714")
    assert found.severity is Severity.ERROR
    assert position(found) == at(PIPE, '"clf"')
    assert "input mask in model clf is not mapped to any ensemble tensors" in found.message
    [related] = found.related
    assert related.span is not None
    assert (related.span.line, related.span.column) == at(clf, '"mask"')


@pytest.mark.parametrize(
    ("change", "phrase"),
    [
        ("data_type: TYPE_FP16 dims: [ 10 ]", "inconsistent data type: TYPE_FP16 is inferred "
         "from model pipe while TYPE_FP32 is inferred from model clf"),
        ("data_type: TYPE_FP32 dims: [ 1000 ]", "inconsistent shape: [-1,1000] is inferred from "
         "model pipe while [-1,10] is inferred from model clf"),
    ],
)  # fmt: skip
def test_tl715_tensor_type_or_shape_differs_between_models(
    repo: Repo, change: str, phrase: str
) -> None:
    pipe = replace(PIPE, "data_type: TYPE_FP32 dims: [ 10 ]", change)
    root = repository(repo, pipe=pipe)
    found = only(lint(root), "TL715")
    assert found.severity is Severity.ERROR
    assert position(found) == at(pipe, '"PROBS"', 2)  # the output_map value
    assert phrase in found.message
    assert [r.path for r in found.related] == [
        root / "pipe" / "config.pbtxt",
        root / "clf" / "config.pbtxt",
    ]


CHAIN = """\
platform: "ensemble"
max_batch_size: 8
input [ { name: "IN" data_type: TYPE_FP32 dims: [ 4 ] } ]
output [ { name: "OUT" data_type: TYPE_FP32 dims: [ 4 ] } ]
ensemble_scheduling { step [ { model_name: "%s" model_version: -1
  input_map { key: "IN" value: "IN" } output_map { key: "OUT" value: "OUT" } } ] }
"""

IDENTITY = """\
backend: "python"
max_batch_size: 8
input [ { name: "IN" data_type: TYPE_FP32 dims: [ 4 ] } ]
output [ { name: "OUT" data_type: TYPE_FP32 dims: [ 4 ] } ]
dynamic_batching { }
"""


def test_tl718_ensembles_that_run_each_other(repo: Repo) -> None:
    root = repo(
        {
            "a/config.pbtxt": CHAIN % "b",
            "a/1/": None,
            "b/config.pbtxt": CHAIN % "c",
            "b/1/": None,
            "c/config.pbtxt": CHAIN % "a",
            "c/1/": None,
        }
    )
    found = with_code_sorted(root, "TL718")
    assert [(d.path.parent.name, position(d)) for d in found] == [
        ("a", at(CHAIN % "b", '"b"')),
        ("b", at(CHAIN % "c", '"c"')),
        ("c", at(CHAIN % "a", '"a"')),
    ]
    assert "circular dependency between ensembles: a -> b -> c -> a" in found[0].message
    assert all(d.severity is Severity.ERROR for d in found)


def with_code_sorted(root: Path, code: str) -> list[Diagnostic]:
    return sorted((d for d in lint(root).diagnostics if d.code == code), key=lambda d: d.sort_key)


# --- fixes -------------------------------------------------------------------------------------

SAFE, UNSAFE = Applicability.SAFE, Applicability.UNSAFE
OMITTED = replace(PIPE, 'model_name: "clf"\n      model_version: -1\n', 'model_name: "clf"\n')
#: Where model_version: -1 goes back in: at the end of the line of model_name: "clf".
CLF_NAME_END = Span(14, 24, 14, 24, 392, 392)
LATEST = TextEdit(CLF_NAME_END, "\n      model_version: -1")

#: ensemble config, code, fix title, applicability, edits (fixed: always PIPE).
FIXES = [
    (
        replace(PIPE, 'platform: "ensemble"', 'backend: "ensemble"'), "TL702",
        'Write platform: "ensemble" instead of backend', SAFE,
        [TextEdit(Span(1, 1, 1, 8, 0, 7), "platform")],
    ),
    (
        replace(PIPE, 'platform: "ensemble"\n', 'platform: "ensemble"\nbackend: "python"\n'),
        "TL703", "Remove backend from the ensemble", SAFE,
        [TextEdit(Span(1, 21, 2, 18, 20, 38), "")],
    ),
    (
        PIPE + "instance_group [ { kind: KIND_CPU count: 2 } ]\n", "TL704",
        "Remove instance_group from the ensemble", SAFE,
        [TextEdit(Span(20, 2, 21, 47, 518, 565), "")],
    ),
    (
        # Each instance_group field, its trailing comment, and nothing around them.
        replace(PIPE, "max_batch_size: 8\n", "max_batch_size: 8\ninstance_group { count: 1 }  # cpu\n")
        + "instance_group { count: 2 }\n",
        "TL704", "Remove instance_group from the ensemble", SAFE,
        [TextEdit(Span(2, 18, 3, 35, 38, 73), ""), TextEdit(Span(21, 2, 22, 28, 553, 581), "")],
    ),
    (
        replace(PIPE, "max_batch_size: 8\n", "max_batch_size: 8 instance_group [ { count: 1 } ]\n"),
        "TL704", "Remove instance_group from the ensemble", SAFE,
        [TextEdit(Span(2, 18, 2, 50, 38, 70), "")],
    ),
    (
        PIPE + "optimization { input_pinned_memory { enable: true } }\n", "TL705",
        "Remove optimization from the ensemble", SAFE,
        [TextEdit(Span(20, 2, 21, 54, 518, 572), "")],
    ),
    (
        OMITTED, "TL717",
        "Write model_version: -1 (the latest version; omitted, it is version 0, which the "
        "model does not serve)", SAFE,
        [LATEST],
    ),
    (
        OMITTED, "TL719",
        "Write model_version: -1 (the latest version, where omitted it is version 0)", UNSAFE,
        [LATEST],
    ),
]  # fmt: skip


@pytest.mark.parametrize(
    ("pipe", "code", "title", "applicability", "edits"),
    FIXES,
    ids=[
        "TL702", "TL703", "TL704", "TL704-two-fields", "TL704-among-others", "TL705", "TL717",
        "TL719",
    ],
)  # fmt: skip
def test_ensemble_fix(
    repo: Repo,
    pipe: str,
    code: str,
    title: str,
    applicability: Applicability,
    edits: list[TextEdit],
) -> None:
    root = repository(repo, pipe=pipe)
    found = only(lint(root), code)
    assert found.fixes == (Fix(title, tuple(edits), applicability),)
    assert assert_fix_resolves(found, root) == PIPE
    assert codes(lint(root)) == []


def test_tl719_fix_on_a_step_written_on_one_line(repo: Repo) -> None:
    pipe = CHAIN.replace(" model_version: -1", "") % "c"
    root = repo(
        {"a/config.pbtxt": pipe, "a/1/": None, "c/config.pbtxt": IDENTITY, "c/0/model.py": ""}
    )
    found = only(lint(root), "TL719")
    [fix] = found.fixes
    assert fix.edits == (TextEdit(Span(5, 47, 5, 47, 203, 203), " model_version: -1"),)
    assert fix.applicability is UNSAFE
    assert assert_fix_resolves(found, root) == CHAIN % "c"


def test_tl703_backend_from_a_default_model_filename_has_no_fix(repo: Repo) -> None:
    pipe = replace(
        PIPE,
        'platform: "ensemble"\n',
        'platform: "ensemble"\nbackend: "python"\ndefault_model_filename: "model.py"\n',
    )
    assert only(lint(repository(repo, pipe=pipe)), "TL703").fixes == ()


def test_tl305_fix_writes_the_ensemble_platform_after_the_name(repo: Repo) -> None:
    pipe = replace(PIPE, 'platform: "ensemble"\n', 'name: "pipe"\n')
    root = repository(repo, pipe=pipe)
    found = only(lint(root), "TL305")
    assert found.fixes == (
        Fix(
            'Write platform: "ensemble"',
            (TextEdit(Span(1, 13, 1, 13, 12, 12), '\nplatform: "ensemble"'),),
            SAFE,
        ),
    )
    assert assert_fix_resolves(found, root) == 'name: "pipe"\n' + PIPE
    assert codes(lint(root)) == []
