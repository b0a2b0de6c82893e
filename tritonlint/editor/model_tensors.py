"""The model file behind the config being edited: which of its tensors an input or output
entry names, and how the file declares it, for completion and hover.

The file is the one the rules compare the config with, found the same way: the repository
record of the config's model, the backend the server would complete for it, the newest
version's model file (:func:`tritonlint.repository.backend_model_file.model_file`, read once
per file state). Where the rules read nothing (no file, an empty placeholder, a backend whose
files are not read) the editor offers nothing from it either.

Entries are matched to the file's tensors as the backends match them: by name, except for
TorchScript, whose inputs the PyTorch backend takes by ``forward``'s argument names when every
input is named after one, else by the ``<name>__<index>`` convention when every name follows
it, else in the config's order; outputs have no names in TorchScript and are matched by
``<name>__<index>``, else in order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from tritonlint.editor.context import MessagePath
from tritonlint.editor.tensors import data_type_name, full_shape, shape_text
from tritonlint.modelfiles.signature import ModelFileProblem, ModelSignature, TensorSpec
from tritonlint.modelfiles.torchscript_names import convention_index, takes_dictionary
from tritonlint.repository.backend_model_file import (
    BACKEND_OF_FORMAT,
    FORMAT_NAMES,
    ModelFile,
    model_file,
)
from tritonlint.repository.model import ModelFolder
from tritonlint.repository.server_fill_in import complete
from tritonlint.rules.model_comparison.shapes import shape_problems
from tritonlint.schema.datatypes import INVALID

if TYPE_CHECKING:
    from tritonlint.repository.model import Repository

Side = Literal["input", "output"]

#: The name completion offers for the TorchScript output at an index.
_TORCHSCRIPT_OUTPUT = "OUTPUT__{}"


def model_folder(path: Path | None, repository: Repository | None) -> ModelFolder:
    """The repository's model whose config is at ``path``, or a folder with no files listed
    (the server then goes by the config alone)."""
    if path is not None and repository is not None:
        # config.pbtxt is in the model folder; an alternative config in its configs/ folder.
        for folder in (path.parent, path.parent.parent):
            model = repository.model(folder.name)
            for candidate in (model, *model.alternatives) if model is not None else ():
                if candidate.config_path == path:
                    return candidate
    folder = path.parent if path is not None else Path()
    return ModelFolder(folder.name, folder)


@dataclass(frozen=True)
class ModelTensor:
    """A tensor of the model file, under the name a config entry gives it."""

    #: What a config names it (a TorchScript output: ``OUTPUT__<index>``).
    name: str
    spec: TensorSpec
    #: Its place among the file's inputs (or outputs).
    index: int


@dataclass(frozen=True)
class Match:
    """The model file's tensor that a config entry names, and how the backend pairs them."""

    tensor: ModelTensor
    #: ``by name``, or how else the backend pairs them (TorchScript).
    how: str


@dataclass(frozen=True)
class ConfigModelFile:
    """The model file of the config being edited, and what reading it gave."""

    file: ModelFile
    #: The model folder (paths are shown relative to it).
    folder: Path

    @property
    def relative_path(self) -> str:
        """The file's path in the model folder, such as ``1/model.onnx``."""
        try:
            return self.file.path.relative_to(self.folder).as_posix()
        except ValueError:
            return self.file.path.as_posix()

    @property
    def title(self) -> str:
        """``ONNX `1/model.onnx` (version 1)``: what the file is, in Markdown."""
        kind = FORMAT_NAMES.get(self.file.format, self.file.format)
        return f"{kind} `{self.relative_path}` (version {self.file.version})"

    @property
    def backend(self) -> str:
        """The backend that loads the file, as the rules take it from the file's format."""
        return BACKEND_OF_FORMAT.get(self.file.format, self.file.format)

    @property
    def signature(self) -> ModelSignature | None:
        """What the file declares (None: it could not be read, or it is a Python model)."""
        read = self.file.read
        return read if isinstance(read, ModelSignature) else None

    @property
    def problem(self) -> str | None:
        """Why the file could not be read, if it could not."""
        read = self.file.read
        return read.message if isinstance(read, ModelFileProblem) else None

    def tensors(self, side: Side) -> list[ModelTensor]:
        """The file's inputs or outputs under the names a config may give them (none where
        the names are the config's choice: a TorchScript ``forward`` taking a dictionary)."""
        signature = self.signature
        if signature is None:
            return []
        specs = signature.inputs if side == "input" else signature.outputs
        if signature.format != "torchscript":
            return [ModelTensor(spec.name, spec, index) for index, spec in enumerate(specs)]
        if side == "input":
            if takes_dictionary(specs):
                return []
            return [ModelTensor(spec.name, spec, index) for index, spec in enumerate(specs)]
        return [
            ModelTensor(_TORCHSCRIPT_OUTPUT.format(index), spec, index)
            for index, spec in enumerate(specs)
        ]

    def match(self, side: Side, names: Sequence[str], entry: int) -> Match | None:
        """The tensor that the ``entry``-th input (or output) of the config names, where the
        config's names on that side are ``names`` (None: none of the file's)."""
        signature = self.signature
        if signature is None or not 0 <= entry < len(names):
            return None
        name = names[entry]
        if signature.format != "torchscript":
            found = next((t for t in self.tensors(side) if t.name == name), None)
            return Match(found, "by name") if found is not None else None
        specs = signature.inputs if side == "input" else signature.outputs
        if side == "input" and takes_dictionary(specs):
            spec = specs[0]
            how = f"as a key of the `{spec.source_type}` that `forward` takes as `{spec.name}`"
            return Match(ModelTensor(name, spec, 0), how)
        if side == "input" and all(any(s.name == n for s in specs) for n in names):
            index = next(i for i, spec in enumerate(specs) if spec.name == name)
            return Match(ModelTensor(name, specs[index], index), "by name")
        indexes = [convention_index(n) for n in names]
        named = indexes[entry]
        if named is not None and None not in indexes:
            index, how = named, f"by the index in the config's name, `<name>__{named}`"
        else:
            index, how = entry, "by its place in the config (not every name is `<name>__<index>`)"
        if index >= len(specs):
            return None
        return Match(ModelTensor(name, specs[index], index), how)


