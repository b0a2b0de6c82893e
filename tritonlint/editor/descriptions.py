"""Short descriptions of the main ModelConfig fields, for hovers, in the project's words."""

from __future__ import annotations

#: Field full name (without the ``inference.`` package) → what it is for.
DESCRIPTIONS: dict[str, str] = {
    "ModelConfig.name": "The model's name; must match the name of its folder in the repository.",
    "ModelConfig.platform": (
        "The framework and format of the model file (such as `onnxruntime_onnx`), or "
        "`ensemble` for a pipeline of other models."
    ),
    "ModelConfig.backend": "The backend that runs the model (`python`, `onnxruntime`, ...).",
    "ModelConfig.max_batch_size": (
        "The largest batch the model accepts. Above 0 the server adds a batch dimension in "
        "front of every input and output; 0 means the model does not batch."
    ),
    "ModelConfig.input": "A tensor the model takes: name, data type and shape.",
    "ModelConfig.output": "A tensor the model returns: name, data type and shape.",
    "ModelConfig.instance_group": "How many copies of the model run, and on which devices.",
    "ModelConfig.dynamic_batching": (
        "Lets the server combine separate requests into one batch before running the model."
    ),
    "ModelConfig.sequence_batching": (
        "Routes all requests of a sequence to the same model instance, for stateful models."
    ),
    "ModelConfig.ensemble_scheduling": (
        "The steps of an ensemble: which models run and how tensors flow between them."
    ),
    "ModelConfig.default_model_filename": (
        "The model file's name in each version folder, when it is not the backend's default."
    ),
    "ModelConfig.parameters": "Named settings passed to the backend as strings.",
    "ModelConfig.model_warmup": "Requests the server sends the model before it serves any.",
    "ModelConfig.version_policy": "Which version folders the server loads.",
    "ModelInput.name": "The tensor's name, as clients and ensemble steps refer to it.",
    "ModelInput.data_type": "The element type of the tensor.",
    "ModelInput.dims": (
        "The shape of one batch element; -1 marks a dimension of any size. The batch "
        "dimension is not written here."
    ),
    "ModelInput.optional": "Whether a request may leave this input out.",
    "ModelInput.reshape": "The shape the model itself sees, when it differs from `dims`.",
    "ModelOutput.name": "The tensor's name, as clients and ensemble steps refer to it.",
    "ModelOutput.data_type": "The element type of the tensor.",
    "ModelOutput.dims": (
        "The shape of one batch element; -1 marks a dimension of any size. The batch "
        "dimension is not written here."
    ),
    "ModelOutput.label_filename": (
        "A file in the model folder with one class label per line, for classification results."
    ),
    "ModelInstanceGroup.kind": "Where the instances run: GPU, CPU, or as the model decides.",
    "ModelInstanceGroup.count": "How many instances run on each device of the group.",
    "ModelInstanceGroup.gpus": "The GPUs the instances run on (default: every GPU).",
    "ModelDynamicBatching.max_queue_delay_microseconds": (
        "How long a request may wait for others to join its batch."
    ),
    "ModelDynamicBatching.preferred_batch_size": "Batch sizes the server tries to form first.",
    "ModelEnsembling.step": "One model run by the ensemble, with its tensor mappings.",
    "ModelEnsembling.Step.model_name": "The model this step runs.",
    "ModelEnsembling.Step.model_version": "The version it runs; -1 means the newest.",
    "ModelEnsembling.Step.input_map": (
        "The step model's inputs (keys) and the ensemble tensors fed to them (values)."
    ),
    "ModelEnsembling.Step.output_map": (
        "The step model's outputs (keys) and the ensemble tensors they become (values)."
    ),
}


def description(full_name: str) -> str | None:
    """The description of a field by its full name (``inference.ModelConfig.name``)."""
    return DESCRIPTIONS.get(full_name.removeprefix("inference."))
