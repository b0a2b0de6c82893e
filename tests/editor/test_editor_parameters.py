"""The backend's ``parameters`` keys: completed at an entry's key, their values in its
``value { string_value: ... }``, explained on hover; for the backend the server would use."""

from __future__ import annotations

from pathlib import Path

from editor_texts import at_cursor
from helpers import make_tree

from tritonlint.editor.completion import Completion, CompletionKind, completions
from tritonlint.editor.hover import hover
from tritonlint.engine import LintOptions, Workspace
from tritonlint.repository.model import Repository
from tritonlint.schema.releases import Schema, load_schema
from tritonlint.span import Span

PYTHON = 'backend: "python"\n'
ONNX = 'platform: "onnxruntime_onnx"\n'
TORCH = 'platform: "pytorch_libtorch"\n'

ONNX_KEYS = [
    "intra_op_thread_count",
    "inter_op_thread_count",
    "execution_mode",
    "enable_mem_arena",
    "enable_mem_pattern",
    "memory.enable_memory_arena_shrinkage",
    "session.use_device_allocator_for_initializers",
    "cudnn_conv_algo_search",
    "gpu_mem_limit",
    "arena_extend_strategy",
    "do_copy_in_default_stream",
]


def complete(
    marked: str,
    schema: Schema,
    repository: Repository | None = None,
    path: Path | None = None,
) -> list[Completion]:
    text, line, column = at_cursor(marked)
    return completions(text, line, column, schema, repository, path)


def labels(items: list[Completion]) -> list[str]:
    return [item.label for item in items]


def hover_text(marked: str, schema: Schema) -> str | None:
    text, line, column = at_cursor(marked)
    found = hover(text, line, column, schema)
    return found.text if found is not None else None


def test_python_keys_inside_the_quotes(schema: Schema) -> None:
    items = complete(PYTHON + 'parameters { key: "|" }', schema)
    assert labels(items) == ["EXECUTION_ENV_PATH", "FORCE_CPU_ONLY_INPUT_TENSORS"]
    assert items[1] == Completion(
        "FORCE_CPU_ONLY_INPUT_TENSORS",
        CompletionKind.PARAMETER,
        "python parameter, string",
        '"FORCE_CPU_ONLY_INPUT_TENSORS"',
        False,
        Span(2, 19, 2, 21, 36, 38),
        "Whether inputs are always copied to CPU memory before `execute` sees them (`yes`, "
        "the default) or handed over wherever they are (`no`).\n\n"
        "Values: `yes` inputs always in CPU memory; `no` inputs in CPU or GPU memory",
    )
    assert items[0].detail == "python parameter, path"


def test_a_new_entry_gets_the_keys_quoted_less_those_already_set(schema: Schema) -> None:
    marked = (
        PYTHON + 'parameters [ { key: "EXECUTION_ENV_PATH" value { string_value: "env.tar.gz" } },'
        "\n  { key: | } ]"
    )
    items = complete(marked, schema)
    assert [(item.label, item.insert_text) for item in items] == [
        ("FORCE_CPU_ONLY_INPUT_TENSORS", '"FORCE_CPU_ONLY_INPUT_TENSORS"')
    ]
    assert items[0].replace == Span(3, 10, 3, 10, 108, 108)


def test_a_half_typed_key_is_replaced_whole(schema: Schema) -> None:
    items = complete(PYTHON + 'parameters { key: "EXEC|', schema)
    assert labels(items) == ["EXECUTION_ENV_PATH", "FORCE_CPU_ONLY_INPUT_TENSORS"]
    assert items[0].replace == Span(2, 19, 2, 24, 36, 41)


def test_pytorch_keys_of_the_targeted_release() -> None:
    newest = labels(complete(TORCH + 'parameters { key: "|" }', load_schema()))
    assert newest == [
        "DISABLE_OPTIMIZED_EXECUTION",
        "INFERENCE_MODE",
        "DISABLE_CUDNN",
        "ENABLE_WEIGHT_SHARING",
        "ENABLE_CACHE_CLEANING",
        "INTER_OP_THREAD_COUNT",
        "INTRA_OP_THREAD_COUNT",
        "ENABLE_JIT_EXECUTOR",
        "ENABLE_JIT_PROFILING",
        "ENABLE_TENSOR_FUSER",
        "NUM_THREADS",
        "NUM_INTEROP_THREADS",
        "TORCH_COMPILE_OPTIONAL_PARAMETERS",
    ]
    old = labels(complete(TORCH + 'parameters { key: "|" }', load_schema("2.40")))
    assert old == [
        "DISABLE_OPTIMIZED_EXECUTION",
        "INFERENCE_MODE",
        "ENABLE_WEIGHT_SHARING",
        "ENABLE_CACHE_CLEANING",
        "ENABLE_NVFUSER",
        "ENABLE_JIT_EXECUTOR",
        "ENABLE_JIT_PROFILING",
        "ENABLE_TENSOR_FUSER",
    ]


