"""Rules mirroring the server's (and its backends') remaining checks, and best practices.

Each case is a config with one mistake: the rule must report it, with its severity, at the
place named by a marker in the config, and must stay quiet on the fixed config.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import pytest
from helpers import Files, codes, lint, locate, with_code

from tritonlint.rules.registry import by_code

Repo = Callable[[Files], Path]

_MODEL_FILES: dict[str, tuple[str, bytes | None]] = {
    'platform: "onnxruntime_onnx"': ("1/model.onnx", b""),
    'platform: "pytorch_libtorch"': ("1/model.pt", b""),
    'platform: "tensorrt_plan"': ("1/model.plan", b""),
    'backend: "python"': ("1/model.py", b""),
    'backend: "openvino"': ("1/model.xml", b""),
    'platform: "tensorflow_savedmodel"': ("1/model.savedmodel/saved_model.pb", b""),
}


def _files(config: str, extra: Files | None = None) -> Files:
    files: dict[str, str | bytes | None] = {"m/config.pbtxt": config}
    for header, (path, content) in _MODEL_FILES.items():
        if config.startswith(header):
            files[f"m/{path}"] = content
    files.update({f"m/{path}": content for path, content in (extra or {}).items()})
    return files


class Case(NamedTuple):
    code: str
    bad: str
    #: Text whose first character the finding points at (its nth occurrence).
    marker: str
    fragment: str
    good: str
    nth: int = 1
    extra: Files | None = None
    good_extra: Files | None = None


ONNX = 'platform: "onnxruntime_onnx"\n'
TORCH = 'platform: "pytorch_libtorch"\n'
TRT = 'platform: "tensorrt_plan"\n'
PY = 'backend: "python"\n'
IO = (
    'input [ { name: "INPUT__0" data_type: TYPE_FP32 dims: [ 4 ] } ]\n'
    'output [ { name: "OUTPUT__0" data_type: TYPE_FP32 dims: [ 4 ] } ]\n'
)
SEQ_IO = IO + "max_batch_size: 4\n"

CASES = [
    # --- instance groups -----------------------------------------------------------------
    Case(
        "TL601",
        ONNX + IO + "instance_group [ { kind: KIND_CPU gpus: [ 0 ] } ]\n",
        "[ 0 ]",
        "instance group m_0 of model m has kind KIND_CPU but specifies one or more GPUs",
        ONNX + IO + "instance_group [ { kind: KIND_CPU } ]\n",
    ),
    Case(
        "TL602",
        ONNX + IO + "instance_group [ { kind: KIND_GPU gpus: [ -1 ] } ]\n",
        "-1",
        "specifies invalid or unsupported gpu id -1",
        ONNX + IO + "instance_group [ { kind: KIND_GPU } ]\n",
    ),
    Case(
        "TL603",
        ONNX + IO + "instance_group [ { kind: KIND_GPU gpus: [ 0, 1 ] } ]\n",
        "[ 0, 1 ]",
        "pinned to GPU ids [0, 1]",
        ONNX + IO + "instance_group [ { kind: KIND_GPU count: 2 } ]\n",
    ),
    Case(
        "TL604",
        ONNX + IO + "instance_group [ { kind: KIND_CPU count: 0 } ]\n",
        "0 }",
        "has count 0",
        ONNX + IO + "instance_group [ { kind: KIND_CPU count: 1 } ]\n",
    ),
    Case(
        "TL605",
        TRT + IO + "instance_group [ { kind: KIND_CPU } ]\n",
        "KIND_CPU",
        "unable to load model 'm', TensorRT backend supports only GPU device",
        TRT + IO + "instance_group [ { kind: KIND_GPU } ]\n",
    ),
    Case(
        "TL605",
        'backend: "openvino"\n' + IO + "instance_group [ { kind: KIND_GPU } ]\n",
        "KIND_GPU",
        "Triton openVINO backend supports only CPU device",
        'backend: "openvino"\n' + IO + "instance_group [ { kind: KIND_CPU } ]\n",
    ),
    Case(
        "TL606",
        ONNX + IO + 'instance_group [ { kind: KIND_GPU profile: [ "0" ] } ]\n',
        '[ "0" ]',
        "specifies profile field which is only supported for TensorRT models",
        TRT + IO + 'instance_group [ { kind: KIND_GPU profile: [ "0" ] } ]\n',
    ),
    Case(
        "TL606",
        TRT + IO + 'instance_group [ { kind: KIND_GPU profile: [ "fast" ] } ]\n',
        '"fast"',
        "unable to parse 'fast': stoi",
        TRT + IO + 'instance_group [ { kind: KIND_GPU profile: [ "1" ] } ]\n',
    ),
    Case(
        "TL607",
        TRT + IO + "instance_group [ { kind: KIND_GPU secondary_devices [ "
        "{ kind: KIND_NVDLA device_id: 0 }, { kind: KIND_NVDLA device_id: 1 } ] } ]\n",
        "secondary_devices",
        "must have either zero or or one secondary devices",
        TRT + IO + "instance_group [ { kind: KIND_GPU secondary_devices [ "
        "{ kind: KIND_NVDLA device_id: 0 } ] } ]\n",
    ),
    Case(
        "TL608",
        ONNX + IO + "instance_group [ { kind: KIND_GPU gpus: [ 0, 0 ] } ]\n",
        "0 ]",
        "GPU 0 is listed twice",
        ONNX + IO + "instance_group [ { kind: KIND_GPU } ]\n",
    ),
    # --- sequence batching ---------------------------------------------------------------
    Case(
        "TL551",
        TORCH + SEQ_IO + 'sequence_batching { control_input [ { name: "S" control [ '
        '{ kind: CONTROL_SEQUENCE_START int32_false_true: [ 0, 1 ] } ] }, { name: "S" control [ '
        "{ kind: CONTROL_SEQUENCE_READY int32_false_true: [ 0, 1 ] } ] } ] }\n",
        '"S"',
        "sequence batching control tensor 'S' is specified for multiple control kinds",
        TORCH + SEQ_IO + 'sequence_batching { control_input [ { name: "S" control [ '
        '{ kind: CONTROL_SEQUENCE_START int32_false_true: [ 0, 1 ] } ] }, { name: "R" control [ '
        "{ kind: CONTROL_SEQUENCE_READY int32_false_true: [ 0, 1 ] } ] } ] }\n",
        nth=2,
    ),
    Case(
        "TL552",
        TORCH + SEQ_IO + 'sequence_batching { control_input [ { name: "R" control [ '
        "{ kind: CONTROL_SEQUENCE_READY int32_false_true: [ 1 ] } ] } ] }\n",
        "[ 1 ]",
        "'int32_false_true' must have exactly 2 entries for CONTROL_SEQUENCE_READY",
        TORCH + SEQ_IO + 'sequence_batching { control_input [ { name: "R" control [ '
        "{ kind: CONTROL_SEQUENCE_READY int32_false_true: [ 0, 1 ] } ] } ] }\n",
    ),
    Case(
        "TL552",
        TORCH + SEQ_IO + 'sequence_batching { control_input [ { name: "C" control [ '
        "{ kind: CONTROL_SEQUENCE_CORRID data_type: TYPE_FP32 } ] } ] }\n",
        "{ kind: CONTROL_SEQUENCE_CORRID",
        "unexpected data type for control CONTROL_SEQUENCE_CORRID",
        TORCH + SEQ_IO + 'sequence_batching { control_input [ { name: "C" control [ '
        "{ kind: CONTROL_SEQUENCE_CORRID data_type: TYPE_UINT64 } ] } ] }\n",
    ),
    Case(
        "TL553",
        TORCH + SEQ_IO + "sequence_batching { oldest { preferred_batch_size: [ 8 ] } }\n",
        "8 ]",
        "sequence batching preferred batch size must be <= max batch size for m",
        TORCH + SEQ_IO + "sequence_batching { oldest { preferred_batch_size: [ 4 ] } }\n",
    ),
    Case(
        "TL554",
        TORCH + SEQ_IO + "sequence_batching { }\nparameters { key: "
        '"TRITON_BATCH_STRATEGY_PATH" value { string_value: "/opt/b.so" } }\n',
        '"TRITON_BATCH_STRATEGY_PATH"',
        "cannot be specified with sequence batcher",
        TORCH + SEQ_IO + "sequence_batching { }\n",
    ),
    Case(
        "TL555",
        TORCH + SEQ_IO + 'sequence_batching { state [ { input_name: "S__1" '
        'output_name: "S__1" data_type: TYPE_FP32 dims: [ -1 ] initial_state { data_type: '
        'TYPE_FP32 dims: [ -1 ] zero_data: true name: "z" } } ] }\n',
        "[ -1 ]",
        "contains variable dimensions",
        TORCH + SEQ_IO + 'sequence_batching { state [ { input_name: "S__1" '
        'output_name: "S__1" data_type: TYPE_FP32 dims: [ -1 ] initial_state { data_type: '
        'TYPE_FP32 dims: [ 8 ] zero_data: true name: "z" } } ] }\n',
        nth=2,
    ),
    Case(
        "TL556",
        TORCH + SEQ_IO + 'sequence_batching { state [ { input_name: "S__1" '
        'output_name: "S__1" data_type: TYPE_FP32 dims: [ 4 ] initial_state { data_type: '
        'TYPE_FP32 dims: [ 4 ] data_file: "init.bin" name: "i" } } ] }\n',
        '"init.bin"',
        "initial_state setting expects 16 bytes, but the data provided from "
        "init.binonly has 8 bytes.",
        TORCH + SEQ_IO + 'sequence_batching { state [ { input_name: "S__1" '
        'output_name: "S__1" data_type: TYPE_FP32 dims: [ 4 ] initial_state { data_type: '
        'TYPE_FP32 dims: [ 4 ] data_file: "init.bin" name: "i" } } ] }\n',
        extra={"initial_state/init.bin": b"\0" * 8},
        good_extra={"initial_state/init.bin": b"\0" * 16},
    ),
    # --- io ------------------------------------------------------------------------------
    Case(
        "TL407",
        ONNX + 'input [ { name: "i" data_type: TYPE_FP32 format: FORMAT_NCHW '
        'dims: [ 224, 224 ] } ]\noutput [ { name: "o" data_type: TYPE_FP32 dims: [ 1 ] } ]\n',
        "FORMAT_NCHW",
        "model input NHWC/NCHW require 3 dims for m",
        ONNX + 'input [ { name: "i" data_type: TYPE_FP32 format: FORMAT_NCHW '
        'dims: [ 3, 224, 224 ] } ]\noutput [ { name: "o" data_type: TYPE_FP32 dims: [ 1 ] } ]\n',
    ),
    Case(
        "TL408",
        ONNX + 'input [ { name: "s" data_type: TYPE_INT32 dims: [ 2 ] '
        'is_shape_tensor: true } ]\noutput [ { name: "o" data_type: TYPE_FP32 dims: [ 1 ] } ]\n',
        "true",
        "shape tensors are only supported for TensorRT platform for m",
        TRT + 'input [ { name: "s" data_type: TYPE_INT32 dims: [ 2 ] is_shape_tensor: true } ]\n'
        'output [ { name: "o" data_type: TYPE_FP32 dims: [ 1 ] } ]\n',
    ),
    Case(
        "TL409",
        ONNX + 'input [ { name: "x" data_type: TYPE_FP32 dims: [ 1 ] }, '
        '{ name: "x" data_type: TYPE_FP32 dims: [ 2 ] } ]\n'
        'output [ { name: "o" data_type: TYPE_FP32 dims: [ 1 ] } ]\n',
        '"x"',
        "input name 'x' is declared more than once",
        ONNX + 'input [ { name: "x" data_type: TYPE_FP32 dims: [ 1 ] }, '
        '{ name: "y" data_type: TYPE_FP32 dims: [ 2 ] } ]\n'
        'output [ { name: "o" data_type: TYPE_FP32 dims: [ 1 ] } ]\n',
        nth=2,
    ),
    Case(
        "TL410",
        ONNX + 'input [ { name: "i" data_type: TYPE_FP32 dims: [ 1 ] } ]\n'
        'output [ { name: "308" data_type: TYPE_FP32 dims: [ 1 ] } ]\n',
        '"308"',
        "output '308' is named by a number",
        ONNX + 'input [ { name: "i" data_type: TYPE_FP32 dims: [ 1 ] } ]\n'
        'output [ { name: "logits" data_type: TYPE_FP32 dims: [ 1 ] } ]\n',
    ),
    Case(
        "TL411",
        ONNX + "max_batch_size: 8\ndynamic_batching { }\n"
        'input [ { name: "ids" data_type: TYPE_INT64 dims: [ -1, 128 ] } ]\n'
        'output [ { name: "o" data_type: TYPE_FP32 dims: [ 2 ] } ]\n',
        "-1, 128",
        "the full shape is [-1, -1, 128]",
        ONNX + "max_batch_size: 8\ndynamic_batching { }\n"
        'input [ { name: "ids" data_type: TYPE_INT64 dims: [ 128 ] } ]\n'
        'output [ { name: "o" data_type: TYPE_FP32 dims: [ 2 ] } ]\n',
    ),
    # --- batch inputs and outputs ----------------------------------------------------------
    Case(
        "TL421",
        TRT + IO + 'batch_input [ { kind: BATCH_ELEMENT_COUNT target_name: "N" '
        'data_type: TYPE_INT32 source_input: [ "NOPE" ] } ]\n',
        '"NOPE"',
        "unknown source input name 'NOPE' for m",
        TRT + IO + 'batch_input [ { kind: BATCH_ELEMENT_COUNT target_name: "N" '
        'data_type: TYPE_INT32 source_input: [ "INPUT__0" ] } ]\n',
    ),
    Case(
        "TL422",
        TRT + IO + 'batch_output [ { target_name: [ "OUTPUT__0", "OUTPUT__0" ] '
        'kind: BATCH_SCATTER_WITH_INPUT_SHAPE source_input: [ "INPUT__0" ] } ]\n',
        '"OUTPUT__0" ]',
        "target output name 'OUTPUT__0' can only be specified once for m",
        TRT + IO + 'batch_output [ { target_name: [ "OUTPUT__0" ] '
        'kind: BATCH_SCATTER_WITH_INPUT_SHAPE source_input: [ "INPUT__0" ] } ]\n',
    ),
    # --- batching best practices -----------------------------------------------------------
    Case(
        "TL505",
        ONNX + IO + "max_batch_size: 8\n",
        "8",
        "no dynamic_batching",
        ONNX + IO + "max_batch_size: 8\ndynamic_batching { }\n",
    ),
    Case(
        "TL506",
        ONNX + IO + "dynamic_batching { }\n",
        "dynamic_batching",
        "dynamic_batching has no effect: max_batch_size is not given",
        ONNX + IO + "max_batch_size: 4\ndynamic_batching { }\n",
    ),
    Case(
        "TL507",
        ONNX + IO + "max_batch_size: 8\ndynamic_batching { preferred_batch_size: [ 8, 4 ] }\n",
        "[ 8, 4 ]",
        "is not sorted or repeats a size",
        ONNX + IO + "max_batch_size: 8\ndynamic_batching { preferred_batch_size: [ 4, 8 ] }\n",
    ),
    Case(
        "TL508",
        ONNX + IO + "max_batch_size: 8\ndynamic_batching { default_priority_level: 1 }\n",
        "default_priority_level",
        "is ignored because priority_levels is not set",
        ONNX + IO + "max_batch_size: 8\n"
        "dynamic_batching { priority_levels: 2 default_priority_level: 1 }\n",
    ),
    Case(
        "TL509",
        ONNX + IO + "max_batch_size: 16\ndynamic_batching { preferred_batch_size: "
        "[ 16 ] default_queue_policy { max_queue_size: 8 } }\n",
        "16 ]",
        "preferred batch size 16 is above max_queue_size 8",
        ONNX + IO + "max_batch_size: 16\ndynamic_batching { preferred_batch_size: "
        "[ 8 ] default_queue_policy { max_queue_size: 8 } }\n",
    ),
    # --- response cache, parameters, metrics -----------------------------------------------
    Case(
        "TL851",
        PY + IO + "model_transaction_policy { decoupled: true }\nresponse_cache { enable: true }\n",
        "true",
        "Response Cache does not currently support model m with 'decoupled' transaction policy",
        PY + IO + "model_transaction_policy { decoupled: true }\n",
        nth=2,
    ),
    Case(
        "TL852",
        PY + IO + 'parameters { key: "EXECUTION_ENV_PATH" value { string_value: '
        '"$$TRITON_MODEL_DIRECTORY/env.tar.gz" } }\n',
        '"$$TRITON',
        "env.tar.gz, which does not exist",
        PY + IO + 'parameters { key: "EXECUTION_ENV_PATH" value { string_value: '
        '"$$TRITON_MODEL_DIRECTORY/env.tar.gz" } }\n',
        good_extra={"env.tar.gz": b"x"},
    ),
    Case(
        "TL853",
        PY + IO + 'parameters { key: "FORCE_CPU_ONLY_INPUT_TENSORS" value { '
        'string_value: "true" } }\n',
        '"true"',
        "Incorrect value for FORCE_CPU_ONLY_INPUT_TENSORS: true'",
        PY + IO + 'parameters { key: "FORCE_CPU_ONLY_INPUT_TENSORS" value { '
        'string_value: "no" } }\n',
    ),
    Case(
        "TL853",
        ONNX + IO + 'parameters { key: "execution_mode" value { string_value: "2" } }\n',
        '"2"',
        "Expected values for  execution_mode are 0 or 1 but got 2 .",
        ONNX + IO + 'parameters { key: "execution_mode" value { string_value: "1" } }\n',
    ),
    Case(
        "TL854",
        ONNX + IO + "model_transaction_policy { decoupled: true }\n",
        "true",
        "forces clients onto gRPC streaming",
        ONNX + IO,
    ),
    Case(
        "TL855",
        ONNX + IO + 'model_metrics { metric_control [ { metric_identifier { family: "f" } } ] }\n',
        "{ metric_identifier",
        "metric control must specify 'histogram_options'",
        ONNX + IO + 'model_metrics { metric_control [ { metric_identifier { family: "f" } '
        "histogram_options { buckets: [ 1 ] } } ] }\n",
    ),
    Case(
        "TL856",
        ONNX + IO + 'model_repository_agents { agents [ { name: "decrypt" } ] }\n',
        '"decrypt"',
        "repository agent 'decrypt' must be installed on the server",
        ONNX + IO + 'model_repository_agents { agents [ { name: "checksum" } ] }\n',
    ),
    # --- backends ------------------------------------------------------------------------
    Case(
        "TL871",
        TORCH + 'input [ { name: "M__0" data_type: TYPE_BOOL dims: [ 1 ] optional: '
        'true } ]\noutput [ { name: "O__0" data_type: TYPE_FP32 dims: [ 1 ] } ]\n',
        "true",
        "'optional' is set to true for input 'M__0' while the backend model doesn't "
        "support optional input",
        PY + 'input [ { name: "M__0" data_type: TYPE_BOOL dims: [ 1 ] optional: true } ]\n'
        'output [ { name: "O__0" data_type: TYPE_FP32 dims: [ 1 ] } ]\n',
    ),
    Case(
        "TL871",
        ONNX + "max_batch_size: 4\ndynamic_batching { }\n"
        'input [ { name: "m" data_type: TYPE_BOOL dims: [ 1 ] optional: true } ]\n'
        'output [ { name: "o" data_type: TYPE_FP32 dims: [ 1 ] } ]\n',
        "true",
        "optional input 'm' is not supported for models that support batching",
        ONNX + 'input [ { name: "m" data_type: TYPE_BOOL dims: [ 1 ] optional: true } ]\n'
        'output [ { name: "o" data_type: TYPE_FP32 dims: [ 1 ] } ]\n',
    ),
    Case(
        "TL872",
        TORCH + 'input [ { name: "I__0" data_type: TYPE_UINT32 dims: [ 4 ] } ]\n'
        'output [ { name: "O__0" data_type: TYPE_FP32 dims: [ 4 ] } ]\n',
        "TYPE_UINT32",
        "unsupported datatype TYPE_UINT32 for input 'I__0' for model 'm'",
        TORCH + IO,
    ),
    Case(
        "TL873",
        TORCH + 'input [ { name: "I__0" data_type: TYPE_FP32 dims: [ 4 ] } ]\n'
        'output [ { name: "logits" data_type: TYPE_FP32 dims: [ 4 ] } ]\n',
        '"logits"',
        "does not follow the <name>__<index> naming convention",
        TORCH + IO,
    ),
    Case(
        "TL874",
        TORCH + 'input [ { name: "tokens" data_type: TYPE_FP32 dims: [ 4 ] } ]\n'
        'output [ { name: "O__0" data_type: TYPE_FP32 dims: [ 4 ] } ]\nmax_batch_size: 4\n'
        'sequence_batching { state [ { input_name: "S__1" output_name: "S__1" '
        "data_type: TYPE_FP32 dims: [ 4 ] } ] }\n",
        "state",
        "is using sequence batching with state but not all inputs and outputs follow",
        TORCH + IO + 'max_batch_size: 4\nsequence_batching { state [ { input_name: "S__1" '
        'output_name: "S__1" data_type: TYPE_FP32 dims: [ 4 ] } ] }\n',
    ),
    Case(
        "TL875",
        PY + IO + 'default_model_filename: "model.pyc"\n',
        '"model.pyc"',
        "Model name must end with '.py'. Model name is \"model.pyc\".",
        PY + IO + 'default_model_filename: "classifier.py"\n',
        extra={"1/model.pyc": b""},
        good_extra={"1/classifier.py": b""},
    ),
    Case(
        "TL876",
        ONNX + IO + "optimization { execution_accelerators { "
        'gpu_execution_accelerator [ { name: "trt" } ] } }\n',
        '"trt"',
        "unknown Execution Accelerator 'trt' is requested",
        ONNX + IO + "optimization { execution_accelerators { "
        'gpu_execution_accelerator [ { name: "tensorrt" } ] } }\n',
    ),
    Case(
        "TL877",
        TRT + IO + "max_batch_size: 8\ndynamic_batching { }\n"
        "optimization { cuda { graphs: true graph_spec [ { batch_size: 16 } ] } }\n",
        "{ batch_size: 16",
        "graph spec expects 'batch_size' to be >= 1 and <= 8",
        TRT + IO + "max_batch_size: 8\ndynamic_batching { }\n"
        "optimization { cuda { graphs: true graph_spec [ { batch_size: 8 } ] } }\n",
    ),
    # --- warmup --------------------------------------------------------------------------
    Case(
        "TL805",
        ONNX + IO + 'model_warmup [ { name: "w" batch_size: 1 inputs { key: '
        '"INPUT__0" value { data_type: TYPE_FP32 dims: [ 1, 4 ] zero_data: true } } } ]\n',
        "[ 1, 4 ]",
        "unexpected shape for input 'INPUT__0' for model 'm'. Expected [4], got [1,4].",
        ONNX + IO + 'model_warmup [ { name: "w" batch_size: 1 inputs { key: '
        '"INPUT__0" value { data_type: TYPE_FP32 dims: [ 4 ] zero_data: true } } } ]\n',
    ),
    Case(
        "TL805",
        ONNX + IO + 'model_warmup [ { name: "w" batch_size: 1 inputs { key: '
        '"INPUT__0" value { data_type: TYPE_INT32 dims: [ 4 ] zero_data: true } } } ]\n',
        "TYPE_INT32",
        "inference input 'INPUT__0' data-type is 'INT32', but model 'm' expects 'FP32'",
        ONNX + IO + 'model_warmup [ { name: "w" batch_size: 1 inputs { key: '
        '"INPUT__0" value { data_type: TYPE_FP32 dims: [ 4 ] zero_data: true } } } ]\n',
    ),
    Case(
        "TL806",
        ONNX + IO + 'model_warmup [ { name: "w" batch_size: 0 inputs { key: '
        '"INPUT__0" value { data_type: TYPE_FP32 dims: [ 4 ] zero_data: true } } } ]\n',
        "0 inputs",
        "has batch_size 0 and is skipped",
        ONNX + IO + 'model_warmup [ { name: "w" batch_size: 1 inputs { key: '
        '"INPUT__0" value { data_type: TYPE_FP32 dims: [ 4 ] zero_data: true } } } ]\n',
    ),
    Case(
        "TL807",
        ONNX + IO + 'model_warmup [ { name: "w" batch_size: 1 inputs { key: '
        '"INPUT__0" value { data_type: TYPE_FP32 dims: [ 4 ] input_data_file: "x.bin" } } } ]\n',
        '"x.bin"',
        "warmup setting expects 16 bytes, but the data provided from x.binonly has 4 bytes",
        ONNX + IO + 'model_warmup [ { name: "w" batch_size: 1 inputs { key: '
        '"INPUT__0" value { data_type: TYPE_FP32 dims: [ 4 ] input_data_file: "x.bin" } } } ]\n',
        extra={"warmup/x.bin": b"\0" * 4},
        good_extra={"warmup/x.bin": b"\0" * 16},
    ),
    Case(
        "TL808",
        ONNX + IO + 'model_warmup [ { name: "w" batch_size: 1 inputs { key: '
        '"INPUT__0" value { data_type: TYPE_FP32 dims: [ 4 ] input_data_file: "x.bin" } } } ]\n',
        '"x.bin"',
        "x.bin holds 64 bytes but the input needs 16",
        ONNX + IO + 'model_warmup [ { name: "w" batch_size: 1 inputs { key: '
        '"INPUT__0" value { data_type: TYPE_FP32 dims: [ 4 ] input_data_file: "x.bin" } } } ]\n',
        extra={"warmup/x.bin": b"\0" * 64},
        good_extra={"warmup/x.bin": b"\0" * 16},
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[f"{c.code}-{i}" for i, c in enumerate(CASES)])
def test_rule_reports_the_mistake_and_not_the_fix(repo: Repo, case: Case) -> None:
    root = repo(_files(case.bad, case.extra))
    # Opt-in rules report only where a selection names them.
    found = with_code(lint(root, extend_select=(case.code,)), case.code)
    assert len(found) == 1, [d.message for d in found]
    finding = found[0]
    rule = by_code(case.code)
    assert rule is not None and finding.severity is rule.severity
    assert finding.span is not None
    assert (finding.span.line, finding.span.column) == locate(case.bad, case.marker, case.nth)
    assert case.fragment in finding.message
    fixed = repo(_files(case.good, case.good_extra))
    assert case.code not in codes(lint(fixed, extend_select=(case.code,)))


def test_ensemble_step_without_model_version_is_a_warning(repo: Repo) -> None:
    clf = ONNX + IO
    step = (
        '{ model_name: "clf" input_map { key: "INPUT__0" value: "IN" } '
        'output_map { key: "OUTPUT__0" value: "OUT" } }'
    )
    pipeline = (
        'platform: "ensemble"\n'
        'input [ { name: "IN" data_type: TYPE_FP32 dims: [ 4 ] } ]\n'
        'output [ { name: "OUT" data_type: TYPE_FP32 dims: [ 4 ] } ]\n'
        f"ensemble_scheduling {{ step [ {step} ] }}\n"
    )
    files: Files = {
        "clf/config.pbtxt": clf,
        "clf/0/model.onnx": b"",
        "p/config.pbtxt": pipeline,
        "p/1/.gitkeep": b"",
    }
    found = with_code(lint(repo(files)), "TL719")
    assert len(found) == 1 and found[0].severity.value == "warning"
    assert (found[0].span.line, found[0].span.column) == locate(pipeline, '"clf"')  # type: ignore[union-attr]
    fixed = dict(
        files, **{"p/config.pbtxt": pipeline.replace('"clf" ', '"clf" model_version: -1 ')}
    )
    assert "TL719" not in codes(lint(repo(fixed)))


def test_rate_limiter_resource_both_global_and_per_device(repo: Repo) -> None:
    def config(is_global: str) -> str:
        return (
            ONNX + IO + "instance_group [ { kind: KIND_CPU rate_limiter { resources [ "
            f'{{ name: "R" global: {is_global} count: 1 }} ] }} }} ]\n'
        )

    files: Files = {
        "a/config.pbtxt": config("true"),
        "a/1/model.onnx": b"",
        "b/config.pbtxt": config("false"),
        "b/1/model.onnx": b"",
    }
    found = with_code(lint(repo(files)), "TL609")
    assert len(found) == 1
    assert found[0].severity.value == "warning"
    assert found[0].path.parent.name == "b"
    assert 'Resource "R" is present as both global and device-specific resource' in (
        found[0].message
    )
    same = dict(files, **{"b/config.pbtxt": config("true")})
    assert "TL609" not in codes(lint(repo(same)))
