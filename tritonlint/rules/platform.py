"""Platform/backend pack: the pair the server settles on after completing the config.

Every check judges the values after tritonserver's own completion (see
``repository/server_fill_in.py``), so a config the server accepts is never flagged.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import PurePosixPath
from typing import NamedTuple

from tritonlint.diagnostics import Applicability, Fix, Severity
from tritonlint.repository.server_fill_in import (
    ENSEMBLE,
    KNOWN_BACKENDS,
    PLATFORM_BACKENDS,
    PLATFORMS,
    complete,
)
from tritonlint.rules.base import FixAvailability, fixable, rule
from tritonlint.rules.context import Finding, ModelContext
from tritonlint.rules.fixes import fix, insert_after, remove_top_level, rename, set_value
from tritonlint.rules.spelling import misspelt_backend

_UNEXPECTED_PLATFORM = "unexpected platform type '{platform}' for {model}"
_PAIR = "unexpected 'platform' and 'backend' pair, got:{platform}, {backend}"


def _platform_field(ctx: ModelContext) -> tuple[str, ...]:
    config = ctx.config
    return ("platform",) if config is not None and config.platform else ("backend",)


class _Edited(NamedTuple):
    """What the server completes from: a config's values with a fix's platform and backend."""

    platform: str
    backend: str
    default_model_filename: str
    runtime: str


def _accepted(ctx: ModelContext, platform: str, backend: str) -> bool:
    """Whether the server would accept ``platform`` and ``backend`` in this model's config.

    A fix is offered only when it leads to a pair the server accepts, as it completes it.
    """
    config = ctx.config
    assert config is not None
    edited = _Edited(platform, backend, config.default_model_filename, config.runtime)
    completed = complete(ctx.model, edited)
    if completed.platform == ENSEMBLE:
        return not completed.backend
    if not completed.backend or completed.backend in PLATFORMS:
        return False
    own = PLATFORMS.get(completed.platform, ("",))[0]
    return completed.backend not in PLATFORM_BACKENDS or own == completed.backend


def _only_platform(backend: str) -> str | None:
    """The one platform of a backend that has exactly one (tensorflow has two)."""
    platforms = [platform for platform, (own, _) in PLATFORMS.items() if own == backend]
    return platforms[0] if len(platforms) == 1 else None


@rule(
    "TL301",
    "backend-used-as-platform",
    Severity.ERROR,
    fix=fixable(FixAvailability.SOMETIMES, Applicability.SAFE),
    summary="a backend name written as `platform`",
    explanation="""
    `platform` names a model *format* (`tensorrt_plan`, `onnxruntime_onnx`,
    `pytorch_libtorch`, `tensorflow_savedmodel`, `tensorflow_graphdef`, `ensemble`);
    `backend` names the backend (`python`, `onnxruntime`, `tensorrt`, `pytorch`,
    `openvino`, ...). `platform: "python"` is refused because no backend can be derived from
    it. A safe fix writes the name as `backend` (or, next to the same `backend`, writes the
    backend's own platform), where the server then accepts the pair.
    """,
    bad="""
    platform: "python"
    """,
    good="""
    backend: "python"
    """,
    server_message=_UNEXPECTED_PLATFORM,
)
def backend_used_as_platform(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is None or config.platform not in KNOWN_BACKENDS:
        return
    completed = ctx.completed
    refused = not completed.backend or (
        completed.backend in PLATFORM_BACKENDS
        and PLATFORMS.get(completed.platform, ("",))[0] != completed.backend
    )
    if not refused:
        return
    why = (
        _UNEXPECTED_PLATFORM.format(platform=config.platform, model=ctx.name)
        if not completed.backend
        else _PAIR.format(platform=completed.platform, backend=completed.backend)
    )
    yield ctx.at(
        ("platform",),
        f"'{config.platform}' is a backend, not a platform: write backend: "
        f'"{config.platform}" (tritonserver: {why})',
        fixes=_backend_as_platform_fix(ctx),
    )


def _backend_as_platform_fix(ctx: ModelContext) -> tuple[Fix, ...]:
    config = ctx.config
    assert config is not None
    name = config.platform
    if not config.backend and _accepted(ctx, "", name):
        title = f'Write backend: "{name}" instead of platform'
        if ctx.located(("backend",)):  # an empty backend: it takes the name, platform goes
            edits = remove_top_level(ctx, "platform")
            return fix(title, Applicability.SAFE, set_value(ctx, ("backend",), f'"{name}"'), *edits)
        return fix(title, Applicability.SAFE, rename(ctx, ("platform",), "backend"))
    platform = _only_platform(name)
    if config.backend == name and platform is not None and _accepted(ctx, platform, name):
        title = f'Write the {name} backend\'s platform, "{platform}"'
        return fix(title, Applicability.SAFE, set_value(ctx, ("platform",), f'"{platform}"'))
    return ()


@rule(
    "TL302",
    "platform-used-as-backend",
    Severity.ERROR,
    fix=fixable(FixAvailability.SOMETIMES, Applicability.SAFE),
    summary="a platform name written as `backend`",
    explanation="""
    `backend: "tensorrt_plan"` makes the server look for a backend library
    `libtriton_tensorrt_plan.so`, which does not exist. The platform goes in `platform`
    (or use the backend's own name, `tensorrt`). A safe fix writes the name as `platform`
    (or, next to the same `platform` or with the two swapped, writes the backend's name).
    """,
    bad="""
    backend: "tensorrt_plan"
    """,
    good="""
    platform: "tensorrt_plan"
    """,
    server_message=(
        "unable to find backend library for backend '{backend}', try specifying runtime on the "
        "model configuration."
    ),
)
def platform_used_as_backend(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is None or config.backend not in PLATFORMS or config.runtime:
        return
    backend = PLATFORMS[config.backend][0]
    yield ctx.at(
        ("backend",),
        f"'{config.backend}' is a platform, not a backend: write platform: "
        f'"{config.backend}" or backend: "{backend}" (tritonserver: unable to find backend '
        f"library for backend '{config.backend}')",
        fixes=_platform_as_backend_fix(ctx),
    )


def _platform_as_backend_fix(ctx: ModelContext) -> tuple[Fix, ...]:
    config = ctx.config
    assert config is not None
    name, platform = config.backend, config.platform
    backend = PLATFORMS[name][0]
    if not platform and _accepted(ctx, name, ""):
        title = f'Write platform: "{name}" instead of backend'
        return fix(title, Applicability.SAFE, rename(ctx, ("backend",), "platform"))
    if platform == name and _accepted(ctx, name, backend):
        title = f'Write the backend of platform {name}, "{backend}"'
        return fix(title, Applicability.SAFE, set_value(ctx, ("backend",), f'"{backend}"'))
    if platform == backend and _accepted(ctx, name, backend):
        return fix(
            "Swap platform and backend",
            Applicability.SAFE,
            rename(ctx, ("platform",), "backend"),
            rename(ctx, ("backend",), "platform"),
        )
    return ()


@rule(
    "TL303",
    "unknown-platform",
    Severity.ERROR,
    fix=fixable(FixAvailability.SOMETIMES, Applicability.UNSAFE),
    summary="a platform tritonserver does not know, with no backend to fall back on",
    explanation="""
    When `backend` is not set the server derives it from `platform`, which must then be one
    of `tensorrt_plan`, `onnxruntime_onnx`, `pytorch_libtorch`, `tensorflow_savedmodel`,
    `tensorflow_graphdef` or `ensemble`. Anything else (a typo, an old name such as
    `tensorflow_savedmodel_v2`) leaves the model without a backend. An unsafe fix writes the
    closest platform, when there is one, or the platform of the backend a usual short name
    stands for (`onnx`: `onnxruntime_onnx`, as TL309 reads backends); check that it is the
    one you meant.
    """,
    bad="""
    name: "text_detector"
    platform: "tensorflow_saved_model"
    """,
    good="""
    name: "text_detector"
    platform: "tensorflow_savedmodel"
    """,
    server_message=_UNEXPECTED_PLATFORM,
)
def unknown_platform(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is None or not config.platform or config.platform in KNOWN_BACKENDS:
        return
    completed = ctx.completed
    if completed.backend or completed.platform == ENSEMBLE:
        return
    known = [*PLATFORMS, ENSEMBLE]
    meant = _meant_platform(ctx, config.platform)
    hint = f"; did you mean '{meant}'?" if meant else f"; known platforms: {', '.join(known)}"
    yield ctx.at(
        ("platform",),
        _UNEXPECTED_PLATFORM.format(platform=config.platform, model=ctx.name) + hint,
        fixes=_value_fix(ctx, "platform", meant) if meant else (),
    )


def _meant_platform(ctx: ModelContext, written: str) -> str | None:
    """The platform ``written`` is a slip of: a close spelling, or the platform of the
    backend a short name stands for (``onnx``: ``onnxruntime_onnx``; for TensorFlow, the
    one whose model file the first version folder holds)."""
    import difflib  # only a platform the server does not know needs it

    known = [*PLATFORMS, ENSEMBLE]
    close = difflib.get_close_matches(written, known, n=1, cutoff=0.5)
    if close:
        return close[0]
    slip = misspelt_backend(written)
    if slip is None:
        return None
    platforms = [platform for platform, (own, _) in PLATFORMS.items() if own == slip.backend]
    if len(platforms) == 1:
        return platforms[0]
    first = ctx.model.subfolders[0] if ctx.model.subfolders else None
    held = [p for p in platforms if first is not None and first.entry(PLATFORMS[p][1])]
    return held[0] if len(held) == 1 else None


def _value_fix(ctx: ModelContext, name: str, value: str) -> tuple[Fix, ...]:
    """Write ``value`` as ``platform`` or ``backend`` (a guess), where the server accepts it."""
    config = ctx.config
    assert config is not None
    platform = value if name == "platform" else config.platform
    backend = value if name == "backend" else config.backend
    if not _accepted(ctx, platform, backend):
        return ()
    return fix(
        f'Write {name}: "{value}"', Applicability.UNSAFE, set_value(ctx, (name,), f'"{value}"')
    )


@rule(
    "TL304",
    "platform-backend-mismatch",
    Severity.ERROR,
    fix=fixable(FixAvailability.SOMETIMES, Applicability.UNSAFE),
    summary="`platform` and `backend` name different frameworks",
    explanation="""
    For the `tensorrt`, `onnxruntime`, `pytorch` and `tensorflow` backends the platform must
    be that backend's own (`tensorrt_plan`; `onnxruntime_onnx`; `pytorch_libtorch`;
    `tensorflow_savedmodel` or `tensorflow_graphdef`). Either drop one of the two or make
    them agree. (`backend: "tensorflow"` with no platform is refused too, unless the version
    folder holds a `model.savedmodel/` or `model.graphdef` to derive it from.) Where
    `platform` is no platform at all, an unsafe fix writes the backend's own platform.
    """,
    bad="""
    platform: "onnxruntime_onnx"
    backend: "pytorch"
    """,
    good="""
    platform: "onnxruntime_onnx"
    backend: "onnxruntime"
    """,
    server_message=_PAIR,
)
def platform_backend_mismatch(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    completed = ctx.completed
    if config is None or completed.backend not in PLATFORM_BACKENDS:
        return
    if config.platform in KNOWN_BACKENDS:
        return  # backend-used-as-platform explains it
    if PLATFORMS.get(completed.platform, ("",))[0] == completed.backend:
        return
    own = _only_platform(completed.backend)
    unknown = bool(config.platform) and config.platform not in (*PLATFORMS, ENSEMBLE)
    yield ctx.at(
        _platform_field(ctx),
        _PAIR.format(platform=completed.platform, backend=completed.backend)
        + (
            f": platform '{completed.platform}' is not a {completed.backend} platform"
            if completed.platform
            else f": the {completed.backend} backend needs a platform"
        ),
        fixes=_value_fix(ctx, "platform", own) if unknown and own else (),
    )


@rule(
    "TL305",
    "undeterminable-backend",
    Severity.ERROR,
    fix=fixable(FixAvailability.SOMETIMES, Applicability.SAFE),
    summary="neither platform, backend nor a model file tells the server which backend to use",
    explanation="""
    With no `platform`, no `backend` and no `default_model_filename`, the server looks for a
    known model file in the first version folder; failing that it takes the backend from a
    folder name of the form `model.<backend>`. An ensemble config that forgets
    `platform: "ensemble"` lands here too; for it, a safe fix writes `platform: "ensemble"`
    after `name`.
    """,
    bad="""
    name: "preprocess"
    max_batch_size: 8
    """,
    good="""
    name: "preprocess"
    backend: "python"
    max_batch_size: 8
    """,
    server_message=(
        "Invalid model name: Could not determine backend for model '{model}' with no backend "
        "in model configuration. Expected model name of the form 'model.<backend_name>'."
    ),
)
def undeterminable_backend(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is None or not ctx.completed.undeterminable:
        return
    ensemble = config.HasField("ensemble_scheduling")
    hint = (
        '; an ensemble needs platform: "ensemble"'
        if ensemble
        else "; set `backend` (or `platform`)"
    )
    title = 'Write platform: "ensemble"'
    yield Finding(
        f"cannot tell which backend serves model '{ctx.name}': no platform, backend or "
        f"default_model_filename, and no known model file in the first version folder{hint}",
        ctx.config_path,
        ctx.span(("name",), "field"),
        fixes=fix(title, Applicability.SAFE, insert_after(ctx, ("name",), 'platform: "ensemble"'))
        if ensemble
        else (),
    )


_NO_LIBRARY = (
    "unable to find backend library for backend '{backend}', try specifying runtime on the "
    "model configuration."
)


@rule(
    "TL306",
    "unknown-backend",
    Severity.WARNING,
    summary="a custom backend: one Triton does not ship, which must be installed on the server",
    explanation="""
    A custom backend is fine, but it must be installed where the server looks:
    `libtriton_<name>.so` in the version folder, the model folder or
    `<backend-directory>/<name>/`, or a Python-based backend `<backend-directory>/<name>/model.py`.
    Only the server can check what is installed: run the smoke stage. (A name that is a slip
    of one of Triton's own backends, such as `onnx` or `pythn`, is TL309, an error.)

    A warning, not an error: a backend of its own is a choice, and the lint cannot see the
    server's backend directory. Where the backend is installed, say so: suppress the finding
    on the `backend` line (`# tritonlint: disable=TL306`), or ignore the rule for that model
    (`per-file-ignores`) or everywhere (`ignore = ["TL306"]`).
    """,
    bad="""
    name: "bert_encoder"
    backend: "lightseq"   # and the server has no lightseq backend
    """,
    good="""
    name: "bert_encoder"
    backend: "lightseq"   # tritonlint: disable=TL306 (installed on the server)
    """,
    server_message=_NO_LIBRARY,
)
def unknown_backend(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    backend = ctx.completed.backend
    if config is None or not backend or backend in KNOWN_BACKENDS or backend in PLATFORMS:
        return
    if config.runtime or (config.backend and misspelt_backend(config.backend)):
        return
    field = ("backend",) if config.backend else ("name",)
    yield ctx.at(
        field,
        f"backend '{backend}' is not one Triton ships; make sure libtriton_{backend}.so "
        f"or a Python-based backend '{backend}/model.py' is installed on the server",
    )


@rule(
    "TL309",
    "misspelt-backend",
    Severity.ERROR,
    fix=fixable(FixAvailability.SOMETIMES, Applicability.UNSAFE),
    summary="a backend name that is a slip of one of Triton's own backends or platforms",
    explanation="""
    The server loads the backend library named after `backend` (`libtriton_<name>.so`), so a
    slip such as `onnx` (for `onnxruntime`), `pythn`, `Python` or `onnxruntime_onxx` finds
    no library and the model is refused. Reported where the name is one edit from a backend
    or platform Triton ships (two for long names; exact apart from case for names of four
    characters or fewer) or is a usual short name (`onnx`, `torch`, `trt`, `tf`); names
    further away are taken for custom backends (TL306). If a backend of exactly that name is
    installed on the server, suppress the finding. (A platform name written as `backend`,
    such as `pytorch_libtorch`, is TL302.) An unsafe fix writes the suggested backend.
    """,
    bad="""
    backend: "onnx"
    """,
    good="""
    backend: "onnxruntime"
    """,
    server_message=_NO_LIBRARY,
)
def misspelt_backend_name(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is None or not config.backend or config.runtime:
        return
    slip = misspelt_backend(config.backend)
    if slip is None:
        return
    meant = (
        f"'{slip.backend}'"
        if slip.near == slip.backend
        else f"'{slip.backend}' (the backend of platform '{slip.near}')"
    )
    yield ctx.at(
        ("backend",),
        f"no backend is called '{config.backend}': did you mean {meant}? tritonserver refuses "
        f"the model unless a backend of exactly this name is installed: "
        + _NO_LIBRARY.format(backend=config.backend),
        fixes=_value_fix(ctx, "backend", slip.backend),
    )


@rule(
    "TL307",
    "ignored-platform",
    Severity.WARNING,
    fix=fixable(FixAvailability.SOMETIMES, Applicability.SAFE),
    summary="a `platform` the server ignores because the backend decides",
    explanation="""
    For backends other than tensorrt, onnxruntime, pytorch and tensorflow the server does not
    look at `platform` at all. A leftover `platform` only misleads the reader. A safe fix
    removes it.
    """,
    bad="""
    backend: "python"
    platform: "python"
    """,
    good="""
    backend: "python"
    """,
)
def ignored_platform(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    completed = ctx.completed
    if config is None or not config.platform or config.platform == ENSEMBLE:
        return
    if not completed.backend or completed.backend in PLATFORM_BACKENDS:
        return
    if completed.backend in PLATFORMS:
        return  # platform-used-as-backend
    if config.backend and misspelt_backend(config.backend):
        return  # misspelt-backend: the backend meant may well need the platform
    removal = fix("Remove platform", Applicability.SAFE, *remove_top_level(ctx, "platform"))
    yield ctx.at(
        ("platform",),
        f"the {completed.backend} backend ignores platform '{config.platform}'; remove it",
        fixes=removal if _accepted(ctx, "", config.backend) else (),
    )


@rule(
    "TL308",
    "runtime-escapes-backend-directory",
    Severity.ERROR,
    summary="a `runtime` library path that leaves the folder the server looks in",
    explanation="""
    `runtime` names the backend library file the server loads from the version folder, the
    model folder or the backend directory. A path that climbs out of those folders (`..`,
    or an absolute path) is refused; install the library where the server looks instead.
    """,
    bad="""
    name: "echo"
    backend: "identity"
    runtime: "../shared/libtriton_identity.so"   # climbs out of the model folder
    """,
    good="""
    name: "echo"
    backend: "identity"
    runtime: "libtriton_identity.so"     # in <backend-directory>/identity/
    """,
    server_message=(
        "backend library name '{library}' escapes backend directory '{directory}', for model "
        "'{model}', check model config runtime field"
    ),
)
def runtime_escapes_backend_directory(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is None or not config.runtime:
        return
    parts = PurePosixPath(config.runtime).parts
    depth = 0
    escapes = config.runtime.startswith("/")
    for part in parts:
        depth += -1 if part == ".." else 0 if part in (".", "/") else 1
        escapes = escapes or depth < 0
    if escapes:
        yield ctx.at(
            ("runtime",),
            f"backend library name '{config.runtime}' escapes backend directory '<search "
            f"folder>', for model '{ctx.name}', check model config runtime field",
        )
