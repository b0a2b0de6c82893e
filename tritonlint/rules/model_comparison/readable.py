"""A model file that cannot be read as its format."""

from __future__ import annotations

from collections.abc import Iterator

from tritonlint.diagnostics import Severity
from tritonlint.modelfiles.signature import ModelFileProblem
from tritonlint.rules.base import rule
from tritonlint.rules.context import Finding, ModelContext


@rule(
    "TL901",
    "model-file-unreadable",
    Severity.ERROR,
    summary="a model file that is not a readable model of its format",
    explanation="""
    The model file of the newest version is read as its backend's format (ONNX, TorchScript,
    SavedModel, OpenVINO IR, a Python model) without running anything from it: a file that
    is truncated, corrupt, of another format (a PyTorch checkpoint saved with `torch.save`
    where TorchScript is loaded, a TensorRT plan named model.onnx), a Git LFS pointer left
    by a clone without `git lfs pull`, or a SavedModel without the signature the backend
    uses, fails the backend's load. The message says what the file is instead. A named
    pipe, a device or a socket in the model file's place (or a symbolic link to one) is
    reported without being opened. A file past a limit of the reader (a TorchScript code
    file over 4 MiB once inflated, a model.py of more than 300,000 words and symbols, an
    expression nested more than 100 levels deep) is reported too, as one it does not read.
    An empty file is a placeholder (a repository laid out before its models are copied in)
    and is not reported; the other model-file checks skip a model whose file is reported
    here.
    """,
    bad="""
    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [ { name: "pixels" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
      output [ { name: "logits" data_type: TYPE_FP32 dims: [ 1000 ] } ]
      dynamic_batching { }
    model_repository/resnet50/1/model.onnx:  # what a clone without `git lfs pull` holds
      version https://git-lfs.github.com/spec/v1
      oid sha256:4c1f5f7bd4b8ee0f7eb9b2a1de2d6e1e23bc86c6b4f8e6ddd1c5e1bbd1c4b0aa
      size 102442450
    """,
    good="""
    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      input [ { name: "pixels" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
      output [ { name: "logits" data_type: TYPE_FP32 dims: [ 1000 ] } ]
      dynamic_batching { }
    model_repository/resnet50/1/model.onnx: <ONNX>
      input "pixels" FP32 [N, 3, 224, 224]
      output "logits" FP32 [N, 1000]
    """,
    backend_check=True,
)
def model_file_unreadable(ctx: ModelContext) -> Iterator[Finding]:
    found = ctx.model_file
    if found is not None and isinstance(found.read, ModelFileProblem):
        yield ctx.about(found.path, found.read.message)
