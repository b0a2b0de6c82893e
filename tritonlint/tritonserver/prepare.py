"""Stage a copy of a model repository for the server, adjusted to what this machine can run.

The user's files are never touched: the repository is copied (large files are linked), and the
adjustments are made in the copy and recorded per model:

* without a GPU, ``KIND_GPU`` becomes ``KIND_CPU`` and ``gpus: [...]`` is blanked out (both
  in place, so that line and column numbers in the server's messages stay right);
* python models whose model file is an empty placeholder can get a trivial ``model.py`` or be
  served by the native stub backend (see :class:`PythonPlaceholders`).

Each ``config.pbtxt`` is read with tritonlint's own reader for what staging needs (backend,
platform, ensemble steps); the server is the one that judges it.
"""

from __future__ import annotations

import compileall
import enum
import os
import re
import shutil
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tritonlint.document import load_config
from tritonlint.repository.graph import DependencyGraph, edges_of
from tritonlint.repository.model import ModelFolder, WalkProblem
from tritonlint.repository.walker import LoaderFactory, read_model, read_repository
from tritonlint.schema.releases import Schema, load_schema

CONFIG_NAME = "config.pbtxt"
#: Files larger than this are linked into the staged copy instead of copied.
LINK_THRESHOLD = 1 << 20

TRIVIAL_PYTHON_MODEL = '''\
"""Stand-in for a placeholder model.py: answers every request with an empty success."""

import triton_python_backend_utils as pb_utils


class TritonPythonModel:
    def execute(self, requests):
        return [pb_utils.InferenceResponse(output_tensors=[]) for _ in requests]
'''


class PythonPlaceholders(str, enum.Enum):
    """What to do with python models whose model file is empty (a placeholder)."""

    KEEP = "keep"  # run them as they are: an empty model.py fails to load, like on a server
    TRIVIAL = "trivial"  # replace the empty file with a trivial TritonPythonModel (~1.3 s a load)
    NATIVE = "native"  # serve the model with the native stub backend (milliseconds a load)


ADJUST_KIND_GPU = "instance_group kind KIND_GPU rewritten to KIND_CPU (no GPU on this machine)"
ADJUST_GPUS = "instance_group gpus list removed (no GPU on this machine)"
ADJUST_TRIVIAL = "placeholder {file} replaced by a trivial TritonPythonModel"
ADJUST_NATIVE = "python model with placeholder model files served by the native stub backend"


@dataclass
class ModelInfo:
    """What the harness needs to know about one model folder of the staged copy."""

    name: str
    path: Path
    backend: str | None = None
    platform: str | None = None
    runtime: str | None = None
    default_model_filename: str | None = None
    composing: tuple[str, ...] = ()
    #: The config sets the python backend's ``EXECUTION_ENV_PATH`` parameter.
    execution_env: bool = False
    #: Version number -> the folder the server reads that version's files from.
    version_paths: dict[int, Path] = field(default_factory=dict)
    #: The first subfolder in the server's (byte) order, where autofill looks for model.py.
    first_subfolder: Path | None = None
    adjustments: list[str] = field(default_factory=list)

    @property
    def is_python(self) -> bool:
        if self.backend is not None:
            return self.backend == "python"
        # Triton's autofill picks python when model.py sits in the first version folder.
        if self.platform is None and self.default_model_filename is None:
            first = self.first_subfolder
            return first is not None and (first / "model.py").exists()
        return self.default_model_filename == "model.py"


@dataclass
class StagedRepository:
    source: Path
    path: Path
    models: dict[str, ModelInfo]
    #: Which model runs which, for the load order.
    graph: DependencyGraph = field(default_factory=DependencyGraph)

    def load_order(self) -> list[str]:
        """Every model, each after the models its ensemble steps run."""
        return self.graph.load_order(self.models)

    @property
    def backends(self) -> set[str]:
        return {m.backend for m in self.models.values() if m.backend}

    @property
    def runtimes(self) -> dict[str, set[str]]:
        """Backend name -> custom ``runtime`` library names the configs ask for."""
        wanted: dict[str, set[str]] = {}
        for model in self.models.values():
            if model.backend and model.runtime and model.runtime.endswith(".so"):
                wanted.setdefault(model.backend, set()).add(model.runtime)
        return wanted

    def to_source_paths(self, text: str) -> str:
        """``text`` with paths inside the staged copy written as the user's paths."""
        return text.replace(str(self.path), str(self.source))

    def to_repository_paths(self, text: str) -> str:
        """``text`` with paths inside the staged copy or the user's repository written from
        the repository's root (``m/config.pbtxt``; the root itself by its folder's name), as
        a finding says them: it reads the same wherever the repository is."""
        for root in (str(self.path), str(self.source)):
            text = text.replace(root + os.sep, "").replace(root, self.source.name)
        return text


def stage_repository(
    source: Path,
    dest: Path,
    *,
    cpu_only: bool,
    python_placeholders: PythonPlaceholders = PythonPlaceholders.KEEP,
    native_python_library: Path | None = None,
) -> StagedRepository:
    """Copy ``source`` to ``dest`` (which must not exist) and adjust the copy for this machine."""
    source = source.resolve()
    _copy_tree(source, dest)
    repository = read_repository(dest, _config_loader(load_schema()))
    models: dict[str, ModelInfo] = {}
    for folder in repository.models:
        model = _model_info(folder, repository.graph)
        if cpu_only:
            _rewrite_for_cpu(model)
        if model.is_python:
            if python_placeholders is not PythonPlaceholders.KEEP:
                _handle_placeholders(model, python_placeholders, native_python_library)
            _precompile(model)
        models[model.name] = model
    return StagedRepository(source=source, path=dest, models=models, graph=repository.graph)


