"""The OpenVINO IR reader: inputs and outputs of IR files OpenVINO wrote, as OpenVINO itself
reads them, and a clear problem for hostile or broken XML."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from framework_files import DATA, generator

from tritonlint.modelfiles.openvino import MAX_DEPTH, MAX_XML_BYTES, read_openvino
from tritonlint.modelfiles.signature import ModelFileProblem, ModelSignature, TensorSpec

FILES = DATA / "openvino"

Tensors = list[tuple[str, str | None, str | None, tuple[int, ...] | None]]


def view(tensors: tuple[TensorSpec, ...]) -> Tensors:
    return [(t.name, t.source_type, t.data_type, t.dims) for t in tensors]


def read(path: Path) -> ModelSignature:
    result = read_openvino(path)
    assert isinstance(result, ModelSignature), result
    return result


def problem(path: Path) -> str:
    result = read_openvino(path)
    assert isinstance(result, ModelFileProblem), result
    assert result.path == path
    return result.message


def xml(tmp_path: Path, text: str, name: str = "model.xml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_add_in_full() -> None:
    path = FILES / "add.xml"
    assert read_openvino(path) == ModelSignature(
        format="openvino",
        path=path,
        inputs=(
            TensorSpec("x", "TYPE_FP32", "f32", (-1, 3)),
            TensorSpec("y", "TYPE_FP32", "f32", (1, 3)),
        ),
        outputs=(
            TensorSpec("as_int", "TYPE_INT64", "i64", (-1, 3)),
            TensorSpec("sum", "TYPE_FP32", "f32", (-1, 3)),
            TensorSpec("copy", "TYPE_FP32", "f32", (-1, 3)),
        ),
    )


def test_types_converted_from_onnx() -> None:
    result = read(FILES / "types.xml")
    assert view(result.inputs) == [
        ("pixels", "u8", "TYPE_UINT8", (1, -1, 3)),
        ("lengths", "i32", "TYPE_INT32", (-1,)),
        ("mask", "boolean", "TYPE_BOOL", (2, 2)),
    ]
    assert view(result.outputs) == [
        ("scores", "f16", "TYPE_FP16", (1, -1, 3)),
        ("lengths_long", "i64", "TYPE_INT64", (-1,)),
        ("inverted", "boolean", "TYPE_BOOL", (2, 2)),
    ]


def test_each_element_type_and_what_triton_serves_it_as() -> None:
    result = read(FILES / "element_types.xml")
    expected = {
        "f32": "TYPE_FP32",
        "f16": "TYPE_FP16",
        "bf16": None,
        "f64": None,
        "i8": "TYPE_INT8",
        "i16": "TYPE_INT16",
        "i32": "TYPE_INT32",
        "i64": "TYPE_INT64",
        "u8": "TYPE_UINT8",
        "u16": "TYPE_UINT16",
        "u32": "TYPE_UINT32",
        "u64": "TYPE_UINT64",
        "boolean": "TYPE_BOOL",
    }
    assert view(result.inputs) == [(f"in_{t}", t, triton, (2,)) for t, triton in expected.items()]
    assert view(result.outputs) == [(f"out_{t}", t, triton, (2,)) for t, triton in expected.items()]


def test_names_bounds_and_ranks() -> None:
    result = read(FILES / "names.xml")
    assert view(result.inputs) == [
        # The smallest of "tokens", "b tokens" and "alias, with comma" (written alias\, with comma).
        ("alias, with comma", "f32", "TYPE_FP32", (-1, 3)),
        ("bounded", "i64", "TYPE_INT64", (-1, -1, 4)),  # 1..8,?,4
        ("anything", "f32", "TYPE_FP32", None),  # ...
        ("scalar", "u8", "TYPE_UINT8", ()),
    ]
    assert view(result.outputs) == [
        ("activations", "f32", "TYPE_FP32", (-1, 3)),
        ("halves", "f16", "TYPE_FP16", (-1, -1, 4)),
        ("root", "f32", "TYPE_FP32", None),  # a dynamic rank: no <dim> on the port
        ("flags", "boolean", "TYPE_BOOL", None),  # a scalar: no <dim> either
    ]


def test_parameters_and_results_of_branch_bodies_are_not_the_models() -> None:
    result = read(FILES / "branches.xml")
    assert view(result.inputs) == [
        ("choice", "boolean", "TYPE_BOOL", ()),
        ("value", "f32", "TYPE_FP32", (2,)),
    ]
    assert view(result.outputs) == [("chosen", "f32", "TYPE_FP32", (2,))]


def test_ir_v10_names_and_types() -> None:
    # Layer names join the tensor names; "x" kept its names attribute, but "layer_x" sorts first.
    result = read(FILES / "legacy_v10.xml")
    assert view(result.inputs) == [
        ("layer_x", "f32", "TYPE_FP32", (-1, 3)),
        ("layer_y", "f32", "TYPE_FP32", (1, 3)),
    ]
    assert view(result.outputs) == [
        ("layer_as_int", "i32", "TYPE_INT32", (-1, 3)),  # i64 reads as i32 in IR v10
        ("layer_sum", "f32", "TYPE_FP32", (-1, 3)),
        ("layer_copy", "f32", "TYPE_FP32", (-1, 3)),
    ]


def test_ir_v10_types() -> None:
    result = read(FILES / "legacy_types_v10.xml")
    assert [(t.name, t.source_type) for t in result.inputs][:3] == [
        ("layer_in_f32", "f32"),
        ("in_f16", "f32"),  # its port kept the name in_f16, which sorts before layer_in_f16
        ("layer_in_bf16", "bf16"),
    ]
    assert [t.source_type for t in result.outputs] == [
        "f32", "f32", "f32", "f32", "f32", "f32", "i32", "i32", "f32", "f32", "i32", "i32", "f32"
    ]  # fmt: skip


def test_an_older_writer_without_output_names(tmp_path: Path) -> None:
    text = re.sub(r' output_names="[^"]*"', "", (FILES / "names.xml").read_text())
    shutil.copyfile(FILES / "names.bin", tmp_path / "model.bin")
    result = read(xml(tmp_path, text))
    # Each output is named by the port that feeds it (activations and relu: activations).
    assert [t.name for t in result.outputs] == ["activations", "halves", "root", "flags"]


def without_names(tmp_path: Path) -> Path:
    text = re.sub(r' (output_)?names="[^"]*"', "", (FILES / "add.xml").read_text())
    shutil.copyfile(FILES / "add.bin", tmp_path / "model.bin")
    return xml(tmp_path, text)


def test_tensors_without_names(tmp_path: Path) -> None:
    result = read(without_names(tmp_path))
    assert [t.name for t in (*result.inputs, *result.outputs)] == ["", "", "", "", ""]


def ov_view(path: Path) -> tuple[Tensors, Tensors]:
    """Inputs and outputs as OpenVINO reads them (Triton's backend takes get_any_name())."""
    import openvino

    model = openvino.Core().read_model(str(path))

    def tensors(ports: list[openvino.Output]) -> Tensors:
        found: Tensors = []
        for port in ports:
            shape = port.get_partial_shape()
            dims = None
            if shape.rank.is_static:
                dims = tuple(-1 if dim.is_dynamic else dim.get_length() for dim in shape)
            element = port.get_element_type().get_type_name()
            name = port.get_any_name() if port.get_names() else ""
            found.append((name, element, None, dims))
        return found

    return tensors(model.inputs), tensors(model.outputs)


def comparable(
    signature: ModelSignature, openvino_view: tuple[Tensors, Tensors]
) -> tuple[Tensors, Tensors]:
    """The reader's view in OpenVINO's terms: types without Triton's, and an output the XML
    does not give dims for is taken to be what OpenVINO says where that is a scalar or of
    dynamic rank (the two cases the XML does not tell apart)."""
    inputs = [(name, element, None, dims) for name, element, _, dims in view(signature.inputs)]
    outputs: Tensors = []
    for (name, element, _, dims), (_, _, _, theirs) in zip(
        view(signature.outputs), openvino_view[1], strict=False
    ):
        if dims is None and theirs in (None, ()):
            dims = theirs
        outputs.append((name, element, None, dims))
    return inputs, outputs


def agrees_with_openvino(path: Path) -> None:
    theirs = ov_view(path)
    assert comparable(read(path), theirs) == theirs, path.name


def test_checked_in_files_agree_with_openvino() -> None:
    pytest.importorskip("openvino", reason="OpenVINO is not installed")
    paths = sorted(FILES.glob("*.xml"))
    assert len(paths) == 7
    for path in paths:
        agrees_with_openvino(path)


def test_fresh_files_agree_with_openvino(tmp_path: Path) -> None:
    pytest.importorskip("openvino", reason="OpenVINO is not installed")
    pytest.importorskip("onnx", reason="onnx is not installed")
    generator().make_openvino(tmp_path)
    paths = sorted(tmp_path.glob("*.xml"))
    assert [path.name for path in paths] == sorted(path.name for path in FILES.glob("*.xml"))
    for path in paths:
        agrees_with_openvino(path)


def test_edited_files_agree_with_openvino(tmp_path: Path) -> None:
    pytest.importorskip("openvino", reason="OpenVINO is not installed")
    text = re.sub(r' output_names="[^"]*"', "", (FILES / "names.xml").read_text())
    shutil.copyfile(FILES / "names.bin", tmp_path / "older.bin")
    agrees_with_openvino(xml(tmp_path, text, "older.xml"))
    agrees_with_openvino(without_names(tmp_path))


BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE net [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<net name="&lol9;" version="11"><layers/></net>
"""

DOCTYPE_REFUSED = (
    "the OpenVINO model has a document type declaration, which IR files never have; it is not "
    "read (entity declarations can expand without bound)"
)


def test_billion_laughs(tmp_path: Path) -> None:
    assert problem(xml(tmp_path, BILLION_LAUGHS)) == DOCTYPE_REFUSED


def test_an_external_entity_is_never_fetched(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("do not read me")
    text = (
        f'<?xml version="1.0"?><!DOCTYPE net [<!ENTITY leak SYSTEM "file://{secret}">]>'
        '<net version="11"><layers><layer id="0" name="&leak;" type="Parameter"/></layers></net>'
    )
    assert problem(xml(tmp_path, text)) == DOCTYPE_REFUSED


def test_a_larger_file_than_the_limit_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "model.xml"
    with path.open("wb") as file:
        file.truncate(MAX_XML_BYTES + 1)  # a hole: nothing is written, nothing is read
    assert problem(path) == "the OpenVINO model is larger than 256 MiB"


def test_elements_nested_past_the_limit(tmp_path: Path) -> None:
    depth = MAX_DEPTH + 10
    text = '<net version="11">' + "<a>" * depth + "</a>" * depth + "</net>"
    assert problem(xml(tmp_path, text)) == (
        f"the OpenVINO model nests elements more than {MAX_DEPTH} levels deep"
    )


def test_random_bytes(tmp_path: Path) -> None:
    path = tmp_path / "model.xml"
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + os.urandom(1024))
    assert problem(path).startswith("the OpenVINO model is not well-formed XML: ")


def test_every_truncation_of_a_real_file_is_a_problem(tmp_path: Path) -> None:
    text = (FILES / "names.xml").read_text()
    for size in range(1, len(text) - 10, 41):
        assert problem(xml(tmp_path, text[:size])).startswith("the OpenVINO model "), size


#: An XML file that is no IR OpenVINO reads, and what the reader says of it.
NOT_AN_IR = {
    "empty": (
        "",
        "the OpenVINO model is not well-formed XML: no element found at line 1, column 1",
    ),
    "another-document": (
        "<html><body/></html>",
        "the OpenVINO model is not an OpenVINO IR file: its root element is <html>",
    ),
    "ir-version-7": (
        '<net name="old" version="7"><layers/></net>',
        "the OpenVINO model is IR version 7; OpenVINO reads IR versions 10 and later "
        "(convert the model again)",
    ),
    "no-ir-version": (
        '<net name="x"><layers/></net>',
        "the OpenVINO model has no IR version on <net> (version='')",
    ),
    "layer-without-id": (
        '<net version="11"><layers><layer name="x" type="Parameter"/></layers></net>',
        "the OpenVINO model has a <layer> without an id",
    ),
    "shape-that-does-not-parse": (
        '<net version="11"><layers><layer id="0" name="x" type="Parameter">'
        '<data shape="1,two" element_type="f32"/></layer></layers></net>',
        "the OpenVINO model has a shape that does not parse on layer 'x': '1,two'",
    ),
    "port-dimension-not-a-number": (
        '<net version="11"><layers><layer id="0" name="y" type="Result"><input>'
        '<port id="0" precision="FP32"><dim>many</dim></port></input></layer></layers></net>',
        "the OpenVINO model has a port dimension that is not a number: 'many'",
    ),
}


@pytest.mark.parametrize(("text", "message"), NOT_AN_IR.values(), ids=NOT_AN_IR)
def test_a_file_that_is_no_ir(tmp_path: Path, text: str, message: str) -> None:
    assert problem(xml(tmp_path, text)) == message


def test_layouts_are_those_openvino_reads(tmp_path: Path) -> None:
    """A layout set on an input, on an output, and none on another output: each tensor's
    layout is the one OpenVINO gives it (``get_layout``), none where it gives none."""
    openvino = pytest.importorskip("openvino", reason="OpenVINO is not installed")
    from openvino import opset13 as ops

    pixels = ops.parameter([-1, 3, 8, 8], openvino.Type.f32, name="pixels")
    pixels.output(0).set_names({"pixels"})
    pixels.set_layout(openvino.Layout("NCHW"))
    scores = ops.relu(pixels)
    scores.output(0).set_names({"scores"})
    doubled = ops.multiply(pixels, pixels)
    doubled.output(0).set_names({"doubled"})
    laid_out = ops.result(scores)
    laid_out.set_layout(openvino.Layout("N..."))
    model = openvino.Model([laid_out, ops.result(doubled)], [pixels], "layouts")
    path = tmp_path / "model.xml"
    openvino.save_model(model, str(path))
    found = read(path)
    read_back = openvino.Core().read_model(str(path))
    theirs = [
        openvino.layout_helpers.get_layout(port).to_string()
        for port in (*read_back.inputs, *read_back.outputs)
    ]
    assert theirs == ["[N,C,H,W]", "[N,...]", "[...]"]  # the last: no layout
    assert [t.layout for t in (*found.inputs, *found.outputs)] == ["[N,C,H,W]", "[N,...]", None]


@pytest.mark.parametrize(
    ("encoding", "why"),
    [
        ("x-nope", "unknown encoding: x-nope"),
        ("rot13", "'rot13' is not a text encoding"),
        ("shift_jis", "multi-byte encodings are not supported"),
    ],
)
def test_a_declared_encoding_that_cannot_be_read(tmp_path: Path, encoding: str, why: str) -> None:
    path = tmp_path / "model.xml"
    path.write_bytes(f'<?xml version="1.0" encoding="{encoding}"?>\n<net version="11"/>'.encode())
    message = problem(path)
    assert message.startswith(
        "the OpenVINO model declares a character encoding that cannot be read ("
    )
    assert why in message
