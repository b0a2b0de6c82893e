"""The smoke stage against a fake tritonserver and a fake docker (fast; no real server).

The fake server (fake_triton_server.py) answers the HTTP calls the stage makes and refuses
models by simple rules of its own, so that every path of the stage can be driven: refusals,
missing backends, GPUs, hangs, crashes, a server that cannot start, Ctrl-C, and containers.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import uuid
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import make_tree, port_in_use
from smoke_helpers import (
    FakeDocker,
    FakeServer,
    assert_released,
    processes_naming,
    seconds_until_gone,
)

from tritonlint.cli import main
from tritonlint.smoke import ModelStatus, ServerKind, SmokeOptions, SmokeUsageError, run_smoke
from tritonlint.smoke.runner import SmokeError
from tritonlint.smoke.servers import DockerSettings, choose_server, docker_command
from tritonlint.tritonserver.process import ServerPorts

GOOD = 'name: "{name}"\nbackend: "python"\nmax_batch_size: 8\n'


def _repo(root: Path, models: dict[str, str]) -> Path:
    files: dict[str, str | None] = {}
    for name, config in models.items():
        files[f"{name}/config.pbtxt"] = config.replace("{name}", name)
        files[f"{name}/1/model.py"] = "# a model\n"
    return make_tree(root, files)


def _flat(text: str) -> str:
    """Console output with rich's line wrapping undone."""
    return " ".join(text.split())


