"""The smoke stage on the real (embedded) Triton 2.51 server.

The valid fixtures load; broken ones are refused with the server's message mapped to the right
file, line and rule; missing backends and GPUs are reported as such; a timeout, a crash and an
interrupt each leave no process and no port behind; ``check --smoke`` skips statically broken
models. No GPU machine was available: the GPU path is covered with faked detection in
test_smoke_fake_server.py.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import make_tree
from smoke_helpers import assert_released, processes_naming, seconds_until_gone

from tritonlint.cli import main
from tritonlint.smoke import ModelStatus, SmokeOptions, run_smoke
from tritonlint.tritonserver.process import live_group_members

# Every test needs the embedded server, and no GPU is seen (faked; the runs in a process of
# their own see the machine's).
pytestmark = [
    pytest.mark.server,
    pytest.mark.usefixtures("no_tritonserver_on_path", "triton_install", "gpu"),
]

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
VALID = FIXTURES / "model_repository"
BROKEN = FIXTURES / "broken"
ALL_STUBS = ["--stub-missing-backends", "--cpu-only", "--stub-python-models"]


def _snapshot(folder: Path) -> dict[str, str]:
    return {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def test_the_valid_fixtures_load_and_the_report_says_which_flags_were_needed(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    repo = shutil.copytree(VALID, tmp_path / "model_repository")
    before = _snapshot(repo)
    assert main(["smoke", *ALL_STUBS, "--format", "json", str(repo)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is True
    assert report["server"]["version"] == "2.51.0"
    assert report["server"]["kind"] == "embedded"
    statuses = {m["name"]: m["status"] for m in report["models"]}
    assert statuses == {
        "bert_pytorch": "stubbed",
        "classifier_onnx": "stubbed",
        "echo_python": "stubbed",
        "image_pipeline": "loaded",
        "lightseq_transformer": "stubbed",
        "preprocess": "stubbed",
        "resnet_trt": "stubbed",
        "segmenter_tf": "stubbed",
    }
    assert report["models"][-1]["name"] == "image_pipeline"  # the ensemble comes last
    assert report["flags_needed"] == {
        "--stub-missing-backends": [
            "bert_pytorch",
            "classifier_onnx",
            "lightseq_transformer",
            "resnet_trt",
            "segmenter_tf",
        ],
        "--cpu-only": ["resnet_trt"],
        "--stub-python-models": ["echo_python", "preprocess"],
    }
    assert report["findings"] == []
    assert _snapshot(repo) == before


def test_the_example_repository_loads_out_of_the_box(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """No option: the embedded server stubs the backends it lacks, and KIND_GPU is validated
    as KIND_CPU on this machine without a GPU; the python models run their own model.py."""
    assert main(["smoke", str(VALID)]) == 0
    captured = capsys.readouterr()
    out = captured.out.splitlines()
    assert any(
        re.fullmatch(
            r"All 8 models loaded in \d+\.\d s: 5 configs validated by tritonserver 2\.51\.0 "
            r"with stubbed backends, 3 models really loaded\.",
            line,
        )
        for line in out
    ), out
    assert (
        "Stubbed backends: pytorch (bert_pytorch), onnxruntime (classifier_onnx), lightseq "
        "(lightseq_transformer), tensorrt (resnet_trt), tensorflow (segmenter_tf) — not in the "
        "embedded server, which has only the python backend. A stand-in let the server "
        "validate these configs, not the model files; --no-stub-missing-backends reports such "
        "models as not loaded (TL031)."
    ) in out
    assert (
        "On CPU: resnet_trt — no GPU on this machine, so KIND_GPU was validated as KIND_CPU; "
        "--gpus loads it as written (TL032 where there is no GPU)."
    ) in out
    assert captured.out.startswith("Smoke stage\n")  # no finding before the table
    assert "These python models run their own model.py" in " ".join(captured.err.split())


def test_strict_backends_and_gpus_are_not_config_errors(
    capsys: pytest.CaptureFixture[str],
) -> None:
    strict = ["--no-stub-missing-backends", "--stub-python-models", "--format", "json"]
    assert main(["smoke", *strict, str(VALID)]) == 0  # warnings only
    report = json.loads(capsys.readouterr().out)
    statuses = {m["name"]: m["status"] for m in report["models"]}
    assert statuses == {
        "bert_pytorch": "backend-missing",
        "classifier_onnx": "backend-missing",
        "echo_python": "stubbed",
        "image_pipeline": "skipped",  # its steps did not load
        "lightseq_transformer": "backend-missing",
        "preprocess": "stubbed",
        "resnet_trt": "backend-missing",  # the server looks for the backend first
        "segmenter_tf": "backend-missing",
    }
    # never TL030: the configs are fine
    assert [(f["code"], f["severity"]) for f in report["findings"]] == [("TL031", "warning")] * 5
    assert main(["smoke", *strict, "--fail-on", "warning", str(VALID)]) == 1
    capsys.readouterr()

    # The backends stubbed (the default), KIND_GPU as written: the TensorRT model needs a GPU.
    stubbed = run_smoke(VALID, SmokeOptions(stub_python_models=True, gpus=True))
    (needs_gpu,) = [m for m in stubbed.models if not m.status.loaded]
    assert (needs_gpu.name, needs_gpu.status) == ("resnet_trt", ModelStatus.NEEDS_GPU)
    assert needs_gpu.diagnostic is not None and needs_gpu.diagnostic.code == "TL032"
    assert needs_gpu.diagnostic.span is not None and needs_gpu.diagnostic.span.line == 31
    assert "has kind KIND_GPU but no GPUs are available" in needs_gpu.message
    assert_released(stubbed)


_PYTHON_MODEL = 'backend: "python"\nmax_batch_size: 0\n'
#: A model.py of 40 lines; line 30 is indented one level too deep.
_INDENTED = "\n".join(
    [
        "class TritonPythonModel:",
        "    def initialize(self, args):",
        *[f"        self.value_{n} = {n}" for n in range(3, 30)],
        "            self.value_30 = 30",
        *[f"        self.value_{n} = {n}" for n in range(31, 41)],
    ]
)
#: A model.py whose load never ends.
_SLEEPS = """
    import time

    class TritonPythonModel:
        def initialize(self, args):
            time.sleep(600)
