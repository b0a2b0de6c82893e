"""The inputs and outputs of an OpenVINO IR model (``model.xml``), read from its XML.

An IR's ``<net>`` lists ``<layer>`` elements and the ``<edge>`` elements that connect their
ports. The model's inputs are its ``Parameter`` layers and its outputs its ``Result`` layers,
each in the order of the file, which is the order OpenVINO gives them. Only the top-level
layers count: ``Parameter`` and ``Result`` layers inside a ``TensorIterator``, ``Loop`` or ``If``
body are that body's own.

Names are what Triton's OpenVINO backend matches the config's names against: each port's
``get_any_name()``, the smallest (by byte order) of the tensor's names. A tensor's names are:

- IR v11: a ``Parameter``'s output port ``names``; a ``Result``'s ``output_names``, or where it
  has none (older writers), the ``names`` of the output port that feeds it;
- IR v10 (OpenVINO's legacy rules): those names plus the layer's own ``name`` for a
  ``Parameter``, and plus the feeding layer's ``name`` (with ``.<index>`` of the port where the
  layer has several outputs) for a ``Result``.

``names`` lists are comma-separated, a comma inside a name escaped as ``\\,``. A tensor with
no name at all reads as the name ``""`` (OpenVINO then has no name to give Triton).

Types are the ``Parameter``'s ``element_type`` and the ``precision`` of the port feeding a
``Result``, mapped to Triton's types as the OpenVINO backend maps them (``f32`` to
``TYPE_FP32``...); types the backend refuses (``f64``, ``bf16``, ``string``, ...) have no
Triton type. OpenVINO reads an IR v10 model with the old Inference Engine's types: an ``f16``
input is ``f32``, an output of any integer type of 32 or 64 bits is ``i32`` and any other output
that is not ``f32`` is ``f32``; the types read are those, as Triton sees them.

Dimensions are those of the ``Parameter``'s ``shape`` (``?``, ``-1`` and ranges such as
``1..8`` are not fixed: -1; ``...``, a dynamic rank, reads as unknown dims) and the ``<dim>``
elements of a ``Result``'s port; a port without ``<dim>`` elements is a scalar or of dynamic
rank, which the XML does not tell apart, so it reads as unknown dims. A tensor's layout
(``[N,C,H,W]``) is the ``layout`` runtime attribute of the port that holds the tensor (the
``Parameter``'s output, the port feeding a ``Result``), where the model was given one.

The XML is read with expat, in chunks, within a size limit; a document type declaration (which
no IR has, and which is where entity bombs and external entities live) stops the reading, so
no entity is ever expanded or fetched.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO
from xml.parsers import expat

from tritonlint.modelfiles.files import UnreadableFile, describe_size, regular_size
from tritonlint.modelfiles.signature import ModelFileProblem, ModelSignature, TensorSpec

#: Bytes of XML read: the IR of a model with billions of weights is some tens of megabytes.
MAX_XML_BYTES = 256 * 1024 * 1024

#: Nesting of elements (a loop body inside a loop body inside ...); IRs nest a few levels.
MAX_DEPTH = 256

#: Bytes fed to the parser at a time.
_CHUNK = 1024 * 1024

#: The IR versions OpenVINO reads (2022.1 and later dropped v7 and older).
_OLDEST_VERSION = 10

#: OpenVINO element types (as ``element_type`` or, upper case, as ``precision`` writes them)
#: that Triton's OpenVINO backend serves, and the Triton type it serves each as.
TRITON_TYPES = {
    "boolean": "TYPE_BOOL",
    "u8": "TYPE_UINT8",
    "u16": "TYPE_UINT16",
    "u32": "TYPE_UINT32",
    "u64": "TYPE_UINT64",
    "i8": "TYPE_INT8",
    "i16": "TYPE_INT16",
    "i32": "TYPE_INT32",
    "i64": "TYPE_INT64",
    "f16": "TYPE_FP16",
    "f32": "TYPE_FP32",
}

#: ``precision`` spellings that are not the element type in upper case.
_PRECISIONS = {"FP16": "f16", "FP32": "f32", "FP64": "f64", "BOOL": "boolean", "BIN": "u1"}

#: The layers whose every port is kept: the model's inputs and outputs.
_DETAILED = frozenset({"Parameter", "Result"})

#: Output types that OpenVINO reads as ``i32`` in an IR v10 model (other types: ``f32``).
_LEGACY_INTEGER_OUTPUTS = {"i32", "u32", "i64", "u64"}

_DIMENSION = re.compile(r"-1|\?|\d+|(\?|\d+)\.\.(\?|\d+)")


class _Unreadable(Exception):
    """The file is not an IR this reader can read; the message says why."""


@dataclass(slots=True)
class _Port:
    names: tuple[str, ...] = ()
    precision: str | None = None
    dims: list[int] = field(default_factory=list)
    #: The ``layout`` runtime attribute of the port's tensor (``[N,C,H,W]``), where it has one.
    layout: str | None = None


@dataclass(slots=True)
class _Layer:
    name: str
    type: str
    output_names: tuple[str, ...] | None = None
    element_type: str | None = None
    shape: str | None = None
    inputs: dict[str, _Port] = field(default_factory=dict)
    #: Output ports by id, in the order of the file (a port's index is its position here).
    outputs: dict[str, _Port] = field(default_factory=dict)


def read_openvino(path: Path) -> ModelSignature | ModelFileProblem:
    """The inputs and outputs of the IR at ``path`` (the ``.xml`` file)."""
    try:
        size = regular_size(path)
        if size > MAX_XML_BYTES:
            raise _Unreadable(f"is larger than {describe_size(MAX_XML_BYTES)}")
        with path.open("rb") as file:
            net = _Net()
            net.parse(file)
        inputs, outputs = net.tensors()
    except UnreadableFile as error:
        return ModelFileProblem(path, f"the OpenVINO model {error}")
    except _Unreadable as error:
        return ModelFileProblem(path, f"the OpenVINO model {error}")
    except OSError as error:
        return ModelFileProblem(
            path, f"the OpenVINO model cannot be read: {error.strerror or error}"
        )
    return ModelSignature(format="openvino", path=path, inputs=inputs, outputs=outputs)


class _Net:
    """What a streaming parse of an IR keeps: the top-level layers' ports and the edges into
    its Results."""

    def __init__(self) -> None:
        self.version: int | None = None
        self.layers: dict[str, _Layer] = {}
        #: (to-layer) -> (from-layer, from-port) of the edges into Result layers.
        self.feeds: dict[str, tuple[str, str]] = {}
        self._path: list[str] = []
        self._layer: _Layer | None = None
        self._port: _Port | None = None
        #: The port being read, of any layer: its runtime attributes are kept.
        self._any_port: _Port | None = None
        self._text: list[str] | None = None
        self._detailed = False

    def parse(self, file: BinaryIO) -> None:
        parser = expat.ParserCreate()
        parser.buffer_text = True
        parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
        parser.StartDoctypeDeclHandler = self._refuse_doctype
        parser.EntityDeclHandler = self._refuse_entity
        parser.ExternalEntityRefHandler = self._refuse_external
        parser.StartElementHandler = self._start
        parser.EndElementHandler = self._end
        parser.CharacterDataHandler = self._characters
        read = 0
        try:
            while chunk := file.read(_CHUNK):
                read += len(chunk)
                if read > MAX_XML_BYTES:
                    raise _Unreadable(f"is larger than {describe_size(MAX_XML_BYTES)}")
                parser.Parse(chunk, False)
            parser.Parse(b"", True)
        except expat.ExpatError as error:
            raise _Unreadable(
                f"is not well-formed XML: {expat.ErrorString(error.code)} at line "
                f"{error.lineno}, column {error.offset + 1}"
            ) from None
        except (LookupError, ValueError) as error:
            # An encoding that expat does not know is looked up among Python's codecs, which
            # may not have it (LookupError), or be no text encoding or a multi-byte one.
            raise _Unreadable(
                f"declares a character encoding that cannot be read ({error})"
            ) from None
        if self.version is None:
            raise _Unreadable("is not an OpenVINO IR file: it has no <net> element")

    def _refuse_doctype(self, *_: object) -> None:
        raise _Unreadable(
            "has a document type declaration, which IR files never have; it is not read "
            "(entity declarations can expand without bound)"
        )

    def _refuse_entity(self, *_: object) -> None:
        raise _Unreadable("declares an XML entity, which IR files never do; it is not read")

    def _refuse_external(self, *_: object) -> int:
        raise _Unreadable("refers to an external XML entity; it is not read")

    def _start(self, tag: str, attributes: dict[str, str]) -> None:
        path = self._path
        path.append(tag)
        depth = len(path)
        if depth > MAX_DEPTH:
            raise _Unreadable(f"nests elements more than {MAX_DEPTH} levels deep")
        if depth == 1:
            self._start_net(tag, attributes)
        elif depth == 3 and path[1] == "layers" and tag == "layer":
            self._start_layer(attributes)
        elif depth == 3 and path[1] == "edges" and tag == "edge":
            self._edge(attributes)
        elif self._layer is not None:
            self._start_in_layer(path, attributes)

    def _start_net(self, tag: str, attributes: dict[str, str]) -> None:
        if tag != "net":
            raise _Unreadable(f"is not an OpenVINO IR file: its root element is <{tag}>")
        version = attributes.get("version", "")
        if not version.isdigit():
            raise _Unreadable(f"has no IR version on <net> (version={version!r})")
        self.version = int(version)
        if self.version < _OLDEST_VERSION:
            raise _Unreadable(
                f"is IR version {self.version}; OpenVINO reads IR versions {_OLDEST_VERSION} "
                "and later (convert the model again)"
            )

    def _start_layer(self, attributes: dict[str, str]) -> None:
        identifier = attributes.get("id")
        if identifier is None:
            raise _Unreadable("has a <layer> without an id")
        layer = _Layer(name=attributes.get("name", ""), type=attributes.get("type", ""))
        # Of other layers only the output ports' names and types matter (they name and type
        # the Results they feed): their dims and input ports are not kept.
        self._detailed = layer.type in _DETAILED
        if "output_names" in attributes:
            layer.output_names = _names(attributes["output_names"])
        self.layers[identifier] = layer
        self._layer = layer

    def _start_in_layer(self, path: list[str], attributes: dict[str, str]) -> None:
        layer = self._layer
        assert layer is not None
        depth = len(path)
        if depth == 4 and path[3] == "data":
            layer.element_type = attributes.get("element_type")
            layer.shape = attributes.get("shape")
        elif depth == 5 and path[4] == "port" and path[3] in ("input", "output"):
            if path[3] == "input" and not self._detailed:
                return
            port = _Port(
                names=_names(attributes["names"]) if "names" in attributes else (),
                precision=attributes.get("precision"),
            )
            ports = layer.inputs if path[3] == "input" else layer.outputs
            ports[attributes.get("id", "")] = port
            self._any_port = port
            if self._detailed:
                self._port = port
        elif depth == 6 and path[5] == "dim" and self._port is not None:
            self._text = []
        elif (
            depth == 7
            and path[5:] == ["rt_info", "attribute"]
            and attributes.get("name") == "layout"
            and self._any_port is not None
        ):
            self._any_port.layout = attributes.get("layout")

    def _edge(self, attributes: dict[str, str]) -> None:
        target = self.layers.get(attributes.get("to-layer", ""))
        if target is not None and target.type == "Result":
            self.feeds[attributes["to-layer"]] = (
                attributes.get("from-layer", ""),
                attributes.get("from-port", ""),
            )

    def _characters(self, data: str) -> None:
        if self._text is not None:
            self._text.append(data)

    def _end(self, tag: str) -> None:
        path = self._path
        depth = len(path)
        path.pop()
        if self._text is not None and depth == 6:
            assert self._port is not None
            text = "".join(self._text).strip()
            self._text = None
            if text != "-1" and not (text.isascii() and text.isdigit()):
                raise _Unreadable(f"has a port dimension that is not a number: {text!r}")
            self._port.dims.append(int(text))
        elif depth == 5:
            self._port = self._any_port = None
        elif depth == 3 and tag == "layer":
            self._layer = None

    def tensors(self) -> tuple[tuple[TensorSpec, ...], tuple[TensorSpec, ...]]:
        """The model's inputs and outputs, in the file's order."""
        inputs = tuple(
            self._input(layer) for layer in self.layers.values() if layer.type == "Parameter"
        )
        outputs = tuple(
            self._output(identifier, layer)
            for identifier, layer in self.layers.items()
            if layer.type == "Result"
        )
        return inputs, outputs

    def _legacy(self) -> bool:
        return self.version == _OLDEST_VERSION

    def _input(self, layer: _Layer) -> TensorSpec:
        port = next(iter(layer.outputs.values()), _Port())
        names = set(port.names)
        if self._legacy():
            names.add(layer.name)
        element = layer.element_type or _element(port.precision)
        if self._legacy() and element == "f16":
            element = "f32"
        dims = _shape(layer.shape, layer.name) if layer.shape is not None else _dims(port)
        return _spec(names, element, dims, port.layout)

    def _output(self, identifier: str, layer: _Layer) -> TensorSpec:
        port = next(iter(layer.inputs.values()), _Port())
        names: set[str] = set(layer.output_names or ())
        source_port: _Port | None = None
        feed = self.feeds.get(identifier)
        if feed is not None:
            source = self.layers.get(feed[0])
            if source is not None:
                source_port = source.outputs.get(feed[1])
                if layer.output_names is None and source_port is not None:
                    names.update(source_port.names)
                if self._legacy():
                    names.add(_legacy_output_name(source, feed[1]))
        precision = port.precision or (source_port.precision if source_port else None)
        element = _element(precision)
        if self._legacy() and element is not None and element != "f32":
            element = "i32" if element in _LEGACY_INTEGER_OUTPUTS else "f32"
        layout = port.layout or (source_port.layout if source_port else None)
        return _spec(names, element, _dims(port), layout)


def _legacy_output_name(source: _Layer, port_id: str) -> str:
    """IR v10's name for an output: the feeding layer's name, and the port's index among the
    layer's outputs where it has several."""
    if len(source.outputs) <= 1:
        return source.name
    index = list(source.outputs).index(port_id) if port_id in source.outputs else 0
    return f"{source.name}.{index}"


