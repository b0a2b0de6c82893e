"""The fix of every rule that offers one, applied by `tritonlint check --fix`: the exact bytes of
the fixed file, and a check of it again that no longer finds what was fixed.

Each case is a small repository (files by path), the config the fix changes, and that
config after the fix; a fix that moves files (the config unchanged) lists the moves too.
"""

from __future__ import annotations

from typing import NamedTuple

from helpers import Files
from model_notation import onnx_model


class FixCase(NamedTuple):
    files: Files
    #: The config the fix changes, relative to the repository.
    config: str
    fixed: str
    #: Whether the fix is unsafe (applied only with --unsafe-fixes).
    unsafe: bool = False
    #: The files the fix moves: from, to (relative to the repository). Its finding is about
    #: the config's model folder.
    moved: tuple[tuple[str, str], ...] = ()


CASES: dict[str, FixCase] = {
    "TL010": FixCase(
        {
            "pipeline/": None,
            "pipeline/1/": None,
            "pipeline/config.pbtxt": """\
name: "pipeline"
platform: "ensemble"
max_batch_size: 8
input [ { name: "TEXT" data_type: TYPE_STRING dims: [ 1 ] } ]
output [ { name: "EMBEDDING" data_type: TYPE_FP32 dims: [ 768 ] } ]
ensemble_scheduling {
  step [
    {
      model_name: "tokenizer"
      model_version: -1
      input_map { key: "TEXT" value: "TEXT" }
      output_map {
        key: "input_ids"  <- 토크나이저 모델의 출력 이름과 같아야 합니다
        value: "input_ids"
      }
    },
    {
      model_name: "embedding"
      model_version: -1
      input_map { key: "input_ids" value: "input_ids" }  <- must match the tokenizer's output
      output_map { key: "embedding" value: "EMBEDDING" }
    }
  ]
}
""",
        },
        "pipeline/config.pbtxt",
        """\
name: "pipeline"
platform: "ensemble"
max_batch_size: 8
input [ { name: "TEXT" data_type: TYPE_STRING dims: [ 1 ] } ]
output [ { name: "EMBEDDING" data_type: TYPE_FP32 dims: [ 768 ] } ]
ensemble_scheduling {
  step [
    {
      model_name: "tokenizer"
      model_version: -1
      input_map { key: "TEXT" value: "TEXT" }
      output_map {
        key: "input_ids"  # <- 토크나이저 모델의 출력 이름과 같아야 합니다
        value: "input_ids"
      }
    },
    {
      model_name: "embedding"
      model_version: -1
      input_map { key: "input_ids" value: "input_ids" }  # <- must match the tokenizer's output
      output_map { key: "embedding" value: "EMBEDDING" }
    }
  ]
}
""",
    ),
    "TL020": FixCase(
        {
            "m/": None,
            "m/1/": None,
            "m/1/model.onnx": "",
            "m/config.pbtxt": """\
name: "other"  # tritonlint: disable=TL409
platform: "onnxruntime_onnx"
max_batch_size: 8
input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]
output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]
dynamic_batching { }
input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]  # tritonlint: disable=TL409
input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]
""",
        },
        "m/config.pbtxt",
        """\
name: "other"
platform: "onnxruntime_onnx"
max_batch_size: 8
input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]
output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]
dynamic_batching { }
input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]  # tritonlint: disable=TL409
input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]
""",
    ),
    "TL101": FixCase(
        {
            "clf/": None,
            "clf/1/": None,
            "clf/1/model.onnx": "",
            "clf/config.pbtxt": """\
platform: "onnxruntime_onnx"
max_batch_size: 8
input [ { name: "x" data_type: TYPE_FP32 dims: [ 3, 4, 4 ] } ]
output [ { name: "y" data_type: TYPE_FP32 dims: [ 10 ] } ]
dynamic_batching { }
""",
            "pipe/": None,
            "pipe/1/": None,
            "pipe/config.pbtxt": """\
platform: "ensemble"
max_batch_size: 8
inputs [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] },
         { name: "HINT" data_type: TYPE_FP32 dims: [ 1 ] } ]
output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 10 ] } ]
ensemble_scheduling {
  step [
    {
      model_name: "pre"
      model_version: -1
      input_map { key: "IMAGE" value: "IMAGE" }
      input_map { key: "HINT" value: "HINT" }
      output_map { key: "PIXELS" value: "pixels" }
    },
    {
      model_name: "clf"
      model_version: -1
      input_map { key: "x" value: "pixels" }
      output_map { key: "y" value: "PROBS" }
    }
  ]
}
""",
            "pre/": None,
            "pre/1/": None,
            "pre/1/model.py": "",
            "pre/config.pbtxt": """\
backend: "python"
max_batch_size: 8
input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] }, { name: "HINT" data_type: TYPE_FP32 dims: [ 1 ] } ]
output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 4, 4 ] } ]
dynamic_batching { }
""",
        },
        "pipe/config.pbtxt",
        """\
platform: "ensemble"
max_batch_size: 8
input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] },
         { name: "HINT" data_type: TYPE_FP32 dims: [ 1 ] } ]
output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 10 ] } ]
ensemble_scheduling {
  step [
    {
      model_name: "pre"
      model_version: -1
      input_map { key: "IMAGE" value: "IMAGE" }
      input_map { key: "HINT" value: "HINT" }
      output_map { key: "PIXELS" value: "pixels" }
    },
    {
      model_name: "clf"
      model_version: -1
      input_map { key: "x" value: "pixels" }
      output_map { key: "y" value: "PROBS" }
    }
  ]
}
""",
        unsafe=True,
    ),
    "TL102": FixCase(
        {
            "m/": None,
            "m/1/": None,
            "m/1/model.onnx": "",
            "m/config.pbtxt": """\
platform: "onnxruntime_onnx"
input [ { name: "I" data_type: TYPE_FP32 dims: [ 16 ] } ]
output [ { name: "O" data_type: TYPE_FP32 dims: [ 16 ] } ]
parameters { key: "model_type" value: "Transformer" }
""",
        },
        "m/config.pbtxt",
        """\
platform: "onnxruntime_onnx"
input [ { name: "I" data_type: TYPE_FP32 dims: [ 16 ] } ]
output [ { name: "O" data_type: TYPE_FP32 dims: [ 16 ] } ]
parameters { key: "model_type" value: { string_value: "Transformer" } }
""",
    ),
    "TL103": FixCase(
        {
            "m/": None,
            "m/1/": None,
            "m/1/model.onnx": "",
            "m/config.pbtxt": """\
platform: "onnxruntime_onnx"
max_batch_size: 8.0
input [ { name: "I" data_type: TYPE_FP32 dims: [ 16 ] } ]
output [ { name: "O" data_type: TYPE_FP32 dims: [ 16 ] } ]
""",
        },
        "m/config.pbtxt",
        """\
platform: "onnxruntime_onnx"
max_batch_size: 8
input [ { name: "I" data_type: TYPE_FP32 dims: [ 16 ] } ]
output [ { name: "O" data_type: TYPE_FP32 dims: [ 16 ] } ]
""",
    ),
    "TL105": FixCase(
        {
            "m/": None,
            "m/1/": None,
            "m/1/model.onnx": "",
            "m/config.pbtxt": """\
platform: "onnxruntime_onnx"
input [ { name: "I" data_type: TYPE_FLOAT32 dims: [ 16 ] } ]
output [ { name: "O" data_type: TYPE_FP32 dims: [ 16 ] } ]
""",
        },
        "m/config.pbtxt",
        """\
platform: "onnxruntime_onnx"
input [ { name: "I" data_type: TYPE_FP32 dims: [ 16 ] } ]
output [ { name: "O" data_type: TYPE_FP32 dims: [ 16 ] } ]
""",
        unsafe=True,
    ),
    "TL107": FixCase(
        {
            "m/": None,
            "m/1/": None,
            "m/1/model.onnx": "",
            "m/config.pbtxt": """\
platform: "onnxruntime_onnx"
max_batch_size: 8
input [ { name: "I" data_type: TYPE_FP32 dims: [ 16 ] } ]
output [ { name: "O" data_type: TYPE_FP32 dims: [ 16 ] } ]
max_batch_size: 8  # again
""",
        },
        "m/config.pbtxt",
        """\
platform: "onnxruntime_onnx"
max_batch_size: 8
input [ { name: "I" data_type: TYPE_FP32 dims: [ 16 ] } ]
output [ { name: "O" data_type: TYPE_FP32 dims: [ 16 ] } ]
""",
    ),
    "TL108": FixCase(
        {
            "m/": None,
            "m/1/": None,
            "m/1/model.onnx": "",
            "m/config.pbtxt": """\
platform: "onnxruntime_onnx"
max_batch_size: 0
input [ { name: "I" data_type: TYPE_FP32 dims: [ 16 ] } ]
output [ { name: "O" data_type: TYPE_FP32 dims: [ 16 ] } ]
max_batch_size: 8
""",
        },
        "m/config.pbtxt",
        """\
platform: "onnxruntime_onnx"
input [ { name: "I" data_type: TYPE_FP32 dims: [ 16 ] } ]
output [ { name: "O" data_type: TYPE_FP32 dims: [ 16 ] } ]
max_batch_size: 8
""",
    ),
    "TL201": FixCase(
        {
            "3d_unet/": None,
            "3d_unet/1/": None,
            "3d_unet/1/model.onnx": "",
            "3d_unet/config.pbtxt": """\
platform: "onnxruntime_onnx"
max_batch_size: 8
input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]
output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]
dynamic_batching { }
""",
            "resnet/": None,
            "resnet/1/": None,
            "resnet/1/model.onnx": "",
            "resnet/config.pbtxt": """\
name: "other"
platform: "onnxruntime_onnx"
max_batch_size: 8
input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]
output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]
dynamic_batching { }
""",
        },
        "resnet/config.pbtxt",
        """\
name: "resnet"
platform: "onnxruntime_onnx"
max_batch_size: 8
input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]
output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]
dynamic_batching { }
""",
    ),
    "TL212": FixCase(
        {
            "m/": None,
            "m/model.onnx": "",
            "m/config.pbtxt": """\
platform: "onnxruntime_onnx"
max_batch_size: 8
input [ { name: "I" data_type: TYPE_FP32 dims: [ 16 ] } ]
output [ { name: "O" data_type: TYPE_FP32 dims: [ 16 ] } ]
""",
        },
        "m/config.pbtxt",
        """\
platform: "onnxruntime_onnx"
max_batch_size: 8
input [ { name: "I" data_type: TYPE_FP32 dims: [ 16 ] } ]
output [ { name: "O" data_type: TYPE_FP32 dims: [ 16 ] } ]
""",
        unsafe=True,
        moved=(("m/model.onnx", "m/1/model.onnx"),),
    ),
    "TL301": FixCase(
        {
            "m/": None,
            "m/1/": None,
            "m/config.pbtxt": """\
platform: "python"
max_batch_size: 8
input [ { name: "I" data_type: TYPE_FP32 dims: [ 16 ] } ]
output [ { name: "O" data_type: TYPE_FP32 dims: [ 16 ] } ]
""",
        },
        "m/config.pbtxt",
        """\
backend: "python"
max_batch_size: 8
input [ { name: "I" data_type: TYPE_FP32 dims: [ 16 ] } ]
output [ { name: "O" data_type: TYPE_FP32 dims: [ 16 ] } ]
""",
    ),
    "TL302": FixCase(
        {
            "m/": None,
            "m/1/": None,
            "m/1/model.plan": "",
            "m/config.pbtxt": """\
backend: "tensorrt_plan"
max_batch_size: 8
input [ { name: "I" data_type: TYPE_FP32 dims: [ 16 ] } ]
output [ { name: "O" data_type: TYPE_FP32 dims: [ 16 ] } ]
""",
        },
        "m/config.pbtxt",
        """\
platform: "tensorrt_plan"
max_batch_size: 8
input [ { name: "I" data_type: TYPE_FP32 dims: [ 16 ] } ]
output [ { name: "O" data_type: TYPE_FP32 dims: [ 16 ] } ]
""",
    ),
    "TL303": FixCase(
        {
            "m/": None,
            "m/1/": None,
            "m/1/weights.bin": "",
            "m/config.pbtxt": """\
platform: "onnxruntime_onnxx"
max_batch_size: 8
input [ { name: "I" data_type: TYPE_FP32 dims: [ 16 ] } ]
output [ { name: "O" data_type: TYPE_FP32 dims: [ 16 ] } ]
""",
        },
        "m/config.pbtxt",
        """\
platform: "onnxruntime_onnx"
max_batch_size: 8
input [ { name: "I" data_type: TYPE_FP32 dims: [ 16 ] } ]
output [ { name: "O" data_type: TYPE_FP32 dims: [ 16 ] } ]
""",
        unsafe=True,
    ),
    "TL304": FixCase(
        {
            "m/": None,
            "m/1/": None,
            "m/1/model.onnx": "",
            "m/config.pbtxt": """\
platform: "onnx"
backend: "onnxruntime"
max_batch_size: 8
input [ { name: "I" data_type: TYPE_FP32 dims: [ 16 ] } ]
output [ { name: "O" data_type: TYPE_FP32 dims: [ 16 ] } ]
""",
        },
        "m/config.pbtxt",
        """\
platform: "onnxruntime_onnx"
backend: "onnxruntime"
max_batch_size: 8
input [ { name: "I" data_type: TYPE_FP32 dims: [ 16 ] } ]
output [ { name: "O" data_type: TYPE_FP32 dims: [ 16 ] } ]
""",
        unsafe=True,
    ),
    "TL305": FixCase(
        {
            "clf/": None,
            "clf/1/": None,
            "clf/1/model.onnx": "",
            "clf/config.pbtxt": """\
platform: "onnxruntime_onnx"
max_batch_size: 8
input [ { name: "x" data_type: TYPE_FP32 dims: [ 3, 4, 4 ] } ]
output [ { name: "y" data_type: TYPE_FP32 dims: [ 10 ] } ]
dynamic_batching { }
""",
            "pipe/": None,
            "pipe/1/": None,
            "pipe/config.pbtxt": """\
name: "pipe"
max_batch_size: 8
input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 10 ] } ]
ensemble_scheduling {
  step [
    {
      model_name: "pre"
      model_version: -1
      input_map { key: "IMAGE" value: "IMAGE" }
      output_map { key: "PIXELS" value: "pixels" }
    },
    {
      model_name: "clf"
      model_version: -1
      input_map { key: "x" value: "pixels" }
      output_map { key: "y" value: "PROBS" }
    }
  ]
}
""",
            "pre/": None,
            "pre/1/": None,
            "pre/1/model.py": "",
            "pre/config.pbtxt": """\
backend: "python"
max_batch_size: 8
input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 4, 4 ] } ]
dynamic_batching { }
""",
        },
        "pipe/config.pbtxt",
        """\
name: "pipe"
platform: "ensemble"
max_batch_size: 8
input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 10 ] } ]
ensemble_scheduling {
  step [
    {
      model_name: "pre"
      model_version: -1
      input_map { key: "IMAGE" value: "IMAGE" }
      output_map { key: "PIXELS" value: "pixels" }
    },
    {
      model_name: "clf"
      model_version: -1
      input_map { key: "x" value: "pixels" }
      output_map { key: "y" value: "PROBS" }
    }
  ]
}
""",
    ),
    "TL307": FixCase(
        {
            "m/": None,
            "m/1/": None,
            "m/1/model.py": "",
            "m/config.pbtxt": """\
backend: "python"
platform: "python"
max_batch_size: 8
input [ { name: "I" data_type: TYPE_FP32 dims: [ 16 ] } ]
output [ { name: "O" data_type: TYPE_FP32 dims: [ 16 ] } ]
""",
        },
        "m/config.pbtxt",
        """\
backend: "python"
max_batch_size: 8
input [ { name: "I" data_type: TYPE_FP32 dims: [ 16 ] } ]
output [ { name: "O" data_type: TYPE_FP32 dims: [ 16 ] } ]
""",
    ),
    "TL309": FixCase(
        {
            "m/": None,
            "m/1/": None,
            "m/1/model.onnx": "",
            "m/config.pbtxt": """\
backend: "onnx"
max_batch_size: 8
input [ { name: "I" data_type: TYPE_FP32 dims: [ 16 ] } ]
output [ { name: "O" data_type: TYPE_FP32 dims: [ 16 ] } ]
""",
        },
        "m/config.pbtxt",
        """\
backend: "onnxruntime"
max_batch_size: 8
input [ { name: "I" data_type: TYPE_FP32 dims: [ 16 ] } ]
output [ { name: "O" data_type: TYPE_FP32 dims: [ 16 ] } ]
""",
        unsafe=True,
    ),
    "TL702": FixCase(
        {
            "clf/": None,
            "clf/1/": None,
            "clf/1/model.onnx": "",
            "clf/config.pbtxt": """\
platform: "onnxruntime_onnx"
max_batch_size: 8
input [ { name: "x" data_type: TYPE_FP32 dims: [ 3, 4, 4 ] } ]
output [ { name: "y" data_type: TYPE_FP32 dims: [ 10 ] } ]
dynamic_batching { }
""",
            "pipe/": None,
            "pipe/1/": None,
            "pipe/config.pbtxt": """\
backend: "ensemble"
max_batch_size: 8
input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 10 ] } ]
ensemble_scheduling {
  step [
    {
      model_name: "pre"
      model_version: -1
      input_map { key: "IMAGE" value: "IMAGE" }
      output_map { key: "PIXELS" value: "pixels" }
    },
    {
      model_name: "clf"
      model_version: -1
      input_map { key: "x" value: "pixels" }
      output_map { key: "y" value: "PROBS" }
    }
  ]
}
""",
            "pre/": None,
            "pre/1/": None,
            "pre/1/model.py": "",
            "pre/config.pbtxt": """\
backend: "python"
max_batch_size: 8
input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 4, 4 ] } ]
dynamic_batching { }
""",
        },
        "pipe/config.pbtxt",
        """\
platform: "ensemble"
max_batch_size: 8
input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 10 ] } ]
ensemble_scheduling {
  step [
    {
      model_name: "pre"
      model_version: -1
      input_map { key: "IMAGE" value: "IMAGE" }
      output_map { key: "PIXELS" value: "pixels" }
    },
    {
      model_name: "clf"
      model_version: -1
      input_map { key: "x" value: "pixels" }
      output_map { key: "y" value: "PROBS" }
    }
  ]
}
""",
    ),
    "TL703": FixCase(
        {
            "clf/": None,
            "clf/1/": None,
            "clf/1/model.onnx": "",
            "clf/config.pbtxt": """\
platform: "onnxruntime_onnx"
max_batch_size: 8
input [ { name: "x" data_type: TYPE_FP32 dims: [ 3, 4, 4 ] } ]
output [ { name: "y" data_type: TYPE_FP32 dims: [ 10 ] } ]
dynamic_batching { }
""",
            "pipe/": None,
            "pipe/1/": None,
            "pipe/config.pbtxt": """\
platform: "ensemble"
backend: "python"
max_batch_size: 8
input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 10 ] } ]
ensemble_scheduling {
  step [
    {
      model_name: "pre"
      model_version: -1
      input_map { key: "IMAGE" value: "IMAGE" }
      output_map { key: "PIXELS" value: "pixels" }
    },
    {
      model_name: "clf"
      model_version: -1
      input_map { key: "x" value: "pixels" }
      output_map { key: "y" value: "PROBS" }
    }
  ]
}
""",
            "pre/": None,
            "pre/1/": None,
            "pre/1/model.py": "",
            "pre/config.pbtxt": """\
backend: "python"
max_batch_size: 8
input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 4, 4 ] } ]
dynamic_batching { }
""",
        },
        "pipe/config.pbtxt",
        """\
platform: "ensemble"
max_batch_size: 8
input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 10 ] } ]
ensemble_scheduling {
  step [
    {
      model_name: "pre"
      model_version: -1
      input_map { key: "IMAGE" value: "IMAGE" }
      output_map { key: "PIXELS" value: "pixels" }
    },
    {
      model_name: "clf"
      model_version: -1
      input_map { key: "x" value: "pixels" }
      output_map { key: "y" value: "PROBS" }
    }
  ]
}
""",
    ),
    "TL704": FixCase(
        {
            "clf/": None,
            "clf/1/": None,
            "clf/1/model.onnx": "",
            "clf/config.pbtxt": """\
platform: "onnxruntime_onnx"
max_batch_size: 8
input [ { name: "x" data_type: TYPE_FP32 dims: [ 3, 4, 4 ] } ]
output [ { name: "y" data_type: TYPE_FP32 dims: [ 10 ] } ]
dynamic_batching { }
""",
            "pipe/": None,
            "pipe/1/": None,
            "pipe/config.pbtxt": """\
platform: "ensemble"
max_batch_size: 8
input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 10 ] } ]
ensemble_scheduling {
  step [
    {
      model_name: "pre"
      model_version: -1
      input_map { key: "IMAGE" value: "IMAGE" }
      output_map { key: "PIXELS" value: "pixels" }
    },
    {
      model_name: "clf"
      model_version: -1
      input_map { key: "x" value: "pixels" }
      output_map { key: "y" value: "PROBS" }
    }
  ]
}
instance_group [ { kind: KIND_CPU count: 2 } ]
""",
            "pre/": None,
            "pre/1/": None,
            "pre/1/model.py": "",
            "pre/config.pbtxt": """\
backend: "python"
max_batch_size: 8
input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 4, 4 ] } ]
dynamic_batching { }
""",
        },
        "pipe/config.pbtxt",
        """\
platform: "ensemble"
max_batch_size: 8
input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 10 ] } ]
ensemble_scheduling {
  step [
    {
      model_name: "pre"
      model_version: -1
      input_map { key: "IMAGE" value: "IMAGE" }
      output_map { key: "PIXELS" value: "pixels" }
    },
    {
      model_name: "clf"
      model_version: -1
      input_map { key: "x" value: "pixels" }
      output_map { key: "y" value: "PROBS" }
    }
  ]
}
""",
    ),
    "TL705": FixCase(
        {
            "clf/": None,
            "clf/1/": None,
            "clf/1/model.onnx": "",
            "clf/config.pbtxt": """\
platform: "onnxruntime_onnx"
max_batch_size: 8
input [ { name: "x" data_type: TYPE_FP32 dims: [ 3, 4, 4 ] } ]
output [ { name: "y" data_type: TYPE_FP32 dims: [ 10 ] } ]
dynamic_batching { }
""",
            "pipe/": None,
            "pipe/1/": None,
            "pipe/config.pbtxt": """\
platform: "ensemble"
max_batch_size: 8
input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 10 ] } ]
ensemble_scheduling {
  step [
    {
      model_name: "pre"
      model_version: -1
      input_map { key: "IMAGE" value: "IMAGE" }
      output_map { key: "PIXELS" value: "pixels" }
    },
    {
      model_name: "clf"
      model_version: -1
      input_map { key: "x" value: "pixels" }
      output_map { key: "y" value: "PROBS" }
    }
  ]
}
optimization { input_pinned_memory { enable: true } }
""",
            "pre/": None,
            "pre/1/": None,
            "pre/1/model.py": "",
            "pre/config.pbtxt": """\
backend: "python"
max_batch_size: 8
input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 4, 4 ] } ]
dynamic_batching { }
""",
        },
        "pipe/config.pbtxt",
        """\
platform: "ensemble"
max_batch_size: 8
input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 10 ] } ]
ensemble_scheduling {
  step [
    {
      model_name: "pre"
      model_version: -1
      input_map { key: "IMAGE" value: "IMAGE" }
      output_map { key: "PIXELS" value: "pixels" }
    },
    {
      model_name: "clf"
      model_version: -1
      input_map { key: "x" value: "pixels" }
      output_map { key: "y" value: "PROBS" }
    }
  ]
}
""",
    ),
    "TL706": FixCase(
        {
            "clf/": None,
            "clf/1/": None,
            "clf/1/model.onnx": "",
            "clf/config.pbtxt": """\
platform: "onnxruntime_onnx"
max_batch_size: 8
input [ { name: "x" data_type: TYPE_FP32 dims: [ 3, 4, 4 ] } ]
output [ { name: "y" data_type: TYPE_FP32 dims: [ 10 ] } ]
dynamic_batching { }
""",
            "pipe/": None,
            "pipe/1/": None,
            "pipe/config.pbtxt": """\
platform: "ensemble"
max_batch_size: 8
input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 10 ] } ]
ensemble_scheduling {
  step [
    {
      model_name: "pre"
      model_version: -1
      input_map { key: "IMAGE" value: "IMAGE" }
      output_map { key: "PIXELS" value: "pixels" }
    },
    {
      model_name: "clf"
      model_version: -1
      input_map { key: "x" value: "pixels" }
      output_map { key: "y" value: "PROBS" }
    }
  ]
}
model_warmup [ { name: "w" batch_size: 1 inputs { key: "IMAGE" value { data_type: TYPE_UINT8 dims: [ 4, 4, 3 ] zero_data: true } } } ]
""",
            "pre/": None,
            "pre/1/": None,
            "pre/1/model.py": "",
            "pre/config.pbtxt": """\
backend: "python"
max_batch_size: 8
input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 4, 4 ] } ]
dynamic_batching { }
""",
        },
        "pipe/config.pbtxt",
        """\
platform: "ensemble"
max_batch_size: 8
input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 10 ] } ]
ensemble_scheduling {
  step [
    {
      model_name: "pre"
      model_version: -1
      input_map { key: "IMAGE" value: "IMAGE" }
      output_map { key: "PIXELS" value: "pixels" }
    },
    {
      model_name: "clf"
      model_version: -1
      input_map { key: "x" value: "pixels" }
      output_map { key: "y" value: "PROBS" }
    }
  ]
}
""",
    ),
    "TL717": FixCase(
        {
            "clf/": None,
            "clf/1/": None,
            "clf/1/model.onnx": "",
            "clf/config.pbtxt": """\
platform: "onnxruntime_onnx"
max_batch_size: 8
input [ { name: "x" data_type: TYPE_FP32 dims: [ 3, 4, 4 ] } ]
output [ { name: "y" data_type: TYPE_FP32 dims: [ 10 ] } ]
dynamic_batching { }
""",
            "pipe/": None,
            "pipe/1/": None,
            "pipe/config.pbtxt": """\
platform: "ensemble"
max_batch_size: 8
input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 10 ] } ]
ensemble_scheduling {
  step [
    {
      model_name: "pre"
      model_version: -1
      input_map { key: "IMAGE" value: "IMAGE" }
      output_map { key: "PIXELS" value: "pixels" }
    },
    {
      model_name: "clf"
      input_map { key: "x" value: "pixels" }
      output_map { key: "y" value: "PROBS" }
    }
  ]
}
""",
            "pre/": None,
            "pre/1/": None,
            "pre/1/model.py": "",
            "pre/config.pbtxt": """\
backend: "python"
max_batch_size: 8
input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 4, 4 ] } ]
dynamic_batching { }
""",
        },
        "pipe/config.pbtxt",
        """\
platform: "ensemble"
max_batch_size: 8
input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 10 ] } ]
ensemble_scheduling {
  step [
    {
      model_name: "pre"
      model_version: -1
      input_map { key: "IMAGE" value: "IMAGE" }
      output_map { key: "PIXELS" value: "pixels" }
    },
    {
      model_name: "clf"
      model_version: -1
      input_map { key: "x" value: "pixels" }
      output_map { key: "y" value: "PROBS" }
    }
  ]
}
""",
    ),
    "TL719": FixCase(
        {
            "clf/": None,
            "clf/1/": None,
            "clf/1/model.onnx": "",
            "clf/config.pbtxt": """\
platform: "onnxruntime_onnx"
max_batch_size: 8
input [ { name: "x" data_type: TYPE_FP32 dims: [ 3, 4, 4 ] } ]
output [ { name: "y" data_type: TYPE_FP32 dims: [ 10 ] } ]
dynamic_batching { }
""",
            "pipe/": None,
            "pipe/1/": None,
            "pipe/config.pbtxt": """\
platform: "ensemble"
max_batch_size: 8
input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 10 ] } ]
ensemble_scheduling {
  step [
    {
      model_name: "pre"
      model_version: -1
      input_map { key: "IMAGE" value: "IMAGE" }
      output_map { key: "PIXELS" value: "pixels" }
    },
    {
      model_name: "clf"
      input_map { key: "x" value: "pixels" }
      output_map { key: "y" value: "PROBS" }
    }
  ]
}
""",
            "pre/": None,
            "pre/1/": None,
            "pre/1/model.py": "",
            "pre/config.pbtxt": """\
backend: "python"
max_batch_size: 8
input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
output [ { name: "PIXELS" data_type: TYPE_FP32 dims: [ 3, 4, 4 ] } ]
dynamic_batching { }
""",
        },
        "pipe/config.pbtxt",
        """\
platform: "ensemble"
max_batch_size: 8
input [ { name: "IMAGE" data_type: TYPE_UINT8 dims: [ -1, -1, 3 ] } ]
output [ { name: "PROBS" data_type: TYPE_FP32 dims: [ 10 ] } ]
ensemble_scheduling {
  step [
    {
      model_name: "pre"
      model_version: -1
      input_map { key: "IMAGE" value: "IMAGE" }
      output_map { key: "PIXELS" value: "pixels" }
    },
    {
      model_name: "clf"
      model_version: -1
      input_map { key: "x" value: "pixels" }
      output_map { key: "y" value: "PROBS" }
    }
  ]
}
""",
        unsafe=True,
    ),
    "TL902": FixCase(
        {
            "m/1/model.onnx": onnx_model(
                'input "pixels" FP32 [N, 3, 8, 8]\noutput "logits" FP32 [N, 10]'
            ),
            "m/config.pbtxt": """\
platform: "onnxruntime_onnx"
max_batch_size: 8
input [ { name: "pixel" data_type: TYPE_FP32 dims: [ 3, 8, 8 ] } ]
output [ { name: "logits" data_type: TYPE_FP32 dims: [ 10 ] } ]
dynamic_batching { }
""",
        },
        "m/config.pbtxt",
        """\
platform: "onnxruntime_onnx"
max_batch_size: 8
input [ { name: "pixels" data_type: TYPE_FP32 dims: [ 3, 8, 8 ] } ]
output [ { name: "logits" data_type: TYPE_FP32 dims: [ 10 ] } ]
dynamic_batching { }
""",
        unsafe=True,
    ),
}
