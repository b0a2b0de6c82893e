"""Platform/backend pack (TL301-TL309), judged after tritonserver's own auto-completion."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import Files, assert_fix_resolves, codes, lint, locate, only, position

from tritonlint.diagnostics import Applicability, Fix, Severity, TextEdit
from tritonlint.span import Span

Repo = Callable[[Files], Path]

IO = (
    "max_batch_size: 8\n"
    'input [ { name: "I" data_type: TYPE_FP32 dims: [ 16 ] } ]\n'
    'output [ { name: "O" data_type: TYPE_FP32 dims: [ 16 ] } ]\n'
)

PLATFORM_CODES = {"TL301", "TL302", "TL303", "TL304", "TL305", "TL306", "TL307", "TL309"}


def build(repo: Repo, head: str, version_files: dict[str, str | bytes | None]) -> Path:
    """A model ``m`` whose config is ``head`` + IO, with ``version_files`` under ``m/1/``."""
    files: dict[str, str | bytes | None] = {"m/config.pbtxt": head + IO}
    files.update({f"m/1/{name}": content for name, content in version_files.items()})
    if not version_files:
        files["m/1/"] = None
    return repo(files)


def platform_codes(root: Path) -> list[str]:
    return sorted(code for code in codes(lint(root)) if code in PLATFORM_CODES)


# --- TL301 backend-used-as-platform ----------------------------------------------------------


@pytest.mark.parametrize(
    ("platform", "model_file"),
    [
        ("python", None),
        # The server refuses this too: with a platform given it does not look for model.py
        # (fixtures/broken/backend_used_as_platform, checked on tritonserver 2.51).
        ("python", "model.py"),
        ("onnxruntime", "model.onnx"),
        ("tensorrt", "model.plan"),
        ("pytorch", "model.pt"),
    ],
)
def test_tl301_backend_name_in_platform(repo: Repo, platform: str, model_file: str | None) -> None:
    head = f'platform: "{platform}"\n'
    root = build(repo, head, {model_file: b""} if model_file else {})
    found = only(lint(root), "TL301")
    assert found.severity is Severity.ERROR
    assert found.path == root / "m" / "config.pbtxt"
    assert position(found) == locate(head, f'"{platform}"')
    assert f'write backend: "{platform}"' in found.message
    assert platform_codes(root) == ["TL301"]


def test_tl301_fixed_by_writing_backend(repo: Repo) -> None:
    root = build(repo, 'backend: "python"\n', {"model.py": ""})
    assert platform_codes(root) == []


# --- TL307 ignored-platform ------------------------------------------------------------------


def test_tl307_platform_next_to_a_backend_that_ignores_it(repo: Repo) -> None:
    # With backend set the server accepts any platform for python: only a warning.
    head = 'backend: "python"\nplatform: "python"\n'
    root = build(repo, head, {"model.py": ""})
    found = only(lint(root), "TL307")
    assert found.severity is Severity.WARNING
    assert position(found) == (2, 11)
    assert platform_codes(root) == ["TL307"]


@pytest.mark.parametrize(
    "head",
    [
        'backend: "python"\n',
        'platform: "onnxruntime_onnx"\nbackend: "onnxruntime"\n',  # a platform backend uses it
        'platform: "ensemble"\n',
    ],
)
def test_tl307_no_ignored_platform(repo: Repo, head: str) -> None:
    root = build(repo, head, {"model.py": "", "model.onnx": b""})
    assert "TL307" not in codes(lint(root))


# --- TL302 platform-used-as-backend ----------------------------------------------------------


def test_tl302_platform_name_in_backend(repo: Repo) -> None:
    head = 'backend: "tensorrt_plan"\n'
    root = build(repo, head, {"model.plan": b""})
    found = only(lint(root), "TL302")
    assert found.severity is Severity.ERROR
    assert position(found) == locate(head, '"tensorrt_plan"')
    assert 'backend: "tensorrt"' in found.message
    assert platform_codes(root) == ["TL302"]


@pytest.mark.parametrize("head", ['platform: "tensorrt_plan"\n', 'backend: "tensorrt"\n'])
def test_tl302_fixed(repo: Repo, head: str) -> None:
    assert platform_codes(build(repo, head, {"model.plan": b""})) == []


def test_tl302_not_with_a_runtime(repo: Repo) -> None:
    head = 'backend: "tensorrt_plan"\nruntime: "libtriton_tensorrt.so"\n'
    assert "TL302" not in codes(lint(build(repo, head, {"model.plan": b""})))


# --- TL303 unknown-platform -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("platform", "guess"),
    [
        ("onnxruntime_onnxx", "onnxruntime_onnx"),
        ("tensorflow_savedmodel_v2", "tensorflow_savedmodel"),
        ("onnx", None),
    ],
)
def test_tl303_unknown_platform(repo: Repo, platform: str, guess: str | None) -> None:
    head = f'platform: "{platform}"\n'
    root = build(repo, head, {"weights.bin": b""})
    found = only(lint(root), "TL303")
    assert found.severity is Severity.ERROR
    assert position(found) == locate(head, f'"{platform}"')
    assert f"unexpected platform type '{platform}' for m" in found.message
    if guess:
        assert f"did you mean '{guess}'?" in found.message


@pytest.mark.parametrize(
    "head",
    [
        'platform: "onnxruntime_onnx"\n',
        'platform: "ensemble"\n',
        'platform: "anything"\nbackend: "python"\n',  # the backend decides
    ],
)
def test_tl303_known_platform_or_backend_given(repo: Repo, head: str) -> None:
    root = build(repo, head, {"model.onnx": b"", "model.py": ""})
    assert "TL303" not in codes(lint(root))


# --- TL304 platform-backend-mismatch ---------------------------------------------------------


def test_tl304_platform_and_backend_disagree(repo: Repo) -> None:
    head = 'platform: "onnxruntime_onnx"\nbackend: "pytorch"\n'
    root = build(repo, head, {"model.pt": b""})
    found = only(lint(root), "TL304")
    assert found.severity is Severity.ERROR
    assert position(found) == (1, 11)
    assert "got:onnxruntime_onnx, pytorch" in found.message


def test_tl304_tensorflow_backend_without_platform_or_model_file(repo: Repo) -> None:
    head = 'backend: "tensorflow"\n'
    root = build(repo, head, {})
    found = only(lint(root), "TL304")
    assert position(found) == locate(head, '"tensorflow"')
    assert "the tensorflow backend needs a platform" in found.message


@pytest.mark.parametrize(
    ("head", "files"),
    [
        ('platform: "onnxruntime_onnx"\nbackend: "onnxruntime"\n', {"model.onnx": b""}),
        # The platform is derived from the model file of the first version folder.
        ('backend: "tensorflow"\n', {"model.savedmodel/": None}),
        ('backend: "tensorflow"\n', {"model.graphdef": b""}),
        ('backend: "tensorflow"\ndefault_model_filename: "model.savedmodel"\n', {}),
    ],
    ids=["agree", "savedmodel-folder", "graphdef-file", "default-model-filename"],
)
def test_tl304_pair_agrees_after_completion(
    repo: Repo, head: str, files: dict[str, str | bytes | None]
) -> None:
    assert "TL304" not in codes(lint(build(repo, head, files)))


def test_tl304_savedmodel_must_be_a_folder_to_derive_the_platform(repo: Repo) -> None:
    root = build(repo, 'backend: "tensorflow"\n', {"model.savedmodel": b""})
    assert "TL304" in codes(lint(root))


# --- TL305 undeterminable-backend ------------------------------------------------------------


def test_tl305_nothing_tells_the_backend(repo: Repo) -> None:
    head = 'name: "m"\n'
    root = build(repo, head, {"weights.bin": b""})
    found = only(lint(root), "TL305")
    assert found.severity is Severity.ERROR
    assert found.path == root / "m" / "config.pbtxt"
    assert position(found) == (1, 1)
    assert "set `backend`" in found.message
    assert found.fixes == ()  # which backend, only the author knows


def test_tl305_ensemble_without_its_platform(repo: Repo) -> None:
    head = (
        'name: "m"\nensemble_scheduling { step [ { model_name: "x" model_version: -1 '
        'input_map { key: "a" value: "I" } output_map { key: "b" value: "O" } } ] }\n'
    )
    found = only(lint(build(repo, head, {})), "TL305")
    assert 'an ensemble needs platform: "ensemble"' in found.message


@pytest.mark.parametrize(
    "files",
    [{"model.py": ""}, {"model.onnx": b""}, {"model.plan": b""}, {"model.xml": b""}],
)
def test_tl305_model_file_tells_the_backend(
    repo: Repo, files: dict[str, str | bytes | None]
) -> None:
    assert "TL305" not in codes(lint(build(repo, 'name: "m"\n', files)))


def test_tl305_folder_name_tells_a_custom_backend(repo: Repo) -> None:
    root = repo({"m.identity/config.pbtxt": IO, "m.identity/1/": None})
    assert "TL305" not in codes(lint(root))


# --- TL306 unknown-backend / TL309 misspelt-backend ---------------------------------


@pytest.mark.parametrize("backend", ["lightseq", "my_backend", "fastertransformer", "kaldi"])
def test_tl306_custom_backend_is_a_warning(repo: Repo, backend: str) -> None:
    head = f'backend: "{backend}"\n'
    root = build(repo, head, {})
    assert codes(lint(root)) == ["TL306"]
    found = only(lint(root), "TL306")
    assert found.severity is Severity.WARNING
    assert position(found) == locate(head, f'"{backend}"')
    assert found.message == (
        f"backend '{backend}' is not one Triton ships; make sure libtriton_{backend}.so or a "
        f"Python-based backend '{backend}/model.py' is installed on the server"
    )


def test_tl306_custom_backend_from_the_folder_name(repo: Repo) -> None:
    root = repo({"x.mybackend/config.pbtxt": IO, "x.mybackend/1/": None})
    found = only(lint(root, select=("ALL",)), "TL306")
    assert found.path == root / "x.mybackend" / "config.pbtxt"
    assert "backend 'mybackend'" in found.message


@pytest.mark.parametrize(
    "head",
    [
        'backend: "python"\n',
        'backend: "vllm"\n',
        'backend: "identity"\n',
        'backend: "mybackend"\nruntime: "libtriton_mybackend.so"\n',
    ],
)
def test_tl306_shipped_backend_or_explicit_runtime(repo: Repo, head: str) -> None:
    root = build(repo, head, {"model.py": ""})
    assert "TL306" not in codes(lint(root, select=("ALL",)))


_NO_LIBRARY = (
    "unable to find backend library for backend '{}', try specifying runtime on the model "
    "configuration."
)


@pytest.mark.parametrize(
    ("backend", "meant", "files"),
    [
        ("onnx", "'onnxruntime'", {"model.onnx": b""}),
        ("pythn", "'python'", {"model.py": ""}),
        ("Python", "'python'", {"model.py": ""}),
        ("pytorh", "'pytorch'", {"model.pt": b""}),
        ("trt", "'tensorrt'", {"model.plan": b""}),
        (
            "onnxruntime_onxx",
            "'onnxruntime' (the backend of platform 'onnxruntime_onnx')",
            {"model.onnx": b""},
        ),
    ],
)
def test_tl309_a_slip_of_a_shipped_backend_is_an_error(
    repo: Repo, backend: str, meant: str, files: dict[str, str | bytes | None]
) -> None:
    head = f'backend: "{backend}"\n'
    root = build(repo, head, files)
    # One finding, with every rule selected: no unknown-backend or ignored-platform beside it.
    assert platform_codes(root) == ["TL309"]
    found = only(lint(root, select=("ALL",)), "TL309")
    assert found.severity is Severity.ERROR
    assert position(found) == locate(head, f'"{backend}"')
    assert found.message == (
        f"no backend is called '{backend}': did you mean {meant}? tritonserver refuses the "
        "model unless a backend of exactly this name is installed: " + _NO_LIBRARY.format(backend)
    )


def test_tl309_keeps_quiet_on_the_platform_and_the_model_file(repo: Repo) -> None:
    # The platform and default_model_filename belong to the backend meant.
    head = 'backend: "onnx"\nplatform: "onnxruntime_onnx"\ndefault_model_filename: "m.onnx"\n'
    root = build(repo, head, {})
    assert codes(lint(root, select=("ALL",), ignore=("TL505",))) == ["TL309"]


def test_tl302_platform_written_as_backend_is_one_error(repo: Repo) -> None:
    head = 'backend: "pytorch_libtorch"\n'
    root = build(repo, head, {"model.pt": b""})
    assert codes(lint(root, select=("ALL",), ignore=("TL505",))) == ["TL302"]
    found = only(lint(root), "TL302")
    assert found.message == (
        "'pytorch_libtorch' is a platform, not a backend: write platform: "
        '"pytorch_libtorch" or backend: "pytorch" (tritonserver: unable to find backend '
        "library for backend 'pytorch_libtorch')"
    )
    assert [f.title for f in found.fixes] == [
        'Write platform: "pytorch_libtorch" instead of backend'
    ]


@pytest.mark.parametrize(
    ("platform", "meant"),
    [("onnxruntime_onxx", "onnxruntime_onnx"), ("tensorflow_savedmodl", "tensorflow_savedmodel")],
)
def test_tl303_misspelt_platform_is_an_error_with_a_guess(
    repo: Repo, platform: str, meant: str
) -> None:
    head = f'platform: "{platform}"\n'
    found = only(lint(build(repo, head, {})), "TL303")
    assert found.severity is Severity.ERROR
    assert found.message == (
        f"unexpected platform type '{platform}' for m; did you mean '{meant}'?"
    )


def test_tl308_runtime_that_climbs_out_of_the_search_folders(repo: Repo) -> None:
    config = 'backend: "identity"\nruntime: "../dummy_runtime/libtriton_identity.so"\n'
    found = only(lint(repo({"m/config.pbtxt": config, "m/1/": None})), "TL308")
    assert found.severity is Severity.ERROR
    assert position(found) == (2, 10)
    assert "escapes backend directory" in found.message
    fine = 'backend: "identity"\nruntime: "libtriton_identity.so"\n'
    assert "TL308" not in codes(lint(repo({"m/config.pbtxt": fine, "m/1/": None})))


# --- fixes -------------------------------------------------------------------------------------

SAFE, UNSAFE = Applicability.SAFE, Applicability.UNSAFE

#: config head, version files, code, fix title, applicability, edits, the fixed head.
FIXES = [
    (
        'platform: "python"\n', {"model.py": ""}, "TL301",
        'Write backend: "python" instead of platform', SAFE,
        [TextEdit(Span(1, 1, 1, 9, 0, 8), "backend")],
        'backend: "python"\n',
    ),
    (
        'platform: "onnxruntime"\nbackend: "onnxruntime"\n', {"model.onnx": b""}, "TL301",
        'Write the onnxruntime backend\'s platform, "onnxruntime_onnx"', SAFE,
        [TextEdit(Span(1, 11, 1, 24, 10, 23), '"onnxruntime_onnx"')],
        'platform: "onnxruntime_onnx"\nbackend: "onnxruntime"\n',
    ),
    (
        # The version folder tells which TensorFlow platform the backend completes.
        'platform: "tensorflow"\n', {"model.savedmodel/": None}, "TL301",
        'Write backend: "tensorflow" instead of platform', SAFE,
        [TextEdit(Span(1, 1, 1, 9, 0, 8), "backend")],
        'backend: "tensorflow"\n',
    ),
    (
        'backend: "tensorrt_plan"\n', {"model.plan": b""}, "TL302",
        'Write platform: "tensorrt_plan" instead of backend', SAFE,
        [TextEdit(Span(1, 1, 1, 8, 0, 7), "platform")],
        'platform: "tensorrt_plan"\n',
    ),
    (
        'platform: "tensorrt_plan"\nbackend: "tensorrt_plan"\n', {"model.plan": b""}, "TL302",
        'Write the backend of platform tensorrt_plan, "tensorrt"', SAFE,
        [TextEdit(Span(2, 10, 2, 25, 35, 50), '"tensorrt"')],
        'platform: "tensorrt_plan"\nbackend: "tensorrt"\n',
    ),
    (
        'platform: "onnxruntime"\nbackend: "onnxruntime_onnx"\n', {"model.onnx": b""}, "TL302",
        "Swap platform and backend", SAFE,
        [TextEdit(Span(1, 1, 1, 9, 0, 8), "backend"), TextEdit(Span(2, 1, 2, 8, 24, 31), "platform")],
        'backend: "onnxruntime"\nplatform: "onnxruntime_onnx"\n',
    ),
    (
        'platform: "onnx_runtime"\n', {"model.onnx": b""}, "TL303",
        'Write platform: "onnxruntime_onnx"', UNSAFE,
        [TextEdit(Span(1, 11, 1, 25, 10, 24), '"onnxruntime_onnx"')],
        'platform: "onnxruntime_onnx"\n',
    ),
    (
        'platform: "onnx"\nbackend: "onnxruntime"\n', {"model.onnx": b""}, "TL304",
        'Write platform: "onnxruntime_onnx"', UNSAFE,
        [TextEdit(Span(1, 11, 1, 17, 10, 16), '"onnxruntime_onnx"')],
        'platform: "onnxruntime_onnx"\nbackend: "onnxruntime"\n',
    ),
    (
        'backend: "onnxruntim"\n', {"model.onnx": b""}, "TL309",
        'Write backend: "onnxruntime"', UNSAFE,
        [TextEdit(Span(1, 10, 1, 22, 9, 21), '"onnxruntime"')],
        'backend: "onnxruntime"\n',
    ),
    (
        'backend: "python"\nplatform: "python"\n', {"model.py": ""}, "TL307",
        "Remove platform", SAFE,
        [TextEdit(Span(1, 18, 2, 19, 17, 36), "")],
        'backend: "python"\n',
    ),
]  # fmt: skip


@pytest.mark.parametrize(
    ("head", "version_files", "code", "title", "applicability", "edits", "fixed"),
    FIXES,
    ids=[
        "TL301-rename", "TL301-platform", "TL301-tensorflow", "TL302-rename", "TL302-backend",
        "TL302-swap", "TL303", "TL304", "TL309", "TL307",
    ],
)  # fmt: skip
def test_platform_fix(
    repo: Repo,
    head: str,
    version_files: dict[str, str | bytes | None],
    code: str,
    title: str,
    applicability: Applicability,
    edits: list[TextEdit],
    fixed: str,
) -> None:
    root = build(repo, head, version_files)
    found = only(lint(root), code)
    assert found.fixes == (Fix(title, tuple(edits), applicability),)
    assert assert_fix_resolves(found, root) == fixed + IO
    assert platform_codes(root) == []


@pytest.mark.parametrize(
    ("head", "version_files", "code"),
    [
        # savedmodel or graphdef? Nothing in the version folder says.
        ('platform: "tensorflow"\n', {}, "TL301"),
        # Two frameworks: which one the model is, is for its author to say.
        ('platform: "onnxruntime_onnx"\nbackend: "pytorch"\n', {"model.onnx": b""}, "TL304"),
        ('platform: "pytorch"\nbackend: "onnxruntime"\n', {"model.onnx": b""}, "TL301"),
        ('backend: "tensorflow"\n', {}, "TL304"),
        # No platform is close to this one.
        ('platform: "caffe2_netdef"\n', {}, "TL303"),
    ],
)
def test_platform_findings_without_a_certain_edit_have_no_fix(
    repo: Repo, head: str, version_files: dict[str, str | bytes | None], code: str
) -> None:
    found = only(lint(build(repo, head, version_files)), code)
    assert found.fixes == ()
