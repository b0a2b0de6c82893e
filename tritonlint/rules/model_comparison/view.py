"""What the modelfile rules compare: the tensors of the config as the server validates it and
those of the model file its backend loads, and when there is nothing to compare.

The config compared is the one the backend's auto-complete leaves
(:attr:`ModelContext.loaded_config`: what ONNX Runtime and TensorFlow add from the model file,
``max_batch_size`` included), so the tensors it adds match the model by construction and the
declared ones are compared with the `max_batch_size` the server ends up with. There is nothing
to compare where the config has syntax errors, where the model file is a placeholder, absent
or unreadable (TL901 reports the last), and where the backend would complete inputs or
outputs the config lacks in a way the emulation does not follow: ONNX Runtime's where it
declines (an output without a shape), OpenVINO's (``AutoCompleteInputOrOutput``) always.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, NamedTuple

from tritonlint.modelfiles.signature import ModelSignature, TensorSpec
from tritonlint.repository.backend_model_file import BACKEND_OF_FORMAT
from tritonlint.rules.context import ModelContext
from tritonlint.rules.tensor_lists import tensors_of
from tritonlint.schema.source_map import Path as FieldPath

if TYPE_CHECKING:
    from tritonlint.rules.tensor_lists import Tensor
    from tritonlint.schema.config_types import ModelConfig


#: The sequence controls whose tensors ONNX Runtime and PyTorch count among the model's inputs.
_COUNTED_CONTROLS = frozenset(
    {
        "CONTROL_SEQUENCE_START",
        "CONTROL_SEQUENCE_END",
        "CONTROL_SEQUENCE_READY",
        "CONTROL_SEQUENCE_CORRID",
    }
)


class Declared(NamedTuple):
    """One input or output of the config."""

    #: ``input`` or ``output``.
    kind: str
    position: int
    tensor: Tensor

    @property
    def name(self) -> str:
        return str(self.tensor.name)

    @property
    def path(self) -> FieldPath:
        return (self.kind, self.position)

    @property
    def shape(self) -> list[int]:
        """The shape the backend compares with the model's: `reshape`'s where there is one
        (the model sees the reshaped tensor), else `dims`."""
        tensor = self.tensor
        return list(tensor.reshape.shape if tensor.HasField("reshape") else tensor.dims)

    def shape_path(self, position: int | None = None) -> FieldPath:
        """The field that holds :attr:`shape` (or its dimension ``position``)."""
        reshaped = self.tensor.HasField("reshape")
        base: FieldPath = (*self.path, "reshape", "shape") if reshaped else (*self.path, "dims")
        return base if position is None else (*base, position)


class ModelView(NamedTuple):
    """A config and the signature of its model file, as one backend compares them."""

    config: ModelConfig
    signature: ModelSignature
    #: ``onnxruntime``, ``tensorflow``, ``openvino`` or ``pytorch``.
    backend: str
    #: The model's name as the server knows it.
    model: str
    #: Whether :attr:`config` is the backend's auto-complete of the written one (then its
    #: ``max_batch_size`` is the one the server uses).
    completed: bool = False

    def declared(self) -> Iterator[Declared]:
        """The config's inputs, then its outputs (the order the backends check them in)."""
        for kind in ("input", "output"):
            for index, tensor in enumerate(tensors_of(self.config, kind)):
                if tensor.name:
                    yield Declared(kind, index, tensor)

    def tensors(self, kind: str) -> tuple[TensorSpec, ...]:
        """The model's inputs (those a request may leave out too) or outputs."""
        signature = self.signature
        if kind == "input":
            return signature.inputs + signature.optional_inputs
        return signature.outputs

    def tensor(self, kind: str, name: str) -> TensorSpec | None:
        return next((spec for spec in self.tensors(kind) if spec.name == name), None)

    def pairs(self) -> Iterator[tuple[Declared, TensorSpec]]:
        """Each declared tensor the model has, with the model's declaration of it."""
        for declared in self.declared():
            spec = self.tensor(declared.kind, declared.name)
            if spec is not None:
                yield declared, spec

    @property
    def compares_input_shapes(self) -> bool:
        """False for an OpenVINO model whose ``RESHAPE_IO_LAYERS`` parameter is ``yes``: the
        backend then reshapes the model's inputs to the config's dims instead of comparing."""
        if self.backend != "openvino":
            return True
        parameters = self.config.parameters
        key = "RESHAPE_IO_LAYERS"
        return key not in parameters or parameters[key].string_value.lower() != "yes"

    @property
    def batching_choices(self) -> tuple[int, ...]:
        """The max_batch_size values the backend may compare with: the config's, and where it
        is 0 and the backend's auto-complete may raise it, also a batching one (the default,
        4, for the messages).

        The auto-complete sets a max_batch_size the config leaves at 0, even where the config
        declares its tensors, when the model looks as if it batches: TensorFlow's from the
        config's dims (``AutoCompleteHelper::FixBatchingSupport``), OpenVINO's where every
        input and output has a layout with a batch dimension (``AutoCompleteBatching``).
        """
        size = int(self.config.max_batch_size)
        if self.completed:
            return (size,)
        if size == 0 and (self.backend == "tensorflow" or self._layouts_batch()):
            return (0, 4)
        return (size,)

    def _layouts_batch(self) -> bool:
        """Whether every tensor of an OpenVINO model has a layout with a batch dimension."""
        signature = self.signature
        tensors = (*signature.inputs, *signature.outputs)
        return self.backend == "openvino" and all(has_batch(spec.layout) for spec in tensors)


