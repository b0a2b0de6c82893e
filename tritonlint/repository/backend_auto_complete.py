"""The backends' auto-complete of inputs, outputs and max_batch_size, emulated from the model file.

tritonserver starts with auto-complete on (``--disable-auto-complete-config`` turns it off),
and then the backend of an ONNX or TensorFlow SavedModel model reads the model file and
writes into the config what it leaves out, before the server validates the inputs and
outputs. So a config without ``input``, ``output`` or ``max_batch_size`` loads, and what
the server then knows of the model (what an ensemble's steps are checked against, what a
warmup sample must feed) is the completed config. This module completes a config the way
those backends do, from what :mod:`tritonlint.modelfiles` read of the model file:

- **ONNX Runtime** (``ModelState::AutoCompleteConfig``, ``AutoCompleteMaxBatch`` and
  ``AutoCompleteIO`` in onnxruntime_backend's ``src/onnxruntime.cc``): nothing, when the
  config has inputs (``batch_input`` counts) and outputs. Otherwise the model batches when
  every input and output has a variable first dimension: then a ``max_batch_size`` of 0
  becomes the server's default (``--backend-config=default-max-batch-size``, 4), and a
  ``max_batch_size`` above 1 gets ``dynamic_batching`` unless a batcher is set; a model that
  does not batch with ``max_batch_size`` above 0 is refused. The missing list (inputs, or
  outputs, or both) is written whole from the model: name, type, and the dims without the
  first where ``max_batch_size`` is above 0; empty dims become ``[1]``, with an empty
  ``reshape`` where the model batches.
- **TensorFlow SavedModel** (``AutoCompleteHelper`` in tensorflow_backend's
  ``src/tensorflow.cc``): always. Whether the model batches follows from the signature (every
  tensor a scalar or with a variable first dimension) and from the dims the config gives for
  the tensors it declares (one fewer than the model's rank says it batches, as many says it
  does not, and both at once are refused); a ``max_batch_size`` of 0 becomes the default when
  it batches. Each declared tensor the model has gets its missing ``data_type`` and ``dims``;
  every model input the config does not declare (nor names as a ``batch_input`` target or a
  sequence control) is added; the outputs are written whole when none is declared.

The PyTorch backend completes nothing ("not supported for pytorch backend"); OpenVINO decides
batching by the layouts in the IR's runtime info, which the reader does not read; a Python
model's ``auto_complete_config`` is code; TensorRT plans are not read. For those, and where
the emulation cannot be exact (a tensor type the server has no name for, an ONNX output
without a shape, which ONNX Runtime fills from its shape inference) or where the backend
refuses the config, nothing is completed: rules see the config as written.

The backends keep the tensors they add in hash maps, so the server's order of completed
tensors is arbitrary; here they come in the model file's order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tritonlint.modelfiles.signature import ModelSignature, TensorSpec
from tritonlint.repository.backend_model_file import ModelFile
from tritonlint.schema.datatypes import data_types
from tritonlint.schema.releases import load_schema

if TYPE_CHECKING:
    from tritonlint.schema.config_types import ModelConfig

#: tritonserver's ``default-max-batch-size`` backend setting unless its command line sets one
#: (``backend_config_defaults`` in core's ``src/backend_model.cc``).
DEFAULT_MAX_BATCH_SIZE = 4

#: Where a tensor is in a config: ``("input", 0)``.
TensorPlace = tuple[str, int]


@dataclass(frozen=True)
class AutoCompletion:
    """A config as a backend's auto-complete leaves it, and what the backend changed."""

    #: ``onnxruntime`` or ``tensorflow``.
    backend: str
    #: The model file read.
    path: Path
    #: The model file relative to the model's folder (``1/model.onnx``, ``1/model.savedmodel``),
    #: for messages.
    source: str
    #: The completed config: a copy of the written one (a ModelConfig message).
    config: ModelConfig
    #: Inputs and outputs the backend added.
    added: frozenset[TensorPlace]
    #: Declared inputs and outputs whose missing data type or dims the backend filled in.
    filled: frozenset[TensorPlace]
    #: Whether the backend set ``max_batch_size``.
    max_batch_size: bool

    @property
    def by(self) -> str:
        """Who completed what, for messages: ``the onnxruntime backend's auto-complete from
        1/model.onnx``."""
        return f"the {self.backend} backend's auto-complete from {self.source}"


def may_complete(config: Any | None, backend: str) -> bool:
    """Whether ``backend``'s auto-complete may change ``config`` (None: no config), before the
    model file is read: the emulated backends, and ONNX Runtime only where inputs or outputs
    are missing."""
    if backend == "tensorflow":
        return True
    if backend != "onnxruntime":
        return False
    return config is None or not ((config.input or config.batch_input) and config.output)


