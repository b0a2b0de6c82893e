#!/usr/bin/env python3
"""Generate ``fixtures/model_files/``: a model repository of real small models, and broken copies.

``repository/`` is a repository whose every config matches its model file exactly (names, data
types, dims, ``max_batch_size``): an ONNX image classifier and its preprocessing Python model
joined by an ensemble, the same ONNX detector served by ONNX Runtime and, converted, by
OpenVINO, a TorchScript text classifier and a TensorFlow SavedModel over tabular features.
``broken/<mistake>/`` are small repositories, each a copy of the model(s) concerned with one
mistake made in a config, a label file, a model.py or the model file itself
(``broken/README.md`` says what each backend answers).

Each model file is made by its own framework, so tritonlint's readers meet what the frameworks
really write:

- ``onnx``: ``resnet_onnx`` and ``detector_onnx``, built with ``onnx.helper`` (needs onnx and
  numpy);
- ``openvino``: ``detector_openvino``, the ONNX detector converted with
  ``openvino.convert_model`` (needs openvino, onnx and numpy);
- ``torchscript``: ``text_torch``, ``torch.jit.script`` + ``torch.jit.save`` (needs torch;
  ``pip install torch==2.13.0`` takes the CPU wheel);
- ``savedmodel``: ``tabular_tf``, ``tf.saved_model.save`` (needs tensorflow or
  tensorflow-cpu, which may live in an environment of its own: this script imports nothing of
  tritonlint).

Run ``python scripts/make_model_fixtures.py [--out DIR] [PART ...]`` (every part by default;
name some to run this script with different Pythons, e.g. ``savedmodel`` with the one that has
TensorFlow). The parts named are rebuilt; the configs, label files and model.py files, and
then every broken case, are always written again from the tables below and from the model
files already in place. The library versions of each part go into the versions block of
``fixtures/model_files/README.md``. Weights come from fixed seeds: the ONNX and OpenVINO files
come out byte for byte the same on every run (TorchScript archives and SavedModels carry ids
that change).
"""

from __future__ import annotations

import argparse
import hashlib
import platform
import re
import shutil
import sys
import tempfile
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures" / "model_files"

_VERSIONS_START = "<!-- versions: written by scripts/make_model_fixtures.py -->"
_VERSIONS_END = "<!-- /versions -->"

# --- The valid repository: configs and other text files ---------------------------------------

RESNET_CONFIG = """\
# A tiny residual image classifier (conv, skip connection, global pooling, linear) in ONNX, with
# a symbolic batch dimension: 8x8 RGB images in, ten class scores out.
name: "resnet_onnx"
platform: "onnxruntime_onnx"
max_batch_size: 8

input [
  {
    name: "images"
    data_type: TYPE_FP32
    dims: [ 3, 8, 8 ]
  }
]
output [
  {
    name: "logits"
    data_type: TYPE_FP32
    dims: [ 10 ]
    label_filename: "labels.txt"
  }
]

instance_group [
  {
    count: 1
    kind: KIND_CPU
  }
]
dynamic_batching { }
"""

LABELS = "airplane\nautomobile\nbird\ncat\ndeer\ndog\nfrog\nhorse\nship\ntruck\n"

DETECTOR_ONNX_CONFIG = """\
# A tiny detector exported to ONNX for batch 1: its first dimension is fixed, so the config
# does not batch (max_batch_size 0) and writes the 1 in dims.
name: "detector_onnx"
backend: "onnxruntime"
max_batch_size: 0

input [
  {
    name: "images"
    data_type: TYPE_FP32
    dims: [ 1, 3, 16, 16 ]
  }
]
output [
  {
    name: "boxes"
    data_type: TYPE_FP32
    dims: [ 1, 4, 4 ]
  },
  {
    name: "scores"
    data_type: TYPE_FP32
    dims: [ 1, 4 ]
  }
]

instance_group [
  {
    count: 1
    kind: KIND_CPU
  }
]
"""

