"""Model files described in a few lines, made when a test writes its repository.

Rule cases and documented examples compare configs with real model files; they describe each
one by its format and what it declares, and the file is made here by the format's own means:

* ``ONNX``: one line per tensor, ``input "pixels" FP32 [N, 3, 224, 224]`` or
  ``output "logits" FP32 [N, 1000]``; the type is Triton's without ``TYPE_`` (``FP32``,
  ``INT64``, ``STRING`` ...); a dimension is a size, ``-1`` or a name (a symbolic dimension,
  variable); no ``[...]`` means no shape at all. ``input "scale" FP32 [1] initializer``: an
  input the graph also holds as an initializer (an optional input). The model is built with
  ``onnx.helper`` (a graph of these inputs and outputs, without nodes).
* ``OpenVINO``: the same lines (no initializers; ``layout [N,C]`` after the dims gives the
  tensor a layout, as OpenVINO's ``set_layout`` does); the IR is written as XML text: a
  ``Parameter`` per input, a ``Result`` per output, fed by a ``Convert`` of the first input
  (the IR declares the shapes; it is not meant for OpenVINO to run).
* ``TorchScript``: the model's ``forward`` signature, ``forward(self, x: Tensor) -> Tensor``
  (it may be wrapped over several lines). TorchScript needs torch, which the tests do not
  install: each signature is a file made by ``scripts/make_model_files.py torchscript-forward``
  (listed in its ``FORWARD_SIGNATURES``), copied in.
* ``SavedModel``: the name of a SavedModel that ``scripts/make_model_files.py savedmodel`` made
  (``simple``, ``types``, ``predict_only``), copied in; its path is the ``model.savedmodel``
  folder.

A documented example writes ``model_repository/<path>: <ONNX>`` with the lines below it,
indented by two spaces; a case file writes ``"<path>" = { onnx = '''...''' }`` (``openvino``,
``torchscript``, ``savedmodel``).
"""

from __future__ import annotations

import importlib.util
import re
import shutil
from functools import cache
from math import prod
from pathlib import Path
from types import ModuleType
from typing import NamedTuple
from xml.sax.saxutils import quoteattr

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "modelfiles"

#: The formats, as an example's ``<...>`` names them.
FORMATS = ("ONNX", "OpenVINO", "TorchScript", "SavedModel")

_TENSOR = re.compile(
    r'(?P<kind>input|output)\s+"(?P<name>[^"]*)"\s+(?P<type>[A-Z0-9]+)'
    r"(?:\s+\[(?P<dims>[^\]]*)\])?(?P<initializer>\s+initializer)?"
    r"(?:\s+layout\s+(?P<layout>\S+))?"
)
_SYMBOL = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: Triton's type names (without ``TYPE_``) that ONNX spells otherwise.
_ONNX_TYPES = {"FP16": "FLOAT16", "FP32": "FLOAT", "FP64": "DOUBLE", "BF16": "BFLOAT16"}
#: OpenVINO's element type and port precision of each Triton type.
_OPENVINO_TYPES = {
    "BOOL": ("boolean", "BOOL"),
    "UINT8": ("u8", "U8"),
    "UINT16": ("u16", "U16"),
    "UINT32": ("u32", "U32"),
    "UINT64": ("u64", "U64"),
    "INT8": ("i8", "I8"),
    "INT16": ("i16", "I16"),
    "INT32": ("i32", "I32"),
    "INT64": ("i64", "I64"),
    "FP16": ("f16", "FP16"),
    "FP32": ("f32", "FP32"),
    "FP64": ("f64", "FP64"),
    "BF16": ("bf16", "BF16"),
    "STRING": ("string", "STRING"),
}


class NotationError(ValueError):
    """A description that follows no form; the message says what is wrong."""


class ModelDescription(NamedTuple):
    """A model file to make: its format (one of :data:`FORMATS`) and its description."""

    format: str
    text: str


class Tensor(NamedTuple):
    kind: str
    name: str
    type: str
    #: Sizes (-1: variable), names (variable) or None for no shape.
    dims: tuple[int | str, ...] | None
    initializer: bool
    #: An OpenVINO tensor's layout (``[N,C]``).
    layout: str | None = None


