"""The ``forward`` signature of a TorchScript model (``model.pt``), read from the archive's code.

``torch.jit.save`` writes a zip archive: ``<name>/data.pkl`` pickles the module object and
``<name>/code/__torch__/...py`` holds the TorchScript source of every class in it, printed as
Python with each argument's type written out. Triton's PyTorch backend loads the archive with
``torch::jit::load`` and takes the model's inputs from ``forward``'s schema: every argument
after ``self``, in order, each name usable as a config input name (the ``FORWARD_ARGUMENT``
naming convention). Unless the one argument is a ``Dict[str, Tensor]``, every argument must be
a tensor (or a list) and their count must equal the config's input count; the annotations read
here let a rule say which argument is not.

This reader never unpickles anything: the top module's class is the first global that
``data.pkl`` names (its first opcodes, read with :mod:`pickletools`, which decodes opcodes and
executes none), and that class's ``forward`` is found in its code file as ``torch.jit.save``
prints it: the line ``class <name>`` at the start of a line, and in its block the first
``def forward`` indented as the block's first line. Only that definition's header (the
``def`` up to its colon, found with :mod:`tokenize`, at most :data:`MAX_HEADER_CHARS`) is
parsed with :func:`ast.parse`, never the whole file: a syntax tree takes several hundred times
its source's size in memory, and a code file of a few megabytes would take gigabytes. A
mistake elsewhere in the file is not seen (``torch::jit::load`` reports it).

Outputs have no names in TorchScript (the backend matches them by position,
``OUTPUT__0``, or by the config's order): when ``forward``'s return annotation says how many
tensors it returns (``Tensor``: one; ``Tuple[Tensor, Tensor]``: one per element) the outputs are
that many :class:`TensorSpec` named by their position (``"0"``, ``"1"``); any other return type
(a list, a dict, none written) leaves the outputs unknown, an empty tuple. TorchScript code
gives no element types or shapes: ``data_type`` and ``dims`` are None, and ``source_type`` is
the annotation as written (``Tensor``, ``Dict[str, Tensor]``, ``float``).

The archive is read within limits: the zip's central directory is sized before
:mod:`zipfile` reads it, and only the few members needed are read, each up to a size limit
(the code file: :data:`MAX_CODE_BYTES` once inflated, whatever its header claims), so a zip
bomb or an archive of a million members costs no more than a small model. An annotation
nested more than :data:`~tritonlint.modelfiles.depth.MAX_DEPTH` levels deep is a model too
deeply nested to read.
"""

from __future__ import annotations

import ast
import io
import lzma
import pickletools
import re
import struct
import tokenize
import zipfile
import zlib
from pathlib import Path
from typing import BinaryIO

from tritonlint.modelfiles.depth import MAX_DEPTH, deeper_than
from tritonlint.modelfiles.files import UnreadableFile, describe_size, regular_size
from tritonlint.modelfiles.signature import ModelFileProblem, ModelSignature, TensorSpec

#: Members an archive may have: a TorchScript model has one per tensor and per code file, so a
#: large model has thousands; this is far beyond any, and keeps the central directory small.
MAX_MEMBERS = 200_000

#: Bytes of the zip's central directory (about 100 bytes per member).
MAX_CENTRAL_DIRECTORY = 32 * 1024 * 1024

#: Bytes of the top module's code file, once inflated: ``torch.jit.save`` writes one file per
#: Python module of the model's classes, and even a frozen model with every layer inlined in
#: its ``forward`` has well under a megabyte of code.
MAX_CODE_BYTES = 4 * 1024 * 1024

#: Characters of ``forward``'s header (``def forward(...) -> ...:``), the one part of the code
#: that is parsed: some 40 per argument, so room for thousands of arguments.
MAX_HEADER_CHARS = 256 * 1024

#: Bytes read from the start of ``data.pkl``: the top module's class is named in its first
#: opcodes.
_PICKLE_HEAD = 64 * 1024