DETECTOR_OPENVINO_CONFIG = """\
# detector_onnx converted to OpenVINO IR (model.xml and its weights, model.bin). The OpenVINO
# backend runs on CPUs only.
name: "detector_openvino"
backend: "openvino"
max_batch_size: 0

input [
  {
    name: "images"
    data_type: TYPE_FP32
    dims: [ 1, 3, 16, 16 ]
  }
]
output [
  {
    name: "boxes"
    data_type: TYPE_FP32
    dims: [ 1, 4, 4 ]
  },
  {
    name: "scores"
    data_type: TYPE_FP32
    dims: [ 1, 4 ]
  }
]

instance_group [
  {
    count: 1
    kind: KIND_CPU
  }
]
"""

TEXT_TORCH_CONFIG = """\
# A TorchScript text classifier: forward(input_ids, attention_mask) pools token embeddings
# under the mask into two class scores. TorchScript tensors have no names: the inputs follow
# the INPUT__<index> convention (forward's arguments in order), the output OUTPUT__0.
name: "text_torch"
backend: "pytorch"
max_batch_size: 8

input [
  {
    name: "INPUT__0"
    data_type: TYPE_INT64
    dims: [ -1 ]
  },
  {
    name: "INPUT__1"
    data_type: TYPE_INT64
    dims: [ -1 ]
  }
]
output [
  {
    name: "OUTPUT__0"
    data_type: TYPE_FP32
    dims: [ 2 ]
  }
]

instance_group [
  {
    count: 1
    kind: KIND_CPU
  }
]
dynamic_batching { }
"""

TABULAR_TF_CONFIG = """\
# A TensorFlow SavedModel scoring a table row: four numeric features and a category id in, one
# probability out (the serving_default signature).
name: "tabular_tf"
platform: "tensorflow_savedmodel"
max_batch_size: 16

input [
  {
    name: "numeric"
    data_type: TYPE_FP32
    dims: [ 4 ]
  },
  {
    name: "category"
    data_type: TYPE_INT64
    dims: [ 1 ]
  }
]
output [
  {
    name: "probability"
    data_type: TYPE_FP32
    dims: [ 1 ]
  }
]

instance_group [
  {
    count: 1
    kind: KIND_CPU
  }
]
dynamic_batching { }
"""

PREPROCESS_CONFIG = """\
# The first step of classify_pipeline: 8x8 RGB images (height, width, channel; bytes) to the
# float pixels, channels first, that resnet_onnx takes.
name: "preprocess_python"
backend: "python"
max_batch_size: 16

input [
  {
    name: "IMAGE"
    data_type: TYPE_UINT8
    dims: [ 8, 8, 3 ]
  }
]
output [
  {
    name: "PIXELS"
    data_type: TYPE_FP32
    dims: [ 3, 8, 8 ]
  }
]

instance_group [
  {
    count: 1
    kind: KIND_CPU
  }
]
dynamic_batching { }
"""

PREPROCESS_MODEL = '''\
"""Scale 8x8 RGB images to [0, 1] and move the channels first, as resnet_onnx expects."""

import json

import numpy as np
import triton_python_backend_utils as pb_utils


class TritonPythonModel:
    def initialize(self, args):
        config = json.loads(args["model_config"])
        output = pb_utils.get_output_config_by_name(config, "PIXELS")
        self.dtype = pb_utils.triton_string_to_numpy(output["data_type"])

    def execute(self, requests):
        responses = []
        for request in requests:
            images = pb_utils.get_input_tensor_by_name(request, "IMAGE").as_numpy()
            pixels = images.transpose(0, 3, 1, 2).astype(self.dtype) / 255.0
            output = pb_utils.Tensor("PIXELS", np.ascontiguousarray(pixels))
            responses.append(pb_utils.InferenceResponse(output_tensors=[output]))
        return responses

    def finalize(self):
        self.dtype = None
'''

PIPELINE_CONFIG = """\
# preprocess_python then resnet_onnx: an image in, the ten class scores out.
name: "classify_pipeline"
platform: "ensemble"
max_batch_size: 8

input [
  {
    name: "IMAGE"
    data_type: TYPE_UINT8
    dims: [ 8, 8, 3 ]
  }
]
output [
  {
    name: "LOGITS"
    data_type: TYPE_FP32
    dims: [ 10 ]
  }
]

ensemble_scheduling {
  step [
    {
      model_name: "preprocess_python"
      model_version: -1
      input_map {
        key: "IMAGE"
        value: "IMAGE"
      }
      output_map {
        key: "PIXELS"
        value: "pixels"
      }
    },
    {
      model_name: "resnet_onnx"
      model_version: -1
      input_map {
        key: "images"
        value: "pixels"
      }
      output_map {
        key: "logits"
        value: "LOGITS"
      }
    }
  ]
}
"""

