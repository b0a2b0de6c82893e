"""The model files that rule cases and documented examples describe: made as described, read
back by tritonlint's readers as the description says, and descriptions that follow no form
refused where they are written."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from case_files import CaseFileError, load
from model_notation import (
    DATA,
    ModelDescription,
    NotationError,
    generator,
    torchscript_file,
    write_model,
)
from rule_examples import NotAnExample, parse_example

from tritonlint.modelfiles.onnx import read_onnx
from tritonlint.modelfiles.openvino import read_openvino
from tritonlint.modelfiles.savedmodel import read_savedmodel
from tritonlint.modelfiles.signature import ModelSignature, TensorSpec
from tritonlint.modelfiles.torchscript import read_torchscript

DESCRIBED = """
input "pixels" FP32 [N, 3, 224, 224]
input "scale" FP32 [3] initializer
input "anything" INT64
output "logits" FP16 [N, -1]
output "label" STRING [1]
"""


def test_an_onnx_description_is_the_model_onnx_reads(tmp_path: Path) -> None:
    write_model(tmp_path / "model.onnx", ModelDescription("ONNX", DESCRIBED))
    found = read_onnx(tmp_path / "model.onnx")
    assert isinstance(found, ModelSignature)
    assert found.inputs == (
        TensorSpec(
            "pixels", "TYPE_FP32", "tensor(float)", (-1, 3, 224, 224), ("N", None, None, None)
        ),
        TensorSpec("anything", "TYPE_INT64", "tensor(int64)", None),
    )
    assert found.optional_inputs == (TensorSpec("scale", "TYPE_FP32", "tensor(float)", (3,)),)
    assert found.outputs == (
        TensorSpec("logits", "TYPE_FP16", "tensor(float16)", (-1, -1), ("N", None)),
        TensorSpec("label", "TYPE_STRING", "tensor(string)", (1,)),
    )


def test_an_openvino_description_is_the_ir_tritonlint_reads(tmp_path: Path) -> None:
    text = (
        'input "x, y" FP32 [N, 3] layout [N,C]\ninput "flag" BOOL []\n'
        'output "z" INT64 [N, 2] layout NC\noutput "w" FP16'
    )
    write_model(tmp_path / "model.xml", ModelDescription("OpenVINO", text))
    found = read_openvino(tmp_path / "model.xml")
    assert isinstance(found, ModelSignature)
    assert [(i.name, i.data_type, i.dims, i.layout) for i in found.inputs] == [
        ("x, y", "TYPE_FP32", (-1, 3), "[N,C]"),
        ("flag", "TYPE_BOOL", (), None),
    ]
    assert [(o.name, o.data_type, o.dims, o.layout) for o in found.outputs] == [
        ("z", "TYPE_INT64", (-1, 2), "NC"),
        ("w", "TYPE_FP16", None, None),
    ]


def test_a_savedmodel_is_one_made_by_tensorflow(tmp_path: Path) -> None:
    write_model(tmp_path / "model.savedmodel", ModelDescription("SavedModel", "simple\n"))
    found = read_savedmodel(tmp_path / "model.savedmodel" / "saved_model.pb")
    assert isinstance(found, ModelSignature)
    assert [i.name for i in found.inputs] == ["features"]


SIGNATURES = generator().FORWARD_SIGNATURES


@pytest.mark.parametrize("signature", SIGNATURES.values(), ids=list(SIGNATURES))
def test_each_torchscript_signature_is_a_file_whose_forward_reads_as_written(
    signature: str,
) -> None:
    """The files are made ahead of time (torch is no test dependency): each one's forward, as
    the reader finds it in the archive, is the signature it is listed under."""
    found = read_torchscript(torchscript_file(signature))
    assert isinstance(found, ModelSignature)
    written = ast.parse(f"def {signature}: pass").body[0]
    assert isinstance(written, ast.FunctionDef) and written.returns is not None
    arguments = [(a.arg, ast.unparse(a.annotation)) for a in written.args.args[1:] if a.annotation]
    assert [(i.name, i.source_type) for i in found.inputs] == arguments
    returns = ast.unparse(written.returns)
    if returns == "Tensor":
        assert [o.source_type for o in found.outputs] == ["Tensor"]
    elif returns.startswith("Tuple["):
        assert len(found.outputs) == returns.count("Tensor")
    else:
        assert found.outputs == ()


def test_a_torchscript_signature_is_matched_whatever_its_line_breaks(tmp_path: Path) -> None:
    described = "forward(self, input_ids: Tensor,\n        attention_mask: Tensor) -> Tensor"
    write_model(tmp_path / "model.pt", ModelDescription("TorchScript", described))
    assert (tmp_path / "model.pt").read_bytes() == (
        DATA / "torchscript-forward" / "two_inputs.pt"
    ).read_bytes()


@pytest.mark.parametrize(
    ("model", "error"),
    [
        (ModelDescription("ONNX", 'input "x" FLOAT [1]'), "FLOAT is no Triton type"),
        (ModelDescription("ONNX", "input x FP32 [1]"), 'not `input|output "NAME" TYPE [DIMS]`'),
        (ModelDescription("ONNX", 'input "x" FP32 [1.5]'), "a dimension is a size, -1 or a name"),
        (ModelDescription("ONNX", 'output "y" FP32 [2] initializer'), "only an ONNX input"),
        (ModelDescription("ONNX", 'input "w" FP32 [N] initializer'), "an initializer has fixed"),
        (ModelDescription("OpenVINO", 'input "w" FP32 [2] initializer'), "only an ONNX input"),
        (ModelDescription("ONNX", 'input "w" FP32 [2] layout NC'), "only an OpenVINO tensor"),
        (ModelDescription("ONNX", "\n"), "a model without inputs or outputs"),
        (
            ModelDescription("TorchScript", "forward(self, q: Tensor) -> Tensor"),
            "FORWARD_SIGNATURES",
        ),
        (ModelDescription("SavedModel", "nothing"), "no SavedModel 'nothing'"),
        (ModelDescription("TensorRT", "x"), "<TensorRT> is none of ONNX, OpenVINO"),
    ],
    ids=[
        "type",
        "unquoted",
        "dimension",
        "output-initializer",
        "variable-initializer",
        "openvino-initializer",
        "onnx-layout",
        "empty",
        "unmade-signature",
        "unknown-savedmodel",
        "format",
    ],
)
def test_a_description_that_follows_no_form_is_refused(
    tmp_path: Path, model: ModelDescription, error: str
) -> None:
    with pytest.raises(NotationError, match=error.replace("|", "\\|").replace("[", "\\[")):
        write_model(tmp_path / "model", model)


def test_an_example_tree_describes_a_model_file_below_its_path() -> None:
    example = parse_example(
        "model_repository/m/1/model.onnx: <ONNX>   # the model\n"
        '  input "x" FP32 [N, 3]\n'
        '  output "y" FP32 [N, 1]\n'
        "model_repository/m/1/model.pt: <TorchScript>\n"
        "  forward(self, x: Tensor) -> Tuple[Tensor, Tensor]\n"
    )
    assert example.files == {
        "model_repository/m/1/model.onnx": ModelDescription(
            "ONNX", 'input "x" FP32 [N, 3]\noutput "y" FP32 [N, 1]\n'
        ),
        "model_repository/m/1/model.pt": ModelDescription(
            "TorchScript", "forward(self, x: Tensor) -> Tuple[Tensor, Tensor]\n"
        ),
    }


def test_an_example_with_a_description_that_follows_no_form_is_refused() -> None:
    with pytest.raises(NotAnExample, match=r"model_repository/m/1/model.onnx: FLOAT is no"):
        parse_example('model_repository/m/1/model.onnx: <ONNX>\n  input "x" FLOAT [1]\n')


def test_a_case_file_with_a_description_that_follows_no_form_names_the_file(
    tmp_path: Path,
) -> None:
    path = tmp_path / "TL902.toml"
    path.write_text(
        '[[pass]]\nconfig = ""\n[pass.files]\n"m/1/model.onnx" = { onnx = \'input "x" F [1]\' }\n',
        encoding="utf-8",
    )
    with pytest.raises(CaseFileError, match=r"^TL902\.toml: .*F is no Triton type"):
        load(path)