#: Opcodes looked at before giving up on finding the top module's class.
_PICKLE_OPCODES = 64

_END_OF_CENTRAL_DIRECTORY = b"PK\x05\x06"
_ZIP64_LOCATOR = b"PK\x06\x07"
_ZIP64_END = b"PK\x06\x06"
#: The end record is 22 bytes and may be followed by a comment of up to 65535 bytes.
_END_SEARCH = 22 + 0xFFFF

#: Pickle opcodes that push a string (the module and class name of a STACK_GLOBAL).
_STRING_OPCODES = {"SHORT_BINUNICODE", "BINUNICODE", "BINUNICODE8", "UNICODE"}

_PACKAGE = "__torch__"


class _NotTorchScript(Exception):
    """The file is not a TorchScript archive this reader can read; the message says why."""


def read_torchscript(path: Path) -> ModelSignature | ModelFileProblem:
    """The inputs (and, where the code says, outputs) of the TorchScript archive at ``path``."""
    try:
        size = regular_size(path)
        if size == 0:
            raise _NotTorchScript("is empty")
        with path.open("rb") as file:
            _check_central_directory(file, size)
            with zipfile.ZipFile(file) as archive:
                forward = _forward(archive)
    except UnreadableFile as error:
        return ModelFileProblem(path, f"the TorchScript model {error}")
    except _NotTorchScript as error:
        return ModelFileProblem(path, f"the TorchScript model {error}")
    except (
        zipfile.BadZipFile,
        zipfile.LargeZipFile,
        EOFError,
        zlib.error,
        lzma.LZMAError,
    ) as error:
        return ModelFileProblem(
            path, f"the TorchScript model is not a readable zip archive ({error})"
        )
    except (OSError, ValueError, RuntimeError, NotImplementedError) as error:
        # zipfile's other complaints: encrypted members, unknown compression, bad headers.
        return ModelFileProblem(path, f"the TorchScript model cannot be read ({_reason(error)})")
    return ModelSignature(
        format="torchscript", path=path, inputs=_inputs(forward), outputs=_outputs(forward)
    )