#: Every text file of the valid repository, by its path there.
TEXTS = {
    "resnet_onnx/config.pbtxt": RESNET_CONFIG,
    "resnet_onnx/labels.txt": LABELS,
    "detector_onnx/config.pbtxt": DETECTOR_ONNX_CONFIG,
    "detector_openvino/config.pbtxt": DETECTOR_OPENVINO_CONFIG,
    "text_torch/config.pbtxt": TEXT_TORCH_CONFIG,
    "tabular_tf/config.pbtxt": TABULAR_TF_CONFIG,
    "preprocess_python/config.pbtxt": PREPROCESS_CONFIG,
    "preprocess_python/1/model.py": PREPROCESS_MODEL,
    "classify_pipeline/config.pbtxt": PIPELINE_CONFIG,
    # An ensemble has no model file, but the server wants its version folder.
    "classify_pipeline/1/.gitkeep": "",
}

# --- Broken cases -------------------------------------------------------------------------------


class Edit(NamedTuple):
    """``old`` replaced by ``new`` in the file at ``path`` (``old`` must be there once)."""

    path: str
    old: str
    new: str


class Broken(NamedTuple):
    """One broken repository: copies of ``models`` from the valid repository with ``edits``
    made to their files, and the model file at ``model_file`` replaced by what
    ``replace_model`` makes of it."""

    name: str
    models: tuple[str, ...]
    edits: tuple[Edit, ...] = ()
    model_file: str | None = None
    replace_model: Callable[[bytes], bytes] | None = None