def test_onnxruntime_keys_for_the_backend_its_platform_implies(schema: Schema) -> None:
    assert labels(complete(ONNX + "parameters { key: | }", schema)) == ONNX_KEYS


def test_onnxruntime_keys_for_the_backend_its_model_file_implies(
    tmp_path: Path, schema: Schema
) -> None:
    config = 'name: "m"\nparameters { key: "" }\n'
    make_tree(tmp_path, {"m/1/model.onnx": b"", "m/config.pbtxt": config}, verbatim=True)
    repository = Workspace(tmp_path, LintOptions()).repository
    marked = 'name: "m"\nparameters { key: "|" }\n'
    path = tmp_path / "m" / "config.pbtxt"
    assert labels(complete(marked, schema, repository, path)) == ONNX_KEYS
    assert complete(marked, schema) == []


def test_an_unknown_or_undetermined_backend_gets_no_keys(schema: Schema) -> None:
    assert complete('backend: "my_backend"\nparameters { key: "|" }', schema) == []
    assert complete('parameters { key: "|" }', schema) == []
    assert complete('platform: "ensemble"\nparameters { key: "|" }', schema) == []


def test_only_the_models_own_parameters(schema: Schema) -> None:
    marked = (
        PYTHON + 'model_repository_agents { agents [ { name: "checksum"\n'
        '  parameters { key: "|" } } ] }'
    )
    assert complete(marked, schema) == []


def test_the_documented_values_of_a_key(schema: Schema) -> None:
    items = complete(
        ONNX + 'parameters { key: "execution_mode" value { string_value: "|" } }', schema
    )
    assert [(item.label, item.kind, item.insert_text, item.documentation) for item in items] == [
        ("0", CompletionKind.VALUE, '"0"', "sequential (the default)"),
        ("1", CompletionKind.VALUE, '"1"', "parallel"),
    ]
    assert items[0].detail == "execution_mode value"
    assert items[0].replace == Span(2, 58, 2, 60, 86, 88)
    flag = complete(
        TORCH + 'parameters { key: "INFERENCE_MODE" value { string_value: | } }', schema
    )
    assert labels(flag) == ["true", "false"]


def test_values_of_the_targeted_release() -> None:
    marked = (
        'backend: "vllm"\nparameters { key: "REPORT_CUSTOM_METRICS" value { string_value: | } }'
    )
    assert labels(complete(marked, load_schema("2.52"))) == ["yes"]
    assert labels(complete(marked, load_schema())) == ["true", "false"]
    assert complete(marked, load_schema("2.48")) == []


def test_no_values_for_a_free_value_or_an_unknown_key(schema: Schema) -> None:
    free = PYTHON + 'parameters { key: "EXECUTION_ENV_PATH" value { string_value: "|" } }'
    assert complete(free, schema) == []
    unknown = PYTHON + 'parameters { key: "execution_mode" value { string_value: "|" } }'
    assert complete(unknown, schema) == []


def test_hover_over_a_key_tells_its_meaning_and_backend(schema: Schema) -> None:
    text, line, column = at_cursor(
        ONNX + 'parameters { key: "execution_m|ode" value { string_value: "1" } }'
    )
    found = hover(text, line, column, schema)
    assert found is not None
    assert found.span == Span(2, 19, 2, 35, 47, 63)
    assert found.text == (
        "**execution_mode**: `integer`, a parameter of the onnxruntime backend\n\n"
        "Whether the graph's nodes run one after another or in parallel.\n\n"
        "Values: `0` sequential (the default); `1` parallel"
    )


def test_hover_over_a_key_the_targeted_release_no_longer_reads() -> None:
    marked = TORCH + 'parameters { key: "ENABLE_NV|FUSER" }'
    newest = hover_text(marked, load_schema())
    assert newest is not None
    assert newest.endswith(
        "\n\nNot read by the pytorch backend of Triton 2.73.0 "
        "(no longer read from Triton 2.41.0 on)"
    )
    old = hover_text(marked, load_schema("2.40"))
    assert old is not None and "Not read" not in old


def test_hover_over_a_key_the_backend_does_not_read_shows_the_field(schema: Schema) -> None:
    found = hover_text(PYTHON + 'parameters { key: "execution_m|ode" }', schema)
    assert found is not None and found.startswith("**key**: `string`")
