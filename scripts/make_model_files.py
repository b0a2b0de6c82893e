#!/usr/bin/env python3
"""Generate the small real model files that tests/modelfiles/ reads with tritonlint's readers.

Each format is made by its own framework, so the readers are proven on what the framework
really writes:

- ``torchscript``: ``torch.jit.script``/``torch.jit.trace`` + ``torch.jit.save`` (needs torch;
  ``pip install torch==2.13.0`` takes the CPU wheel);
- ``openvino``: small ONNX graphs built with ``onnx.helper``, converted with
  ``openvino.convert_model`` and written with ``openvino.save_model``; ``names`` is built with
  OpenVINO's own opset API (several names on one tensor, bounded and dynamic dimensions) and
  ``legacy_v10`` is ``add`` rewritten as IR version 10 with its tensor names taken out, which
  OpenVINO still reads (its v10 naming rules differ); needs onnx and openvino;
- ``savedmodel``: ``tf.saved_model.save`` of small ``tf.Module`` objects (needs tensorflow or
  tensorflow-cpu, which may be installed in a separate environment: nothing here imports
  tritonlint);
- ``torchscript-forward``: a scripted module for each ``forward`` signature of
  :data:`FORWARD_SIGNATURES`, the TorchScript models that rule cases and documented examples
  describe (``<TorchScript>`` in tests/model_notation.py; needs torch).

Run ``python scripts/make_model_files.py [FORMAT ...]`` (every format above by default); the
files go under ``tests/data/modelfiles/<format>/`` and the library versions used into
``tests/data/modelfiles/VERSIONS``. The tests import this script to build fresh files with
whichever framework is installed and compare the readers with the framework's own view.
"""

from __future__ import annotations

import ast
import importlib.util
import platform
import re
import shutil
import sys
import tempfile
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "modelfiles"
VERSIONS = DATA / "VERSIONS"
_VERSIONS_HEADER = (
    "# The libraries that made the files in each folder here (scripts/make_model_files.py)."
)