def _truncated(data: bytes) -> bytes:
    """The first half of the file, as an interrupted copy or download leaves it."""
    return data[: len(data) // 2]


def _lfs_pointer(data: bytes) -> bytes:
    """The pointer file that a clone without ``git lfs`` checks out in the model's place."""
    digest = hashlib.sha256(data).hexdigest()
    return (
        f"version https://git-lfs.github.com/spec/v1\noid sha256:{digest}\nsize {len(data)}\n"
    ).encode()


_RESNET_CONFIG = "resnet_onnx/config.pbtxt"
_DETECTOR_OPENVINO_CONFIG = "detector_openvino/config.pbtxt"
_DETECTOR_ONNX_CONFIG = "detector_onnx/config.pbtxt"
_PREPROCESS_MODEL = "preprocess_python/1/model.py"
_INPUT_1 = '    name: "INPUT__1"\n    data_type: TYPE_INT64\n    dims: [ -1 ]\n  }\n'
_INPUT_2 = '  {\n    name: "INPUT__2"\n    data_type: TYPE_INT64\n    dims: [ -1 ]\n  }\n'
_RESNET_IO = RESNET_CONFIG[
    RESNET_CONFIG.index("\ninput [") : RESNET_CONFIG.index("\ninstance_group")
]

BROKEN = [
    Broken(
        "input-name-typo",
        ("resnet_onnx",),
        (Edit(_RESNET_CONFIG, 'name: "images"', 'name: "image"'),),
    ),
    Broken(
        "output-not-in-model",
        ("detector_openvino",),
        (Edit(_DETECTOR_OPENVINO_CONFIG, 'name: "boxes"', 'name: "detections"'),),
    ),
    Broken(
        "fp16-config-for-fp32-model",
        ("resnet_onnx",),
        (
            Edit(
                _RESNET_CONFIG,
                "data_type: TYPE_FP32\n    dims: [ 3",
                "data_type: TYPE_FP16\n    dims: [ 3",
            ),
        ),
    ),
    Broken(
        "batch-dim-in-dims",
        ("resnet_onnx",),
        (Edit(_RESNET_CONFIG, "dims: [ 3, 8, 8 ]", "dims: [ -1, 3, 8, 8 ]"),),
    ),
    Broken(
        "batching-a-batch-1-model",
        ("detector_onnx",),
        (
            Edit(_DETECTOR_ONNX_CONFIG, "max_batch_size: 0", "max_batch_size: 8"),
            Edit(_DETECTOR_ONNX_CONFIG, "dims: [ 1, 3, 16, 16 ]", "dims: [ 3, 16, 16 ]"),
            Edit(_DETECTOR_ONNX_CONFIG, "dims: [ 1, 4, 4 ]", "dims: [ 4, 4 ]"),
            Edit(_DETECTOR_ONNX_CONFIG, "dims: [ 1, 4 ]", "dims: [ 4 ]"),
        ),
    ),
    Broken(
        "rank-mismatch-leading-1-dropped",
        ("detector_openvino",),
        (Edit(_DETECTOR_OPENVINO_CONFIG, "dims: [ 1, 3, 16, 16 ]", "dims: [ 3, 16, 16 ]"),),
    ),
    Broken(
        "fixed-dim-mismatch",
        ("tabular_tf",),
        (Edit("tabular_tf/config.pbtxt", "dims: [ 4 ]", "dims: [ 5 ]"),),
    ),
    Broken(
        "pytorch-three-inputs-for-two",
        ("text_torch",),
        (Edit("text_torch/config.pbtxt", _INPUT_1, _INPUT_1.replace("}", "},") + _INPUT_2),),
    ),
    Broken(
        "labels-one-line-short",
        ("resnet_onnx",),
        (Edit("resnet_onnx/labels.txt", "ship\ntruck\n", "ship\n"),),
    ),
    Broken(
        "python-syntax-error",
        ("preprocess_python",),
        (Edit(_PREPROCESS_MODEL, "def execute(self, requests):", "def execute(self, requests)"),),
    ),
    Broken(
        "python-model-without-execute",
        ("preprocess_python",),
        (Edit(_PREPROCESS_MODEL, "def execute(self, requests):", "def infer(self, requests):"),),
    ),
    Broken(
        "truncated-onnx",
        ("resnet_onnx",),
        model_file="resnet_onnx/1/model.onnx",
        replace_model=_truncated,
    ),
    Broken(
        "lfs-pointer-instead-of-model",
        ("resnet_onnx",),
        model_file="resnet_onnx/1/model.onnx",
        replace_model=_lfs_pointer,
    ),
    Broken(
        "ensemble-maps-input-the-model-lacks",
        ("preprocess_python", "resnet_onnx", "classify_pipeline"),
        (
            # resnet_onnx leaves its inputs and outputs to ONNX Runtime's auto-complete, so
            # the ensemble's guess at the input's name meets only the model file.
            Edit(_RESNET_CONFIG, _RESNET_IO, ""),
            Edit("classify_pipeline/config.pbtxt", 'key: "images"', 'key: "pixel_values"'),
        ),
    ),
]

# --- Model files ----------------------------------------------------------------------------------


def _onnx_model(graph: Any) -> Any:
    """An opset 17 model of IR version 8, which the ONNX Runtime of Triton 2.51 loads."""
    from onnx import helper

    return helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8, producer_name="tritonlint"
    )


def _weights(name: str, shape: tuple[int, ...], seed: int) -> Any:
    """Small random weights from a fixed seed, rounded to three decimals."""
    import numpy as np
    from onnx import numpy_helper

    values = np.random.default_rng(seed).normal(0.0, 0.5, shape).round(3).astype(np.float32)
    return numpy_helper.from_array(values, name)


def resnet_onnx() -> Any:
    """Conv + ReLU with a skip connection, global average pooling and a linear layer."""
    from onnx import TensorProto, helper

    nodes = [
        helper.make_node("Conv", ["images", "conv.weight", "conv.bias"], ["conv"], pads=[1] * 4),
        helper.make_node("Relu", ["conv"], ["relu"]),
        helper.make_node("Add", ["relu", "images"], ["residual"]),
        helper.make_node("GlobalAveragePool", ["residual"], ["pooled"]),
        helper.make_node("Flatten", ["pooled"], ["features"], axis=1),
        helper.make_node("Gemm", ["features", "fc.weight", "fc.bias"], ["logits"], transB=1),
    ]
    graph = helper.make_graph(
        nodes,
        "resnet",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, ["batch", 3, 8, 8])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", 10])],
        initializer=[
            _weights("conv.weight", (3, 3, 3, 3), 1),
            _weights("conv.bias", (3,), 2),
            _weights("fc.weight", (10, 3), 3),
            _weights("fc.bias", (10,), 4),
        ],
    )
    return _onnx_model(graph)