def _snapshot(folder: Path) -> dict[str, str]:
    return {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def _smoke(repo: Path, server: FakeServer, **options: object) -> object:
    return run_smoke(repo, SmokeOptions(server=server.path, **options))  # type: ignore[arg-type]


# -- which server ----------------------------------------------------------------------------


def test_server_choice_order(tmp_path: Path) -> None:
    binary = tmp_path / "my-server"
    binary.write_text("#!/bin/sh\n")
    binary.chmod(0o755)
    on_path = {"tritonserver": "/usr/bin/tritonserver", "docker": "/usr/bin/docker"}

    def which(name: str) -> str | None:
        return on_path.get(name)

    assert choose_server(binary, None, which=which).kind is ServerKind.OPTION
    # --docker is explicit: it wins over a tritonserver that happens to be on PATH.
    docker = choose_server(None, "nvcr.io/nvidia/tritonserver:24.10-py3", which=which)
    assert (docker.kind, docker.docker) == (ServerKind.DOCKER, "/usr/bin/docker")
    assert choose_server(None, None, which=which).kind is ServerKind.PATH
    assert choose_server(None, None, which=lambda name: None).kind is ServerKind.EMBEDDED
    with pytest.raises(SmokeUsageError, match="give one of them"):
        choose_server(binary, "image", which=which)
    with pytest.raises(SmokeUsageError, match="none is on PATH"):
        choose_server(None, "image", which=lambda name: None)
    with pytest.raises(SmokeUsageError, match="not an executable file"):
        choose_server(tmp_path / "missing", None, which=which)


def test_a_server_that_is_not_executable_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _repo(tmp_path / "models", {"a": GOOD})
    assert main(["smoke", "--server", str(tmp_path / "nope"), str(repo)]) == 2
    assert "not an executable file" in _flat(capsys.readouterr().err)


def test_the_repository_must_be_a_folder(
    fake_server: FakeServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["smoke", "--server", str(fake_server.path), str(tmp_path / "none")]) == 2
    assert "is not a folder" in _flat(capsys.readouterr().err)
    assert fake_server.events() == []


# -- loads and refusals ----------------------------------------------------------------------


def test_refusal_is_mapped_to_the_rule_and_the_line(
    fake_server: FakeServer, tmp_path: Path, gpu: Callable[[bool], None]
) -> None:
    repo = _repo(
        tmp_path / "models",
        {
            "good": GOOD,
            "negative": 'name: "negative"\nbackend: "python"\nmax_batch_size: -1\n'
            "# fake-refuse: 'max_batch_size' must be non-negative value for negative\n",
            "odd": GOOD + "# fake-refuse: something no rule knows about\n",
        },
    )
    result = _smoke(repo, fake_server)
    statuses = {m.name: m.status for m in result.models}
    assert statuses == {
        "good": ModelStatus.LOADED,
        "negative": ModelStatus.REFUSED,
        "odd": ModelStatus.REFUSED,
    }
    negative = next(m for m in result.models if m.name == "negative")
    finding = negative.diagnostic
    assert finding is not None and finding.code == "TL030" and finding.severity.value == "error"
    assert finding.path == repo.resolve() / "negative" / "config.pbtxt"
    assert finding.span is not None and finding.span.line == 3
    assert "[predicted by TL501 negative-max-batch-size]" in finding.message
    # The server's exact message ends the finding.
    assert finding.message.endswith(
        "load failed for model 'negative': 'max_batch_size' must be non-negative value for negative"
    )
    odd = next(m for m in result.models if m.name == "odd").diagnostic
    assert odd is not None and "[no tritonlint rule predicts this message]" in odd.message
    assert not result.ok
    assert result.server.version == "0.0.0-fake"
    assert_released(result)


def test_a_refusal_names_paths_from_the_repository_not_from_its_copy_or_this_machine(
    fake_server: FakeServer, tmp_path: Path, gpu: Callable[[bool], None]
) -> None:
    why = "failed to read text proto from {repository}/m/config.pbtxt in {repository}"
    refuse = f"# fake-refuse: {why}\n"
    repo = _repo(tmp_path / "models", {"m": GOOD + refuse})
    (model,) = _smoke(repo, fake_server).models
    finding = model.diagnostic
    assert finding is not None and finding.code == "TL030"
    assert finding.message.endswith(
        "load failed for model 'm': failed to read text proto from m/config.pbtxt in models"
    )
    assert str(tmp_path) not in finding.message


def test_every_model_loaded_exits_zero_and_says_which_server_ran(
    fake_server: FakeServer,
    tmp_path: Path,
    gpu: Callable[[bool], None],
    capsys: pytest.CaptureFixture[str],
) -> None:
    repo = _repo(tmp_path / "models", {"a": GOOD, "b": GOOD})
    assert main(["smoke", "--server", str(fake_server.path), str(repo)]) == 0
    captured = capsys.readouterr()
    out, err = _flat(captured.out), _flat(captured.err)
    assert "All 2 models loaded in " in out
    assert f"tritonserver 0.0.0-fake — {fake_server.path} (--server)" in out
    # Before the server starts: python models run their own model.py.
    assert (
        "Note: These python models run their own model.py in the server (initialize() "
        "included): a, b. Pass --stub-python-models to validate their configs without running "
        "any of their code."
    ) in err
    assert_released(pids=fake_server.pids())


def test_the_server_runs_in_explicit_mode_on_loopback_ports(
    fake_server: FakeServer, tmp_path: Path, gpu: Callable[[bool], None]
) -> None:
    repo = _repo(tmp_path / "models", {"a": GOOD})
    result = _smoke(repo, fake_server)
    (start,) = fake_server.events("start")
    argv = start["argv"]
    assert "--model-control-mode=explicit" in argv
    for kind in ("http", "grpc", "metrics"):
        assert f"--{kind}-address=127.0.0.1" in argv
    assert len(set(start["ports"])) == 3
    # A temporary copy, not the user's folder.
    (repository,) = [a.split("=", 1)[1] for a in argv if a.startswith("--model-repository=")]
    assert Path(repository) != repo.resolve() and not Path(repository).exists()
    assert_released(result)


def test_missing_backend_is_reported_as_such_or_stubbed(
    fake_server: FakeServer, tmp_path: Path, gpu: Callable[[bool], None]
) -> None:
    config = 'name: "onnx"\nbackend: "onnxruntime"\nmax_batch_size: 8\n'
    repo = make_tree(tmp_path / "models", {"onnx/config.pbtxt": config, "onnx/1/model.onnx": "x"})

    missing = _smoke(repo, fake_server)
    (model,) = missing.models
    assert model.status is ModelStatus.BACKEND_MISSING
    assert model.diagnostic is not None
    assert (model.diagnostic.code, model.diagnostic.severity.value) == ("TL031", "warning")
    assert "not a config error" in model.diagnostic.message
    assert model.diagnostic.span is not None and model.diagnostic.span.line == 2
    assert not missing.ok

    stubbed = _smoke(repo, fake_server, stub_missing_backends=True)
    (model,) = stubbed.models
    assert model.status is ModelStatus.STUBBED and model.status.text == (
        "config validated, backend stubbed"
    )
    assert model.diagnostic is None and stubbed.ok
    assert stubbed.flags_needed() == {"--stub-missing-backends": ["onnx"]}
    assert model.attempts == 2  # refused for the backend, then loaded with the stand-in
    assert_released(stubbed)


def test_stub_python_models_runs_no_model_py(
    fake_server: FakeServer,
    tmp_path: Path,
    gpu: Callable[[bool], None],
    capsys: pytest.CaptureFixture[str],
) -> None:
    repo = _repo(tmp_path / "models", {"a": GOOD})
    # Without model.py the real python backend refuses the model: it is not stubbed.
    make_tree(repo, {"nofile/config.pbtxt": GOOD.replace("{name}", "nofile"), "nofile/1": None})
    code = main(["smoke", "--server", str(fake_server.path), "--stub-python-models", str(repo)])
    assert code == 0
    captured = capsys.readouterr()
    out, err = _flat(captured.out), _flat(captured.err)
    assert (
        "Note: This python model runs its own model.py in the server (initialize() included): "
        "nofile. Pass --stub-python-models to validate its config without running any of its "
        "code."
    ) in err
    assert "Stubbed python models: a (--stub-python-models): its model.py was not run." in out


def test_a_statically_broken_ensemble_step_blocks_the_ensemble(
    fake_server: FakeServer, tmp_path: Path, gpu: Callable[[bool], None]
) -> None:
    repo = make_tree(
        tmp_path / "models",
        {
            "onnx/config.pbtxt": 'name: "onnx"\nbackend: "onnxruntime"\n',
            "onnx/1/model.onnx": "x",
            "pipe/config.pbtxt": 'name: "pipe"\nplatform: "ensemble"\n'
            'ensemble_scheduling { step [ { model_name: "onnx" model_version: -1 } ] }\n',
            "pipe/1": None,
        },
    )
    result = _smoke(repo, fake_server)
    pipe = next(m for m in result.models if m.name == "pipe")
    assert [m.name for m in result.models] == ["onnx", "pipe"]  # ensembles last
    assert pipe.status is ModelStatus.SKIPPED
    assert "step model 'onnx' was not loaded (backend missing)" in pipe.message
    assert [e["model"] for e in fake_server.events("load")] == ["onnx"]


# -- GPUs (detection faked: no GPU machine was available) -------------------------------------

GPU_MODEL = 'name: "{name}"\nbackend: "python"\ninstance_group [ { kind: KIND_GPU } ]\n'


def test_without_a_gpu_a_gpu_model_is_validated_on_cpu_with_a_note(
    fake_server: FakeServer,
    tmp_path: Path,
    gpu: Callable[[bool], None],
    capsys: pytest.CaptureFixture[str],
) -> None:
    gpu(False)
    repo = _repo(tmp_path / "models", {"g": GPU_MODEL})
    assert main(["smoke", "--server", str(fake_server.path), str(repo)]) == 0
    out = _flat(capsys.readouterr().out)
    assert "The model loaded in " in out
    assert (
        "On CPU: g — no GPU on this machine, so KIND_GPU was validated as KIND_CPU; --gpus "
        "loads it as written (TL032 where there is no GPU)."
    ) in out
    (load,) = fake_server.events("load")
    assert "KIND_CPU" in load["config"] and "KIND_GPU" not in load["config"]


def test_gpus_without_a_gpu_reports_that_the_model_needs_one(
    fake_server: FakeServer, tmp_path: Path, gpu: Callable[[bool], None]
) -> None:
    gpu(False)
    repo = _repo(tmp_path / "models", {"g": GPU_MODEL})
    result = _smoke(repo, fake_server, gpus=True)
    (model,) = result.models
    assert model.status is ModelStatus.NEEDS_GPU
    assert model.diagnostic is not None and model.diagnostic.code == "TL032"
    assert model.diagnostic.severity.value == "warning"
    assert model.diagnostic.span is not None and model.diagnostic.span.line == 3
    assert "--cpu-only" in model.diagnostic.message


def test_cpu_only_rewrites_kind_gpu_in_the_copy(
    fake_server: FakeServer, tmp_path: Path, gpu: Callable[[bool], None]
) -> None:
    gpu(False)
    repo = _repo(tmp_path / "models", {"g": GPU_MODEL})
    before = _snapshot(repo)
    result = _smoke(repo, fake_server, gpus=False)
    (model,) = result.models
    assert model.status is ModelStatus.LOADED
    assert result.flags_needed() == {"--cpu-only": ["g"]}
    (load,) = fake_server.events("load")
    assert "KIND_CPU" in load["config"] and "KIND_GPU" not in load["config"]
    assert _snapshot(repo) == before  # the user's files are never changed


def test_with_a_gpu_the_model_loads_on_the_gpu(
    fake_server: FakeServer,
    tmp_path: Path,
    gpu: Callable[[bool], None],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gpu(True)
    monkeypatch.setenv("FAKE_TRITON_GPUS", "1")  # the fake server sees GPUs
    repo = _repo(tmp_path / "models", {"g": GPU_MODEL})
    result = _smoke(repo, fake_server)
    (model,) = result.models
    assert model.status is ModelStatus.LOADED and model.adjustments == ()
    assert result.server.gpus
    (load,) = fake_server.events("load")
    assert "KIND_GPU" in load["config"]  # not rewritten


def test_gpus_option_overrides_detection(
    fake_server: FakeServer, tmp_path: Path, gpu: Callable[[bool], None]
) -> None:
    gpu(False)
    repo = _repo(tmp_path / "models", {"g": GPU_MODEL})
    result = _smoke(repo, fake_server, gpus=True)
    assert result.server.gpus
    (load,) = fake_server.events("load")
    assert "KIND_GPU" in load["config"]


def test_gpu_detection_is_one_function_at_the_nvidia_smi_boundary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tritonlint.tritonserver import devices

    fake = tmp_path / "nvidia-smi"
    fake.write_text("#!/bin/sh\necho 'GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-0)'\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ['PATH']}")
    devices.has_gpu.cache_clear()
    try:
        assert devices.has_gpu()
    finally:
        devices.has_gpu.cache_clear()


# -- docker (a fake docker records its arguments) ---------------------------------------------


def test_docker_command() -> None:
    settings = DockerSettings(docker="docker", image="img:1", gpus=False, mounts=[Path("/src")])
    ports = ServerPorts(8000, 8001, 8002)
    command = docker_command(settings, "c1", Path("/tmp/stage/models"), ports, "pfx_")
    assert command[:4] == ["docker", "run", "--rm", "--name"]
    assert "--gpus" not in command
    for port in (8000, 8001, 8002):
        assert f"127.0.0.1:{port}:{port}" in command
    assert "/tmp/stage/models:/tmp/stage/models:ro" in command
    assert "/src:/src:ro" in command
    image = command.index("img:1")
    assert command[image + 1] == "tritonserver"
    assert "--model-repository=/tmp/stage/models" in command[image:]
    assert "--model-control-mode=explicit" in command[image:]
    with_gpus = docker_command(
        DockerSettings("docker", "img:1", gpus=True), "c2", Path("/m"), ports, "p"
    )
    assert with_gpus[with_gpus.index("--gpus") + 1] == "all"
    assert with_gpus.index("--gpus") < with_gpus.index("img:1")


@pytest.mark.parametrize("has_gpu", [False, True])
def test_docker_runs_the_image_with_the_repository_read_only(
    fake_docker: FakeDocker,
    fake_server: FakeServer,
    tmp_path: Path,
    gpu: Callable[[bool], None],
    capsys: pytest.CaptureFixture[str],
    has_gpu: bool,
) -> None:
    gpu(has_gpu)
    repo = _repo(tmp_path / "models", {"a": GOOD, "g": GPU_MODEL})
    image = "nvcr.io/nvidia/tritonserver:24.10-py3"
    code = main(["smoke", "--docker", image, "--format", "json", str(repo)])
    report = json.loads(capsys.readouterr().out)
    calls = fake_docker.calls()
    run = calls[0]
    assert run[0] == "run"
    source = str(repo.resolve())
    assert f"{source}:{source}:ro" in run
    staged = next(a.split("=", 1)[1] for a in run if a.startswith("--model-repository="))
    assert f"{staged}:{staged}:ro" in run
    assert [a for a in run if a.startswith("127.0.0.1:")] and all(
        run[i - 1] == "-p" for i, a in enumerate(run) if a.startswith("127.0.0.1:")
    )
    assert run[run.index(image) + 1] == "tritonserver"
    assert ("--gpus" in run) is has_gpu
    # The container is removed when the server stops.
    name = run[run.index("--name") + 1]
    assert ["rm", "--force", name] in calls
    assert report["server"]["kind"] == "docker"
    assert report["server"]["version"] == "0.0.0-fake"
    assert image in report["server"]["description"]
    statuses = {m["name"]: m["status"] for m in report["models"]}
    # Without a GPU, KIND_GPU is validated as KIND_CPU.
    assert statuses == {"a": "loaded", "g": "loaded"}
    assert report["models"][1]["flags"] == ([] if has_gpu else ["--cpu-only"])
    assert code == 0
    assert_released(pids=fake_server.pids())


# -- timeouts, crashes, a server that cannot start, Ctrl-C ------------------------------------


def test_a_load_that_times_out_is_reported_and_the_server_restarted(
    fake_server: FakeServer,
    tmp_path: Path,
    gpu: Callable[[bool], None],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("FAKE_TRITON_HANG", "a_slow")
    repo = _repo(tmp_path / "models", {"a_slow": GOOD, "b": GOOD})
    started = time.monotonic()
    result = _smoke(repo, fake_server, timeout=1.0)
    assert time.monotonic() - started < 10
    slow, b = result.models
    assert slow.status is ModelStatus.TIMEOUT
    assert slow.diagnostic is not None and slow.diagnostic.code == "TL033"
    assert "--timeout 1 s" in slow.message
    assert b.status is ModelStatus.LOADED
    assert len(result.starts) == 2  # a fresh server after the hung one
    assert_released(result)


def test_the_total_timeout_ends_the_run(
    fake_server: FakeServer,
    tmp_path: Path,
    gpu: Callable[[bool], None],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("FAKE_TRITON_HANG", "a,b")
    repo = _repo(tmp_path / "models", {"a": GOOD, "b": GOOD, "c": GOOD})
    started = time.monotonic()
    result = _smoke(repo, fake_server, timeout=30.0, total_timeout=1.5)
    assert time.monotonic() - started < 10
    assert [m.status for m in result.models] == [ModelStatus.TIMEOUT] * 3
    assert all("--total-timeout 1.5 s ran out" in m.message for m in result.models)
    assert_released(result)


def test_a_server_that_dies_during_a_load_is_restarted(
    fake_server: FakeServer,
    tmp_path: Path,
    gpu: Callable[[bool], None],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("FAKE_TRITON_CRASH", "a_crash")
    repo = _repo(tmp_path / "models", {"a_crash": GOOD, "b": GOOD})
    result = _smoke(repo, fake_server)
    crash, b = result.models
    assert crash.status is ModelStatus.CRASHED and crash.attempts == 2
    assert crash.diagnostic is not None and crash.diagnostic.code == "TL034"
    assert "died while loading 'a_crash'" in crash.message
    assert "crashing while loading a_crash" in crash.message  # the log's tail
    assert b.status is ModelStatus.LOADED
    assert len(result.starts) == 3  # the first, the retry's, and one for b
    assert_released(result)


def test_a_server_that_cannot_start(
    fake_server: FakeServer,
    tmp_path: Path,
    gpu: Callable[[bool], None],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("FAKE_TRITON_EXIT", "1")
    repo = _repo(tmp_path / "models", {"a": GOOD})
    with pytest.raises(SmokeError, match="did not start"):
        _smoke(repo, fake_server)
    assert main(["smoke", "--server", str(fake_server.path), str(repo)]) == 2
    assert "fake server told to fail" in _flat(capsys.readouterr().err)
    assert_released(pids=fake_server.pids())


def test_a_server_that_cannot_be_run_is_an_error_not_a_crash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server = tmp_path / "bin" / "tritonserver"  # its interpreter does not exist
    server.parent.mkdir()
    server.write_text("#!/nonexistent/python\n")
    server.chmod(0o755)
    repo = _repo(tmp_path / "models", {"a": GOOD})
    assert main(["smoke", "--server", str(server), str(repo)]) == 2
    error = _flat(capsys.readouterr().err)
    assert f"error: {server} (--server) did not start: tritonserver could not be started:" in error
    assert "No such file or directory" in error


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_an_interrupted_run_stops_the_server(
    fake_server: FakeServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    sig: signal.Signals,
) -> None:
    monkeypatch.setenv("FAKE_TRITON_HANG", "a")
    repo = _repo(tmp_path / "models", {"a": GOOD})
    command = [sys.executable, "-m", "tritonlint.cli", "smoke", "--server", str(fake_server.path)]
    process = subprocess.Popen(
        [*command, "--cpu-only", str(repo)], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + 30
    while not fake_server.events("load") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert fake_server.events("load"), process.communicate(timeout=10)
    process.send_signal(sig)
    process.communicate(timeout=30)
    assert process.returncode == 130
    assert_released(pids=fake_server.pids())
    (start,) = fake_server.events("start")
    assert not any(port_in_use(port) for port in start["ports"])


def _smoke_hanging_in_a_load(
    fake_server: FakeServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *options: str
) -> subprocess.Popen[bytes]:
    """``tritonlint smoke OPTIONS`` of one model whose load hangs, in a process of its own
    whose $TMPDIR is ``tmp_path/tmp``, once the server has begun to load the model."""
    monkeypatch.setenv("FAKE_TRITON_HANG", "a")
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    repo = _repo(tmp_path / "models", {"a": GOOD})
    process = subprocess.Popen(
        [sys.executable, "-m", "tritonlint.cli", "smoke", *options, str(repo)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "TMPDIR": str(temporary)},
    )
    deadline = time.monotonic() + 30
    while not fake_server.events("load") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert fake_server.events("load"), "the load never started"
    return process


def test_a_run_killed_with_sigkill_leaves_no_process_and_no_temporary_folder(
    fake_server: FakeServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    temporary = tmp_path / "tmp"  # the run's $TMPDIR: its folder is made there
    process = _smoke_hanging_in_a_load(
        fake_server, tmp_path, monkeypatch, "--server", str(fake_server.path), "--cpu-only"
    )
    assert processes_naming(str(temporary)) and any(temporary.iterdir())
    process.kill()
    process.wait()
    assert seconds_until_gone(temporary) is not None, (
        processes_naming(str(temporary)),
        list(temporary.iterdir()),
    )
    assert_released(pids=fake_server.pids())


def test_a_container_is_removed_when_tritonlint_is_killed(
    fake_docker: FakeDocker,
    fake_server: FakeServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    temporary = tmp_path / "tmp"
    process = _smoke_hanging_in_a_load(fake_server, tmp_path, monkeypatch, "--docker", "img:1")
    process.kill()
    process.wait()
    assert seconds_until_gone(temporary) is not None
    run = fake_docker.calls()[0]
    name = run[run.index("--name") + 1]
    assert ["rm", "--force", name] in fake_docker.calls()


def _command_line(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")


def _wait_until_running(process: subprocess.Popen[bytes], argument: str) -> None:
    """Wait until ``process`` shows ``argument`` among its arguments in /proc."""
    deadline = time.monotonic() + 10
    while argument not in _command_line(process.pid):
        assert time.monotonic() < deadline, _command_line(process.pid)
        time.sleep(0.01)


def test_a_run_removes_what_killed_runs_left_and_nothing_of_running_ones(
    fake_server: FakeServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    dead = subprocess.Popen(["true"])
    dead.wait()
    suffix = uuid.uuid4().hex[:8]
    left = make_tree(
        temporary / f"tritonlint-smoke-{suffix}",
        {
            "tritonlint-owner.json": json.dumps(
                {"pid": dead.pid, "start": 1, "shm": f"tritonlint_{suffix}_"}
            ),
            "models/a/config.pbtxt": GOOD,
            "models/a/1/model.py": "",
        },
    )
    shm = Path("/dev/shm", f"tritonlint_{suffix}_region")
    shm.write_bytes(b"")
    # The server and the python stub the killed run left running on its folder.
    sleep = ["-c", "import time; time.sleep(60)"]
    programs = [
        ("tritonserver", f"--model-repository={left}/models"),
        ("triton_python_backend_stub", f"{left}/models/a/1/model.py"),
    ]
    left_running = [
        subprocess.Popen([str(tmp_path / name), *sleep, argument], executable=sys.executable)
        for name, argument in programs
    ]
    for process, (_, argument) in zip(left_running, programs, strict=True):
        _wait_until_running(process, argument)
    mine = make_tree(
        temporary / "tritonlint-smoke-running",
        {"tritonlint-owner.json": json.dumps({"pid": os.getpid(), "start": None})},
    )
    unmarked = make_tree(temporary / "tritonlint-smoke-unmarked", {"models/x": "x"})
    repo = _repo(tmp_path / "models", {"a": GOOD})

    try:
        result = _smoke(repo, fake_server)

        assert result.ok  # type: ignore[attr-defined]
        assert sorted(p.name for p in temporary.iterdir()) == [mine.name, unmarked.name]
        assert not shm.exists()
        for process in left_running:
            try:
                status = process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                status = _command_line(process.pid)
            assert status == -signal.SIGKILL
    finally:
        for process in left_running:
            process.kill()
            process.wait()
        shm.unlink(missing_ok=True)


# -- reports -----------------------------------------------------------------------------------

REFUSED = GOOD + "# fake-refuse: 'max_batch_size' must be non-negative value for bad\n"


@pytest.mark.parametrize("report_format", ["json", "sarif", "junit", "github"])
def test_report_formats(
    fake_server: FakeServer,
    tmp_path: Path,
    gpu: Callable[[bool], None],
    capsys: pytest.CaptureFixture[str],
    report_format: str,
) -> None:
    repo = _repo(tmp_path / "models", {"bad": REFUSED, "good": GOOD})
    output = tmp_path / "report.out"
    server = ["--server", str(fake_server.path)]
    code = main(["smoke", *server, "--format", report_format, "-o", str(output), str(repo)])
    assert code == 1
    text = output.read_text()
    assert capsys.readouterr().out == ""  # the report went to the file; the table to stderr
    if report_format == "json":
        report = json.loads(text)
        assert report["ok"] is False
        assert [m["status"] for m in report["models"]] == ["refused", "loaded"]
        assert report["models"][0]["rule"] == "TL501"
        (finding,) = report["findings"]
        assert finding["code"] == "TL030" and finding["line"] == 3
    elif report_format == "sarif":
        (run,) = json.loads(text)["runs"]
        (result,) = run["results"]
        assert result["ruleId"] == "TL030" and result["level"] == "error"
        region = result["locations"][0]["physicalLocation"]["region"]
        assert region["startLine"] == 3
        assert "TL030" in {rule["id"] for rule in run["tool"]["driver"]["rules"]}
    elif report_format == "junit":
        root = ET.fromstring(text)
        suites = {s.get("name"): s for s in root.iter("testsuite")}
        assert len(suites) == 2
        bad = next(s for name, s in suites.items() if name and name.endswith("bad"))
        assert bad.get("failures") == "1"
    else:
        assert text.startswith("::error file=")
        assert "title=TL030 smoke-load-failed" in text


def test_in_github_actions_the_report_is_annotations_unless_a_format_is_asked_for(
    fake_server: FakeServer,
    tmp_path: Path,
    gpu: Callable[[bool], None],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    repo = _repo(tmp_path / "models", {"bad": REFUSED, "good": GOOD})
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    assert main(["smoke", "--server", str(fake_server.path), str(repo)]) == 1
    assert capsys.readouterr().out.startswith("::error file=")
    assert main(["smoke", "--server", str(fake_server.path), "--format", "text", str(repo)]) == 1
    assert "::error" not in capsys.readouterr().out


def test_a_report_that_cannot_be_written_is_a_usage_error(
    fake_server: FakeServer,
    tmp_path: Path,
    gpu: Callable[[bool], None],
    capsys: pytest.CaptureFixture[str],
) -> None:
    repo = _repo(tmp_path / "models", {"good": GOOD})
    output = tmp_path / "no-such-folder" / "report.json"
    server = ["--server", str(fake_server.path)]
    assert main(["smoke", *server, "--format", "json", "-o", str(output), str(repo)]) == 2
    error = capsys.readouterr().err
    assert "tritonlint: error: cannot write the report to" in error
    assert "no-such-folder" in error and "Traceback" not in error
    assert not output.exists()


# -- check --smoke -----------------------------------------------------------------------------


def test_check_smoke_skips_statically_broken_models(
    fake_server: FakeServer,
    tmp_path: Path,
    gpu: Callable[[bool], None],
    capsys: pytest.CaptureFixture[str],
) -> None:
    broken = 'name: "broken"\nbackend: "python"\ninput [ { name: "x" data_type: TYPE_FP32 dim: [ 1 ] } ]\n'
    repo = _repo(
        tmp_path / "models",
        {"broken": broken, "good": GOOD, "refused": REFUSED.replace("bad", "refused")},
    )
    server = ["--server", str(fake_server.path)]
    code = main(["check", "--smoke", *server, "--format", "json", str(repo)])
    assert code == 1
    findings = json.loads(capsys.readouterr().out)
    by_model = {(Path(f["path"]).parent.name, f["code"]) for f in findings}
    assert ("broken", "TL101") in by_model  # static
    assert ("refused", "TL030") in by_model  # the server
    assert not any(model == "broken" and code.startswith("TL03") for model, code in by_model)
    loaded = [e["model"] for e in fake_server.events("load")]
    assert sorted(loaded) == ["good", "refused"]  # the server never saw the broken model


def test_check_smoke_passes_a_clean_repository(
    fake_server: FakeServer,
    tmp_path: Path,
    gpu: Callable[[bool], None],
    capsys: pytest.CaptureFixture[str],
) -> None:
    repo = _repo(tmp_path / "models", {"good": GOOD})
    assert main(["check", "--smoke", "--server", str(fake_server.path), str(repo)]) == 0
    out = _flat(capsys.readouterr().out)
    assert "The model loaded in " in out and "1 models" not in out


def test_check_smoke_exit_status_follows_fail_on_for_smoke_findings_too(
    fake_server: FakeServer,
    tmp_path: Path,
    gpu: Callable[[bool], None],
) -> None:
    repo = _repo(tmp_path / "models", {"g": GPU_MODEL})
    command = ["check", "--smoke", "--server", str(fake_server.path), str(repo)]
    assert main(command) == 0  # validated on CPU
    assert main([*command, "--gpus"]) == 0  # TL032 is a warning: --fail-on error passes
    assert main([*command, "--gpus", "--fail-on", "warning"]) == 1
    assert main([*command, "--gpus", "--fail-on", "warning", "--exit-zero"]) == 0
    assert main([*command, "--gpus", "--fail-on", "warning", "--ignore", "TL032"]) == 0


@pytest.mark.parametrize(
    "option",
    [
        ["--stub-missing-backends"],
        ["--no-stub-missing-backends"],
        ["--cpu-only"],
        ["--timeout", "5"],
        ["--docker", "i"],
    ],
)
def test_check_smoke_options_need_smoke(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: list[str]
) -> None:
    repo = _repo(tmp_path / "models", {"good": GOOD})
    assert main(["check", *option, str(repo)]) == 2
    assert f"{option[0]} only apply with --smoke" in _flat(capsys.readouterr().err)


def test_a_model_folder_is_smoked_in_its_repository(
    fake_server: FakeServer, tmp_path: Path, gpu: Callable[[bool], None]
) -> None:
    repo = _repo(tmp_path / "models", {"a": GOOD, "b": GOOD})
    result = _smoke(repo / "b", fake_server)
    assert [m.name for m in result.models] == ["b"] and result.ok
    assert result.repository == repo.resolve()
    assert [e["model"] for e in fake_server.events("load")] == ["b"]


def test_no_server_starts_when_every_model_is_statically_broken(
    fake_server: FakeServer, tmp_path: Path, gpu: Callable[[bool], None]
) -> None:
    repo = _repo(tmp_path / "models", {"broken": 'name: "broken"\nplatform: "onnx"\n'})
    assert main(["check", "--smoke", "--server", str(fake_server.path), str(repo)]) == 1
    assert fake_server.events() == []


def test_a_platform_name_as_backend_is_a_config_error_even_with_stubs(
    fake_server: FakeServer, tmp_path: Path, gpu: Callable[[bool], None]
) -> None:
    config = 'name: "trt"\nbackend: "tensorrt_plan"\nmax_batch_size: 8\n'
    repo = make_tree(tmp_path / "models", {"trt/config.pbtxt": config, "trt/1/model.plan": "x"})
    (model,) = _smoke(repo, fake_server, stub_missing_backends=True).models
    assert model.status is ModelStatus.REFUSED and model.attempts == 1
    assert model.rule is not None and model.rule.code == "TL302"
    assert model.diagnostic is not None and "[predicted by TL302 platform-used-as-backend]" in (
        model.diagnostic.message
    )


# -- exit status, the table and the summary ---------------------------------------------------

ONNX = 'name: "{name}"\nbackend: "onnxruntime"\nmax_batch_size: 8\n'


@pytest.mark.parametrize(
    ("options", "status"),
    [
        ([], 0),  # a missing backend is a warning
        (["--fail-on", "warning"], 1),
        (["--fail-on", "warning", "--exit-zero"], 0),
        (["--stub-missing-backends"], 0),
        (["--stub-missing-backends", "--fail-on", "info"], 0),
    ],
)
def test_smoke_exits_as_fail_on_says(
    fake_server: FakeServer,
    tmp_path: Path,
    gpu: Callable[[bool], None],
    options: list[str],
    status: int,
) -> None:
    repo = _repo(tmp_path / "models", {"onnx": ONNX})
    assert main(["smoke", "--server", str(fake_server.path), *options, str(repo)]) == status


@pytest.mark.parametrize(
    ("options", "status"), [([], 1), (["--fail-on", "never"], 0), (["--exit-zero"], 0)]
)
def test_a_refusal_is_an_error(
    fake_server: FakeServer,
    tmp_path: Path,
    gpu: Callable[[bool], None],
    options: list[str],
    status: int,
) -> None:
    repo = _repo(tmp_path / "models", {"bad": REFUSED})
    assert main(["smoke", "--server", str(fake_server.path), *options, str(repo)]) == status


def test_a_server_of_ones_own_gets_no_stand_in_backends_unless_asked(
    fake_server: FakeServer,
    tmp_path: Path,
    gpu: Callable[[bool], None],
) -> None:
    repo = _repo(tmp_path / "models", {"onnx": ONNX})
    (default,) = _smoke(repo, fake_server).models
    assert default.status is ModelStatus.BACKEND_MISSING
    (strict,) = _smoke(repo, fake_server, stub_missing_backends=False).models
    assert strict.status is ModelStatus.BACKEND_MISSING
    stubbed = _smoke(repo, fake_server, stub_missing_backends=True)
    assert stubbed.models[0].status is ModelStatus.STUBBED
    assert not stubbed.server.stub_backends_by_default


def _cells(table: str, column: int) -> list[str]:
    """The text of one column of a rich table, a row per item: its lines joined, without
    whitespace (where a wrapped line ended is not known)."""
    rows: list[list[str]] = []
    for line in table.splitlines():
        if not line.startswith("│"):
            continue
        cells = line.split("│")[1:-1]
        if cells[0].strip():  # a row's first line names the model
            rows.append([])
        rows[-1].append(cells[column])
    return ["".join("".join(parts).split()) for parts in rows]


def test_the_table_wraps_long_messages_at_80_columns_and_cuts_nothing(
    fake_server: FakeServer,
    tmp_path: Path,
    gpu: Callable[[bool], None],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    path = "/srv/models/" + "/".join(f"folder_number_{i}" for i in range(6)) + "/labels.txt"
    why = f"failed to open text file for read {path}: No such file or directory"
    repo = _repo(tmp_path / "models", {"bad": GOOD + f"# fake-refuse: {why}\n", "good": GOOD})
    assert main(["smoke", "--server", str(fake_server.path), "--format", "json", str(repo)]) == 1
    err = capsys.readouterr().err
    table = "\n".join(line for line in err.splitlines() if line[:1] in set("┏┃┡│└"))
    assert max(len(line) for line in table.splitlines()) == 80
    assert "…" not in table
    details = _cells(table, 2)  # wrapped at spaces and inside the path, all of it there
    assert details[0] == "".join(f"TL030 (TL218 missing-label-file): {why}".split())
    assert details[1] == "notinferred:theconfignamesnoinputandnooutput"


def test_the_summary_counts_in_words(
    fake_server: FakeServer,
    tmp_path: Path,
    gpu: Callable[[bool], None],
    capsys: pytest.CaptureFixture[str],
) -> None:
    server = ["smoke", "--server", str(fake_server.path)]
    repo = _repo(tmp_path / "one", {"bad": REFUSED})
    main([*server, str(repo)])
    assert _line(r"0 of 1 model loaded in \d+\.\d s\. Not loaded: 1 refused\.", capsys)

    repo = _repo(tmp_path / "three", {"a": GOOD, "b": ONNX, "c": ONNX})
    main([*server, "--stub-missing-backends", str(repo)])
    out = capsys.readouterr().out.splitlines()
    assert _matching(
        r"All 3 models loaded in \d+\.\d s: 2 configs validated by tritonserver 0\.0\.0-fake "
        r"with stubbed backends, 1 model really loaded\.",
        out,
    )
    assert (
        "Stubbed backends: onnxruntime (b, c) — not in this server. A stand-in let the server "
        "validate these configs, not the model files."
    ) in out

    repo = _repo(tmp_path / "mixed", {"a": ONNX, "b": ONNX, "c": GPU_MODEL, "d": REFUSED})
    main([*server, "--gpus", str(repo)])
    assert _line(
        r"0 of 4 models loaded in \d+\.\d s\. Not loaded: 1 refused, 2 with their backends "
        r"missing, 1 needs a GPU\.",
        capsys,
    )


def _matching(pattern: str, lines: list[str]) -> bool:
    return any(re.fullmatch(pattern, line) for line in lines)


def _line(pattern: str, capsys: pytest.CaptureFixture[str]) -> bool:
    """A line of standard output matches ``pattern`` (the summary's lines are not wrapped)."""
    return _matching(pattern, capsys.readouterr().out.splitlines())


def test_a_refusal_is_reported_with_the_error_static_lint_found_in_the_model(
    fake_server: FakeServer, tmp_path: Path, gpu: Callable[[bool], None]
) -> None:
    # Version folder -1: static lint says TL214; the server's words are TL217's.
    why = "unable to find '{repo}/m/18446744073709551615/model.py' for model instance 'm_0'"
    repo = make_tree(tmp_path / "models", {"m/-1/model.py": "# a model\n"})
    config = GOOD.replace("{name}", "m") + "# fake-refuse: " + why.format(repo=repo) + "\n"
    (repo / "m" / "config.pbtxt").write_text(config)
    (model,) = _smoke(repo, fake_server).models
    assert model.status is ModelStatus.REFUSED
    assert model.rule is not None and model.rule.code == "TL214"
    finding = model.diagnostic
    assert finding is not None and finding.code == "TL030"
    assert (finding.path, finding.span) == (repo.resolve() / "m" / "-1", None)
    assert (
        "refused the model [static lint reported TL214 malformed-version-folder for this "
        "model; the words are those of TL217 missing-model-file]: load failed for model 'm': "
    ) in finding.message


def test_an_error_in_model_py_is_reported_at_its_line(
    fake_server: FakeServer,
    tmp_path: Path,
    gpu: Callable[[bool], None],
    capsys: pytest.CaptureFixture[str],
) -> None:
    why = (
        "version 1 is at UNAVAILABLE state: Internal: IndentationError: unexpected indent "
        "(model.py, line 3);"
    )
    repo = make_tree(
        tmp_path / "models",
        {
            "m/config.pbtxt": GOOD.replace("{name}", "m") + f"# fake-refuse: {why}\n",
            "m/1/model.py": "class TritonPythonModel:\n    pass\n        x = 1\n",
        },
    )
    assert main(["smoke", "--server", str(fake_server.path), "--format", "json", str(repo)]) == 1
    (finding,) = json.loads(capsys.readouterr().out)["findings"]
    assert (finding["path"], finding["line"], finding["column"]) == (
        str(repo.resolve() / "m" / "1" / "model.py"),
        3,
        9,
    )
    assert finding["message"].startswith(
        "tritonserver 0.0.0-fake refused the model [a syntax error in the model's Python code, "
        "not in config.pbtxt]: "
    )
