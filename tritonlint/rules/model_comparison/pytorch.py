"""A PyTorch config against the TorchScript model's ``forward``: its arguments and its results.

The PyTorch backend (pytorch_backend's src/pt/model_instance_state.cc) takes the inputs from
``forward``'s schema in ``ValidateInputs``: a single ``Dict[str, Tensor]`` argument (fed by
name), or arguments that are all tensors or lists, as many as the config feeds. It then maps
each config input to an argument (``GetNamingConvention``): by the argument's name where every
input is named after one, else by the ``<name>__<index>`` convention where every name follows
it, else by the config's order. Outputs go by ``<name>__<index>`` where every output name
follows it, else by the config's order; an index past the tensors ``forward`` returns fails
every request.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from tritonlint.diagnostics import Severity
from tritonlint.modelfiles.signature import TensorSpec
from tritonlint.modelfiles.torchscript_names import (
    convention_index,
    is_dictionary,
    takes_dictionary,
)
from tritonlint.rules.base import rule
from tritonlint.rules.context import Finding, ModelContext
from tritonlint.rules.model_comparison.view import ModelView, fed_inputs, model_view

if TYPE_CHECKING:
    from tritonlint.schema.config_types import ModelConfig


def _is_tensor(argument: TensorSpec) -> bool:
    """A tensor or a list: what the backend feeds (an argument of unknown type counts)."""
    annotation = argument.source_type
    return annotation is None or annotation == "Tensor" or annotation.startswith("List[")


def _forward(arguments: tuple[TensorSpec, ...]) -> str:
    return f"forward(self{''.join(f', {argument.name}' for argument in arguments)})"


@rule(
    "TL908",
    "pytorch-forward-mismatch",
    Severity.ERROR,
    summary="PyTorch inputs or outputs that do not fit the TorchScript model's forward()",
    explanation="""
    The PyTorch backend feeds the config's inputs to the arguments of the model's
    `forward` (`ModelInstanceState::ValidateInputs` in pytorch_backend's
    src/pt/model_instance_state.cc): the arguments must be tensors (or lists of them), or
    one `Dict[str, Tensor]`, and as many as the config feeds (inputs, batch inputs, sequence
    controls and states). Inputs named `<name>__<index>` (where not every input is named
    after an argument) go to the argument at that index, which must exist. Outputs named
    `<name>__<index>` (or, where not all are, the config's outputs in order) take the
    tensor at that position of what `forward` returns: past the last one, every request
    fails with the last message below (checked where forward's return annotation says how
    many tensors it returns).
    """,
    bad="""
    model_repository/sentiment/config.pbtxt:
      platform: "pytorch_libtorch"
      max_batch_size: 8
      input [ { name: "INPUT__0" data_type: TYPE_INT64 dims: [ 128 ] } ]  # forward takes two
      output [ { name: "OUTPUT__0" data_type: TYPE_FP32 dims: [ 2 ] } ]
      dynamic_batching { }
    model_repository/sentiment/1/model.pt: <TorchScript>
      forward(self, input_ids: Tensor, attention_mask: Tensor) -> Tensor
    """,
    good="""
    model_repository/sentiment/config.pbtxt:
      platform: "pytorch_libtorch"
      max_batch_size: 8
      input [
        { name: "INPUT__0" data_type: TYPE_INT64 dims: [ 128 ] },
        { name: "INPUT__1" data_type: TYPE_INT64 dims: [ 128 ] }
      ]
      output [ { name: "OUTPUT__0" data_type: TYPE_FP32 dims: [ 2 ] } ]
      dynamic_batching { }
    model_repository/sentiment/1/model.pt: <TorchScript>
      forward(self, input_ids: Tensor, attention_mask: Tensor) -> Tensor
    """,
    server_message=(
        "unable to load model '{model}', configuration expects {n} inputs, model provides {m}\n"
        "An input of type '{type}' was detected in the model. Only a single input of type "
        "Dict(str, Tensor) or input(s) of type Tensor are supported.\n"
        "Multiple inputs of kind DictType were detected. Only a single input of type "
        "Dict(str, Tensor) is supported.\n"
        "The output {output} in the model configuration refers to an output index which "
        "doesn't exist. This model has {n} outputs"
    ),
    backend_check=True,
)
def pytorch_forward_mismatch(ctx: ModelContext) -> Iterator[Finding]:
    view = model_view(ctx)
    if view is None or view.backend != "pytorch":
        return
    yield from _inputs(ctx, view)
    yield from _outputs(ctx, view)


def _inputs(ctx: ModelContext, view: ModelView) -> Iterator[Finding]:
    arguments = view.signature.inputs
    if takes_dictionary(arguments):
        return  # fed by name, any names
    path = view.signature.path
    if any(is_dictionary(argument) for argument in arguments[1:]):
        yield ctx.about(
            path,
            "Multiple inputs of kind DictType were detected. Only a single input of type "
            f"Dict(str, Tensor) is supported. ({_forward(arguments)})",
        )
        return
    for argument in arguments:
        if not _is_tensor(argument):
            yield ctx.about(
                path,
                f"An input of type '{argument.source_type}' was detected in the model. Only a "
                "single input of type Dict(str, Tensor) or input(s) of type Tensor are "
                f"supported. (forward's argument '{argument.name}')",
            )
            return
    config = view.config
    _, expected = fed_inputs(config, view.backend)
    if expected != len(arguments):
        yield Finding(
            f"unable to load model '{view.model}', configuration expects {expected} inputs, "
            f"model provides {len(arguments)}: the model's {_forward(arguments)}",
            ctx.config_path,
            ctx.span(("input",), "name") or ctx.span(("platform",)) or ctx.span(("backend",)),
        )
        return
    yield from _input_indexes(ctx, config, arguments)


def _input_indexes(
    ctx: ModelContext, config: ModelConfig, arguments: tuple[TensorSpec, ...]
) -> Iterator[Finding]:
    """Inputs that the ``<name>__<index>`` convention sends to an argument forward lacks."""
    names = [tensor.name for tensor in config.input]
    if all(name in {argument.name for argument in arguments} for name in names):
        return  # matched by argument name
    indexes = [convention_index(name) for name in names]
    if any(index is None for index in indexes):
        return  # matched by the config's order
    for position, (name, index) in enumerate(zip(names, indexes, strict=True)):
        if index is not None and index >= len(arguments):
            yield ctx.at(
                ("input", position, "name"),
                f"input '{name}' is forward()'s argument {index} by the <name>__<index> "
                f"convention, but the model's {_forward(arguments)} takes {len(arguments)} "
                f"(indexes 0 to {len(arguments) - 1})",
            )


def _outputs(ctx: ModelContext, view: ModelView) -> Iterator[Finding]:
    returned = len(view.signature.outputs)
    if returned == 0:
        return  # forward's annotation does not say how many tensors it returns
    names = [tensor.name for tensor in view.config.output]
    indexes = [convention_index(name) for name in names]
    by_convention = all(index is not None for index in indexes)
    for position, (name, index) in enumerate(zip(names, indexes, strict=True)):
        taken = index if by_convention and index is not None else position
        if taken >= returned:
            yield ctx.at(
                ("output", position, "name"),
                f"The output {name} in the model configuration refers to an output index "
                f"which doesn't exist. This model has {returned} outputs",
            )
