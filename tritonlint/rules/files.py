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
    file saved as Latin-1 or UTF-16 by an editor on Windows) makes the parser refuse the
    file. The diagnostic points at the first offending byte.
    """,
    bad="""
    name: "caf\\xe9"   # the file itself is saved as Latin-1
    """,
    good="""
    name: "café"      # the same text saved as UTF-8
    """,
    server_message="failed to read text proto from {path}",
)

BINARY_FILE = declare(
    "TL002",
    StageRule.BINARY_FILE,
    Severity.ERROR,
    summary="config.pbtxt is a binary file",
    explanation="""
    The file holds NUL bytes, so it is not text: often a serialized (binary) protobuf, or a
    model file saved under the wrong name. Triton reads `config.pbtxt` as protobuf *text*
    format only.
    """,
    bad="""
    $ file config.pbtxt
    config.pbtxt: data
    """,
    good="""
    name: "resnet"
    platform: "onnxruntime_onnx"
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
    $ ls -l config.pbtxt
    -rw-r--r-- 1 user user 52428800 config.pbtxt
    """,
    good="""
    $ ls -l config.pbtxt
    -rw-r--r-- 1 user user 612 config.pbtxt
    """,
)

UNREADABLE_PATH = declare(
    "TL004",
    StageRule.UNREADABLE_PATH,
    Severity.ERROR,
    summary="a file or folder cannot be read",
    explanation="""
    The path does not exist, or permissions forbid reading it. tritonserver would fail on
    it as well (or silently skip it); tritonlint goes on with the other paths.
    """,
    bad="""
    $ chmod 000 model_repository/resnet
    """,
    good="""
    $ chmod 755 model_repository/resnet
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
    $ ln -s loop loop
    """,
    good="""
    $ ln -s ../shared/labels.txt labels.txt
    """,
)