def _reason(error: Exception) -> str:
    """Why reading failed, without the file's path (an OSError's text names it)."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error)


def _check_central_directory(file: BinaryIO, size: int) -> None:
    """Refuse an archive whose central directory is too large before zipfile reads all of it."""
    start = max(0, size - _END_SEARCH)
    file.seek(start)
    tail = file.read(size - start)
    at = tail.rfind(_END_OF_CENTRAL_DIRECTORY)
    if at < 0 or len(tail) - at < 22:
        raise _NotTorchScript("is not a zip archive (torch.jit.save writes one)")
    members, directory = struct.unpack_from("<HI", tail, at + 10)
    if members == 0xFFFF or directory == 0xFFFFFFFF:
        members, directory = _zip64_sizes(file, tail, at, members, directory)
    if members > MAX_MEMBERS:
        raise _NotTorchScript(
            f"has {members} archive members, more than {MAX_MEMBERS} are not read"
        )
    if directory > MAX_CENTRAL_DIRECTORY:
        raise _NotTorchScript(
            f"has a zip directory larger than {describe_size(MAX_CENTRAL_DIRECTORY)}"
        )
    file.seek(0)


def _zip64_sizes(
    file: BinaryIO, tail: bytes, at: int, members: int, directory: int
) -> tuple[int, int]:
    """Member count and directory size from the zip64 end record, where the archive has one."""
    locator = at - 20
    if locator < 0 or tail[locator : locator + 4] != _ZIP64_LOCATOR:
        return members, directory
    (offset,) = struct.unpack_from("<Q", tail, locator + 8)
    file.seek(offset)
    record = file.read(56)
    if len(record) < 56 or record[:4] != _ZIP64_END:
        raise _NotTorchScript("is not a readable zip archive (bad zip64 end record)")
    return struct.unpack_from("<QQ", record, 32)


def _forward(archive: zipfile.ZipFile) -> ast.FunctionDef:
    """The top module's ``forward`` definition in the archive's code."""
    names = archive.namelist()
    if not names:
        raise _NotTorchScript("is an empty zip archive")
    # torch::jit::load takes the folder of the first member as the archive's name.
    root, slash, _ = names[0].partition("/")
    if not slash:
        raise _NotTorchScript(f"is not a TorchScript archive ({names[0]!r} is not in a folder)")
    members = set(names)
    if f"{root}/data.pkl" not in members:
        raise _NotTorchScript(f"is not a TorchScript archive (it has no {root}/data.pkl)")
    code = f"{root}/code/"
    if not any(name.startswith(code) for name in names):
        raise _NotTorchScript(
            "is not a TorchScript archive: it has no code (saved with torch.save rather "
            "than torch.jit.save?)"
        )
    module, class_name = _top_class(_read(archive, f"{root}/data.pkl", _PICKLE_HEAD, head=True))
    source_name = code + module.replace(".", "/") + ".py"
    if source_name not in members:
        raise _NotTorchScript(f"has no code for its module class {module}.{class_name}")
    return _find_forward(_read(archive, source_name, MAX_CODE_BYTES), class_name, source_name)


#: The start of a line that is no part of an indented block.
_UNINDENTED = re.compile(r"^[^ \t\r\n#]", re.MULTILINE)
#: The first line of a block with something in it, and its indentation.
_BLOCK_LINE = re.compile(r"^([ \t]+)[^ \t\r\n#]", re.MULTILINE)
_FORWARD = re.compile(r"^([ \t]+)def[ \t]+forward\b", re.MULTILINE)


def _find_forward(source: bytes, class_name: str, name: str) -> ast.FunctionDef:
    """The definition of ``class_name``'s ``forward`` in the code file ``name``, of which only
    the header is parsed (its body is left out: ``pass``)."""
    try:
        text = source.decode("utf-8")
    except UnicodeDecodeError as error:
        raise _NotTorchScript(f"has code that does not parse: {name} ({error})") from None
    header = re.compile(rf"^class[ \t]+{re.escape(class_name)}\b", re.MULTILINE).search(text)
    if header is None:
        raise _NotTorchScript(f"has no class {class_name} in {name}")
    line_end = text.find("\n", header.end())
    body_start = len(text) if line_end < 0 else line_end + 1
    after = _UNINDENTED.search(text, body_start)
    body_end = len(text) if after is None else after.start()
    first = _BLOCK_LINE.search(text, body_start, body_end)
    forward = None
    if first is not None:
        forward = next(
            (
                found
                for found in _FORWARD.finditer(text, body_start, body_end)
                if found.group(1) == first.group(1)
            ),
            None,
        )
    if forward is None:
        raise _NotTorchScript(f"has no forward method in its module class {class_name}")
    start = forward.start() + len(forward.group(1))
    definition = _parse(_header(text[start : start + MAX_HEADER_CHARS + 1], name), name)
    function = definition.body[0]
    assert isinstance(function, ast.FunctionDef)
    arguments = function.args
    annotations = [
        argument.annotation
        for argument in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
        if argument.annotation is not None
    ]
    if function.returns is not None:
        annotations.append(function.returns)
    if any(deeper_than(annotation) for annotation in annotations):
        raise _NotTorchScript(
            f"is too deeply nested to read: an annotation of forward in {name} nests more "
            f"than {MAX_DEPTH} levels"
        )
    return function


def _header(text: str, name: str) -> str:
    """The definition that starts ``text`` (``def forward(...) -> ...:``), up to its colon,
    with a body of ``pass``."""
    brackets = 0
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type != tokenize.OP:
                continue
            if token.string in "([{":
                brackets += 1
            elif token.string in ")]}":
                brackets -= 1
            elif token.string == ":" and brackets == 0:
                row, column = token.end
                lines = text.split("\n", row)
                return "\n".join([*lines[: row - 1], lines[row - 1][:column]]) + "\n  pass\n"
    except (tokenize.TokenError, SyntaxError) as error:
        if len(text) <= MAX_HEADER_CHARS:
            raise _NotTorchScript(f"has code that does not parse: {name} ({error})") from None
    if len(text) > MAX_HEADER_CHARS:
        raise _NotTorchScript(
            f"has a forward definition longer than {MAX_HEADER_CHARS} characters: {name}"
        )
    raise _NotTorchScript(f"has code that does not parse: {name} (forward's header has no end)")


def _read(archive: zipfile.ZipFile, name: str, limit: int, *, head: bool = False) -> bytes:
    """The bytes of member ``name``: its first ``limit`` bytes if ``head``, else all of them
    within ``limit``. Reading decompresses no more than that, whatever the header claims."""
    with archive.open(name) as member:
        data = member.read(limit if head else limit + 1)
    if not head and len(data) > limit:
        raise _NotTorchScript(f"has a code file larger than {describe_size(limit)}: {name}")
    return data


def _top_class(pickle_head: bytes) -> tuple[str, str]:
    """The module and name of the class ``data.pkl`` builds first: the top module's class."""
    strings: list[str] = []
    try:
        for index, (opcode, argument, _) in enumerate(pickletools.genops(io.BytesIO(pickle_head))):
            if index >= _PICKLE_OPCODES:
                break
            if opcode.name == "GLOBAL" and isinstance(argument, str):
                module, _, name = argument.partition(" ")
                return _checked(module, name)
            if opcode.name == "STACK_GLOBAL" and len(strings) >= 2:
                return _checked(strings[-2], strings[-1])
            if opcode.name in _STRING_OPCODES and isinstance(argument, str):
                strings.append(argument)
    except (ValueError, EOFError, UnicodeDecodeError) as error:
        raise _NotTorchScript(f"has an unreadable data.pkl ({error})") from None
    raise _NotTorchScript("has a data.pkl that names no module class")


