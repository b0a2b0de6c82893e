"""Layout pack: config and version folders, the model file each backend expects, labels."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, NamedTuple

from tritonlint.diagnostics import Applicability, Severity
from tritonlint.repository.backend_parameters import MODEL_DIRECTORY
from tritonlint.repository.model import VersionFolder, VersionStatus, path_problem
from tritonlint.repository.server_fill_in import ENSEMBLE, PLATFORMS
from tritonlint.repository.versions import numbered, selected_versions
from tritonlint.rules.base import FixAvailability, fixable, repository_rule, rule
from tritonlint.rules.context import Finding, ModelContext, RepositoryContext
from tritonlint.rules.folder_contents import (
    SAVED_MODEL,
    Kind,
    config_lookalike,
    holds_savedmodel,
    not_a_model,
    unversioned_contents,
)
from tritonlint.rules.moves import move_into_version, target_version
from tritonlint.rules.spelling import misspelt_backend

if TYPE_CHECKING:
    from tritonlint.schema.config_types import ModelConfig

#: A negative version reaches the backend as this much more (as an unsigned 64-bit number).
_UINT64_RANGE = 2**64

_CONFIG = "config.pbtxt"
_NO_VERSION = "at least one version must be available under the version policy of model '{model}'"

#: Backends that read their own model file to complete a config that is not there.
_AUTO_COMPLETING = frozenset({"tensorrt", "onnxruntime", "openvino", "python"})


@rule(
    "TL210",
    "missing-config",
    Severity.ERROR,
    summary="a folder without config.pbtxt that tritonserver cannot complete, or no model at all",
    explanation="""
    Without `config.pbtxt` the server can build a configuration only from a model file its
    backend understands (TensorRT plans, ONNX models, TensorFlow SavedModels, OpenVINO
    models, Python models). With none of those in the first version folder, and a folder
    name without a `.<backend>` suffix, it cannot even tell which backend to use.
    TensorFlow GraphDef and PyTorch models always need a config.

    The message fits what the folder holds: a config under another name (`config.txt`,
    `config.pbtxt.txt`, `resnet_config.pbtxt`) is to be renamed, a `config.pbtxt.template`
    filled in (where the server can complete a config without it, TL223 warns instead); a
    folder of source code (scripts, a Dockerfile, requirements.txt, no version folder) is no
    model and belongs outside the repository, since the server polls every folder there; a
    TensorFlow SavedModel export (`saved_model.pb`, `variables/`), in the folder, unwrapped
    in `1/`, or as TensorFlow Estimators export it (`export/<name>/<timestamp>/`), goes into
    `1/model.savedmodel/`.
    """,
    bad="""
    model_repository/classifier/1/weights.bin      # no config.pbtxt
    """,
    good="""
    model_repository/classifier/config.pbtxt
    model_repository/classifier/1/model.onnx
    """,
    server_message=(
        "model configuration is not provided for model '{model}'\n"
        "Invalid model name: Could not determine backend for model '{model}' with no backend "
        "in model configuration. Expected model name of the form 'model.<backend_name>'."
    ),
)
def missing_config(ctx: ModelContext) -> Iterator[Finding]:
    if not ctx.in_repository or ctx.model.config is not None:
        return
    if config_lookalike(ctx.model) is not None and _completes_without_config(ctx):
        return  # ignored-config-file: the server loads it, ignoring the file
    advice = _folder_advice(ctx)
    if advice is not None:
        yield ctx.about(ctx.model.path, advice)
        return
    contents = unversioned_contents(ctx.model)
    if contents is not None and contents.kind is Kind.LOOSE_MODEL_FILES:
        return  # no-version-folder says to move them into 1/ first
    completed = ctx.completed
    if completed.undeterminable:
        yield ctx.about(
            ctx.model.path,
            f"no config.pbtxt, and no model file that tells the backend: tritonserver refuses "
            f"it with 'Could not determine backend for model '{ctx.model.name}''. Add a "
            "config.pbtxt with `platform` or `backend`" + _misplaced_hint(ctx),
        )
    elif completed.platform == "tensorflow_graphdef" or completed.backend == "pytorch":
        yield ctx.about(
            ctx.model.path,
            f"no config.pbtxt: the {completed.backend} backend cannot complete a "
            f"configuration from {completed.default_model_filename}; add a config.pbtxt"
            + _misplaced_hint(ctx),
        )


def _folder_advice(ctx: ModelContext) -> str | None:
    """What to do with a folder without config.pbtxt that holds something else."""
    model = ctx.model
    contents = unversioned_contents(model)
    if contents is not None and contents.kind is Kind.ESTIMATOR_EXPORT:
        export = contents.names[0]
        return (
            f"this folder holds a TensorFlow SavedModel export ({export}/{SAVED_MODEL}), not "
            f"a model: tritonserver polls {model.name} as a model and refuses it with 'Could "
            f"not determine backend for model '{model.name}''; move the contents of {export}/ "
            f"into {model.name}/1/model.savedmodel/ and add a config.pbtxt that says "
            'platform: "tensorflow_savedmodel"'
        )
    lookalike = config_lookalike(model)  # (an Estimator's model_dir holds graph.pbtxt)
    if lookalike is not None and lookalike.template:
        return (
            f"no config.pbtxt, only the template '{lookalike.name}': tritonserver reads only "
            f"config.pbtxt{_refusal(ctx)}; fill the template in and save the result as "
            "config.pbtxt"
        )
    if lookalike is not None:
        return (
            f"no config.pbtxt, but '{lookalike.name}' is here: tritonserver reads only "
            f"config.pbtxt{_refusal(ctx)}; rename {lookalike.name} to config.pbtxt"
        )
    if contents is not None and contents.kind is Kind.SOURCE_CODE:
        return (
            f"this folder holds source code ({', '.join(contents.names[:3])}), not a model: "
            "tritonserver polls every folder of the repository as a model and refuses this "
            "one; move it out of the repository"
        )
    if contents is not None and contents.kind is Kind.SAVEDMODEL_EXPORT:
        return (
            f"this is a TensorFlow SavedModel export ({', '.join(contents.names)}): put it in "
            f"{model.name}/1/model.savedmodel/ with a config.pbtxt that says platform: "
            '"tensorflow_savedmodel"'
        )
    first = model.subfolders[0] if model.subfolders else None
    if first is not None and first.number is not None and holds_savedmodel(first.entries):
        return (
            f"version {first.name} holds a TensorFlow SavedModel's own files "
            f"({SAVED_MODEL} ...): move them into {first.name}/model.savedmodel/ and add a "
            'config.pbtxt that says platform: "tensorflow_savedmodel"'
        )
    return None


def _completes_without_config(ctx: ModelContext) -> bool:
    """Whether the server loads the model without config.pbtxt (auto-complete on): it can tell
    the backend from the folder, and that backend completes a config."""
    if not numbered(ctx.model):
        return False  # no-version-folder: refused whatever the config
    completed = ctx.completed
    return not (
        completed.undeterminable
        or completed.platform == "tensorflow_graphdef"
        or completed.backend == "pytorch"
    )


def _refusal(ctx: ModelContext) -> str:
    """Why the server refuses a model folder without config.pbtxt, after ``config.pbtxt``."""
    completed = ctx.completed
    if completed.undeterminable:
        return (
            " and, without it, refuses the model with 'Could not determine backend for model "
            f"'{ctx.model.name}''"
        )
    if completed.platform == "tensorflow_graphdef" or completed.backend == "pytorch":
        return (
            f" and, without it, refuses the model: the {completed.backend} backend cannot "
            f"complete a configuration from {completed.default_model_filename}"
        )
    return ""


@rule(
    "TL223",
    "ignored-config-file",
    Severity.WARNING,
    summary="a config under another name (a template, config.txt) that tritonserver ignores",
    explanation="""
    tritonserver reads a model's configuration from `config.pbtxt` and from no other file:
    `config.pbtxt.template`, `config.pbtxt.txt`, `config.txt` or `resnet_config.pbtxt` are
    never read. Where the version folder holds a model file the server can tell the backend
    from (`model.py`, `model.onnx`, `model.plan`, `model.savedmodel/`, OpenVINO's
    `model.xml`), it still loads the model, with a configuration the backend completes from
    that file (`auto-complete`), so whatever the ignored file sets (batching, instance
    groups, parameters, tensor names) does not apply; a server started with
    `--disable-auto-complete-config` refuses the model. Fill the template in, or rename the
    file, to config.pbtxt. (Without such a model file, or for a PyTorch or GraphDef model,
    the server refuses the model: TL210. Alternative configs in `configs/` are read with
    `--model-config-name` and are not meant here.)
    """,
    bad="""
    model_repository/preprocess/config.pbtxt.template
    model_repository/preprocess/1/model.py
    """,
    good="""
    model_repository/preprocess/config.pbtxt:
      backend: "python"
      max_batch_size: 8
      input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]
      output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]
      dynamic_batching { }
    model_repository/preprocess/1/model.py
    """,
)
def ignored_config_file(ctx: ModelContext) -> Iterator[Finding]:
    if not ctx.in_repository or ctx.model.config is not None:
        return
    lookalike = config_lookalike(ctx.model)
    if lookalike is None or not _completes_without_config(ctx):
        return
    completed = ctx.completed
    how = (
        f"the config the {completed.backend} backend completes from "
        f"{completed.default_model_filename}"
        if completed.backend in _AUTO_COMPLETING or completed.backend == "tensorflow"
        else f"the config the custom backend '{completed.backend}' completes"
    )
    todo = (
        "fill the template in and save the result as config.pbtxt"
        if lookalike.template
        else f"rename {lookalike.name} to config.pbtxt"
    )
    yield ctx.about(
        ctx.model.path,
        f"tritonserver reads only config.pbtxt and ignores '{lookalike.name}': it loads the "
        f"model with {how}, without anything {lookalike.name} sets (and refuses it with "
        f"--disable-auto-complete-config); {todo}",
    )


@rule(
    "TL211",
    "auto-completed-config",
    Severity.WARNING,
    opt_in=True,
    summary="a model folder without config.pbtxt that relies on the server's auto-complete",
    explanation="""
    tritonserver can complete a configuration for some backends by reading the model file,
    but only while auto-complete is on: a server started with `--disable-auto-complete-config`
    (or the older `--strict-model-config=true`) refuses the model. The completed config also
    cannot be reviewed or linted. Write the config down (`GET /v2/models/<m>/config` on a
    running server prints what it completed).

    Not in the default set: auto-complete is on by default, and Triton's own documentation
    suggests leaving the config out for such models. Enable it with `--extend-select TL211`
    where the servers run with auto-complete disabled.
    """,
    bad="""
    model_repository/detector/1/model.onnx         # no config.pbtxt
    """,
    good="""
    model_repository/detector/config.pbtxt
    model_repository/detector/1/model.onnx
    """,
)
def auto_completed_config(ctx: ModelContext) -> Iterator[Finding]:
    if not ctx.in_repository or ctx.model.config is not None:
        return
    if config_lookalike(ctx.model) is not None:
        return  # ignored-config-file (or missing-config) says more
    completed = ctx.completed
    if completed.undeterminable or completed.platform == "tensorflow_graphdef":
        return
    if completed.backend == "pytorch":
        return
    how = (
        f"the {completed.backend} backend completes it from {completed.default_model_filename}"
        if completed.backend in _AUTO_COMPLETING or completed.backend == "tensorflow"
        else f"the custom backend '{completed.backend}' must complete it itself"
    )
    yield ctx.about(
        ctx.model.path,
        f"no config.pbtxt: {how}, which needs auto-complete enabled on the server"
        + _misplaced_hint(ctx),
    )


@rule(
    "TL212",
    "no-version-folder",
    Severity.ERROR,
    summary="a model without any numbered version folder",
    explanation="""
    tritonserver serves the versions found as numbered subfolders (`1/`, `2/` ...). With none,
    nothing can be loaded, and that holds for ensembles too: they need an empty `1/`. Git
    does not keep empty folders, so a freshly cloned ensemble often lacks it: commit a
    `.gitkeep` inside. A model file left directly in the model folder (`model.onnx` next to
    config.pbtxt) is never read: move it into `1/`. Such a finding has an unsafe fix that
    moves the file (`--fix --unsafe-fixes`, or the editor's quick fix): into `1/`, or into the
    lowest version that a `version_policy { specific { ... } }` names. It is not offered where
    the version folder holds a file of that name already: a move never replaces a file.
    """,
    bad="""
    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
    model_repository/resnet50/model.onnx         # not in a version folder
    """,
    good="""
    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
    model_repository/resnet50/1/model.onnx
    """,
    server_message=_NO_VERSION,
    fix=fixable(FixAvailability.SOMETIMES, Applicability.UNSAFE),
)
def no_version_folder(ctx: ModelContext) -> Iterator[Finding]:
    if not ctx.in_repository or numbered(ctx.model):
        return
    if ctx.model.config is None and not_a_model(ctx.model):
        return  # missing-config says what the folder is
    contents = unversioned_contents(ctx.model)
    if contents is not None and contents.kind is Kind.LOOSE_MODEL_FILES:
        files = ", ".join(contents.names[:3])
        refusal = (
            "; tritonserver refuses the model: " + _NO_VERSION.format(model=ctx.name)
            if ctx.model.config is not None
            else ""
        )
        version = target_version(ctx.config) or 1
        yield ctx.about(
            ctx.model.path,
            f"{files} {'is' if len(contents.names) == 1 else 'are'} directly in the model "
            f"folder, where tritonserver does not look: move {files} into a version folder "
            f"{version}/{refusal}",
            fixes=move_into_version(ctx.model, contents.names, ctx.config)
            if ctx.model.config is None or ctx.config is not None
            else (),  # a config with syntax errors: its version policy is a guess
        )
        return
    ignored = [v.name for v in ctx.model.subfolders if v.status is not VersionStatus.RESERVED]
    hint = (
        f" (ignored: {', '.join(ignored)})"
        if ignored
        else " (an ensemble needs an empty one too; commit a .gitkeep in it)"
        if ctx.completed.platform == ENSEMBLE
        else ""
    )
    yield ctx.about(
        ctx.model.path,
        f"no numbered version folder such as 1/{hint}; tritonserver refuses the model: "
        + _NO_VERSION.format(model=ctx.name),
    )


@rule(
    "TL213",
    "ignored-version-folder",
    Severity.WARNING,
    summary="a subfolder tritonserver ignores: leading zeros or not a number",
    explanation="""
    Only folders named by a plain number are versions. `01` is skipped because of its
    leading zero, `v1`, `latest` or `.ipynb_checkpoints` because they are not numbers; the
    server logs a warning and goes on, and the files in them are never served. (`warmup`,
    `initial_state` and `configs` hold data and are not versions.)
    """,
    bad="""
    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
    model_repository/resnet50/01/model.onnx      # not read as version 1
    """,
    good="""
    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
    model_repository/resnet50/1/model.onnx
    """,
    server_message=(
        "ignore version directory '{dir}' which contains leading zeros in its directory name"
    ),
)
def ignored_version_folder(ctx: ModelContext) -> Iterator[Finding]:
    if not ctx.in_repository or (ctx.model.config is None and not_a_model(ctx.model)):
        return  # missing-config says what the folder is
    contents = unversioned_contents(ctx.model)
    loose = contents.names if contents is not None else ()  # no-version-folder moves them
    for folder in ctx.model.subfolders:
        if folder.name in loose:
            continue
        if folder.status is VersionStatus.LEADING_ZERO:
            yield ctx.about(
                folder.path,
                f"version folder '{folder.name}' has a leading zero; tritonserver ignores it "
                f"(name it {folder.name.lstrip('0') or '0'})",
            )
        elif folder.status is VersionStatus.NOT_A_NUMBER:
            yield ctx.about(
                folder.path,
                f"subfolder '{folder.name}' is not a version number; tritonserver ignores it",
            )


@rule(
    "TL214",
    "malformed-version-folder",
    Severity.ERROR,
    summary="a version folder whose name the server misreads: `1.0`, `2_old`, `-1`, huge numbers",
    explanation="""
    The server reads the leading number of a folder name, so `1.0` and `1_backup` become
    version 1, but the backend then looks for the model file in `1/` and fails (a Python
    model even hangs). A negative folder such as `-1` is served as version -1, which the
    backend receives as an unsigned 64-bit number: it looks in `18446744073709551615/` (a
    Python model hangs at load, its stub logging "Python model file not found in
    '.../18446744073709551615/model.py'"). Numbers beyond 64 bits are not usable versions
    either. Rename the folder to a positive number.
    """,
    bad="""
    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
    model_repository/resnet50/1.0/model.onnx   # read as version 1, looked for in 1/
    """,
    good="""
    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
    model_repository/resnet50/1/model.onnx
    """,
)
def malformed_version_folder(ctx: ModelContext) -> Iterator[Finding]:
    if not ctx.in_repository:
        return
    for folder in ctx.model.subfolders:
        if folder.status is VersionStatus.NUMERIC_PREFIX:
            yield ctx.about(
                folder.path,
                f"tritonserver reads '{folder.name}' as version {folder.number} and then looks "
                f"for its files in '{folder.number}/'; rename the folder to {folder.number}",
            )
        elif folder.status is VersionStatus.NEGATIVE and folder.number is not None:
            unsigned = folder.number + _UINT64_RANGE
            yield ctx.about(
                folder.path,
                f"tritonserver reads '{folder.name}' as version {folder.number}, and the "
                f"backend as {unsigned} (an unsigned 64-bit number): it looks for the model "
                f"files in '{unsigned}/', where they are not, and a Python model hangs at "
                "load; rename the folder to a positive number such as 1",
            )
        elif folder.status is VersionStatus.TOO_LARGE:
            yield ctx.about(
                folder.path, f"version '{folder.name}' does not fit in a 64-bit integer"
            )


@rule(
    "TL215",
    "version-policy-selects-nothing",
    Severity.ERROR,
    summary="the version policy selects none of the version folders present",
    explanation="""
    `specific { versions: [...] }` naming only versions that have no folder, or
    `latest { num_versions: 0 }`, leaves nothing to load, and the server refuses the model.
    """,
    bad="""
    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      version_policy { specific { versions: [ 3 ] } }   # there is no 3/
    model_repository/resnet50/1/model.onnx
    model_repository/resnet50/2/model.onnx
    """,
    good="""
    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      version_policy { specific { versions: [ 2 ] } }
    model_repository/resnet50/1/model.onnx
    model_repository/resnet50/2/model.onnx
    """,
    server_message=_NO_VERSION,
)
def version_policy_selects_nothing(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if not ctx.in_repository or config is None or not numbered(ctx.model):
        return
    if selected_versions(ctx.model, config):
        return
    present = ", ".join(str(v.number) for v in numbered(ctx.model))
    yield ctx.at(
        ("version_policy",),
        f"the version policy selects none of the versions present ({present}); tritonserver "
        "refuses the model: " + _NO_VERSION.format(model=ctx.name),
    )


@rule(
    "TL216",
    "specific-version-missing",
    Severity.WARNING,
    summary="a version listed in `specific` has no folder",
    explanation="""
    tritonserver logs an error for each listed version without a folder and serves the
    others. Clients asking for the missing version get an error at request time.
    """,
    bad="""
    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      version_policy { specific { versions: [ 1, 2 ] } }   # there is no 2/
    model_repository/resnet50/1/model.onnx
    """,
    good="""
    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      version_policy { specific { versions: [ 1 ] } }
    model_repository/resnet50/1/model.onnx
    """,
    server_message=(
        "version {version} is specified for model '{model}', but the version directory is not "
        "present"
    ),
)
def specific_version_missing(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if not ctx.in_repository or config is None:
        return
    if config.version_policy.WhichOneof("policy_choice") != "specific":
        return
    present = {v.number for v in numbered(ctx.model)}
    if not present & set(config.version_policy.specific.versions):
        return  # version-policy-selects-nothing reports it
    for index, version in enumerate(config.version_policy.specific.versions):
        if version not in present:
            yield ctx.at(
                ("version_policy", "specific", "versions", index),
                f"version {version} is specified for model '{ctx.name}', but the version "
                "directory is not present",
            )


class _ExpectedFile(NamedTuple):
    name: str
    #: True: must be a folder; False: must be a file; None: either.
    folder: bool | None
    #: True for Triton's own backends, which refuse the model without it.
    builtin: bool


def _expected_model_file(ctx: ModelContext) -> _ExpectedFile | None:
    """The entry each served version folder must hold."""
    completed = ctx.completed
    config = ctx.config
    if completed.platform == ENSEMBLE or completed.undeterminable:
        return None
    if config is not None and misspelt_backend(config.backend):
        return None  # misspelt-backend: no backend of that name loads anything
    filename = completed.default_model_filename
    if completed.platform == "tensorflow_savedmodel":
        return _ExpectedFile(filename, True, builtin=True)
    if completed.backend == "onnxruntime":
        return _ExpectedFile(filename, None, builtin=True)
    if completed.platform in PLATFORMS or completed.backend in ("python", "openvino"):
        return _ExpectedFile(filename, False, builtin=True)
    if config is not None and config.default_model_filename:
        return _ExpectedFile(filename, None, builtin=False)
    return None


def _missing_model_files(ctx: ModelContext, *, builtin: bool) -> Iterator[Finding]:
    if not ctx.in_repository:
        return
    document = ctx.model.config
    if document is not None and ctx.config is None:
        return  # the config has errors; what it asks for is uncertain
    expected = _expected_model_file(ctx)
    if expected is None or expected.builtin != builtin or path_problem(expected.name):
        return  # (invalid-file-name reports a name no file can have)
    config = ctx.config
    if not expected.builtin and ctx.model.entry(expected.name) is not None:
        return  # a custom backend may read it from the model folder (lightseq does)
    alternatives = set(config.cc_model_filenames.values()) if config is not None else set()
    for version in selected_versions(ctx.model, config):
        entry = version.entry(expected.name)
        if entry is not None and expected.folder in (None, entry.is_dir):
            continue
        if any(version.entry(name) for name in alternatives):
            continue
        if entry is not None:
            kind = "folder" if expected.folder else "file"
            problem = f"'{expected.name}' in version {version.name} must be a {kind}"
        else:
            others = [e.name for e in version.entries if not e.name.startswith(".")]
            found = f" (it holds: {', '.join(others[:5])})" if others else " (it is empty)"
            problem = (
                f"version {version.name} has no '{expected.name}' for the "
                f"{ctx.completed.backend} backend{found}"
            )
            if not expected.builtin:
                problem = (
                    f"'{expected.name}' is neither in version {version.name}{found} nor in "
                    f"the model folder; the {ctx.completed.backend} backend fails to load the "
                    "model if it reads that file"
                )
        yield ctx.about(version.path, problem)


@rule(
    "TL217",
    "missing-model-file",
    Severity.ERROR,
    summary="a served version folder lacks the model file its backend loads",
    explanation="""
    Each of Triton's backends loads one file (or folder) from each version folder:
    `model.plan` (TensorRT), `model.onnx` (ONNX Runtime; a file or a folder), `model.pt`
    (PyTorch), `model.savedmodel/` (a folder, TensorFlow SavedModel), `model.graphdef`,
    `model.xml` (OpenVINO), `model.py` (Python), or whatever `default_model_filename` names.
    Weights that are git-ignored are the usual reason they are missing. (For custom
    backends see TL220.)
    """,
    bad="""
    model_repository/yolox/config.pbtxt:
      platform: "onnxruntime_onnx"
    model_repository/yolox/1/yolox.onnx      # the backend looks for 1/model.onnx
    """,
    good="""
    model_repository/yolox/config.pbtxt:
      platform: "onnxruntime_onnx"
      default_model_filename: "yolox.onnx"   # or rename the file to model.onnx
    model_repository/yolox/1/yolox.onnx
    """,
    server_message=(
        "unable to find '{path}' for model instance '{instance}'\n"
        "Python model file not found in '{path}'"
    ),
)
def missing_model_file(ctx: ModelContext) -> Iterator[Finding]:
    yield from _missing_model_files(ctx, builtin=True)


@rule(
    "TL220",
    "custom-model-file-missing",
    Severity.WARNING,
    summary="a custom backend's `default_model_filename` is not in a served version folder",
    explanation="""
    A custom backend (here: one whose model file TL217 does not know, such as DALI or one
    of your own) decides for itself which files it reads (some take a folder or a
    checkpoint name from `parameters`; DALI falls back to a `dali.py` in the version
    folder), so a missing `default_model_filename` is not necessarily a mistake; but when
    the backend does read that file, the load fails. Custom backends read it from the
    version folder (DALI) or from the model folder (LightSeq opens
    `<model>/<default_model_filename>`), so a file in either place satisfies the rule, and
    nothing is reported when it is next to config.pbtxt.
    """,
    bad="""
    model_repository/preprocess/config.pbtxt:
      backend: "dali"
      max_batch_size: 256
      default_model_filename: "resize.dali"
    model_repository/preprocess/1/   # resize.dali was never serialized here
    """,
    good="""
    model_repository/preprocess/config.pbtxt:
      backend: "dali"
      max_batch_size: 256
      default_model_filename: "resize.dali"
    model_repository/preprocess/1/resize.dali
    """,
)
def custom_model_file_missing(ctx: ModelContext) -> Iterator[Finding]:
    yield from _missing_model_files(ctx, builtin=False)


@rule(
    "TL218",
    "missing-label-file",
    Severity.ERROR,
    summary="an output's `label_filename` names a file that does not exist",
    explanation="""
    `label_filename` is read relative to the *model* folder (not the version folder) when
    the model loads; a missing file makes the load fail. (A path below a subfolder of a
    subfolder, or one that leaves the model folder, is not checked.)
    """,
    bad="""
    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      output { name: "probs" data_type: TYPE_FP32 dims: [ 1000 ] label_filename: "labels.txt" }
    model_repository/resnet50/1/model.onnx
    model_repository/resnet50/1/labels.txt     # read from resnet50/, not from 1/
    """,
    good="""
    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      output { name: "probs" data_type: TYPE_FP32 dims: [ 1000 ] label_filename: "labels.txt" }
    model_repository/resnet50/1/model.onnx
    model_repository/resnet50/labels.txt
    """,
    server_message="failed to open text file for read {path}: No such file or directory",
)
def missing_label_file(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if not ctx.in_repository or config is None:
        return
    for index, output in enumerate(config.output):
        name = output.label_filename
        if name and not path_problem(name) and ctx.model.find_file(name) is None:
            yield ctx.at(
                ("output", index, "label_filename"),
                f"label file '{output.label_filename}' does not exist in the model folder; "
                f"tritonserver fails: failed to open text file for read "
                f"{ctx.shown(ctx.model.path / output.label_filename)}: No such file or directory",
            )


_Named = tuple[tuple[str | int, ...], str, str]
_ENV_PATH = "EXECUTION_ENV_PATH"


def _named_files(config: ModelConfig) -> Iterator[_Named]:
    """(field path, what it is, the name) of each file name the config gives."""
    for index, output in enumerate(config.output):
        if output.label_filename:
            yield ("output", index, "label_filename"), "label_filename", output.label_filename
    if config.default_model_filename:
        name = config.default_model_filename
        yield ("default_model_filename",), "default_model_filename", name
    for key, name in config.cc_model_filenames.items():
        yield ("cc_model_filenames", key, "value"), f"cc_model_filenames['{key}']", name
    for index, sample in enumerate(config.model_warmup):
        for key, value in sample.inputs.items():
            if value.WhichOneof("input_data_type") == "input_data_file":
                where = ("model_warmup", index, "inputs", key, "value", "input_data_file")
                yield where, "warmup input_data_file", value.input_data_file
    for index, state in enumerate(config.sequence_batching.state):
        for position, initial in enumerate(state.initial_state):
            if initial.WhichOneof("state_data") == "data_file":
                state_path = ("sequence_batching", "state", index, "initial_state", position)
                yield (*state_path, "data_file"), "initial_state data_file", initial.data_file
    if _ENV_PATH in config.parameters:
        setting = config.parameters[_ENV_PATH].string_value
        relative = setting[len(MODEL_DIRECTORY) :].lstrip("/")
        if setting.startswith(MODEL_DIRECTORY) and relative:
            yield ("parameters", _ENV_PATH, "value", "string_value"), _ENV_PATH, relative


@rule(
    "TL221",
    "invalid-file-name",
    Severity.ERROR,
    summary="a file name in the config that no file can have: empty, with a NUL byte, too long",
    explanation="""
    `label_filename`, `default_model_filename`, `cc_model_filenames`, a warmup input's
    `input_data_file`, an initial state's `data_file` and a Python model's
    `EXECUTION_ENV_PATH` below `$$TRITON_MODEL_DIRECTORY` name files the server opens in the
    model's folders. A name that is empty (where the field is set), holds a NUL byte
    (`\\000`), or has a part longer than the 255 bytes file systems allow can never be
    opened, and the model fails to load.
    """,
    bad="""
    model_repository/mnist/config.pbtxt:
      platform: "onnxruntime_onnx"
      output { name: "probs" data_type: TYPE_FP32 dims: [ 10 ] label_filename: "labels\\000.txt" }
    model_repository/mnist/1/model.onnx
    model_repository/mnist/labels.txt
    """,
    good="""
    model_repository/mnist/config.pbtxt:
      platform: "onnxruntime_onnx"
      output { name: "probs" data_type: TYPE_FP32 dims: [ 10 ] label_filename: "labels.txt" }
    model_repository/mnist/1/model.onnx
    model_repository/mnist/labels.txt
    """,
)
def invalid_file_name(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is None:
        return
    for path, what, name in _named_files(config):
        problem = path_problem(name)
        if problem is not None:
            shown = repr(name if len(name) <= 40 else name[:40] + "...")
            yield ctx.at(path, f"{what} {shown} cannot name a file: {problem}")


@rule(
    "TL222",
    "misplaced-config",
    Severity.WARNING,
    summary="a config.pbtxt in a version folder, where tritonserver never reads it",
    explanation="""
    tritonserver reads a model's configuration from `config.pbtxt` in the model folder
    itself (or `configs/NAME.pbtxt` with `--model-config-name NAME`), never from a version
    folder. A `config.pbtxt` inside `1/` is ignored: without one in the model folder the
    server completes a configuration from the model file if the backend can (not the one
    written), or refuses the model (TL210); with one there, the copy in `1/` is a stale
    duplicate. Move it up to the model folder.
    """,
    bad="""
    model_repository/classifier/1/config.pbtxt
    model_repository/classifier/1/model.onnx
    """,
    good="""
    model_repository/classifier/config.pbtxt
    model_repository/classifier/1/model.onnx
    """,
)
def misplaced_config(ctx: ModelContext) -> Iterator[Finding]:
    if not ctx.in_repository:
        return
    has_top = ctx.model.entry(_CONFIG) is not None
    for folder in _misplaced_configs(ctx):
        if has_top:
            message = (
                f"tritonserver reads the config from the model folder ({ctx.model.name}/"
                f"{_CONFIG}), never from a version folder: this copy in {folder.name}/ is "
                "ignored; delete it, or move what differs into the model folder's config"
            )
        else:
            message = (
                "tritonserver reads the config from the model folder, never from a version "
                f"folder: this one is ignored; move it up to {ctx.model.name}/{_CONFIG}"
            )
        yield ctx.about(folder.path / _CONFIG, message)


#: Subfolders that are, or are meant as, version folders (``01`` and ``1.0`` included); a
#: config.pbtxt in a folder with another name is not taken for a misplaced one.
_VERSION_LIKE = frozenset(VersionStatus) - {VersionStatus.RESERVED, VersionStatus.NOT_A_NUMBER}


def _misplaced_configs(ctx: ModelContext) -> list[VersionFolder]:
    """The version folders of the model that hold a config.pbtxt."""
    return [
        folder
        for folder in ctx.model.subfolders
        if folder.status in _VERSION_LIKE
        and (entry := folder.entry(_CONFIG)) is not None
        and not entry.is_dir
    ]


def _misplaced_hint(ctx: ModelContext) -> str:
    """Advice for a model without config.pbtxt that has one in a version folder."""
    folders = _misplaced_configs(ctx)
    if not folders:
        return ""
    return (
        f" (the {_CONFIG} in {folders[0].name}/ is not read there: move it up to "
        f"{ctx.model.name}/{_CONFIG})"
    )


@repository_rule(
    "TL219",
    "hidden-folder-in-repository",
    Severity.WARNING,
    summary="a hidden folder at the repository root, which tritonserver polls as a model",
    explanation="""
    tritonserver treats *every* folder of the repository root as a model, hidden ones such
    as `.git` or `.ipynb_checkpoints` included. Unless the server runs with
    `--model-control-mode=explicit`, each of them fails to load and the server does not
    start. Keep the model repository free of them (point `--model-repository` at a
    subfolder, or delete them from the deployed copy).
    """,
    bad="""
    model_repository/.ipynb_checkpoints/        # left by Jupyter
    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
    model_repository/resnet50/1/model.onnx
    """,
    good="""
    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
    model_repository/resnet50/1/model.onnx
    """,
    server_message="unexpected platform type '' for {dir}",
)
def hidden_folder_in_repository(ctx: RepositoryContext) -> Iterator[Finding]:
    for folder in ctx.repository.hidden_folders:
        yield Finding(
            f"tritonserver polls '{folder.name}' as a model; unless it runs with "
            "--model-control-mode=explicit, it fails to load and the server does not start",
            folder,
        )


#: A compute capability as the TensorRT backend names the GPU's: ``std::to_string(major) + "."
#: + std::to_string(minor)`` (src/model_state.cc of triton-inference-server/tensorrt_backend).
_COMPUTE_CAPABILITY = re.compile(r"(?:0|[1-9][0-9]*)\.(?:0|[1-9][0-9]*)")
#: Other ways to write one: ``sm_86``, ``sm86``, ``compute_80``, ``86`` (an architecture's
#: number, the last digit the minor), ``08.0``, `` 8.6 ``.
_ARCHITECTURE = re.compile(r"\s*(?:sm_?|compute_)?([0-9]+)([0-9])\s*", re.IGNORECASE)
_PADDED = re.compile(r"\s*0*([0-9]+)\.0*([0-9]+)\s*")


def _capability_meant(key: str) -> str | None:
    """The compute capability a malformed key most likely means (None where none is clear)."""
    for pattern in (_ARCHITECTURE, _PADDED):
        match = pattern.fullmatch(key)
        if match:
            return f"{int(match[1])}.{int(match[2])}"
    return None


def _tensorrt_cc_files(ctx: ModelContext) -> ModelConfig | None:
    """The config of a TensorRT model that sets `cc_model_filenames` (None otherwise)."""
    config = ctx.config
    if config is None or not config.cc_model_filenames:
        return None
    if ctx.completed.backend != "tensorrt" or ctx.completed.undeterminable:
        return None
    return config


@rule(
    "TL224",
    "cc-model-file-missing",
    Severity.ERROR,
    summary="a file `cc_model_filenames` names for a TensorRT model is not in a served version",
    explanation="""
    `cc_model_filenames` maps a GPU's compute capability to the plan that GPUs of that
    capability load instead of `model.plan` (a plan is built for one GPU architecture). The
    TensorRT backend looks up the capability of the instance's GPU (`"8.0"` on an A100,
    `"8.6"` on an A10 or an RTX 3090, `"9.0"` on an H100), reads the file the map names for
    it from the version folder, and, where that file is missing, fails to load the model on
    that GPU: `unable to find '<model>/<version>/<file>' for model instance '<instance>'`
    (src/instance_state.cc of triton-inference-server/tensorrt_backend). A repository
    deployed to one kind of GPU can load, and the same repository fail on another. Each
    file named is checked in each version folder the version policy serves; a name below a
    subfolder of a subfolder is not checked, nor one under a key no GPU has (TL225).
    """,
    bad="""
    model_repository/detector/config.pbtxt:
      platform: "tensorrt_plan"
      cc_model_filenames [
        { key: "8.0" value: "model_a100.plan" },
        { key: "9.0" value: "model_h100.plan" }   # not built yet
      ]
    model_repository/detector/1/model_a100.plan
    """,
    good="""
    model_repository/detector/config.pbtxt:
      platform: "tensorrt_plan"
      cc_model_filenames [
        { key: "8.0" value: "model_a100.plan" },
        { key: "9.0" value: "model_h100.plan" }
      ]
    model_repository/detector/1/model_a100.plan
    model_repository/detector/1/model_h100.plan
    """,
    server_message="unable to find '{path}' for model instance '{instance}'",
    backend_check=True,
)
def cc_model_file_missing(ctx: ModelContext) -> Iterator[Finding]:
    config = _tensorrt_cc_files(ctx)
    if config is None or not ctx.in_repository:
        return
    versions = selected_versions(ctx.model, config)
    for key, name in config.cc_model_filenames.items():
        if path_problem(name) or not _COMPUTE_CAPABILITY.fullmatch(key):
            continue  # invalid-file-name; cc-model-filenames-key (no GPU reads it)
        missing = [
            version for version in versions if ctx.model.find_file(f"{version.name}/{name}") is None
        ]
        if not missing:
            continue
        names = ", ".join(version.name for version in missing)
        plural = "s" if len(missing) > 1 else ""
        path = ctx.shown(missing[0].path / name)
        yield ctx.at(
            ("cc_model_filenames", key, "value"),
            f"'{name}' (for GPUs of compute capability {key}) is not in version{plural} "
            f"{names}; on such a GPU the tensorrt backend fails: unable to find '{path}' for "
            "model instance",
        )


@rule(
    "TL225",
    "cc-model-filenames-key",
    Severity.WARNING,
    summary="a `cc_model_filenames` key that is not a compute capability as the backend writes it",
    explanation="""
    The TensorRT backend writes the compute capability of the instance's GPU as
    `<major>.<minor>` (`std::to_string(major) + "." + std::to_string(minor)`:
    `"7.5"`, `"8.0"`, `"8.6"`, `"8.9"`, `"9.0"`, `"10.0"`) and looks that string up in
    `cc_model_filenames` (src/model_state.cc of triton-inference-server/tensorrt_backend).
    A key in any other form (`"80"`, `"sm_80"`, `"8.0.0"`, `"08.0"`, `" 8.0"`) equals no
    GPU's: the plan it names is never loaded, and every GPU loads `model.plan` (or
    `default_model_filename`) instead, without a word in the log.
    """,
    bad="""
    model_repository/detector/config.pbtxt:
      platform: "tensorrt_plan"
      cc_model_filenames [ { key: "sm_80" value: "model_a100.plan" } ]
    model_repository/detector/1/model.plan
    model_repository/detector/1/model_a100.plan
    """,
    good="""
    model_repository/detector/config.pbtxt:
      platform: "tensorrt_plan"
      cc_model_filenames [ { key: "8.0" value: "model_a100.plan" } ]
    model_repository/detector/1/model.plan
    model_repository/detector/1/model_a100.plan
    """,
)
def cc_model_filenames_key(ctx: ModelContext) -> Iterator[Finding]:
    config = _tensorrt_cc_files(ctx)
    if config is None:
        return
    for key in config.cc_model_filenames:
        if not _COMPUTE_CAPABILITY.fullmatch(key):
            meant = _capability_meant(key)
            hint = f" (did you mean '{meant}'?)" if meant else ""
            yield ctx.at(
                ("cc_model_filenames", key, "key"),
                f"cc_model_filenames key {key!r} is not a compute capability as the tensorrt "
                "backend writes a GPU's ('<major>.<minor>', such as '8.0' or '8.6'): no GPU "
                f"loads the file it names{hint}",
            )
