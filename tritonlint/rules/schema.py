"""Schema pack: fields, values and types that ModelConfig does not allow. Reported by the binder."""

from tritonlint.diagnostics import Applicability, Severity
from tritonlint.rules.base import FixAvailability, declare, fixable
from tritonlint.stage_rules import StageRule

UNKNOWN_FIELD = declare(
    "TL101",
    StageRule.UNKNOWN_FIELD,
    Severity.ERROR,
    fix=fixable(FixAvailability.SOMETIMES, Applicability.UNSAFE),
    summary="a field that the message type does not have",
    explanation="""
    Every field name must be a field of the message it appears in, spelled exactly
    (`dims`, not `dim`; `data_type`, not `type`). The message suggests the closest field and
    lists the valid ones. Extensions (`[name]`) do not exist in ModelConfig. An unsafe fix
    replaces the name with the suggested one (check that it is the field you meant).
    """,
    bad="""
    name: "classifier"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    input {
      name: "INPUT0"
      data_type: TYPE_FP32
      dim: [ 16 ]
    }
    """,
    good="""
    name: "classifier"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    input {
      name: "INPUT0"
      data_type: TYPE_FP32
      dims: [ 16 ]
    }
    """,
    server_message='Message type "inference.{message}" has no field named "{field}".',
)

WRONG_VALUE_TYPE = declare(
    "TL102",
    StageRule.WRONG_VALUE_TYPE,
    Severity.ERROR,
    fix=fixable(FixAvailability.SOMETIMES, Applicability.SAFE),
    summary="a message where a scalar belongs, a scalar for a message, or a list for one value",
    explanation="""
    A message field takes `{ ... }`, a scalar field takes one value, and only repeated fields
    take a `[ ... ]` list. The classic case is a parameter written as a plain string, where
    `value` is a message with a `string_value` field. A safe fix writes such a string as
    `{ string_value: ... }`, and a list of one value as that value.
    """,
    bad="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    parameters { key: "intra_op_thread_count" value: "4" }   # value is a message
    """,
    good="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    parameters { key: "intra_op_thread_count" value: { string_value: "4" } }
    """,
    server_message='Expected "{", found "{token}".',
)

INVALID_VALUE = declare(
    "TL103",
    StageRule.INVALID_VALUE,
    Severity.ERROR,
    fix=fixable(FixAvailability.SOMETIMES, Applicability.SAFE),
    summary="a value that cannot be read as the field's type",
    explanation="""
    Integers take a decimal, hex (`0x`) or octal (`0`-prefixed) number; floats take a
    number, `inf` or `nan`; booleans take `true`/`false` (or `True`, `t`, `1` ...); strings
    must be quoted and valid UTF-8. An unquoted string is the most common case. Where the
    value is plainly meant (an unquoted word for a string, a quoted number for an integer,
    `8.0` for an integer), a safe fix writes it as the field's type takes it.
    """,
    bad="""
    name: resnet50
    platform: "onnxruntime_onnx"
    max_batch_size: 8.0
    """,
    good="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    """,
    server_message=(
        "Expected string, got: {token}\n"
        "Expected integer, got: {token}\n"
        "Expected double, got: {token}\n"
        'Invalid value for boolean field "{field}". Value: "{value}".'
    ),
)

INTEGER_OUT_OF_RANGE = declare(
    "TL104",
    StageRule.INTEGER_OUT_OF_RANGE,
    Severity.ERROR,
    summary="an integer outside the range of the field's type",
    explanation="""
    Fields are int32, int64, uint32 or uint64. A negative number in an unsigned field (every
    `*_microseconds`, `priority`, `num_versions`, warmup `batch_size` ...) or a number too
    large for 32 bits is refused by the parser.
    """,
    bad="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    dynamic_batching { max_queue_delay_microseconds: -1 }
    """,
    good="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    dynamic_batching { max_queue_delay_microseconds: 100 }
    """,
    server_message="Integer out of range ({token})",
)

UNKNOWN_ENUM_VALUE = declare(
    "TL105",
    StageRule.UNKNOWN_ENUM_VALUE,
    Severity.ERROR,
    fix=fixable(FixAvailability.SOMETIMES, Applicability.SAFE, Applicability.UNSAFE),
    summary="an enum value name that the enum does not have",
    explanation="""
    Enum fields take one of the names the enum defines: data types are `TYPE_FP32`,
    `TYPE_INT64`, ... (not `FP32` or `TYPE_FLOAT32`), instance kinds are `KIND_GPU`,
    `KIND_CPU`, `KIND_MODEL`, `KIND_AUTO`. The message suggests the closest name, and an
    unsafe fix puts it in place (check that it is the value you meant); a value name in
    quotes, a safe fix unquotes.
    """,
    bad="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    input [ { name: "input" data_type: TYPE_FLOAT32 dims: [ 3, 224, 224 ] } ]
    """,
    good="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    """,
    server_message='Unknown enumeration value of "{value}" for field "{field}".',
)