def onnx_model(text: str) -> bytes:
    """The bytes of the ONNX model ``text`` describes."""
    return _onnx(tensors(text, initializers=True))


def write_model(path: Path, model: ModelDescription) -> None:
    """Make the model file ``model`` describes at ``path``."""
    if model.format == "ONNX":
        path.write_bytes(onnx_model(model.text))
    elif model.format == "OpenVINO":
        path.write_text(_openvino(tensors(model.text, initializers=False)), encoding="utf-8")
    elif model.format == "TorchScript":
        shutil.copyfile(torchscript_file(model.text), path)
    elif model.format == "SavedModel":
        source = DATA / "savedmodel" / model.text.strip()
        if not (source / "saved_model.pb").is_file():
            raise NotationError(f"no SavedModel {model.text.strip()!r} in {source.parent}")
        shutil.copytree(source, path)
    else:
        raise NotationError(f"<{model.format}> is none of {', '.join(FORMATS)}")


def check(model: ModelDescription) -> None:
    """Raise NotationError where ``model`` cannot be made (without making it)."""
    if model.format in ("ONNX", "OpenVINO"):
        tensors(model.text, initializers=model.format == "ONNX")
    elif model.format == "TorchScript":
        torchscript_file(model.text)
    elif model.format == "SavedModel":
        if not (DATA / "savedmodel" / model.text.strip() / "saved_model.pb").is_file():
            raise NotationError(f"no SavedModel {model.text.strip()!r}")
    else:
        raise NotationError(f"<{model.format}> is none of {', '.join(FORMATS)}")


def tensors(text: str, *, initializers: bool) -> list[Tensor]:
    """The tensors of an ONNX or OpenVINO description, one per line."""
    found = []
    for line in text.splitlines():
        if not line.strip():
            continue
        match = _TENSOR.fullmatch(line.strip())
        if match is None:
            raise NotationError(f'not `input|output "NAME" TYPE [DIMS]`: {line.strip()!r}')
        if match["type"] not in _OPENVINO_TYPES:
            raise NotationError(f"{match['type']} is no Triton type (FP32, INT64 ...)")
        dims = None if match["dims"] is None else _dims(match["dims"])
        initializer = match["initializer"] is not None
        if initializer and not (initializers and match["kind"] == "input"):
            raise NotationError(f"only an ONNX input can be an initializer: {line.strip()!r}")
        if initializer and (dims is None or not all(isinstance(d, int) and d > 0 for d in dims)):
            raise NotationError(f"an initializer has fixed dims: {line.strip()!r}")
        if match["layout"] is not None and initializers:
            raise NotationError(f"only an OpenVINO tensor has a layout: {line.strip()!r}")
        found.append(
            Tensor(match["kind"], match["name"], match["type"], dims, initializer, match["layout"])
        )
    if not found:
        raise NotationError("a model without inputs or outputs")
    return found


def _dims(text: str) -> tuple[int | str, ...]:
    dims: list[int | str] = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        if _SYMBOL.fullmatch(item):
            dims.append(item)
        elif re.fullmatch(r"-1|\d+", item):
            dims.append(int(item))
        else:
            raise NotationError(f"a dimension is a size, -1 or a name: {item!r}")
    return tuple(dims)


def _onnx(described: list[Tensor]) -> bytes:
    from onnx import TensorProto, helper

    def value_info(tensor: Tensor) -> object:
        element = getattr(TensorProto, _ONNX_TYPES.get(tensor.type, tensor.type))
        shape = None if tensor.dims is None else [None if d == -1 else d for d in tensor.dims]
        return helper.make_tensor_value_info(tensor.name, element, shape)

    inputs = [value_info(t) for t in described if t.kind == "input"]
    outputs = [value_info(t) for t in described if t.kind == "output"]
    weights = [
        helper.make_tensor(
            t.name,
            getattr(TensorProto, _ONNX_TYPES.get(t.type, t.type)),
            list(t.dims or ()),
            [0] * prod(int(d) for d in t.dims or ()),
        )
        for t in described
        if t.initializer
    ]
    graph = helper.make_graph([], "model", inputs, outputs, weights)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    return bytes(model.SerializeToString())


