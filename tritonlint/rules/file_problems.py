"""Problems with files and folders as such: unreadable, binary, not UTF-8, too large, loops.

These are reported by the repository walker and the config loader; the rules are declared
here so that they have codes and documentation like every other rule.
"""

from tritonlint.diagnostics import Severity
from tritonlint.rules.base import declare
from tritonlint.stage_rules import StageRule

NOT_UTF8 = declare(
    "TL001",
    StageRule.NOT_UTF8,
    Severity.ERROR,
    summary="config.pbtxt is not valid UTF-8",
    explanation="""
    Model configurations are read as UTF-8 text. A byte that is not valid UTF-8 (often a
    file saved as Latin-1 by an editor on Windows) makes the parser refuse the file. The
    diagnostic points at the first offending byte. (A file saved as UTF-16 holds NUL bytes:
    it is reported as binary, TL002.)
    """,
    bad="""
    model_repository/detector/config.pbtxt: <Latin-1>   # an editor's setting on Windows
      # Détecteur de piétons
      name: "detector"
      platform: "onnxruntime_onnx"
    model_repository/detector/1/model.onnx
    """,
    good="""
    model_repository/detector/config.pbtxt:   # the same text saved as UTF-8
      # Détecteur de piétons
      name: "detector"
      platform: "onnxruntime_onnx"
    model_repository/detector/1/model.onnx
    """,
    server_message="failed to read text proto from {path}",
)

BINARY_FILE = declare(
    "TL002",
    StageRule.BINARY_FILE,
    Severity.ERROR,
    summary="config.pbtxt is a binary file",
    explanation="""
    The file holds NUL bytes, so it is not text: often a serialized (binary) protobuf, a
    model file saved under the wrong name, or text saved as UTF-16. Triton reads
    `config.pbtxt` as protobuf *text* format only.
    """,
    bad="""
    model_repository/resnet/config.pbtxt: <hex>   # written with SerializeToString()
      0a 06 72 65 73 6e 65 74 12 10 6f 6e 6e 78 72 75
      6e 74 69 6d 65 5f 6f 6e 6e 78 20 08 5a 00
    model_repository/resnet/1/model.onnx
    """,
    good="""
    model_repository/resnet/config.pbtxt:   # the same config, as text_format writes it
      name: "resnet"
      platform: "onnxruntime_onnx"
      max_batch_size: 8
      dynamic_batching { }
    model_repository/resnet/1/model.onnx
    """,
    server_message="failed to read text proto from {path}",
)

FILE_TOO_LARGE = declare(
    "TL003",
    StageRule.FILE_TOO_LARGE,
    Severity.ERROR,
    summary="config.pbtxt is too large to be a model configuration",
    explanation="""
    Real model configurations are a few kilobytes. A file of many megabytes is almost
    certainly something else saved under the wrong name; tritonlint does not parse it.
    """,
    bad="""
    model_repository/resnet/config.pbtxt: <12 MiB of zeros>   # something else, misnamed
    model_repository/resnet/1/model.onnx
    """,
    good="""
    model_repository/resnet/config.pbtxt:
      name: "resnet"
      platform: "onnxruntime_onnx"
      max_batch_size: 8
    model_repository/resnet/1/model.onnx
    """,
)

UNREADABLE_PATH = declare(
    "TL004",
    StageRule.UNREADABLE_PATH,
    Severity.ERROR,
    summary="a file or folder cannot be read",
    explanation="""
    The path does not exist, or permissions forbid reading it. tritonserver would fail on
    it as well (or silently skip it); tritonlint goes on with the other paths. A model that
    tritonlint itself fails to check (something in it nested past the interpreter's
    recursion limit, or a bug of tritonlint's, which the message asks to report) is
    reported here too, on its folder, and the other models are still checked.
    """,
    bad="""
    model_repository/resnet/config.pbtxt: <mode 000>   # no one may read it
      name: "resnet"
      platform: "onnxruntime_onnx"
    model_repository/resnet/1/model.onnx
    """,
    good="""
    model_repository/resnet/config.pbtxt: <mode 644>
      name: "resnet"
      platform: "onnxruntime_onnx"
    model_repository/resnet/1/model.onnx
    """,
    server_message="failed to stat file {path}",
)

SYMLINK_LOOP = declare(
    "TL005",
    StageRule.SYMLINK_LOOP,
    Severity.ERROR,
    summary="a symbolic link points back to itself",
    explanation="""
    Following the link never reaches a file or folder. tritonlint reports it once and does
    not follow it.
    """,
    bad="""
    model_repository/resnet/config.pbtxt:
      name: "resnet"
      platform: "onnxruntime_onnx"
    model_repository/resnet/1/model.onnx
    model_repository/resnet/2/model.onnx -> model.onnx   # read from 2/: the link itself
    """,
    good="""
    model_repository/resnet/config.pbtxt:
      name: "resnet"
      platform: "onnxruntime_onnx"
    model_repository/resnet/1/model.onnx
    model_repository/resnet/2/model.onnx -> ../1/model.onnx
    """,
)