def auto_complete(
    config: Any | None,
    backend: str,
    model_file: ModelFile | None,
    folder: Path,
    default_max_batch_size: int = DEFAULT_MAX_BATCH_SIZE,
) -> AutoCompletion | None:
    """``config`` as ``backend``'s auto-complete leaves it (None: the config in the model
    folder ``folder`` has none); None where the backend changes nothing, refuses the config,
    or is not emulated, and where no model file could be read."""
    if not may_complete(config, backend):
        return None
    if model_file is None or not isinstance(model_file.read, ModelSignature):
        return None
    signature = model_file.read
    base: Any = config if config is not None else load_schema().message_class()
    if model_file.format == "onnx" and backend == "onnxruntime":
        change = _onnxruntime(base, signature, default_max_batch_size)
    elif model_file.format == "savedmodel" and backend == "tensorflow":
        change = _tensorflow(base, signature, default_max_batch_size)
    else:
        return None
    if change is None:
        return None
    completed, added, filled = change
    if not added and not filled and completed == base:
        return None
    # A SavedModel is the folder its saved_model.pb is in.
    shown = model_file.path.parent if model_file.format == "savedmodel" else model_file.path
    try:
        source = shown.relative_to(folder).as_posix()
    except ValueError:
        source = shown.name
    return AutoCompletion(
        backend,
        model_file.path,
        source,
        completed,
        frozenset(added),
        frozenset(filled),
        completed.max_batch_size != base.max_batch_size,
    )


_Change = tuple[Any, list[TensorPlace], list[TensorPlace]]


def _copy(config: Any) -> Any:
    copied = type(config)()
    copied.CopyFrom(config)
    return copied


def _batcher_for(config: Any) -> None:
    """Both backends turn the dynamic batcher on for a model that takes batches above 1."""
    if (
        config.max_batch_size > 1
        and not config.HasField("dynamic_batching")
        and not config.HasField("sequence_batching")
    ):
        config.dynamic_batching.SetInParent()


def _write(config: Any, tensor: Any, spec: TensorSpec, dims: Sequence[int], reshape: bool) -> None:
    """Give ``tensor`` the model's name, type and ``dims``; empty dims become ``[1]`` (and an
    empty reshape where ``reshape``), since a config's dims cannot be empty."""
    tensor.name = spec.name
    tensor.data_type = data_types(config).number(spec.data_type or "TYPE_INVALID")
    tensor.dims[:] = list(dims) or [1]
    if not dims and reshape:
        tensor.reshape.SetInParent()


# ONNX Runtime


def _onnxruntime(
    base: Any, signature: ModelSignature, default_max_batch_size: int
) -> _Change | None:
    has_inputs = len(base.input) + len(base.batch_input) > 0
    has_outputs = len(base.output) > 0
    if has_inputs and has_outputs:
        return None  # "inputs and outputs already specified"
    tensors = (*signature.inputs, *signature.outputs)
    if any(t.data_type is None for t in tensors) or any(t.dims is None for t in signature.outputs):
        return None

    def dims(spec: TensorSpec) -> tuple[int, ...]:
        return spec.dims or ()  # ONNX Runtime gives an input of unknown rank no dimensions

    batching = all(len(dims(t)) > 0 and dims(t)[0] == -1 for t in tensors)
    config = _copy(base)
    if batching:
        if config.max_batch_size == 0:
            config.max_batch_size = max(default_max_batch_size, 0)
        _batcher_for(config)
    elif config.max_batch_size != 0:
        return None  # "model does not support batching while non-zero max_batch_size is specified"
    skip = 1 if config.max_batch_size > 0 else 0
    added: list[TensorPlace] = []
    for kind, specs, complete in (
        ("input", signature.inputs, not has_inputs),
        ("output", signature.outputs, not has_outputs),
    ):
        if not complete:
            continue
        for spec in specs:
            _write(config, getattr(config, kind).add(), spec, dims(spec)[skip:], skip > 0)
            added.append((kind, len(getattr(config, kind)) - 1))
    return config, added, []


# TensorFlow SavedModel


#: The data types the backend reads in a config; it overwrites any other with the model's.
_TENSORFLOW_TYPES = frozenset(
    {
        "TYPE_BOOL",
        "TYPE_UINT8",
        "TYPE_UINT16",
        "TYPE_UINT32",
        "TYPE_UINT64",
        "TYPE_INT8",
        "TYPE_INT16",
        "TYPE_INT32",
        "TYPE_INT64",
        "TYPE_FP16",
        "TYPE_FP32",
        "TYPE_FP64",
        "TYPE_STRING",
    }
)


class _Refused(Exception):
    """The TensorFlow backend's auto-complete fails: the server refuses the model."""


def _rank(spec: TensorSpec) -> int:
    return len(spec.dims) if spec.dims is not None else 0  # unknown rank reads as rank 0