def detector_onnx() -> Any:
    """A strided conv whose pooled features are four boxes, each scored by its largest value."""
    from onnx import TensorProto, helper

    shape = helper.make_tensor("boxes.shape", TensorProto.INT64, [3], [1, 4, 4])
    nodes = [
        helper.make_node("Conv", ["images", "conv.weight", "conv.bias"], ["conv"], strides=[4, 4]),
        helper.make_node("Relu", ["conv"], ["relu"]),
        helper.make_node("ReduceMean", ["relu"], ["pooled"], axes=[2, 3], keepdims=0),
        helper.make_node("Reshape", ["pooled", "boxes.shape"], ["boxes"]),
        helper.make_node("ReduceMax", ["boxes"], ["strongest"], axes=[2], keepdims=0),
        helper.make_node("Sigmoid", ["strongest"], ["scores"]),
    ]
    graph = helper.make_graph(
        nodes,
        "detector",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, 3, 16, 16])],
        [
            helper.make_tensor_value_info("boxes", TensorProto.FLOAT, [1, 4, 4]),
            helper.make_tensor_value_info("scores", TensorProto.FLOAT, [1, 4]),
        ],
        initializer=[
            _weights("conv.weight", (16, 3, 4, 4), 5),
            _weights("conv.bias", (16,), 6),
            shape,
        ],
    )
    return _onnx_model(graph)


def make_onnx(repository: Path) -> str:
    import numpy
    import onnx

    for name, build in (("resnet_onnx", resnet_onnx), ("detector_onnx", detector_onnx)):
        model = build()
        onnx.checker.check_model(model, full_check=True)
        _write_bytes(repository / name / "1" / "model.onnx", model.SerializeToString())
    return f"onnx {onnx.__version__}, numpy {numpy.__version__}"


def make_openvino(repository: Path) -> str:
    import onnx
    import openvino as ov

    folder = repository / "detector_openvino" / "1"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as scratch:
        source = Path(scratch) / "detector.onnx"
        onnx.save(detector_onnx(), str(source))
        converted = ov.convert_model(str(source))
    converted.set_friendly_name("detector")
    xml = folder / "model.xml"
    ov.save_model(converted, str(xml), compress_to_fp16=False)
    # The converter records the absolute path of its input; keep the file reproducible.
    text = xml.read_text(encoding="utf-8")
    xml.write_text(re.sub(r'\s*<input_model value="[^"]*" />', "", text), encoding="utf-8")
    return f"openvino {ov.get_version()}, onnx {onnx.__version__}"


