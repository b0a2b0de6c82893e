"""The TorchScript reader: forward's arguments from archives torch.jit.save wrote, and a clear
problem for every archive that is not one."""

from __future__ import annotations

import io
import os
import pickle
import struct
import subprocess
import sys
import zipfile
from collections import OrderedDict
from pathlib import Path

import pytest
from byte_tools import with_peak_memory
from framework_files import DATA, generator

from tritonlint.modelfiles.signature import ModelFileProblem, ModelSignature, TensorSpec
from tritonlint.modelfiles.torchscript import MAX_CODE_BYTES, MAX_MEMBERS, read_torchscript

FILES = DATA / "torchscript"

#: What each checked-in archive's forward says: (name, annotation) of each input, and the
#: annotation of each output where the return annotation counts them.
EXPECTED = {
    "one_input": ([("x", "Tensor")], ["Tensor"]),
    "three_inputs": (
        [("input_ids", "Tensor"), ("attention_mask", "Tensor"), ("token_type_ids", "Tensor")],
        ["Tensor", "Tensor"],
    ),
    "defaults": ([("x", "Tensor"), ("scale", "float"), ("bias", "Optional[Tensor]")], ["Tensor"]),
    "dict_input": ([("inputs", "Dict[str, Tensor]")], []),
    "list_output": ([("x", "Tensor"), ("y", "Tensor")], []),
    "traced": ([("left", "Tensor"), ("right", "Tensor")], ["Tensor", "Tensor", "Tensor"]),
}

#: A pickle whose first opcodes name the class ``__torch__.Model`` (protocol 2: GLOBAL), and
#: the same with protocol 4's STACK_GLOBAL; neither is ever unpickled.
TORCH_PICKLE = b"\x80\x02c__torch__\nModel\nq\x00)\x81q\x01}q\x02b."
TORCH_PICKLE_4 = b"\x80\x04\x95\x10\x00\x00\x00\x00\x00\x00\x00\x8c\t__torch__\x94\x8c\x05Model\x94\x93\x94)\x81."
MODEL_CODE = b"class Model(Module):\n  def forward(self: __torch__.Model,\n    x: Tensor) -> Tensor:\n    return x\n"


def view(
    result: ModelSignature | ModelFileProblem,
) -> tuple[list[tuple[str, str | None]], list[str | None]]:
    assert isinstance(result, ModelSignature), result
    return (
        [(tensor.name, tensor.source_type) for tensor in result.inputs],
        [tensor.source_type for tensor in result.outputs],
    )


def problem(path: Path) -> str:
    result = read_torchscript(path)
    assert isinstance(result, ModelFileProblem), result
    assert result.path == path
    return result.message


def archive(path: Path, members: dict[str, bytes], compression: int = zipfile.ZIP_STORED) -> Path:
    with zipfile.ZipFile(path, "w", compression=compression) as zipped:
        for name, data in members.items():
            zipped.writestr(name, data)
    return path


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_reads_forward_of_archives_torch_wrote(name: str) -> None:
    path = FILES / f"{name}.pt"
    result = read_torchscript(path)
    assert view(result) == EXPECTED[name]
    assert isinstance(result, ModelSignature)
    assert result.format == "torchscript"
    assert result.path == path
    outputs = [tensor.name for tensor in result.outputs]
    assert outputs == [str(index) for index in range(len(outputs))]
    assert all(t.data_type is None and t.dims is None for t in (*result.inputs, *result.outputs))


def test_one_input_in_full() -> None:
    assert read_torchscript(FILES / "one_input.pt") == ModelSignature(
        format="torchscript",
        path=FILES / "one_input.pt",
        inputs=(TensorSpec("x", None, "Tensor", None),),
        outputs=(TensorSpec("0", None, "Tensor", None),),
    )


def torch_view(path: Path) -> tuple[list[tuple[str, str]], list[str]]:
    """forward's inputs and counted outputs as torch itself loads them."""
    import torch

    schema = torch.jit.load(str(path)).forward.schema
    inputs = [(argument.name, argument.type.annotation_str) for argument in schema.arguments[1:]]
    (returned,) = schema.returns
    if isinstance(returned.type, torch.TupleType):
        outputs = [element.annotation_str for element in returned.type.elements()]
    elif isinstance(returned.type, torch.TensorType):
        outputs = ["Tensor"]
    else:
        outputs = []
    return inputs, outputs


#: torch 2.13 warns that TorchScript is deprecated; Triton's PyTorch backend still loads it.
quiet_torch = pytest.mark.filterwarnings("ignore:`torch.jit:DeprecationWarning")