def entry_side(path: MessagePath) -> Side | None:
    """``input`` or ``output`` where ``path`` is one of the config's input or output entries."""
    if len(path) != 2 or not isinstance(path[1], int):
        return None
    if path[0] == "input":
        return "input"
    return "output" if path[0] == "output" else None


def config_model_file(
    config: Any | None, path: Path | None, repository: Repository | None
) -> ConfigModelFile | None:
    """The model file of ``config`` (the config at ``path``, a model of ``repository``) as
    the rules read it; None where they read none."""
    if path is None or repository is None:
        return None
    folder = model_folder(path, repository)
    found = model_file(folder, complete(folder, config), config)
    return ConfigModelFile(found, folder.path) if found is not None else None


def spec_text(spec: TensorSpec) -> str:
    """``TYPE_FP32 [batch, 3, 224, 224]``, ``Tensor, shape unknown``: a tensor's type (the
    format's own where it has no Triton type) and shape, with the format's names of its
    dimensions."""
    kind = spec.data_type or spec.source_type or "type unknown"
    shape = model_shape(spec)
    return f"{kind} {shape}" if shape is not None else f"{kind}, shape unknown"


def model_shape(spec: TensorSpec) -> str | None:
    """The file's shape of a tensor: each dimension's name where the file names it, else its
    size (-1: not fixed); None where the file does not give its rank."""
    if spec.dims is None:
        return None
    names = spec.dim_names
    if len(names) != len(spec.dims):  # the format names no dimension
        names = (None,) * len(spec.dims)
    shown = (name or str(dim) for dim, name in zip(spec.dims, names, strict=True))
    return "[" + ", ".join(shown) + "]"


def config_dims(spec: TensorSpec, max_batch_size: int) -> list[int] | None:
    """The ``dims`` a config writes for ``spec``: the file's shape without its batch
    dimension where the model batches (None: the rank is unknown, or the model batches and
    the tensor has no dimension)."""
    if spec.dims is None:
        return None
    if max_batch_size > 0:
        return list(spec.dims[1:]) if spec.dims else None
    return list(spec.dims)


def differences(
    spec: TensorSpec, tensor: Any, model: str, backend: str, side: Side, max_batch_size: int
) -> list[str]:
    """Where the config's entry ``tensor`` (an input or output of ``model``) differs from the
    file's ``spec``, as the ``backend`` that loads the file compares them.

    The shapes are compared by the modelfile rules' own comparison
    (:func:`~tritonlint.rules.model_comparison.shapes.shape_problems`), so that a hover never
    calls a shape fine that a rule reports, nor the other way round: ``reshape``'s shape where
    the entry has one, a dimension the file leaves variable (-1) taking any size (but a
    TensorFlow output's), the file's first dimension the batch dimension where the model
    batches, a scalar taking only dims of 1 in ONNX Runtime. A data type the entry leaves out
    (``TYPE_INVALID``) is not compared: the schema's rules report it.
    """
    found = []
    data_type = data_type_name(tensor)
    if spec.data_type is not None and data_type != INVALID and data_type != spec.data_type:
        found.append(f"data type: the config says {data_type}, the model file {spec.data_type}")
    model_dims = spec.dims
    if model_dims is None:
        return found
    dims = list(tensor.reshape.shape if tensor.HasField("reshape") else tensor.dims)
    full = full_shape(dims, max_batch_size)
    offset = 1 if max_batch_size > 0 else 0
    for problem in shape_problems(
        backend, model, tensor.name, model_dims, dims, max_batch_size, side == "output"
    ):
        if problem.kind == "batch":
            first = (
                f"first dimension is {model_dims[0]}, not variable (-1)"
                if model_dims
                else "tensor has no dimension"
            )
            found.append(
                f"batching: the model file's {first}, so the model cannot take a batch dimension"
            )
        elif problem.kind == "rank":
            found.append(
                f"shape: the config's {shape_text(full)} has {len(full)} dimensions, "
                f"the model file's {len(model_dims)}"
            )
        else:
            assert problem.position is not None
            number = problem.position + offset
            found.append(
                f"dimension {number}: the config says {full[number]}, "
                f"the model file {model_dims[number]}"
            )
    return found