def make_torchscript(repository: Path) -> str:
    import torch
    from torch import Tensor

    class TextClassifier(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.embed = torch.nn.Embedding(64, 8)
            self.head = torch.nn.Linear(8, 2)

        def forward(self, input_ids: Tensor, attention_mask: Tensor) -> Tensor:
            mask = attention_mask.unsqueeze(-1).to(torch.float32)
            summed = (self.embed(input_ids) * mask).sum(dim=1)
            return self.head(summed / mask.sum(dim=1).clamp(min=1.0))

    torch.manual_seed(0)
    folder = repository / "text_torch" / "1"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    torch.jit.save(torch.jit.script(TextClassifier().eval()), str(folder / "model.pt"))
    return f"torch {torch.__version__}"


def make_savedmodel(repository: Path) -> str:
    import tensorflow as tf

    tf.random.set_seed(0)

    class TabularScorer(tf.Module):
        def __init__(self) -> None:
            super().__init__()
            self.weights = tf.Variable(tf.random.normal([4, 1], stddev=0.5), name="weights")
            self.category_bias = tf.Variable(tf.random.normal([8, 1], stddev=0.5), name="bias")

        @tf.function(
            input_signature=[
                tf.TensorSpec([None, 4], tf.float32, name="numeric"),
                tf.TensorSpec([None, 1], tf.int64, name="category"),
            ]
        )
        def serve(self, numeric: tf.Tensor, category: tf.Tensor) -> dict[str, tf.Tensor]:
            bias = tf.gather(self.category_bias, tf.clip_by_value(category[:, 0], 0, 7))
            return {"probability": tf.sigmoid(tf.matmul(numeric, self.weights) + bias)}

    folder = repository / "tabular_tf" / "1"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    scorer = TabularScorer()
    signatures = {"serving_default": scorer.serve}
    tf.saved_model.save(scorer, str(folder / "model.savedmodel"), signatures=signatures)
    return f"{_distribution('tensorflow-cpu', 'tensorflow')} {tf.__version__}"


def _distribution(*names: str) -> str:
    """The first of ``names`` installed as a distribution (tensorflow-cpu or tensorflow)."""
    for name in names:
        try:
            metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
        return name
    return names[-1]


#: The function that makes each part's model files; it returns the libraries' versions.
PARTS: dict[str, Callable[[Path], str]] = {
    "onnx": make_onnx,
    "openvino": make_openvino,
    "torchscript": make_torchscript,
    "savedmodel": make_savedmodel,
}

# --- Writing --------------------------------------------------------------------------------------


def _write_bytes(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def write_texts(repository: Path) -> None:
    """The configs, label file and model.py of the valid repository."""
    for relative, text in TEXTS.items():
        _write_bytes(repository / relative, text.encode())


def write_broken(out: Path, repository: Path) -> None:
    """Every case of ``BROKEN`` under ``out/broken/``, from the files of ``repository``; a case
    folder that ``BROKEN`` no longer names is removed (``broken/README.md`` is kept)."""
    broken = out / "broken"
    broken.mkdir(parents=True, exist_ok=True)
    names = {case.name for case in BROKEN}
    for stale in broken.iterdir():
        if stale.is_dir() and stale.name not in names:
            shutil.rmtree(stale)
    for case in BROKEN:
        root = broken / case.name
        shutil.rmtree(root, ignore_errors=True)
        for model in case.models:
            shutil.copytree(repository / model, root / model)
        for edit in case.edits:
            path = root / edit.path
            text = path.read_text(encoding="utf-8")
            if text.count(edit.old) != 1:
                raise ValueError(f"{case.name}: {edit.old!r} is not in {edit.path} exactly once")
            path.write_bytes(text.replace(edit.old, edit.new).encode())
        if case.model_file and case.replace_model:
            path = root / case.model_file
            if path.is_file():
                path.write_bytes(case.replace_model(path.read_bytes()))


def record_versions(readme: Path, versions: dict[str, str]) -> None:
    """Put each part's library versions in the versions block of ``readme``, keeping those of
    the parts not run this time."""
    if not readme.is_file():
        return
    text = readme.read_text(encoding="utf-8")
    start = text.index(_VERSIONS_START) + len(_VERSIONS_START)
    end = text.index(_VERSIONS_END)
    lines = {
        line.split("`")[1]: line for line in text[start:end].splitlines() if line.startswith("- `")
    }
    for part, version in versions.items():
        lines[part] = f"- `{part}`: {version}, Python {platform.python_version()}"
    block = "\n".join(lines[part] for part in PARTS if part in lines)
    readme.write_text(f"{text[:start]}\n{block}\n{text[end:]}", encoding="utf-8")


def build(out: Path, parts: list[str]) -> dict[str, str]:
    """Make ``parts`` under ``out/repository``, write the text files and the broken cases, and
    return each part's library versions."""
    repository = out / "repository"
    versions = {part: PARTS[part](repository) for part in parts}
    write_texts(repository)
    write_broken(out, repository)
    return versions


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("parts", nargs="*", metavar="PART", help=f"of {', '.join(PARTS)}")
    parser.add_argument("--out", type=Path, default=FIXTURES, help="default: %(default)s")
    args = parser.parse_args(argv)
    parts = args.parts or list(PARTS)
    unknown = [part for part in parts if part not in PARTS]
    if unknown:
        parser.error(f"unknown part(s): {', '.join(unknown)}")
    try:
        versions = build(args.out, parts)
    except ImportError as error:
        print(f"a framework is missing: {error}; name only the parts this Python can make")
        return 1
    record_versions(args.out / "README.md", versions)
    for part, version in versions.items():
        print(f"{part}: {version}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
