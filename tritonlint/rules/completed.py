"""What a finding says when it rests on a part of the config that the backend's auto-complete
wrote (:attr:`ModelContext.loaded_config`): that part has no place in the config's text, so
the finding stays where the user wrote something and names who completed the rest."""

from __future__ import annotations

from tritonlint.rules.context import Finding, ModelContext
from tritonlint.rules.tensor_lists import tensors_of


def added_by(ctx: ModelContext, kind: str, name: str) -> str | None:
    """Who added the model's ``kind`` (``input``/``output``) ``name`` to its config (None: the
    config declares it)."""
    completion = ctx.auto_completion
    config = ctx.loaded_config
    if completion is None or config is None:
        return None
    for index, tensor in enumerate(tensors_of(config, kind)):
        if tensor.name == name:
            return completion.by if (kind, index) in completion.added else None
    return None


def tensor_note(ctx: ModelContext, kind: str, name: str) -> str:
    """`` (input 'x' is not in the config: the onnxruntime backend's auto-complete from
    1/model.onnx adds it)``, or the same for a declared tensor the backend filled in; ``""``
    for a tensor as the config writes it."""
    completion = ctx.auto_completion
    config = ctx.loaded_config
    if completion is None or config is None:
        return ""
    for index, tensor in enumerate(tensors_of(config, kind)):
        if tensor.name != name:
            continue
        if (kind, index) in completion.added:
            return f" ({kind} '{name}' is not in the config: {completion.by} adds it)"
        if (kind, index) in completion.filled:
            return f" ({completion.by} fills in the data type and dims {kind} '{name}' lacks)"
        return ""
    return ""


def max_batch_size_note(ctx: ModelContext, whose: str = "the config") -> str:
    """`` (the config gives no max_batch_size: the onnxruntime backend's auto-complete from
    1/model.onnx sets it to 4, ...)`` where the backend set it; ``""`` elsewhere."""
    completion = ctx.auto_completion
    if completion is None or not completion.max_batch_size:
        return ""
    given = (
        f"{whose} has max_batch_size 0"
        if ctx.located(("max_batch_size",))
        else f"{whose} gives no max_batch_size"
    )
    return (
        f" ({given}: {completion.by} sets it to {completion.config.max_batch_size}, the "
        "server's default-max-batch-size)"
    )


def at_completed(ctx: ModelContext, message: str) -> Finding:
    """A finding about something only the backend's auto-complete wrote: at the config's
    ``name`` (or the config as a whole) where there is a config, else about the model file."""
    completion = ctx.auto_completion
    if ctx.model.config is None and completion is not None:
        return ctx.about(completion.path, message)
    return ctx.at(("name",), message)