def _checked(module: str, name: str) -> tuple[str, str]:
    if module != _PACKAGE and not module.startswith(_PACKAGE + "."):
        raise _NotTorchScript(
            f"is not a TorchScript module: its data.pkl holds a {module}.{name}, not a "
            "scripted or traced module (saved with torch.save rather than torch.jit.save?)"
        )
    return module, name


def _parse(source: str, name: str) -> ast.Module:
    try:
        return ast.parse(source, filename=name)
    except (SyntaxError, ValueError) as error:
        raise _NotTorchScript(f"has code that does not parse: {name} ({error})") from None
    except (RecursionError, MemoryError):
        raise _NotTorchScript(f"is too deeply nested to read: {name}") from None


def _inputs(forward: ast.FunctionDef) -> tuple[TensorSpec, ...]:
    """Every argument after ``self``, in order: what the backend's schema lists."""
    arguments = forward.args
    listed = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs][1:]
    return tuple(
        TensorSpec(
            name=argument.arg, data_type=None, source_type=_text(argument.annotation), dims=None
        )
        for argument in listed
    )


def _outputs(forward: ast.FunctionDef) -> tuple[TensorSpec, ...]:
    """One output per tensor the return annotation counts; none where it does not count them."""
    returns = forward.returns
    if returns is None:
        return ()
    if isinstance(returns, ast.Name) and returns.id == "Tensor":
        elements: list[ast.expr] = [returns]
    elif (
        isinstance(returns, ast.Subscript)
        and isinstance(returns.value, ast.Name)
        and returns.value.id == "Tuple"
    ):
        inner = returns.slice
        elements = list(inner.elts) if isinstance(inner, ast.Tuple) else [inner]
    else:
        return ()
    return tuple(
        TensorSpec(name=str(index), data_type=None, source_type=_text(element), dims=None)
        for index, element in enumerate(elements)
    )


def _text(annotation: ast.expr | None) -> str | None:
    return None if annotation is None else ast.unparse(annotation)