def _tensorflow(
    base: Any, signature: ModelSignature, default_max_batch_size: int
) -> _Change | None:
    if any(t.data_type is None for t in (*signature.inputs, *signature.outputs)):
        return None  # the backend cannot load the model ("unsupported datatype")
    try:
        batching = _tensorflow_batching(base, signature, default_max_batch_size)
        config = _copy(base)
        if config.max_batch_size == 0:
            config.max_batch_size = max(default_max_batch_size, 0) if batching else 0
        _batcher_for(config)
        added, filled = _tensorflow_inputs(config, signature.inputs, batching)
        more_added, more_filled = _tensorflow_outputs(config, signature.outputs, batching)
    except _Refused:
        return None
    return config, added + more_added, filled + more_filled


def _tensorflow_batching(base: Any, signature: ModelSignature, default_max_batch_size: int) -> bool:
    """Whether the backend completes the config as a batching one (``FixBatchingSupport``)."""
    tensors = (*signature.inputs, *signature.outputs)
    signature_batches = all(_rank(t) == 0 or (t.dims or (0,))[0] == -1 for t in tensors)
    if not signature_batches:
        if base.max_batch_size > 0:
            raise _Refused  # "configuration specified max-batch ... but model signature does not"
        return False
    declared = bool(base.input) or bool(base.output)
    hint = _declared_batch_hint(base, signature) if declared else True
    return hint and default_max_batch_size > 0


def _declared_batch_hint(base: Any, signature: ModelSignature) -> bool:
    """What the declared tensors say about batching: a ragged one, or dims one fewer than the
    model's rank, say yes; as many dims as the model's rank say no."""
    hint = False
    explicit: bool | None = None
    for kind, specs in (("input", signature.inputs), ("output", signature.outputs)):
        for tensor in getattr(base, kind):
            if kind == "input" and tensor.allow_ragged_batch:
                return True  # the backend stops looking at the others
            spec = next((s for s in specs if s.name == tensor.name), None)
            if spec is None or _rank(spec) == 0:
                continue
            shape = tensor.reshape.shape if tensor.HasField("reshape") else tensor.dims
            if not shape:
                if explicit is None:
                    hint = True
            elif len(shape) == _rank(spec) - 1:
                if explicit is False:
                    raise _Refused  # "model tensor configurations are contradicting each other"
                hint, explicit = True, True
            else:
                if explicit is True:
                    raise _Refused
                if explicit is None:
                    hint, explicit = False, False
    return hint


def _fill(config: Any, tensor: Any, spec: TensorSpec, batching: bool) -> bool:
    """Fill a declared tensor's missing (or, for this backend, invalid) data type and missing
    dims (``FillMissingValues``); whether anything was filled. Raises _Refused where the dims
    are missing and the model's rank is 0."""
    filled = False
    types = data_types(config)
    if types.name(tensor.data_type) not in _TENSORFLOW_TYPES:
        tensor.data_type = types.number(spec.data_type or "TYPE_INVALID")
        filled = True
    if not tensor.dims:
        if _rank(spec) == 0:
            raise _Refused  # "the rank of model tensor ... is 0 and dimensions are not defined"
        dims = (spec.dims or ())[1 if batching else 0 :]
        tensor.dims[:] = list(dims) or [1]
        if not dims and not tensor.HasField("reshape"):
            tensor.reshape.SetInParent()
        filled = True
    return filled


def _tensorflow_inputs(
    config: Any, specs: tuple[TensorSpec, ...], batching: bool
) -> tuple[list[TensorPlace], list[TensorPlace]]:
    remaining = list(specs)

    def take(name: str) -> TensorSpec | None:
        spec = next((s for s in remaining if s.name == name), None)
        if spec is not None:
            remaining.remove(spec)
        return spec

    filled: list[TensorPlace] = []
    for index, tensor in enumerate(config.input):
        spec = take(tensor.name)
        if spec is not None and _fill(config, tensor, spec, batching):
            filled.append(("input", index))
    for batch_input in config.batch_input:
        for name in batch_input.target_name:
            take(name)
    if config.HasField("sequence_batching"):
        for control in config.sequence_batching.control_input:
            take(control.name)
    added: list[TensorPlace] = []
    for spec in remaining:
        tensor = config.input.add()
        tensor.name = spec.name
        _fill(config, tensor, spec, batching)
        added.append(("input", len(config.input) - 1))
    return added, filled


def _tensorflow_outputs(
    config: Any, specs: tuple[TensorSpec, ...], batching: bool
) -> tuple[list[TensorPlace], list[TensorPlace]]:
    if not config.output:
        for spec in specs:
            if _rank(spec) == 0:
                raise _Refused  # "the rank of model tensor ... is 0 which is not supported"
            skip = 1 if batching else 0
            _write(config, config.output.add(), spec, (spec.dims or ())[skip:], True)
        return [("output", index) for index in range(len(specs))], []
    filled: list[TensorPlace] = []
    for index, tensor in enumerate(config.output):
        found = next((s for s in specs if s.name == tensor.name), None)
        if found is None:
            continue
        # The backend ignores a failure here: the type is filled, the dims stay missing.
        before = tensor.data_type
        try:
            changed = _fill(config, tensor, found, batching)
        except _Refused:
            changed = tensor.data_type != before
        if changed:
            filled.append(("output", index))
    return [], filled