"""
#: The smoke stage in a process of its own, CPU only (its repository to follow).
_SMOKE_CPU = [sys.executable, "-m", "tritonlint.cli", "smoke", "--cpu-only"]
_RAISES = """
    class TritonPythonModel:
        def initialize(self, args):
            self.labels = load_labels()


    def load_labels():
        raise FileNotFoundError("labels.json")
"""


def test_errors_in_model_py_and_a_bad_version_folder_are_reported_where_they_are(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    repo = make_tree(
        tmp_path / "models",
        {
            "indented/config.pbtxt": _PYTHON_MODEL,
            "indented/1/model.py": _INDENTED,
            "raises/config.pbtxt": _PYTHON_MODEL,
            "raises/1/model.py": _RAISES,
            "legacy/config.pbtxt": 'backend: "onnxruntime"\nmax_batch_size: 0\n',
            "legacy/-1/model.onnx": "placeholder",
        },
    ).resolve()
    assert main(["smoke", "--format", "json", str(repo)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert {m["name"]: (m["status"], m["rule"]) for m in report["models"]} == {
        "indented": ("refused", None),
        "legacy": ("refused", "TL214"),
        "raises": ("refused", None),
    }
    findings = {Path(f["path"]).relative_to(repo).parts[0]: f for f in report["findings"]}
    place = {name: (f["path"], f["line"], f["column"]) for name, f in findings.items()}
    assert place == {
        "indented": (str(repo / "indented" / "1" / "model.py"), 30, 13),
        "legacy": (str(repo / "legacy" / "-1"), None, None),
        "raises": (str(repo / "raises" / "1" / "model.py"), 7, 5),
    }
    assert findings["indented"]["message"] == (
        "tritonserver 2.51.0 refused the model [a syntax error in the model's Python code, not "
        "in config.pbtxt]: load failed for model 'indented': version 1 is at UNAVAILABLE state: "
        "Internal: IndentationError: unexpected indent (model.py, line 30);"
    )
    assert findings["raises"]["message"].startswith(
        "tritonserver 2.51.0 refused the model [an exception in the model's Python code, not in "
        "config.pbtxt]: load failed for model 'raises': version 1 is at UNAVAILABLE state: "
        "Internal: FileNotFoundError: labels.json\n\nAt:\n"
        "  raises/1/model.py(7): load_labels\n"
        "  raises/1/model.py(3): initialize\n"
    )
    assert findings["legacy"]["message"].startswith(
        "tritonserver 2.51.0 refused the model [static lint reported TL214 "
        "malformed-version-folder for this model; the words are those of TL217 "
        "missing-model-file]: load failed for model 'legacy': version -1 is at UNAVAILABLE "
        "state: Unavailable: unable to find "
        "'legacy/18446744073709551615/model.onnx'"
    )


# fixture -> (refused model, rule that predicts the message, line of config.pbtxt)
BROKEN_CASES: dict[str, tuple[str, str, int | None]] = {
    "unknown_field_dim": ("classifier", "TL101", 8),
    "negative_max_batch_size": ("classifier", "TL501", 3),
    "missing_label_file": ("classifier", "TL218", 16),
    "ensemble_missing_model": ("pipeline", "TL708", 15),
    "no_version_folder": ("classifier", "TL212", None),  # about the folder: no line
}


def _readme_message(fixture: str) -> str:
    """The fixture's server message in fixtures/broken/README.md, its paths as a finding
    writes them: from the repository's root."""
    for line in (BROKEN / "README.md").read_text().splitlines():
        if line.startswith(f"| `{fixture}` |"):
            return line.rsplit("| `", 1)[1].rstrip("` |").replace("<repo>/", "")
    raise AssertionError(fixture)


