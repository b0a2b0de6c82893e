"""Model repositories of hostile files, made at test time: each model's file takes a naive
reader past a limit (the recursion limit, the memory there is, a read that never ends)."""

from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path
from typing import NamedTuple

from helpers import ONNX_MODEL, make_tree

#: A pickle whose first opcodes name the class ``__torch__.Model`` (never unpickled).
TORCH_PICKLE = b"\x80\x02c__torch__\nModel\nq\x00)\x81q\x01}q\x02b."
#: An attribute chain (``a.b.b...``) that parses, and is too deep to read back.
DEEP_CHAIN = "a" + ".b" * 400


class Expected(NamedTuple):
    """A finding the hostile model gets: its code, path (from the repository's parent) and a
    fragment of its message."""

    code: str
    path: str
    fragment: str


def torchscript(code: bytes) -> bytes:
    """An archive as ``torch.jit.save`` writes it, of the module class ``Model``."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("model/data.pkl", TORCH_PICKLE)
        archive.writestr("model/code/__torch__.py", code)
    return buffer.getvalue()


def make_hostile_repository(root: Path) -> list[Expected]:
    """``root`` (a repository) with a hostile model file in each model but ``good``, whose one
    finding is TL201 (its config names another model); what each model gets."""
    forward = b"class Model(Module):\n  def forward(self: __torch__.Model,\n    x: "
    deep_annotation = forward + DEEP_CHAIN.encode() + b") -> Tensor:\n    return x\n"
    code_bomb = forward + b"Tensor) -> Tensor:\n    return x\n" + b"    _0 = x\n" * 720_000
    make_tree(
        root,
        {
            "deep_base/config.pbtxt": 'backend: "python"\n',
            "deep_base/1/model.py": f"class TritonPythonModel({DEEP_CHAIN}):\n    pass\n",
            "deep_annotation/config.pbtxt": 'platform: "pytorch_libtorch"\n',
            "deep_annotation/1/model.pt": torchscript(deep_annotation),
            "code_bomb/config.pbtxt": 'platform: "pytorch_libtorch"\n',
            "code_bomb/1/model.pt": torchscript(code_bomb),
            "encoding/config.pbtxt": 'backend: "openvino"\n',
            "encoding/1/model.xml": b'<?xml version="1.0" encoding="x-nope"?>\n<net version="11"/>',
            "pipe/config.pbtxt": 'backend: "python"\n',
            "pipe/1": None,
            "zero/config.pbtxt": 'backend: "onnxruntime"\n',
            "zero/1": None,
            "good/config.pbtxt": 'name: "other"\n' + str(ONNX_MODEL["config.pbtxt"]),
            "good/1/model.onnx": b"",
        },
    )
    os.mkfifo(root / "pipe/1/model.py")
    (root / "zero/1/model.onnx").symlink_to("/dev/zero")
    name = root.name
    return [
        Expected("TL901", f"{name}/deep_base/1/model.py", "too deeply nested to read"),
        Expected("TL901", f"{name}/deep_annotation/1/model.pt", "too deeply nested to read"),
        Expected("TL901", f"{name}/code_bomb/1/model.pt", "a code file larger than 4 MiB"),
        Expected(
            "TL901",
            f"{name}/encoding/1/model.xml",
            "declares a character encoding that cannot be read (unknown encoding: x-nope)",
        ),
        Expected("TL901", f"{name}/pipe/1/model.py", "is a named pipe, not a regular file"),
        Expected(
            "TL901",
            f"{name}/zero/1/model.onnx",
            "is a symbolic link to a character device, not a regular file",
        ),
        Expected("TL201", f"{name}/good/config.pbtxt", "name"),
    ]