def _spec(
    names: set[str], element: str | None, dims: tuple[int, ...] | None, layout: str | None
) -> TensorSpec:
    return TensorSpec(
        name=min(names) if names else "",
        data_type=TRITON_TYPES.get(element or ""),
        source_type=element,
        dims=dims,
        layout=layout,
    )


def _names(text: str) -> tuple[str, ...]:
    """The names of a ``names`` attribute: split at commas, ``\\,`` being a comma in a name."""
    names: list[str] = []
    pending = ""
    for piece in text.split(","):
        if piece.endswith("\\"):
            pending += piece[:-1] + ","
            continue
        names.append(pending + piece)
        pending = ""
    if pending:
        names.append(pending)
    return tuple(name for name in names if name)


def _element(precision: str | None) -> str | None:
    """The element type name (``f32``) of a port's ``precision`` (``FP32``)."""
    if precision is None:
        return None
    return _PRECISIONS.get(precision, precision.lower())


def _shape(text: str, layer: str) -> tuple[int, ...] | None:
    """Dimensions of a ``shape`` attribute: ``1,?,3..8`` is (1, -1, -1); ``...`` is unknown."""
    text = text.strip()
    if text == "...":
        return None
    if not text:
        return ()
    dims: list[int] = []
    for piece in text.split(","):
        piece = piece.strip()
        found = _DIMENSION.fullmatch(piece)
        if found is None:
            raise _Unreadable(f"has a shape that does not parse on layer {layer!r}: {text!r}")
        low, high = found.group(1), found.group(2)
        if piece.isdigit():
            dims.append(int(piece))
        elif low is not None and low == high and low.isdigit():
            dims.append(int(low))
        else:
            dims.append(-1)
    return tuple(dims)


def _dims(port: _Port) -> tuple[int, ...] | None:
    """A port's ``<dim>`` values; none at all is a scalar or a dynamic rank: unknown."""
    return tuple(port.dims) if port.dims else None