@pytest.mark.parametrize("fixture", sorted(BROKEN_CASES))
def test_a_broken_fixture_is_refused_at_the_right_line(fixture: str) -> None:
    model, code, line = BROKEN_CASES[fixture]
    repo = BROKEN / fixture
    options = SmokeOptions(stub_missing_backends=True, gpus=False, stub_python_models=True)
    result = run_smoke(repo, options)
    refused = {m.name: m for m in result.models if not m.status.loaded}
    assert set(refused) == {model}
    found = refused[model]
    assert found.status is ModelStatus.REFUSED
    assert found.rule is not None and found.rule.code == code
    finding = found.diagnostic
    assert finding is not None and finding.code == "TL030"
    if line is None:
        assert finding.path == repo.resolve() / model and finding.span is None
    else:
        assert finding.path == repo.resolve() / model / "config.pbtxt"
        assert finding.span is not None and finding.span.line == line
    assert f"[predicted by {code} " in finding.message
    assert _readme_message(fixture) in finding.message
    assert_released(result)


def test_a_timeout_and_a_crash_leave_nothing_behind(tmp_path: Path) -> None:
    repo = make_tree(
        tmp_path / "models",
        {
            "a_hangs/config.pbtxt": _PYTHON_MODEL,
            "a_hangs/1/model.py": _SLEEPS,
            "b_kills_the_server/config.pbtxt": _PYTHON_MODEL,
            "b_kills_the_server/1/model.py": """
                import os, signal

                class TritonPythonModel:
                    def initialize(self, args):
                        os.kill(os.getppid(), signal.SIGKILL)  # the stub's parent: the server
            """,
            "c_fine/config.pbtxt": 'backend: "onnxruntime"\nmax_batch_size: 0\n',
            "c_fine/1/model.onnx": "placeholder",
        },
    )
    started = time.monotonic()
    result = run_smoke(repo, SmokeOptions(stub_missing_backends=True, timeout=4.0))
    elapsed = time.monotonic() - started
    statuses = {m.name: m.status for m in result.models}
    assert statuses == {
        "a_hangs": ModelStatus.TIMEOUT,
        "b_kills_the_server": ModelStatus.CRASHED,
        "c_fine": ModelStatus.STUBBED,
    }
    crashed = result.models[1]
    assert crashed.attempts == 2 and "died while loading 'b_kills_the_server'" in crashed.message
    assert elapsed < 60
    assert len(result.starts) >= 3
    assert_released(result)