def _openvino(described: list[Tensor]) -> str:
    """IR v11 XML declaring the tensors (see the module's docstring)."""
    layers: list[str] = []
    edges: list[str] = []
    inputs = [t for t in described if t.kind == "input"]
    for number, tensor in enumerate(inputs):
        element, precision = _OPENVINO_TYPES[tensor.type]
        shape = ",".join(
            "?" if not isinstance(d, int) or d < 0 else str(d) for d in tensor.dims or ()
        )
        shape_attribute = "..." if tensor.dims is None else shape
        layers.append(
            f'<layer id="{number}" name={quoteattr(tensor.name)} type="Parameter" '
            f'version="opset1"><data shape="{shape_attribute}" element_type="{element}" />'
            f'<output><port id="0" precision="{precision}" names={quoteattr(_names(tensor))}>'
            f"{_dim_elements(tensor)}{_layout(tensor)}</port></output></layer>"
        )
    layer = len(inputs)
    for tensor in (t for t in described if t.kind == "output"):
        element, precision = _OPENVINO_TYPES[tensor.type]
        feed = ""
        if inputs:
            feed = f'<input><port id="0">{_dim_elements(inputs[0])}</port></input>'
            edges.append(f'<edge from-layer="0" from-port="0" to-layer="{layer}" to-port="0" />')
        layers.append(
            f'<layer id="{layer}" name={quoteattr(tensor.name)} type="Convert" version="opset1">'
            f'<data destination_type="{element}" />{feed}<output><port id="1" '
            f'precision="{precision}" names={quoteattr(_names(tensor))}>'
            f"{_dim_elements(tensor)}{_layout(tensor)}</port></output></layer>"
        )
        layers.append(
            f'<layer id="{layer + 1}" name={quoteattr(tensor.name + "/sink_port_0")} '
            f'type="Result" version="opset1" output_names={quoteattr(_names(tensor))}>'
            f'<input><port id="0" precision="{precision}">{_dim_elements(tensor)}</port>'
            "</input></layer>"
        )
        edges.append(
            f'<edge from-layer="{layer}" from-port="1" to-layer="{layer + 1}" to-port="0" />'
        )
        layer += 2
    return (
        '<?xml version="1.0"?>\n<net name="model" version="11">\n<layers>\n'
        + "\n".join(layers)
        + "\n</layers>\n<edges>\n"
        + "\n".join(edges)
        + "\n</edges>\n</net>\n"
    )


def _names(tensor: Tensor) -> str:
    return tensor.name.replace(",", "\\,")


def _dim_elements(tensor: Tensor) -> str:
    return "".join(f"<dim>{d if isinstance(d, int) else -1}</dim>" for d in tensor.dims or ())


def _layout(tensor: Tensor) -> str:
    """The runtime attribute that gives a port's tensor its layout, where it has one."""
    if tensor.layout is None:
        return ""
    layout = quoteattr(tensor.layout)
    return f'<rt_info><attribute name="layout" version="0" layout={layout} /></rt_info>'


def torchscript_file(text: str) -> Path:
    """The file made for the ``forward`` signature ``text``."""
    signature = " ".join(text.split())
    for stem, made in generator().FORWARD_SIGNATURES.items():
        if made == signature:
            return DATA / "torchscript-forward" / f"{stem}.pt"
    raise NotationError(
        f"no TorchScript model made for {signature!r}: add it to FORWARD_SIGNATURES in "
        "scripts/make_model_files.py and run `python scripts/make_model_files.py "
        "torchscript-forward` (needs torch)"
    )


@cache
def generator() -> ModuleType:
    """scripts/make_model_files.py, imported (it imports torch only when it makes files)."""
    spec = importlib.util.spec_from_file_location(
        "make_model_files", ROOT / "scripts" / "make_model_files.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