UNKNOWN_ENUM_NUMBER = declare(
    "TL106",
    StageRule.UNKNOWN_ENUM_NUMBER,
    Severity.WARNING,
    summary="an enum given as a number that is none of its values",
    explanation="""
    ModelConfig's enums are open, so the parser keeps any number (`data_type: 42`), but
    tritonserver does not know what it means and fails later, or behaves oddly. Use the
    value's name.
    """,
    bad="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    input [ { name: "input" data_type: 42 dims: [ 3, 224, 224 ] } ]
    """,
    good="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
    """,
)

DUPLICATE_FIELD = declare(
    "TL107",
    StageRule.DUPLICATE_FIELD,
    Severity.ERROR,
    fix=fixable(FixAvailability.SOMETIMES, Applicability.SAFE),
    summary="a non-repeated field given twice",
    explanation="""
    A field that is not repeated may be set only once. Two `max_batch_size` lines, or two
    `dynamic_batching { }` blocks, are refused by the parser (it forbids overwriting a field
    that already has a value). Merge them into one. Where both give the same value, a safe
    fix removes the second.
    """,
    bad="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    max_batch_size: 16   # set twice
    """,
    good="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    max_batch_size: 16
    """,
    server_message='Non-repeated field "{field}" is specified multiple times.',
)

OVERRIDDEN_FIELD = declare(
    "TL108",
    StageRule.OVERRIDDEN_FIELD,
    Severity.WARNING,
    fix=fixable(FixAvailability.SOMETIMES, Applicability.SAFE),
    summary="a non-repeated field given twice where the first value is the default",
    explanation="""
    The parser accepts a second value for a field whose first value was the default (`0`,
    `""`, `false`), silently replacing it. That is almost always a copy-paste mistake. A
    safe fix removes the first one, which changes nothing the server sees.
    """,
    bad="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    max_batch_size: 0    # left from a template
    max_batch_size: 8
    """,
    good="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    """,
)

ONEOF_CONFLICT = declare(
    "TL109",
    StageRule.ONEOF_CONFLICT,
    Severity.ERROR,
    summary="two members of one oneof are set",
    explanation="""
    Some fields exclude each other: a model has at most one of `dynamic_batching`,
    `sequence_batching` and `ensemble_scheduling`; a version policy is one of `latest`, `all`
    and `specific`; a warmup input has one of `zero_data`, `random_data` and
    `input_data_file`. The parser refuses a config that sets two.
    """,
    bad="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    dynamic_batching { }
    sequence_batching { }   # a model has one scheduler
    """,
    good="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    max_batch_size: 8
    dynamic_batching { }
    """,
    server_message=(
        'Field "{field}" is specified along with field "{other}", another member of oneof '
        '"{oneof}".'
    ),
)

DUPLICATE_MAP_KEY = declare(
    "TL110",
    StageRule.DUPLICATE_MAP_KEY,
    Severity.WARNING,
    summary="a key given twice in a map field",
    explanation="""
    Map fields (`parameters`, `input_map`, `output_map`, `cc_model_filenames`,
    `metric_tags`, warmup `inputs` ...) keep only the *last* entry for a key: the earlier
    ones are dropped without a word. In an ensemble's `output_map` that silently loses a
    tensor.
    """,
    bad="""
    model_repository/classify/config.pbtxt:
      platform: "ensemble"
      input [ { name: "IMAGE" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
      output [
        { name: "PROBS" data_type: TYPE_FP32 dims: [ 1000 ] },
        { name: "LABELS" data_type: TYPE_STRING dims: [ 5 ] }
      ]
      ensemble_scheduling {
        step {
          model_name: "resnet50"
          model_version: -1
          input_map { key: "input" value: "IMAGE" }
          output_map { key: "probs" value: "PROBS" }
          output_map { key: "probs" value: "LABELS" }   # PROBS is never written
        }
      }
    model_repository/classify/1/
    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
      output [
        { name: "probs" data_type: TYPE_FP32 dims: [ 1000 ] },
        { name: "labels" data_type: TYPE_STRING dims: [ 5 ] }
      ]
    model_repository/resnet50/1/model.onnx
    """,
    good="""
    model_repository/classify/config.pbtxt:
      platform: "ensemble"
      input [ { name: "IMAGE" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
      output [
        { name: "PROBS" data_type: TYPE_FP32 dims: [ 1000 ] },
        { name: "LABELS" data_type: TYPE_STRING dims: [ 5 ] }
      ]
      ensemble_scheduling {
        step {
          model_name: "resnet50"
          model_version: -1
          input_map { key: "input" value: "IMAGE" }
          output_map { key: "probs" value: "PROBS" }
          output_map { key: "labels" value: "LABELS" }
        }
      }
    model_repository/classify/1/
    model_repository/resnet50/config.pbtxt:
      platform: "onnxruntime_onnx"
      input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
      output [
        { name: "probs" data_type: TYPE_FP32 dims: [ 1000 ] },
        { name: "labels" data_type: TYPE_STRING dims: [ 5 ] }
      ]
    model_repository/resnet50/1/model.onnx
    """,
)