def test_check_smoke_skips_models_with_static_errors(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    repo = shutil.copytree(VALID, tmp_path / "model_repository")
    shutil.copytree(BROKEN / "unknown_field_dim" / "classifier", repo / "classifier")
    code = main(["check", "--smoke", *ALL_STUBS, "--format", "json", str(repo)])
    findings = json.loads(capsys.readouterr().out)
    assert code == 1
    assert {
        (Path(f["path"]).parent.name, f["code"]) for f in findings if f["severity"] == "error"
    } == {("classifier", "TL101")}
    assert not any(f["code"].startswith("TL03") for f in findings)


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if stat[stat.rfind(")") + 2 :].split()[1] == str(pid):
                found.append(int(entry.name))
    return found


def test_ctrl_c_stops_the_real_server(tmp_path: Path) -> None:
    repo = make_tree(
        tmp_path / "models",
        {
            "hangs/config.pbtxt": _PYTHON_MODEL,
            "hangs/1/model.py": _SLEEPS,
        },
    )
    env = {**os.environ, "PATH": os.environ["PATH"]}
    process = subprocess.Popen(
        [*_SMOKE_CPU, str(repo)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    server: list[int] = []
    deadline = time.monotonic() + 60
    while not server and time.monotonic() < deadline and process.poll() is None:
        server = _children(process.pid)
        time.sleep(0.1)
    assert server, process.communicate(timeout=30)
    stubs: list[int] = []  # the load is under way once the python stub process runs
    while not stubs and time.monotonic() < deadline and process.poll() is None:
        stubs = [child for pid in server for child in _children(pid)]
        time.sleep(0.1)
    assert stubs, process.communicate(timeout=30)
    process.send_signal(signal.SIGINT)
    process.communicate(timeout=60)
    assert process.returncode == 130
    assert all(live_group_members(pid) == [] for pid in server)
    assert not any(_alive(pid) for pid in stubs)


def test_sigkill_during_a_load_leaves_no_server_stub_or_temporary_folder(tmp_path: Path) -> None:
    temporary = tmp_path / "tmp"  # the run's $TMPDIR: its folder, and every path of its
    temporary.mkdir()  # server and python stubs, are in there
    repo = make_tree(
        tmp_path / "models",
        {
            "slow/config.pbtxt": _PYTHON_MODEL,
            "slow/1/model.py": _SLEEPS,
        },
    )
    output = tmp_path / "smoke.out"
    with output.open("wb") as written:
        process = subprocess.Popen(
            [*_SMOKE_CPU, str(repo)],
            stdout=written,
            stderr=subprocess.STDOUT,
            env={**os.environ, "TMPDIR": str(temporary)},
        )
    deadline = time.monotonic() + 60
    stubs: list[tuple[int, str]] = []  # the load is under way once the python stub runs
    while not stubs and time.monotonic() < deadline and process.poll() is None:
        found = processes_naming(str(temporary))
        stubs = [(pid, line) for pid, line in found if "triton_python_backend_stub" in line]
        time.sleep(0.1)
    assert stubs, (process.poll(), output.read_text(errors="replace")[-2000:])
    assert any("bin/tritonserver " in line for _pid, line in found)

    process.kill()
    process.wait()

    assert seconds_until_gone(temporary, timeout=5.0) is not None, (
        processes_naming(str(temporary)),
        sorted(temporary.rglob("*"))[:5],
    )


def test_after_a_run_no_process_of_the_server_is_left(tmp_path: Path) -> None:
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    helper_pid = tmp_path / "helper.pid"
    repo = make_tree(
        tmp_path / "models",
        {
            "starts_a_helper/config.pbtxt": _PYTHON_MODEL,
            "starts_a_helper/1/model.py": f"""
                import subprocess

                class TritonPythonModel:
                    def initialize(self, args):
                        # A process of its own, in a session of its own.
                        helper = subprocess.Popen(["sleep", "600"], start_new_session=True)
                        with open({str(helper_pid)!r}, "w") as handle:
                            handle.write(str(helper.pid))

                    def execute(self, requests):
                        return []
            """,
        },
    )
    completed = subprocess.run(
        [*_SMOKE_CPU, str(repo)],
        capture_output=True,
        text=True,
        env={**os.environ, "TMPDIR": str(temporary)},
        timeout=120,
    )
    left = processes_naming(str(temporary))
    helper = int(helper_pid.read_text())
    helper_alive = _alive(helper)
    if helper_alive:
        os.kill(helper, signal.SIGKILL)
    assert completed.returncode == 0, completed.stderr
    assert left == []
    assert not helper_alive
    assert list(temporary.iterdir()) == []


def _alive(pid: int) -> bool:
    """A process that exists and is not a zombie (left for init to reap)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2 :].split()[0] != "Z"


def _broken_fixtures() -> list[str]:
    return sorted(
        line.split("`")[1]
        for line in (BROKEN / "README.md").read_text().splitlines()
        if line.startswith("| `")
    )


@pytest.mark.parametrize("fixture", _broken_fixtures())
def test_every_broken_fixture_is_refused_with_its_message_in_its_model(fixture: str) -> None:
    repo = BROKEN / fixture
    options = SmokeOptions(stub_missing_backends=True, gpus=False)
    result = run_smoke(repo, options)
    refused = [m for m in result.models if not m.status.loaded]
    assert refused, f"{fixture}: every model loaded"
    message = _readme_message(fixture)
    findings = [m.diagnostic for m in refused if m.diagnostic is not None]
    matching = [f for f in findings if message in f.message]
    assert matching, f"{fixture}: no finding quotes {message!r}"
    row = next(
        line
        for line in (BROKEN / "README.md").read_text().splitlines()
        if line.startswith(f"| `{fixture}` |")
    )
    model_folder = repo.resolve() / row.split(" | ")[2].strip("` ")
    assert any(f.path == model_folder or model_folder in f.path.parents for f in matching)
    assert_released(result)
