"""Smoke pack: what a real tritonserver said when the smoke stage loaded the model.

These rules are reported by the smoke stage (``tritonlint smoke``, ``tritonlint check
--smoke``), never by static lint: each finding carries the server's own message, mapped back
to the model's config.pbtxt, and names the static rule that predicts it where one does.
"""

from tritonlint.diagnostics import Severity
from tritonlint.rules.base import declare
from tritonlint.stage_rules import StageRule

SMOKE_LOAD_FAILED = declare(
    "TL030",
    StageRule.SMOKE_LOAD_FAILED,
    Severity.ERROR,
    summary="tritonserver refused to load the model",
    explanation="""
    The smoke stage started a real tritonserver on the repository and asked it to load the
    model; the server refused it. The message is the server's own (for errors found while the
    server reads config.pbtxt it comes from the server log, with the parser's line and column),
    placed at the line of config.pbtxt it is about, and names the tritonlint rule it is about:
    the one static lint reported for the model where it did, else the rule that predicts that
    message. A refusal that no rule predicts is a gap in static lint: the server is the judge.
    An error in a python model's own code (a syntax error, an exception in `initialize()`) is
    placed at its line in `model.py`, or in the module of the model folder it happened in.
    """,
    bad="""
    $ tritonlint smoke model_repository
    name: "resnet"
    platform: "onnxruntime_onnx"
    max_batch_size: -1      # tritonserver: 'max_batch_size' must be non-negative value
    """,
    good="""
    $ tritonlint smoke model_repository
    name: "resnet"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    """,
)

SMOKE_BACKEND_MISSING = declare(
    "TL031",
    StageRule.SMOKE_BACKEND_MISSING,
    Severity.WARNING,
    summary="the server that ran the smoke stage lacks the model's backend",
    explanation="""
    The server has no library for the backend the model needs (for instance the embedded
    Triton server ships only the python backend, and a CPU-only container has no TensorRT).
    That says nothing about the config itself, so it is a warning, and the model counts as not
    loaded. A stand-in backend takes its place by default with the embedded server, and with
    `--stub-missing-backends` with any other: the server then validates the whole config
    (inputs, outputs, batching, instance groups, warmup ...) but not the model file's contents.
    This finding comes from a server chosen with `--server`, `--docker` or on PATH, or with
    `--no-stub-missing-backends`. A backend name that no Triton release ships may be a typo
    (TL306 unknown-backend).
    """,
    bad="""
    $ tritonlint smoke --no-stub-missing-backends model_repository
    name: "resnet"
    backend: "onnxruntime"  # the embedded server has only the python backend
    """,
    good="""
    $ tritonlint smoke --stub-missing-backends model_repository   # or a server with ONNX Runtime
    name: "resnet"
    backend: "onnxruntime"
    """,
)

SMOKE_NEEDS_GPU = declare(
    "TL032",
    StageRule.SMOKE_NEEDS_GPU,
    Severity.WARNING,
    summary="the model asks for a GPU and the smoke stage ran without one",
    explanation="""
    The model has a `KIND_GPU` instance group (or no instance group and a backend that only
    runs on GPUs) and the server saw no GPU. The config is not wrong for that. On a machine
    without a GPU the smoke stage rewrites `KIND_GPU` to `KIND_CPU` (and blanks `gpus:` lists)
    in the temporary copy the server loads, so that the rest of the config is still validated,
    and says so; this finding comes when `--gpus` asked for the config as written, or when the
    server has no GPU although the machine has one. Run the smoke stage on a machine with a
    GPU, or pass `--cpu-only`. The model counts as not loaded.
    """,
    bad="""
    $ tritonlint smoke --gpus model_repository   # on a machine without a GPU
    name: "resnet"
    platform: "onnxruntime_onnx"
    instance_group [ { kind: KIND_GPU } ]
    """,
    good="""
    $ tritonlint smoke --cpu-only model_repository   # or --gpus on a machine with a GPU
    name: "resnet"
    platform: "onnxruntime_onnx"
    instance_group [ { kind: KIND_GPU } ]
    """,
)