@quiet_torch
def test_checked_in_archives_agree_with_torch() -> None:
    pytest.importorskip("torch", reason="torch is not installed (CI does not install it)")
    for path in sorted(FILES.glob("*.pt")):
        assert view(read_torchscript(path)) == torch_view(path), path.name


@quiet_torch
def test_fresh_archives_agree_with_torch(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch", reason="torch is not installed (CI does not install it)")
    made = generator().make_torchscript(tmp_path)
    assert made == f"torch {torch.__version__}"
    paths = sorted(tmp_path.glob("*.pt"))
    assert [path.stem for path in paths] == sorted(EXPECTED)
    for path in paths:
        assert view(read_torchscript(path)) == torch_view(path), path.name


def test_reads_a_class_named_by_stack_global(tmp_path: Path) -> None:
    path = archive(
        tmp_path / "model.pt",
        {"model/data.pkl": TORCH_PICKLE_4, "model/code/__torch__.py": MODEL_CODE},
    )
    assert view(read_torchscript(path)) == ([("x", "Tensor")], ["Tensor"])


def test_reads_deflated_members(tmp_path: Path) -> None:
    members = {"model/data.pkl": TORCH_PICKLE, "model/code/__torch__.py": MODEL_CODE}
    path = archive(tmp_path / "model.pt", members, zipfile.ZIP_DEFLATED)
    assert view(read_torchscript(path)) == ([("x", "Tensor")], ["Tensor"])


def test_empty_file(tmp_path: Path) -> None:
    (tmp_path / "model.pt").write_bytes(b"")
    assert problem(tmp_path / "model.pt") == "the TorchScript model is empty"


def test_random_bytes(tmp_path: Path) -> None:
    path = tmp_path / "model.pt"
    path.write_bytes(os.urandom(4096).replace(b"PK", b"pk"))
    assert problem(path) == "the TorchScript model is not a zip archive (torch.jit.save writes one)"


def test_every_truncation_of_a_real_archive_is_a_problem(tmp_path: Path) -> None:
    data = (FILES / "three_inputs.pt").read_bytes()
    path = tmp_path / "model.pt"
    for size in range(1, len(data), 37):
        path.write_bytes(data[:size])
        assert problem(path).startswith("the TorchScript model "), size


def test_every_damaged_byte_of_a_real_archive_reads_or_is_a_problem(tmp_path: Path) -> None:
    data = (FILES / "traced.pt").read_bytes()
    path = tmp_path / "model.pt"
    for at in range(0, len(data), 23):
        damaged = bytearray(data)
        damaged[at] ^= 0xFF
        path.write_bytes(bytes(damaged))
        result = read_torchscript(path)
        assert isinstance(result, (ModelSignature, ModelFileProblem)), at


def test_saved_with_torch_save(tmp_path: Path) -> None:
    # torch.save writes data.pkl (here an OrderedDict of weights) and no code.
    members = {
        "archive/data.pkl": pickle.dumps(OrderedDict(), protocol=2),
        "archive/version": b"3\n",
    }
    path = archive(tmp_path / "model.pt", members)
    assert problem(path) == (
        "the TorchScript model is not a TorchScript archive: it has no code (saved with "
        "torch.save rather than torch.jit.save?)"
    )


def test_data_pkl_of_another_object(tmp_path: Path) -> None:
    members = {
        "archive/data.pkl": pickle.dumps(OrderedDict(), protocol=2),
        "archive/code/__torch__.py": MODEL_CODE,
    }
    path = archive(tmp_path / "model.pt", members)
    assert problem(path) == (
        "the TorchScript model is not a TorchScript module: its data.pkl holds a "
        "collections.OrderedDict, not a scripted or traced module (saved with torch.save "
        "rather than torch.jit.save?)"
    )


def test_data_pkl_that_is_not_a_pickle(tmp_path: Path) -> None:
    members = {
        "archive/data.pkl": b"\xff\xfe not a pickle",
        "archive/code/__torch__.py": MODEL_CODE,
    }
    assert problem(archive(tmp_path / "model.pt", members)).startswith(
        "the TorchScript model has an unreadable data.pkl ("
    )


def test_archive_without_data_pkl(tmp_path: Path) -> None:
    path = archive(tmp_path / "model.pt", {"model/code/__torch__.py": MODEL_CODE})
    assert (
        problem(path)
        == "the TorchScript model is not a TorchScript archive (it has no model/data.pkl)"
    )


def test_members_not_in_a_folder(tmp_path: Path) -> None:
    path = archive(tmp_path / "model.pt", {"data.pkl": TORCH_PICKLE})
    assert problem(path) == (
        "the TorchScript model is not a TorchScript archive ('data.pkl' is not in a folder)"
    )


def test_empty_archive(tmp_path: Path) -> None:
    path = archive(tmp_path / "model.pt", {})
    assert problem(path) == "the TorchScript model is an empty zip archive"


def test_missing_code_file(tmp_path: Path) -> None:
    members = {"model/data.pkl": TORCH_PICKLE, "model/code/__torch__/other.py": MODEL_CODE}
    path = archive(tmp_path / "model.pt", members)
    assert problem(path) == "the TorchScript model has no code for its module class __torch__.Model"


def test_class_missing_from_its_code(tmp_path: Path) -> None:
    members = {
        "model/data.pkl": TORCH_PICKLE,
        "model/code/__torch__.py": b"class Other(Module):\n  pass\n",
    }
    path = archive(tmp_path / "model.pt", members)
    assert problem(path) == "the TorchScript model has no class Model in model/code/__torch__.py"


def test_class_without_forward(tmp_path: Path) -> None:
    code = b"class Model(Module):\n  def helper(self: __torch__.Model) -> int:\n    return 1\n"
    members = {"model/data.pkl": TORCH_PICKLE, "model/code/__torch__.py": code}
    path = archive(tmp_path / "model.pt", members)
    assert problem(path) == "the TorchScript model has no forward method in its module class Model"


def test_code_that_does_not_parse(tmp_path: Path) -> None:
    code = b"class Model(Module):\n  def forward(self: __torch__.Model, x: Tensor -> Tensor:\n"
    members = {"model/data.pkl": TORCH_PICKLE, "model/code/__torch__.py": code}
    message = problem(archive(tmp_path / "model.pt", members))
    assert message.startswith(
        "the TorchScript model has code that does not parse: model/code/__torch__.py ("
    )


def test_a_deflate_bomb_is_not_inflated(tmp_path: Path) -> None:
    # 64 MiB of spaces after the class compress to some 64 KiB; only MAX_CODE_BYTES + 1 of them
    # are ever inflated.
    bomb = MODEL_CODE + b" " * (64 * 1024 * 1024)
    members = {"model/data.pkl": TORCH_PICKLE, "model/code/__torch__.py": bomb}
    path = archive(tmp_path / "model.pt", members, zipfile.ZIP_DEFLATED)
    del bomb, members
    assert path.stat().st_size < 1024 * 1024
    message, peak = with_peak_memory(lambda: problem(path))
    assert message == (
        "the TorchScript model has a code file larger than 4 MiB: model/code/__torch__.py"
    )
    assert peak < 3 * MAX_CODE_BYTES


def with_zip64_end(data: bytes, members: int, directory: int) -> bytes:
    """A zip whose end records (zip64 ones, as for a huge archive) claim these sizes."""
    end = data.rfind(b"PK\x05\x06")
    (offset,) = struct.unpack_from("<I", data, end + 16)
    record = b"PK\x06\x06" + struct.pack(
        "<QHHIIQQQQ", 44, 45, 45, 0, 0, members, members, directory, offset
    )
    locator = b"PK\x06\x07" + struct.pack("<IQI", 0, end, 1)
    classic = b"PK\x05\x06" + struct.pack(
        "<HHHHIIH", 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0
    )
    return data[:end] + record + locator + classic


def test_too_many_members_are_refused_before_zipfile_reads_them(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zipped:
        zipped.writestr("model/data.pkl", TORCH_PICKLE)
    path = tmp_path / "model.pt"
    path.write_bytes(with_zip64_end(buffer.getvalue(), MAX_MEMBERS + 1, 100))
    assert problem(path) == (
        f"the TorchScript model has {MAX_MEMBERS + 1} archive members, more than {MAX_MEMBERS} "
        "are not read"
    )


def test_a_huge_central_directory_is_refused(tmp_path: Path) -> None:
    path = archive(tmp_path / "model.pt", {"model/data.pkl": TORCH_PICKLE})
    data = bytearray(path.read_bytes())
    end = data.rfind(b"PK\x05\x06")
    struct.pack_into("<I", data, end + 12, 0x7FFFFFFF)
    path.write_bytes(bytes(data))
    assert problem(path) == "the TorchScript model has a zip directory larger than 32 MiB"


def test_zip64_end_records_of_a_small_archive_are_read(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zipped:
        zipped.writestr("model/data.pkl", TORCH_PICKLE)
        zipped.writestr("model/code/__torch__.py", MODEL_CODE)
    data = buffer.getvalue()
    end = data.rfind(b"PK\x05\x06")
    (directory,) = struct.unpack_from("<I", data, end + 12)
    path = tmp_path / "model.pt"
    path.write_bytes(with_zip64_end(data, 2, directory))
    assert view(read_torchscript(path)) == ([("x", "Tensor")], ["Tensor"])


def code_archive(tmp_path: Path, code: bytes) -> Path:
    members = {"model/data.pkl": TORCH_PICKLE, "model/code/__torch__.py": code}
    return archive(tmp_path / "model.pt", members, zipfile.ZIP_DEFLATED)


def test_forward_of_the_module_class_among_others(tmp_path: Path) -> None:
    code = (
        b"class Helper(Module):\n"
        b"  def forward(self: __torch__.Helper,\n    y: int) -> int:\n    return y\n"
        b"class Model(Module):\n"
        b"  training : bool\n"
        b"  def helper(self: __torch__.Model) -> int:\n"
        b"    def forward(z: float) -> float:\n      return z\n"
        b"    return 1\n"
        b"  def forward(self: __torch__.Model,\n"
        b"    x: Tensor,\n"
        b"    y: Dict[str, Tensor]=None) -> Tuple[Tensor, Tensor]:\n"
        b"    _0 = {'a:': x}\n"
        b"    return (x, x)\n"
        b"class Other(Module):\n"
        b"  def forward(self: __torch__.Other) -> Tensor:\n    return 1\n"
    )
    assert view(read_torchscript(code_archive(tmp_path, code))) == (
        [("x", "Tensor"), ("y", "Dict[str, Tensor]")],
        ["Tensor", "Tensor"],
    )


def test_forward_with_its_body_on_the_same_line(tmp_path: Path) -> None:
    code = b"class Model(Module):\n  def forward(self: __torch__.Model, x: Tensor) -> Tensor: return x\n"
    assert view(read_torchscript(code_archive(tmp_path, code))) == ([("x", "Tensor")], ["Tensor"])


#: A forward header past what the reader reads, and what it says of it.
FORWARD_PAST_A_LIMIT = {
    "attribute-chain-too-deep": (
        b"class Model(Module):\n  def forward(self: __torch__.Model,\n    x: "
        + b"a"
        + b".b" * 900
        + b") -> Tensor:\n    return x\n",
        "the TorchScript model is too deeply nested to read: an annotation of forward in "
        "model/code/__torch__.py nests more than 100 levels",
    ),
    "header-too-long": (
        b"class Model(Module):\n  def forward(self: __torch__.Model,\n"
        + b"".join(b"    x%d: Tensor,\n" % index for index in range(20_000))
        + b"    last: Tensor) -> Tensor:\n    return last\n",
        "the TorchScript model has a forward definition longer than 262144 characters: "
        "model/code/__torch__.py",
    ),
}


@pytest.mark.parametrize(
    ("code", "message"), FORWARD_PAST_A_LIMIT.values(), ids=FORWARD_PAST_A_LIMIT
)
def test_a_forward_header_past_a_limit(tmp_path: Path, code: bytes, message: str) -> None:
    assert problem(code_archive(tmp_path, code)) == message


def test_a_small_archive_whose_code_inflates_past_the_budget(tmp_path: Path) -> None:
    # Some 8 MB of code in an archive of a few kilobytes: refused once 4 MiB are inflated.
    code = MODEL_CODE + b"    _0 = x\n" * 720_000
    path = code_archive(tmp_path, code)
    assert path.stat().st_size < 64 * 1024
    assert problem(path) == (
        "the TorchScript model has a code file larger than 4 MiB: model/code/__torch__.py"
    )


MEASURE = """
import resource, sys
from pathlib import Path
from tritonlint.modelfiles.torchscript import read_torchscript
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
result = read_torchscript(Path(sys.argv[1]))
grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
print(type(result).__name__, grown // 1024)
"""


def test_code_just_within_the_budget_is_read_in_little_memory(tmp_path: Path) -> None:
    # A syntax tree of this code would take some 2 GB; only forward's header is parsed.
    body = b"    x\n" * ((MAX_CODE_BYTES - len(MODEL_CODE)) // 6)
    path = code_archive(tmp_path, MODEL_CODE + body)
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, str(path)], capture_output=True, text=True, check=True
    )
    kind, megabytes = done.stdout.split()
    assert kind == "ModelSignature"
    assert int(megabytes) < 200
