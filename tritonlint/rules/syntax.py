"""Syntax pack: what the text-format parser refuses. Reported by the parser."""

from tritonlint.diagnostics import Applicability, Severity
from tritonlint.rules.base import FixAvailability, declare, fixable
from tritonlint.stage_rules import StageRule

SYNTAX_ERROR = declare(
    "TL010",
    StageRule.SYNTAX_ERROR,
    Severity.ERROR,
    fix=fixable(FixAvailability.SOMETIMES, Applicability.SAFE),
    summary="config.pbtxt is not valid protobuf text format",
    explanation="""
    The parser could not read the file: a brace or bracket is not closed, a `:` is missing
    before a scalar value, a string is not quoted, or a character does not belong there.
    tritonserver reports only `failed to read text proto` (the line and column are in a
    separate libprotobuf log line); tritonlint reports every syntax error of the file, each
    at its place, with what it expected there. A note pasted in with a config from a tutorial
    (`key: "TEXT"  <- must match the tokenizer`) is one finding, with a fix that makes it a
    `#` comment; a `...` standing for content left out is one finding too. A message nested
    more than 100 levels deep is one finding, and what it holds is not read (real configs
    nest a few levels; 100 is the default recursion limit of protobuf's binary parsers); so
    are the adjacent string literals of one value after the first 10,000.
    """,
    bad="""
    name: "text_encoder"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    input {
      name: "input_ids"
      data_type TYPE_INT64      # missing ':'
      dims: [ -1 ]
    # missing '}'
    """,
    good="""
    name: "text_encoder"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    input {
      name: "input_ids"
      data_type: TYPE_INT64
      dims: [ -1 ]
    }
    """,
    server_message="failed to read text proto from {path}",
)

TEMPLATE_PLACEHOLDER = declare(
    "TL011",
    StageRule.TEMPLATE_PLACEHOLDER,
    Severity.ERROR,
    summary="an unfilled ${...} template placeholder",
    explanation="""
    Some model repositories (TensorRT-LLM's among them) ship `config.pbtxt` *templates* with
    `${name}` placeholders that a script fills in. A placeholder left in the file is not a
    value, and the server refuses the whole config with `Expected integer, got: $`. Fill the
    template (for TensorRT-LLM: `tools/fill_template.py`) before deploying.
    """,
    bad="""
    name: "preprocessing"
    backend: "python"
    max_batch_size: ${triton_max_batch_size}
    """,
    good="""
    name: "preprocessing"
    backend: "python"
    max_batch_size: 64
    """,
    server_message="failed to read text proto from {path}",
)

JSON_CONFIG = declare(
    "TL012",
    StageRule.JSON_CONFIG,
    Severity.ERROR,
    summary="config.pbtxt holds JSON, not protobuf text format",
    explanation="""
    `GET /v2/models/<model>/config` and many examples show a model configuration as JSON.
    Triton reads config.pbtxt only as protobuf text format, where field names are not quoted,
    `:` is optional before a message, and the file has no outer braces. tritonlint reports
    the file once, as JSON, instead of a cascade of syntax errors.
    """,
    bad="""
    {
      "name": "resnet",
      "platform": "onnxruntime_onnx",
      "max_batch_size": 8
    }
    """,
    good="""
    name: "resnet"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    """,
    server_message="failed to read text proto from {path}",
)

PYTHON_SOURCE = declare(
    "TL013",
    StageRule.PYTHON_SOURCE,
    Severity.ERROR,
    summary="config.pbtxt holds Python source, not a model configuration",
    explanation="""
    A Python backend model has two files: its code, `model.py` in a version folder
    (`<model>/1/model.py`), and its configuration, `config.pbtxt` in the model folder. Python
    code saved as config.pbtxt is refused with `failed to read text proto`. tritonlint reports
    the file once, as Python source, instead of a syntax error for every line.
    """,
    bad="""
    import triton_python_backend_utils as pb_utils

    class TritonPythonModel:
        def execute(self, requests):
            return []
    """,
    good="""
    name: "preprocess"
    backend: "python"
    max_batch_size: 8
    """,
    server_message="failed to read text proto from {path}",
)