def has_batch(layout: str | None) -> bool:
    """Whether an OpenVINO layout (``[N,C,H,W]``, ``NCHW``, ``N...``) has a batch dimension,
    ``N`` (``ov::layout::has_batch``; names are not case sensitive)."""
    if not layout:
        return False
    text = layout.strip().upper()
    if text.startswith("[") and text.endswith("]"):
        names = [name.strip() for name in text[1:-1].split(",")]
    else:
        names = list(text.replace("...", ""))
    return "N" in names


def model_view(ctx: ModelContext) -> ModelView | None:
    """The config and its model file's signature, or None where there is nothing to compare."""
    config = ctx.config
    found = ctx.model_file
    if config is None or found is None or not isinstance(found.read, ModelSignature):
        return None
    backend = BACKEND_OF_FORMAT[found.read.format]
    completion = ctx.auto_completion
    if completion is not None:
        return ModelView(completion.config, found.read, backend, ctx.name, completed=True)
    if backend == "onnxruntime" and (not (config.input or config.batch_input) or not config.output):
        return None
    if backend == "openvino" and not (config.input and config.output):
        return None
    return ModelView(config, found.read, backend, ctx.name)


def fed_inputs(config: ModelConfig, backend: str) -> tuple[set[str], int]:
    """The model inputs the config feeds, by name, and how many the backend counts it to feed:
    the inputs (ONNX Runtime: those not marked optional), and for ONNX Runtime and PyTorch the
    batch inputs, one tensor per sequence control kind and the sequence states (each backend's
    ``ModelInstanceState`` constructor; OpenVINO counts the inputs alone)."""
    names = {tensor.name for tensor in config.input}
    if backend == "openvino":
        return names, len(config.input)
    optional = backend == "onnxruntime"
    count = sum(1 for tensor in config.input if not (optional and tensor.optional))
    count += len(config.batch_input)
    for batch_input in config.batch_input:
        names.update(batch_input.target_name)
    sequence = config.sequence_batching
    kinds: set[str] = set()
    for control_input in sequence.control_input:
        for control in control_input.control:
            kind = control.DESCRIPTOR.enum_types_by_name["Kind"].values_by_number.get(control.kind)
            if kind is not None and kind.name in _COUNTED_CONTROLS:
                kinds.add(kind.name)
                names.add(control_input.name)
    names.update(state.input_name for state in sequence.state)
    return names, count + len(kinds) + len(sequence.state)
