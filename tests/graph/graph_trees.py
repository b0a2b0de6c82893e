"""The repositories the graph tests draw: the fixtures, and small ones of their own."""

from __future__ import annotations

from helpers import Files

#: The fixtures drawn, by name: the example repository and each broken ensemble.
CASES = {
    "model_repository": "fixtures/model_repository",
    "ensemble_shape_mismatch": "fixtures/broken/ensemble_shape_mismatch",
    "ensemble_missing_model": "fixtures/broken/ensemble_missing_model",
    "ensemble_tensor_unused": "fixtures/broken/ensemble_tensor_unused",
    "ensemble_output_not_produced": "fixtures/broken/ensemble_output_not_produced",
}

MODEL_PY = """
import triton_python_backend_utils as pb_utils


class TritonPythonModel:
    def execute(self, requests):
        return [pb_utils.InferenceResponse([]) for _ in requests]
"""


def python_model(name: str, inputs: str, outputs: str) -> Files:
    """A python model with one input and one output (``NAME TYPE dims``)."""
    input_name, input_type, input_dims = inputs.split(" ", 2)
    output_name, output_type, output_dims = outputs.split(" ", 2)
    return {
        f"{name}/config.pbtxt": f"""
            backend: "python"
            max_batch_size: 4
            input [ {{ name: "{input_name}" data_type: {input_type} dims: {input_dims} }} ]
            output [ {{ name: "{output_name}" data_type: {output_type} dims: {output_dims} }} ]
            instance_group [ {{ kind: KIND_CPU }} ]
            """,
        f"{name}/1/model.py": MODEL_PY,
    }


#: ``ocr`` runs the ensemble ``detect_pipeline`` (which runs ``detect``), then ``read``;
#: ``spare`` is in no ensemble.
NESTED: Files = {
    "ocr/config.pbtxt": """
        platform: "ensemble"
        max_batch_size: 4
        input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
        output [ { name: "TEXT" data_type: TYPE_STRING dims: [ -1 ] } ]
        ensemble_scheduling {
          step [
            { model_name: "detect_pipeline" model_version: -1
              input_map { key: "IMAGE" value: "IMAGE" }
              output_map { key: "BOXES" value: "boxes" } },
            { model_name: "read" model_version: -1
              input_map { key: "BOXES" value: "boxes" }
              output_map { key: "TEXT" value: "TEXT" } }
          ]
        }
        """,
    "ocr/1": None,
    "detect_pipeline/config.pbtxt": """
        platform: "ensemble"
        max_batch_size: 4
        input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
        output [ { name: "BOXES" data_type: TYPE_FP32 dims: [ -1, 4 ] } ]
        ensemble_scheduling {
          step [
            { model_name: "detect" model_version: -1
              input_map { key: "IMAGE" value: "IMAGE" }
              output_map { key: "BOXES" value: "BOXES" } }
          ]
        }
        """,
    "detect_pipeline/1": None,
    **python_model("detect", "IMAGE TYPE_UINT8 [ -1, -1, 3 ]", "BOXES TYPE_FP32 [ -1, 4 ]"),
    **python_model("read", "BOXES TYPE_FP32 [ -1, 4 ]", "TEXT TYPE_STRING [ -1 ]"),
    **python_model("spare", "X TYPE_FP32 [ 1 ]", "Y TYPE_FP32 [ 1 ]"),
}