def scan_model(folder: Path) -> ModelInfo:
    """What one model folder's config says, read on its own."""
    problems: list[WalkProblem] = []
    model = read_model(folder, _config_loader(load_schema()), problems)
    return _model_info(model, DependencyGraph(lambda name: edges_of(model)))


def _config_loader(schema: Schema) -> LoaderFactory:
    return lambda path: lambda: load_config(path, schema)


_EXECUTION_ENV = "EXECUTION_ENV_PATH"


def _model_info(model: ModelFolder, graph: DependencyGraph) -> ModelInfo:
    """The backend, platform, model file and steps of a model, as far as its config binds."""
    document = model.config
    config: Any = document.config if document is not None else None

    def given(field_name: str) -> str | None:
        return (getattr(config, field_name) or None) if config is not None else None

    parameters = config.parameters if config is not None else {}
    return ModelInfo(
        name=model.name,
        path=model.path,
        backend=given("backend"),
        platform=given("platform"),
        runtime=given("runtime"),
        default_model_filename=given("default_model_filename"),
        composing=tuple(dict.fromkeys(graph.steps(model.name))),
        execution_env=_EXECUTION_ENV in parameters,
        version_paths=model.version_paths,
        first_subfolder=model.subfolders[0].path if model.subfolders else None,
    )


# -- adjustments ------------------------------------------------------------------------------

_KIND_GPU = re.compile(r"\bKIND_GPU\b")
_GPUS = re.compile(r"\bgpus\s*:?\s*(?:\[[^\]]*\]|-?\d+)\s*[,;]?")


def rewrite_for_cpu(text: str) -> tuple[str, list[str]]:
    """``text`` with KIND_GPU -> KIND_CPU and ``gpus`` lists blanked (positions preserved)."""
    notes: list[str] = []
    if _KIND_GPU.search(text):
        text = _KIND_GPU.sub("KIND_CPU", text)
        notes.append(ADJUST_KIND_GPU)
    if _GPUS.search(text):
        text = _GPUS.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
        notes.append(ADJUST_GPUS)
    return text, notes


def _rewrite_for_cpu(model: ModelInfo) -> None:
    config = model.path / CONFIG_NAME
    if not config.is_file():
        return
    original = _read(config)
    text, notes = rewrite_for_cpu(original)
    if notes:
        _replace_file(config, text)
        model.adjustments.extend(notes)


def _handle_placeholders(
    model: ModelInfo, policy: PythonPlaceholders, native_library: Path | None
) -> None:
    filename = model.default_model_filename or "model.py"
    files = [folder / filename for folder in model.version_paths.values()]
    present = [path for path in files if path.is_file()]
    placeholders = [path for path in present if _is_placeholder(path)]
    if not placeholders:
        return
    every_file_a_placeholder = len(placeholders) == len(files)
    # The python backend checks EXECUTION_ENV_PATH before it runs model.py: such a model keeps
    # the real backend (a trivial model.py), which refuses a missing or broken environment.
    if (
        policy is PythonPlaceholders.NATIVE
        and every_file_a_placeholder
        and native_library
        and not model.execution_env
    ):
        # The server looks for libtriton_python.so in the model folder before the backends.
        shutil.copyfile(native_library, model.path / "libtriton_python.so")
        model.adjustments.append(ADJUST_NATIVE)
        return
    # A version folder without the file keeps the real backend, which refuses it like a server.
    for path in placeholders:
        _replace_file(path, TRIVIAL_PYTHON_MODEL)
    model.adjustments.append(ADJUST_TRIVIAL.format(file=filename))


def _precompile(model: ModelInfo) -> None:
    """Write the model's ``__pycache__`` now, before the server polls the folder.

    The python backend stub writes it on first import otherwise (it ignores
    PYTHONDONTWRITEBYTECODE); the changed folder makes the server reload the model (one more
    python stub start, over a second) whenever an ensemble that uses it is loaded.
    """
    compileall.compile_dir(model.path, quiet=2, workers=1)


def _is_placeholder(path: Path) -> bool:
    """An empty (or blank) regular file; a pipe or a device is never opened, nor a placeholder."""
    status = path.stat()
    if not stat.S_ISREG(status.st_mode):
        return False
    return status.st_size == 0 or not path.read_bytes().strip()


# -- files ------------------------------------------------------------------------------------


def _copy_tree(source: Path, dest: Path, seen: frozenset[str] = frozenset()) -> None:
    """Copy small files and link large ones; linked folders are copied too (never linked, so
    that nothing written into the copy can reach the user's files), each real folder once."""
    real = os.path.realpath(source)
    dest.mkdir(parents=True)
    if real in seen:  # a link back up the tree
        return
    for entry in sorted(source.iterdir()):
        if entry.is_dir():
            _copy_tree(entry, dest / entry.name, seen | {real})
        else:
            _copy_file(entry, dest / entry.name)


def _copy_file(src: Path, dst: Path) -> None:
    try:
        status = src.stat()
    except OSError:  # a dangling link: keep it dangling
        if src.is_symlink():
            dst.symlink_to(os.readlink(src))
        return
    if not stat.S_ISREG(status.st_mode):
        return  # a pipe, a socket or a device (or a link to one) is never opened: left out
    size = status.st_size
    if size > LINK_THRESHOLD and not src.name.endswith((".pbtxt", ".py")):
        dst.symlink_to(src.resolve())
    else:
        shutil.copyfile(src, dst)


def _replace_file(path: Path, text: str) -> None:
    """Write ``text`` to a staged file, replacing (never writing through) a link."""
    if path.is_symlink():
        path.unlink()
    path.write_text(text)


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")