def make_torchscript(out: Path) -> str:
    """TorchScript archives: one input, three inputs with a tuple output, arguments with
    defaults, a dict input, a list output and a traced module with a submodule."""
    import torch
    from torch import Tensor

    class OneInput(torch.nn.Module):
        def forward(self, x):  # type: ignore[no-untyped-def]
            return x * 2

    class ThreeInputs(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.embed = torch.nn.Linear(4, 4)

        def forward(
            self, input_ids: Tensor, attention_mask: Tensor, token_type_ids: Tensor
        ) -> tuple[Tensor, Tensor]:
            hidden = self.embed(input_ids) * attention_mask
            return hidden, hidden + token_type_ids

    class Defaults(torch.nn.Module):
        def forward(self, x: Tensor, scale: float = 2.0, bias: Tensor | None = None) -> Tensor:
            if bias is None:
                return x * scale
            return x * scale + bias

    class DictInput(torch.nn.Module):
        def forward(self, inputs: dict[str, Tensor]) -> dict[str, Tensor]:
            return {name: value * 2 for name, value in inputs.items()}

    class ListOutput(torch.nn.Module):
        def forward(self, x: Tensor, y: Tensor) -> list[Tensor]:
            return [x + y, x - y]

    class Scale(torch.nn.Module):
        def forward(self, x: Tensor) -> Tensor:
            return x * 3

    class Traced(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.scale = Scale()

        def forward(self, left: Tensor, right: Tensor) -> tuple[Tensor, Tensor, Tensor]:
            return self.scale(left), left + right, right

    out.mkdir(parents=True, exist_ok=True)
    scripted = {
        "one_input": OneInput(),
        "three_inputs": ThreeInputs(),
        "defaults": Defaults(),
        "dict_input": DictInput(),
        "list_output": ListOutput(),
    }
    for name, module in scripted.items():
        torch.jit.save(torch.jit.script(module), str(out / f"{name}.pt"))
    # Scripting the class first makes the trace's class a mangled one
    # (__torch__.___torch_mangle_N.Traced), as a process that compiles a class twice writes it.
    torch.jit.script(Traced())
    example = (torch.ones(2, 4), torch.ones(2, 4))
    torch.jit.save(torch.jit.trace(Traced(), example), str(out / "traced.pt"))
    return f"torch {torch.__version__}"


#: The ``forward`` signatures of the TorchScript models that rule cases and documented
#: examples describe, by the name of their file in ``torchscript-forward/``. A signature is
#: written as tests/model_notation.py matches it: on one line, words separated by one space.
FORWARD_SIGNATURES = {
    "two_inputs": "forward(self, input_ids: Tensor, attention_mask: Tensor) -> Tensor",
    "two_outputs": "forward(self, x: Tensor) -> Tuple[Tensor, Tensor]",
    "list_output": "forward(self, x: Tensor) -> List[Tensor]",
    "float_argument": "forward(self, x: Tensor, scale: float) -> Tensor",
    "optional_argument": "forward(self, x: Tensor, bias: Optional[Tensor]) -> Tensor",
    "dict_input": "forward(self, inputs: Dict[str, Tensor]) -> Tensor",
    "two_dicts": ("forward(self, inputs: Dict[str, Tensor], extra: Dict[str, Tensor]) -> Tensor"),
    "list_input": "forward(self, xs: List[Tensor]) -> Tensor",
}


def _value(annotation: ast.expr) -> str:
    """An expression TorchScript accepts as a value of ``annotation``."""
    if isinstance(annotation, ast.Name):
        return {"Tensor": "torch.zeros(1)", "float": "0.0", "int": "0", "str": "''"}[annotation.id]
    assert isinstance(annotation, ast.Subscript) and isinstance(annotation.value, ast.Name)
    inner = annotation.slice
    items = list(inner.elts) if isinstance(inner, ast.Tuple) else [inner]
    kind = annotation.value.id
    if kind == "Tuple":
        return "(" + "".join(f"{_value(item)}, " for item in items) + ")"
    if kind == "List":
        return f"[{_value(items[0])}]"
    if kind == "Dict":
        return f"{{'y': {_value(items[1])}}}"
    raise ValueError(f"no value for {ast.unparse(annotation)}")


def make_torchscript_forward(out: Path) -> str:
    """A scripted module of each of :data:`FORWARD_SIGNATURES`: forward returns zeros."""
    import torch

    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        for stem, signature in FORWARD_SIGNATURES.items():
            returns = ast.parse(f"def {signature}: pass").body[0]
            assert isinstance(returns, ast.FunctionDef) and returns.returns is not None
            source = (
                "from typing import Dict, List, Optional, Tuple\n\n"
                "import torch\nfrom torch import Tensor\n\n\n"
                "class Model(torch.nn.Module):\n"
                f"    def {signature}:\n"
                f"        return {_value(returns.returns)}\n"
            )
            path = Path(scratch) / f"{stem}.py"
            path.write_text(source, encoding="utf-8")
            spec = importlib.util.spec_from_file_location(stem, path)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            torch.jit.save(torch.jit.script(module.Model()), str(out / f"{stem}.pt"))
    return f"torch {torch.__version__}"


def _onnx_models() -> dict[str, Any]:
    """Small ONNX graphs for the OpenVINO converter."""
    import onnx
    from onnx import TensorProto, helper

    def model(graph: onnx.GraphProto) -> onnx.ModelProto:
        return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])

    add = helper.make_graph(
        [
            helper.make_node("Add", ["x", "y"], ["sum"]),
            helper.make_node("Cast", ["sum"], ["as_int"], to=TensorProto.INT64),
            helper.make_node("Identity", ["sum"], ["copy"]),
        ],
        "add",
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 3]),
            helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3]),
        ],
        [
            helper.make_tensor_value_info("as_int", TensorProto.INT64, None),
            helper.make_tensor_value_info("sum", TensorProto.FLOAT, ["batch", 3]),
            helper.make_tensor_value_info("copy", TensorProto.FLOAT, None),
        ],
    )
    weights = helper.make_tensor("weights", TensorProto.FLOAT, [3], [0.5, 1.5, 2.5])
    types = helper.make_graph(
        [
            helper.make_node("Cast", ["pixels"], ["pixels_float"], to=TensorProto.FLOAT),
            helper.make_node("Mul", ["pixels_float", "weights"], ["weighted"]),
            helper.make_node("Cast", ["weighted"], ["scores"], to=TensorProto.FLOAT16),
            helper.make_node("Cast", ["lengths"], ["lengths_long"], to=TensorProto.INT64),
            helper.make_node("Not", ["mask"], ["inverted"]),
        ],
        "types",
        [
            helper.make_tensor_value_info("pixels", TensorProto.UINT8, [1, "height", 3]),
            helper.make_tensor_value_info("lengths", TensorProto.INT32, [-1]),
            helper.make_tensor_value_info("mask", TensorProto.BOOL, [2, 2]),
        ],
        [
            helper.make_tensor_value_info("scores", TensorProto.FLOAT16, [1, "height", 3]),
            helper.make_tensor_value_info("lengths_long", TensorProto.INT64, [-1]),
            helper.make_tensor_value_info("inverted", TensorProto.BOOL, [2, 2]),
        ],
        initializer=[weights],
    )
    # An If whose branches are graphs of their own: OpenVINO makes them bodies with their own
    # Parameter and Result layers, which are not the model's inputs and outputs.
    then_branch = helper.make_graph(
        [helper.make_node("Mul", ["value", "value"], ["squared"])],
        "then",
        [],
        [helper.make_tensor_value_info("squared", TensorProto.FLOAT, [2])],
    )
    else_branch = helper.make_graph(
        [helper.make_node("Neg", ["value"], ["negated"])],
        "else",
        [],
        [helper.make_tensor_value_info("negated", TensorProto.FLOAT, [2])],
    )
    branches = helper.make_graph(
        [
            helper.make_node(
                "If",
                ["choice"],
                ["chosen"],
                then_branch=then_branch,
                else_branch=else_branch,
            )
        ],
        "branches",
        [
            helper.make_tensor_value_info("choice", TensorProto.BOOL, []),
            helper.make_tensor_value_info("value", TensorProto.FLOAT, [2]),
        ],
        [helper.make_tensor_value_info("chosen", TensorProto.FLOAT, [2])],
    )
    return {"add": model(add), "types": model(types), "branches": model(branches)}