SMOKE_LOAD_TIMEOUT = declare(
    "TL033",
    StageRule.SMOKE_LOAD_TIMEOUT,
    Severity.ERROR,
    summary="the server did not finish loading the model in time",
    explanation="""
    The load took longer than `--timeout` (per model) or than what was left of
    `--total-timeout` (the whole run). The server was stopped and started again for the models
    that follow. A python model whose `initialize()` blocks, a large model on a slow disk, or a
    backend that waits for a device can cause it; raise the timeout if the model is only slow.
    """,
    bad="""
    $ tritonlint smoke --timeout 10 model_repository
    model_repository/tokenizer/config.pbtxt:
      name: "tokenizer"
      backend: "python"
    model_repository/tokenizer/1/model.py:
      import time


      class TritonPythonModel:
          def initialize(self, args):
              time.sleep(3600)  # waits for a download that never ends

          def execute(self, requests):
              return []
    """,
    good="""
    $ tritonlint smoke --timeout 10 model_repository
    model_repository/tokenizer/config.pbtxt:
      name: "tokenizer"
      backend: "python"
    model_repository/tokenizer/1/model.py:
      import time


      class TritonPythonModel:
          def initialize(self, args):
              time.sleep(1)  # a second's work, well within --timeout

          def execute(self, requests):
              return []
    """,
)

SMOKE_SERVER_CRASHED = declare(
    "TL034",
    StageRule.SMOKE_SERVER_CRASHED,
    Severity.ERROR,
    summary="the server died while loading the model",
    explanation="""
    The tritonserver process exited while it loaded the model, and again when the load was
    tried once more on a fresh server. The server's log tail is in the message. A backend that
    crashes the process (a segmentation fault in a custom op or a TensorRT plugin), or a python
    model that kills it, causes it; the other models are still loaded on a restarted server. A
    python model runs in a process of its own: one that only ends that process (`os._exit`) is
    refused instead (TL030, `Stub process ... is not healthy`).
    """,
    bad="""
    $ tritonlint smoke model_repository
    model_repository/tokenizer/config.pbtxt:
      name: "tokenizer"
      backend: "python"
    model_repository/tokenizer/1/model.py:
      import os
      import signal


      class TritonPythonModel:
          def initialize(self, args):
              os.kill(os.getppid(), signal.SIGKILL)  # the server dies, as in a native crash

          def execute(self, requests):
              return []
    """,
    good="""
    $ tritonlint smoke model_repository
    model_repository/tokenizer/config.pbtxt:
      name: "tokenizer"
      backend: "python"
    model_repository/tokenizer/1/model.py:
      class TritonPythonModel:
          def initialize(self, args):
              self.max_length = 512

          def execute(self, requests):
              return []
    """,
)

SMOKE_INFER_FAILED = declare(
    "TL035",
    StageRule.SMOKE_INFER_FAILED,
    Severity.ERROR,
    summary="the loaded model could not answer one inference request",
    explanation="""
    After a model loads, the smoke stage sends it one inference request made from its config
    (zeros of each input's data type and `dims`, `-1` as 1, a batch of 1 when `max_batch_size`
    is above 0; the first `model_warmup` sample where the config has one) and the server
    answered with an error, or not within `--infer-timeout`. An exception in a python model's
    `execute()` is placed at its line in `model.py`; other errors (a framework refusing the
    tensors, a step of an ensemble failing) at the model's config. The message is the server's.
    A model whose request cannot be made (no dims, a shape tensor, a decoupled model whose
    inputs have no JSON form) is reported as not inferred, never as this finding.
    `--no-infer` sends no request.
    """,
    bad="""
    $ tritonlint smoke model_repository
    model_repository/tokenizer/config.pbtxt:
      name: "tokenizer"
      backend: "python"
      max_batch_size: 8
      input [ { name: "TEXT", data_type: TYPE_STRING, dims: [ 1 ] } ]
      output [ { name: "IDS", data_type: TYPE_INT64, dims: [ -1 ] } ]
    model_repository/tokenizer/1/model.py:
      class TritonPythonModel:
          def execute(self, requests):
              raise ValueError("no vocabulary loaded")
    """,
    good="""
    $ tritonlint smoke model_repository
    model_repository/tokenizer/config.pbtxt:
      name: "tokenizer"
      backend: "python"
      max_batch_size: 8
      input [ { name: "TEXT", data_type: TYPE_STRING, dims: [ 1 ] } ]
      output [ { name: "IDS", data_type: TYPE_INT64, dims: [ -1 ] } ]
    model_repository/tokenizer/1/model.py:
      import numpy as np
      import triton_python_backend_utils as pb_utils


      class TritonPythonModel:
          def execute(self, requests):
              ids = pb_utils.Tensor("IDS", np.zeros((1, 4), dtype=np.int64))
              return [pb_utils.InferenceResponse([ids]) for _ in requests]
    """,
)

