"""Unit tests of the harness pieces that need no server."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers import make_tree, port_in_use

from tritonlint.repository.model import classify_version
from tritonlint.tritonserver import logs
from tritonlint.tritonserver.ports import free_ports
from tritonlint.tritonserver.prepare import (
    ADJUST_GPUS,
    ADJUST_KIND_GPU,
    ADJUST_NATIVE,
    TRIVIAL_PYTHON_MODEL,
    PythonPlaceholders,
    StagedRepository,
    rewrite_for_cpu,
    scan_model,
    stage_repository,
)

POLL_LOG = [
    'I1122 23:00:23.651323 4457 model_lifecycle.cc:472] "loading: onx:1"',
    "[libprotobuf ERROR /tmp/build/protobuf/src/google/protobuf/text_format.cc:337] Error parsing"
    ' text-format inference.ModelConfig: 3:45: Message type "inference.ModelInput" has no field'
    ' named "dim".',
    'E1122 23:00:23.655643 4457 model_repository_manager.cc:1460] "Poll failed for model'
    " directory 'bad': failed to read text proto from /m/bad/config.pbtxt\"",
]


def test_rewrite_for_cpu_keeps_lines_and_columns() -> None:
    text = (
        "instance_group [\n"
        "  { kind: KIND_GPU, gpus: [ 0,\n 1 ], count: 2 },\n"
        "  { kind: KIND_GPU gpus: 3 }\n"
        "]\n"
    )
    rewritten, notes = rewrite_for_cpu(text)
    assert notes == [ADJUST_KIND_GPU, ADJUST_GPUS]
    assert "KIND_GPU" not in rewritten and "gpus" not in rewritten
    assert [len(line) for line in rewritten.splitlines()] == [
        len(line) for line in text.splitlines()
    ]
    assert rewritten.index("count: 2") == text.index("count: 2")


def test_rewrite_for_cpu_leaves_cpu_configs_alone() -> None:
    text = "instance_group [ { kind: KIND_CPU } ]\n"
    assert rewrite_for_cpu(text) == (text, [])


@pytest.mark.parametrize(
    ("name", "version"),
    [
        ("1", 1),
        ("0", 0),
        ("12", 12),
        ("1.0", 1),
        ("2_old", 2),
        ("01", None),
        ("v1", None),
        ("warmup", None),
        ("configs", None),
        (".ipynb_checkpoints", None),
    ],
)
def test_server_version_reads_folder_names_like_the_server(name: str, version: int | None) -> None:
    assert classify_version(name)[1] == version


def _model(root: Path, name: str, config: str, *files: str) -> Path:
    """A model folder ``root/name`` with ``config`` and the empty ``files``."""
    return make_tree(
        root / name, {"config.pbtxt": config, **dict.fromkeys(files, "")}, verbatim=True
    )


def _stage_trivial(source: Path, tmp_path: Path) -> StagedRepository:
    """``source`` staged for a CPU-only server, python models on the trivial placeholder."""
    return stage_repository(
        source, tmp_path / "staged", cpu_only=True, python_placeholders=PythonPlaceholders.TRIVIAL
    )


def _stage_native(source: Path, tmp_path: Path) -> StagedRepository:
    """``source`` staged with the python models on a (fake) native stub library."""
    library = tmp_path / "libtriton_stub.so"
    library.write_bytes(b"\x7fELF")
    return stage_repository(
        source,
        tmp_path / "staged",
        cpu_only=False,
        python_placeholders=PythonPlaceholders.NATIVE,
        native_python_library=library,
    )


def test_scan_model_ignores_comments(tmp_path: Path) -> None:
    folder = _model(
        tmp_path,
        "m",
        '# backend: "onnxruntime"\nplatform: "ensemble" # "#"\n'
        'ensemble_scheduling { step [ { model_name: "a" }, { model_name: "b" } ] }\n',
    )
    model = scan_model(folder)
    assert model.backend is None
    assert model.platform == "ensemble"
    assert model.composing == ("a", "b")


def test_scan_model_reads_single_quoted_strings(tmp_path: Path) -> None:
    folder = _model(
        tmp_path,
        "m",
        "platform: 'ensemble'\n"
        "ensemble_scheduling { step [ { model_name: 'a' }, { model_name: \"b\" } ] }\n",
    )
    model = scan_model(folder)
    assert model.platform == "ensemble"
    assert model.composing == ("a", "b")


def test_load_order_puts_ensembles_after_what_they_use(tmp_path: Path) -> None:
    source = tmp_path / "repo"
    steps = 'platform: "ensemble"\nensemble_scheduling {{ step [{{ model_name: "{}" }}] }}\n'
    _model(source, "outer", steps.format("inner"))
    _model(source, "inner", steps.format("z_model"))
    _model(source, "z_model", 'backend: "python"\n')
    _model(source, "a_model", 'platform: "onnxruntime_onnx"\n')
    staged = stage_repository(source, tmp_path / "staged", cpu_only=True)
    assert staged.load_order() == ["a_model", "z_model", "inner", "outer"]


def test_staging_never_changes_the_source(tmp_path: Path) -> None:
    source = tmp_path / "repo"
    _model(source, "gpu", 'backend: "python"\ninstance_group [{ kind: KIND_GPU }]\n', "1/model.py")
    before = {p: p.read_bytes() for p in source.rglob("*") if p.is_file()}
    staged = _stage_trivial(source, tmp_path)
    assert {p: p.read_bytes() for p in source.rglob("*") if p.is_file()} == before
    gpu = staged.models["gpu"]
    assert (gpu.path / "config.pbtxt").read_text().count("KIND_CPU") == 1
    assert (gpu.path / "1" / "model.py").read_text() == TRIVIAL_PYTHON_MODEL
    assert ADJUST_KIND_GPU in gpu.adjustments
    assert staged.to_source_paths(f"{gpu.path}/1/model.py") == f"{source.resolve()}/gpu/1/model.py"
    for root in (staged.path, source.resolve()):
        assert staged.to_repository_paths(f"{root}/gpu/1/model.py in {root}") == (
            "gpu/1/model.py in repo"
        )


def test_native_placeholders_only_when_every_model_file_is_there(tmp_path: Path) -> None:
    source = tmp_path / "repo"
    _model(source, "complete", 'backend: "python"\n', "1/model.py", "2/model.py")
    _model(source, "incomplete", 'backend: "python"\n', "1/model.py", "2/.gitkeep")
    _model(source, "real", 'backend: "python"\n', "1/model.py")
    (source / "real" / "1" / "model.py").write_text("class TritonPythonModel: ...\n")
    staged = _stage_native(source, tmp_path)
    models = staged.models
    assert (models["complete"].path / "libtriton_python.so").is_file()
    assert models["complete"].adjustments == [ADJUST_NATIVE]
    # 2/ has no model.py: the real python backend must refuse it, so no stub for this model.
    assert not (models["incomplete"].path / "libtriton_python.so").exists()
    assert not (models["real"].path / "libtriton_python.so").exists()
    assert models["real"].adjustments == []


def test_native_placeholders_keep_the_python_backend_for_execution_environments(
    tmp_path: Path,
) -> None:
    # The python backend refuses a missing EXECUTION_ENV_PATH before it runs model.py; the
    # native stub would load the model.
    source = tmp_path / "repo"
    config = (
        'backend: "python"\n'
        'parameters: { key: "EXECUTION_ENV_PATH", value: { string_value: "$$TRITON_MODEL_DIRECTORY/env.tar.gz" } }\n'
    )
    _model(source, "conda", config, "1/model.py")
    staged = _stage_native(source, tmp_path)
    conda = staged.models["conda"]
    assert conda.execution_env
    assert not (conda.path / "libtriton_python.so").exists()
    assert (conda.path / "1" / "model.py").read_text() == TRIVIAL_PYTHON_MODEL


def test_poll_failure_pairs_the_parse_error_with_the_poll_line() -> None:
    assert logs.poll_failure("bad", POLL_LOG) == (
        "Poll failed for model directory 'bad': failed to read text proto from"
        " /m/bad/config.pbtxt (Error parsing text-format inference.ModelConfig: 3:45: Message"
        ' type "inference.ModelInput" has no field named "dim".)'
    )
    assert logs.poll_failure("other", POLL_LOG) is None


def test_strip_prefix_unquotes_triton_messages() -> None:
    assert logs.strip_prefix(POLL_LOG[0]) == "loading: onx:1"
    assert logs.hang_reason([f"I1122 1.2 3 pb_stub.cc:2105]  {logs.PYTHON_MODEL_FILE_MISSING}"])


def test_free_ports_are_distinct_and_free() -> None:
    ports = free_ports(3)
    assert len(set(ports)) == 3
    assert not any(port_in_use(port) for port in ports)


def test_staging_copies_linked_folders_and_stops_at_loops(tmp_path: Path) -> None:
    elsewhere = _model(tmp_path / "elsewhere", "linked", 'backend: "python"\n', "1/model.py")
    repository = tmp_path / "repo"
    repository.mkdir()
    (repository / "linked").symlink_to(elsewhere)
    (elsewhere / "loop").symlink_to(repository)
    staged = _stage_trivial(repository, tmp_path)
    copy = staged.models["linked"].path
    assert not copy.is_symlink()
    assert (copy / "1" / "model.py").read_text() == TRIVIAL_PYTHON_MODEL
    assert (elsewhere / "1" / "model.py").read_text() == ""  # written in the copy only
    assert not (elsewhere / "1" / "__pycache__").exists()


def test_staging_leaves_pipes_and_devices_out_unopened(tmp_path: Path) -> None:
    source = tmp_path / "repo"
    _model(source, "piped", 'backend: "python"\n', "1/.gitkeep")
    os.mkfifo(source / "piped" / "1" / "model.py")  # opening it would block until a writer came
    _model(source, "device", 'backend: "onnxruntime"\n', "1/.gitkeep")
    (source / "device" / "1" / "model.onnx").symlink_to("/dev/zero")  # copying it never ends
    staged = _stage_trivial(source, tmp_path)
    piped, device = staged.models["piped"], staged.models["device"]
    assert not (piped.path / "1" / "model.py").exists()
    assert not os.path.lexists(device.path / "1" / "model.onnx")
    assert piped.adjustments == [] and device.adjustments == []


def test_instance_devices_are_read_from_each_backends_line() -> None:
    lines = [
        'I1128 11:40:30.328695 11316 model_lifecycle.cc:472] "loading: m:1"',
        'I1128 11:40:31.569161 11316 python_be.cc:2249] "TRITONBACKEND_ModelInstanceInitialize:'
        ' m_0_0 (GPU device 0)"',
        "I1128 11:40:31.6 11316 onnxruntime.cc:2900] TRITONBACKEND_ModelInstanceInitialize:"
        " m_0_1 (GPU device 1)",
        'I1128 11:40:31.7 11316 python_be.cc:2249] "TRITONBACKEND_ModelInstanceInitialize:'
        ' m_1_0 (CPU device 0)"',
        'I1128 11:40:31.8 11316 backend.cc:1] "TRITONBACKEND_ModelInstanceInitialize: m_2 (MODEL)"',
    ]
    assert logs.instance_devices(lines) == [
        ("m_0_0", "GPU 0"),
        ("m_0_1", "GPU 1"),
        ("m_1_0", "CPU"),
        ("m_2", "MODEL"),
    ]