def _openvino_names_model() -> Any:
    """A model built with OpenVINO's opset API: what ONNX conversion does not produce."""
    import openvino as ov
    import openvino.opset13 as ops

    tokens = ops.parameter([-1, 3], ov.Type.f32, name="tokens_layer")
    tokens.output(0).set_names({"tokens", "alias, with comma", "b tokens"})
    bounded = ops.parameter(
        ov.PartialShape([ov.Dimension(1, 8), ov.Dimension(), 4]), ov.Type.i64, name="bounded"
    )
    anything = ops.parameter(ov.PartialShape.dynamic(), ov.Type.f32, name="anything")
    scalar = ops.parameter([], ov.Type.u8, name="scalar")
    relu = ops.relu(tokens)
    relu.output(0).set_names({"relu", "activations"})
    results = [
        ops.result(relu),
        ops.result(ops.convert(bounded, "f16")),
        ops.result(ops.sqrt(anything)),
        ops.result(ops.convert(scalar, "boolean")),
    ]
    results[1].output(0).set_names({"halves"})
    results[2].output(0).set_names({"root"})
    results[3].output(0).set_names({"flags"})
    return ov.Model(results, [tokens, bounded, anything, scalar], "names")


def _openvino_types_model() -> Any:
    """One input and one output of each element type that Triton's backend knows or refuses."""
    import openvino as ov
    import openvino.opset13 as ops

    types = ["f32", "f16", "bf16", "f64", "i8", "i16", "i32", "i64"]
    types += ["u8", "u16", "u32", "u64", "boolean"]
    inputs = [ops.parameter([2], getattr(ov.Type, name), name=f"in_{name}") for name in types]
    results = []
    for name, parameter in zip(types, inputs, strict=True):
        operation = ops.logical_not(parameter) if name == "boolean" else ops.relu(parameter)
        operation.set_friendly_name(f"op_{name}")
        operation.output(0).set_names({f"out_{name}"})
        results.append(ops.result(operation))
    return ov.Model(results, inputs, "element_types")


def _as_ir_v10(xml: str, kept: str) -> str:
    """IR v11 text rewritten as v10 without most tensor names: layers renamed (so that their
    names differ from the tensor names) and every ``names``/``output_names`` attribute removed
    but ``names="kept"``."""
    xml = re.sub(r'(<net name="[^"]*" version=")11"', r'\g<1>10"', xml, count=1)
    xml = re.sub(r' output_names="[^"]*"', "", xml)
    xml = re.sub(r'(<layer id="\d+" name=")', r"\1layer_", xml)
    keep = f' names="{kept}"'
    return re.sub(r' names="[^"]*"', lambda found: found[0] if found[0] == keep else "", xml)


def make_openvino(out: Path) -> str:
    """OpenVINO IR files (``.xml`` and its ``.bin``) converted from ONNX or built in OpenVINO."""
    import onnx
    import openvino as ov

    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        for name, model in _onnx_models().items():
            source = Path(scratch) / f"{name}.onnx"
            onnx.save(model, str(source))
            converted = ov.convert_model(str(source))
            converted.set_friendly_name(name)
            ov.save_model(converted, str(out / f"{name}.xml"), compress_to_fp16=False)
    ov.save_model(_openvino_names_model(), str(out / "names.xml"), compress_to_fp16=False)
    types = _openvino_types_model()
    ov.save_model(types, str(out / "element_types.xml"), compress_to_fp16=False)
    for source, legacy, kept in (
        ("add", "legacy_v10", "x"),
        ("element_types", "legacy_types_v10", "in_f16"),
    ):
        text = _as_ir_v10((out / f"{source}.xml").read_text(encoding="utf-8"), kept)
        (out / f"{legacy}.xml").write_text(text, encoding="utf-8")
        shutil.copyfile(out / f"{source}.bin", out / f"{legacy}.bin")
    for xml in out.glob("*.xml"):
        # The converter records the absolute path of its input; keep the files reproducible.
        text = xml.read_text(encoding="utf-8")
        xml.write_text(re.sub(r'<input_model value="[^"]*" />', "", text), encoding="utf-8")
    return f"openvino {ov.get_version()}, onnx {onnx.__version__}"