SMOKE_OUTPUT_MISMATCH = declare(
    "TL036",
    StageRule.SMOKE_OUTPUT_MISMATCH,
    Severity.ERROR,
    summary="an output came back with another data type, shape or size than configured",
    explanation="""
    The model answered the smoke stage's request, but an output is not what its `output`
    entry says: another data type, a shape that does not match `dims` (`-1` matches any size;
    behind the batch dimension when `max_batch_size` is above 0), or data of another size than
    the shape holds. Clients size their buffers by the config, and the python backend does not
    check what `execute()` returns against it (a float64 array for `TYPE_FP32` comes back as
    FP64). Fix the config (a dynamic dimension is `-1`) or the model. Placed at the output's
    entry in config.pbtxt, with what came back.
    """,
    bad="""
    $ tritonlint smoke model_repository
    model_repository/classifier/config.pbtxt:
      name: "classifier"
      backend: "python"
      max_batch_size: 8
      input [ { name: "IMAGE", data_type: TYPE_FP32, dims: [ 3 ] } ]
      output [ { name: "SCORES", data_type: TYPE_FP32, dims: [ 1000 ] } ]
    model_repository/classifier/1/model.py:
      import numpy as np
      import triton_python_backend_utils as pb_utils


      class TritonPythonModel:
          def execute(self, requests):
              scores = pb_utils.Tensor("SCORES", np.zeros((1, 1001), dtype=np.float32))
              return [pb_utils.InferenceResponse([scores]) for _ in requests]
    """,
    good="""
    $ tritonlint smoke model_repository
    model_repository/classifier/config.pbtxt:
      name: "classifier"
      backend: "python"
      max_batch_size: 8
      input [ { name: "IMAGE", data_type: TYPE_FP32, dims: [ 3 ] } ]
      output [ { name: "SCORES", data_type: TYPE_FP32, dims: [ 1001 ] } ]
    model_repository/classifier/1/model.py:
      import numpy as np
      import triton_python_backend_utils as pb_utils


      class TritonPythonModel:
          def execute(self, requests):
              scores = pb_utils.Tensor("SCORES", np.zeros((1, 1001), dtype=np.float32))
              return [pb_utils.InferenceResponse([scores]) for _ in requests]
    """,
)

SMOKE_OUTPUT_MISSING = declare(
    "TL037",
    StageRule.SMOKE_OUTPUT_MISSING,
    Severity.ERROR,
    summary="a configured output did not come back from the model",
    explanation="""
    The smoke stage asked for every output of the config and one did not come back. The
    python backend silently drops a tensor whose name the config does not know, so a tensor
    misnamed in `execute()` reaches no client, and the answer is still a success (HTTP 200).
    Placed at the output's entry in config.pbtxt, with the outputs that did come back.
    """,
    bad="""
    $ tritonlint smoke model_repository
    model_repository/classifier/config.pbtxt:
      name: "classifier"
      backend: "python"
      max_batch_size: 8
      input [ { name: "IMAGE", data_type: TYPE_FP32, dims: [ 3 ] } ]
      output [ { name: "SCORES", data_type: TYPE_FP32, dims: [ 10 ] } ]
    model_repository/classifier/1/model.py:
      import numpy as np
      import triton_python_backend_utils as pb_utils


      class TritonPythonModel:
          def execute(self, requests):
              scores = pb_utils.Tensor("SCORE", np.zeros((1, 10), dtype=np.float32))
              return [pb_utils.InferenceResponse([scores]) for _ in requests]
    """,
    good="""
    $ tritonlint smoke model_repository
    model_repository/classifier/config.pbtxt:
      name: "classifier"
      backend: "python"
      max_batch_size: 8
      input [ { name: "IMAGE", data_type: TYPE_FP32, dims: [ 3 ] } ]
      output [ { name: "SCORES", data_type: TYPE_FP32, dims: [ 10 ] } ]
    model_repository/classifier/1/model.py:
      import numpy as np
      import triton_python_backend_utils as pb_utils


      class TritonPythonModel:
          def execute(self, requests):
              scores = pb_utils.Tensor("SCORES", np.zeros((1, 10), dtype=np.float32))
              return [pb_utils.InferenceResponse([scores]) for _ in requests]
    """,
)
