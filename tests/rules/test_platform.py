"""Platform/backend pack, judged after tritonserver's own auto-completion: exact fixes, and
findings without one (each rule's cases are in tests/rules/cases/)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import Files, assert_fix_resolves, codes, lint, only, position

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


def test_tl305_nothing_tells_the_backend(repo: Repo) -> None:
    head = 'name: "m"\n'
    root = build(repo, head, {"weights.bin": b""})
    found = only(lint(root), "TL305")
    assert found.severity is Severity.ERROR
    assert found.path == root / "m" / "config.pbtxt"
    assert position(found) == (1, 1)
    assert "set `backend`" in found.message
    assert found.fixes == ()  # which backend, only the author knows


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
        # A short name for a backend, as TL309 reads it, means that backend's platform.
        'platform: "onnx"\n', {"model.onnx": b""}, "TL303",
        'Write platform: "onnxruntime_onnx"', UNSAFE,
        [TextEdit(Span(1, 11, 1, 17, 10, 16), '"onnxruntime_onnx"')],
        'platform: "onnxruntime_onnx"\n',
    ),
    (
        'platform: "tf"\n', {"model.savedmodel/": None}, "TL303",
        'Write platform: "tensorflow_savedmodel"', UNSAFE,
        [TextEdit(Span(1, 11, 1, 15, 10, 14), '"tensorflow_savedmodel"')],
        'platform: "tensorflow_savedmodel"\n',
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
        "TL302-swap", "TL303", "TL303-short", "TL303-tensorflow", "TL304", "TL309", "TL307",
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
        # tf: savedmodel or graphdef? Nothing in the version folder says.
        ('platform: "tf"\n', {}, "TL303"),
    ],
)
def test_platform_findings_without_a_certain_edit_have_no_fix(
    repo: Repo, head: str, version_files: dict[str, str | bytes | None], code: str
) -> None:
    found = only(lint(build(repo, head, version_files)), code)
    assert found.fixes == ()