def make_savedmodel(out: Path) -> str:
    """TensorFlow SavedModel folders: the serving signature of each, and one without it."""
    import tensorflow as tf

    class Simple(tf.Module):
        def __init__(self) -> None:
            super().__init__()
            self.weights = tf.Variable([[1.0], [2.0], [3.0]])

        @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="features")])
        def serve(self, features: tf.Tensor) -> dict[str, tf.Tensor]:
            return {"scores": tf.matmul(features, self.weights)}

    class Types(tf.Module):
        @tf.function(
            input_signature=[
                tf.TensorSpec([None], tf.int64, name="token_ids"),
                tf.TensorSpec([None], tf.string, name="text"),
                tf.TensorSpec([], tf.bool, name="flag"),
                tf.TensorSpec([None, None, 3], tf.uint8, name="image"),
                tf.TensorSpec([2, 2], tf.float16, name="half"),
                tf.TensorSpec(None, tf.float64, name="anything"),
                tf.TensorSpec([4], tf.bfloat16, name="brain"),
            ]
        )
        def serve(
            self,
            token_ids: tf.Tensor,
            text: tf.Tensor,
            flag: tf.Tensor,
            image: tf.Tensor,
            half: tf.Tensor,
            anything: tf.Tensor,
            brain: tf.Tensor,
        ) -> dict[str, tf.Tensor]:
            return {
                "count": tf.size(token_ids, out_type=tf.int32),
                "upper": tf.strings.upper(text),
                "negated": tf.logical_not(flag),
                "pixels": tf.cast(image, tf.uint16),
                "doubled": half * 2,
                "same": anything,
                "widened": tf.cast(brain, tf.float32),
            }

        @tf.function(input_signature=[tf.TensorSpec([None], tf.int32, name="values")])
        def encode(self, values: tf.Tensor) -> tf.Tensor:
            return tf.cast(values, tf.int8)

    out.mkdir(parents=True, exist_ok=True)
    simple = Simple()
    tf.saved_model.save(simple, str(out / "simple"), signatures={"serving_default": simple.serve})
    types = Types()
    signatures = {"serving_default": types.serve, "encode": types.encode}
    tf.saved_model.save(types, str(out / "types"), signatures=signatures)
    other = Simple()
    tf.saved_model.save(other, str(out / "predict_only"), signatures={"predict": other.serve})
    return f"{_distribution('tensorflow-cpu', 'tensorflow')} {tf.__version__}"


def _distribution(*names: str) -> str:
    """The first of ``names`` that is installed as a distribution (tensorflow-cpu or not)."""
    for name in names:
        try:
            metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
        return name
    return names[-1]


MAKERS: dict[str, Callable[[Path], str]] = {
    "torchscript": make_torchscript,
    "openvino": make_openvino,
    "savedmodel": make_savedmodel,
    "torchscript-forward": make_torchscript_forward,
}


def record_version(fmt: str, version: str) -> None:
    """Write ``fmt``'s line of tests/data/modelfiles/VERSIONS, keeping the other formats'."""
    lines = VERSIONS.read_text(encoding="utf-8").splitlines() if VERSIONS.exists() else []
    kept = [line for line in lines if not line.startswith(f"{fmt}:")]
    kept.append(f"{fmt}: {version}, Python {platform.python_version()}")
    comments = [line for line in kept if line.startswith("#")] or [_VERSIONS_HEADER]
    entries = sorted(line for line in kept if not line.startswith("#"))
    VERSIONS.write_text("\n".join([*comments, *entries]) + "\n", encoding="utf-8")


def main(argv: list[str]) -> int:
    formats = argv or list(MAKERS)
    unknown = [fmt for fmt in formats if fmt not in MAKERS]
    if unknown:
        print(f"unknown format(s): {', '.join(unknown)}; choose from {', '.join(MAKERS)}")
        return 2
    for fmt in formats:
        out = DATA / fmt
        shutil.rmtree(out, ignore_errors=True)
        version = MAKERS[fmt](out)
        record_version(fmt, version)
        print(f"{fmt}: {version} -> {out.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
