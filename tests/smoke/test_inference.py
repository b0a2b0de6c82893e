"""The smoke stage's one inference per model, without a server: the request made from a loaded
config (bytes on the wire), the answer judged against the config, and the options; then the
stage with the fake server (``--no-infer``, a timeout, the report)."""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

import pytest
from helpers import make_tree
from smoke_helpers import FakeServer

from tritonlint.cli import main
from tritonlint.smoke import SmokeOptions, run_smoke
from tritonlint.smoke.answers import BadAnswer, check_answer, parse_answer
from tritonlint.smoke.inference import InferenceState, generate_payload, stream_events
from tritonlint.smoke.requests import InferRequest, NotInferred, build_request


def _config(**more: Any) -> dict[str, Any]:
    config: dict[str, Any] = {
        "name": "m",
        "max_batch_size": 8,
        "input": [{"name": "X", "data_type": "TYPE_FP32", "dims": ["3", "-1"]}],
        "output": [{"name": "Y", "data_type": "TYPE_FP32", "dims": ["3"]}],
    }
    config.update(more)
    return config


def _unbatched(*inputs: dict[str, Any]) -> dict[str, Any]:
    """A config without batching, with these ``inputs``."""
    return _config(max_batch_size=0, input=list(inputs))


def _request(config: dict[str, Any], folder: Path) -> InferRequest:
    """The request made from ``config`` (its model folder ``folder``), which must be one."""
    request = build_request(config, folder)
    assert isinstance(request, InferRequest)
    return request


def _header(request: InferRequest) -> tuple[dict[str, Any], bytes]:
    body, length = request.body()
    return json.loads(body[:length]), body[length:]


def test_inputs_are_zeros_of_the_configured_type_with_a_batch_of_one(tmp_path: Path) -> None:
    request = _request(_config(), tmp_path)
    header, data = _header(request)
    assert header["inputs"] == [
        {
            "name": "X",
            "datatype": "FP32",
            "shape": [1, 3, 1],
            "parameters": {"binary_data_size": 12},
        }
    ]
    assert header["outputs"] == [{"name": "Y", "parameters": {"binary_data": True}}]
    assert "parameters" not in header
    assert data == bytes(12)


def test_fp16_and_bytes_travel_binary_and_optional_inputs_are_left_out(tmp_path: Path) -> None:
    config = _unbatched(
        {"name": "H", "data_type": "TYPE_FP16", "dims": [2]},
        {"name": "T", "data_type": "TYPE_STRING", "dims": [2]},
        {"name": "O", "data_type": "TYPE_FP32", "dims": [2], "optional": True},
    )
    request = _request(config, tmp_path)
    header, data = _header(request)
    assert [(i["name"], i["datatype"], i["shape"]) for i in header["inputs"]] == [
        ("H", "FP16", [2]),
        ("T", "BYTES", [2]),
    ]
    assert data == bytes(4) + (struct.pack("<I", 1) + b"0") * 2


def test_reshape_sends_the_configs_dims(tmp_path: Path) -> None:
    config = _config(
        input=[{"name": "X", "data_type": "TYPE_INT64", "dims": [4], "reshape": {"shape": [2, 2]}}]
    )
    request = _request(config, tmp_path)
    assert request.inputs[0].shape == (1, 4)


def test_a_sequence_model_starts_and_ends_one_sequence(tmp_path: Path) -> None:
    request = _request(_config(sequence_batching={"max_sequence_idle_microseconds": 5}), tmp_path)
    header, _ = _header(request)
    assert header["parameters"] == {"sequence_id": 1, "sequence_start": True, "sequence_end": True}


def test_a_warmup_sample_is_sent_with_its_file_from_the_warmup_folder(tmp_path: Path) -> None:
    (tmp_path / "warmup").mkdir()
    (tmp_path / "warmup" / "x.bin").write_bytes(struct.pack("<3f", 1.0, 2.0, 3.0) + bytes(12))
    config = _config(
        model_warmup=[
            {
                "name": "sample",
                "batch_size": 4,
                "inputs": {
                    "X": {"data_type": "TYPE_FP32", "dims": [3], "input_data_file": "x.bin"}
                },
            }
        ]
    )
    request = _request(config, tmp_path)
    assert request.warmup == "sample"
    assert request.inputs[0].shape == (1, 3)
    assert request.inputs[0].data == struct.pack("<3f", 1.0, 2.0, 3.0)


@pytest.mark.parametrize(
    ("entry", "reason"),
    [
        ({"name": "X", "data_type": "TYPE_FP32", "dims": []}, "input 'X' has no dims"),
        ({"name": "X", "data_type": "TYPE_INVALID", "dims": [1]}, "data type TYPE_INVALID"),
        ({"name": "S", "data_type": "TYPE_INT32", "dims": [1], "is_shape_tensor": True}, "shape"),
    ],
)
def test_inputs_that_cannot_be_made_say_why(
    entry: dict[str, Any], reason: str, tmp_path: Path
) -> None:
    made = build_request(_unbatched(entry), tmp_path)
    assert isinstance(made, NotInferred)
    assert reason in made.reason


def test_a_missing_warmup_file_is_a_reason_not_to_infer(tmp_path: Path) -> None:
    sample = {"X": {"data_type": "TYPE_FP32", "dims": [3], "input_data_file": "gone.bin"}}
    made = build_request(_config(model_warmup=[{"name": "w", "inputs": sample}]), tmp_path)
    assert isinstance(made, NotInferred)
    assert "cannot read warmup/gone.bin" in made.reason


def _binary(outputs: list[tuple[str, str, list[int], bytes]]) -> tuple[bytes, int]:
    header = {
        "outputs": [
            {"name": n, "datatype": t, "shape": s, "parameters": {"binary_data_size": len(d)}}
            for n, t, s, d in outputs
        ]
    }
    head = json.dumps(header).encode()
    return head + b"".join(d for *_, d in outputs), len(head)


def test_an_answer_as_configured_has_no_problem() -> None:
    body, length = _binary([("Y", "FP32", [1, 3], bytes(12))])
    assert check_answer(_config(), parse_answer(body, length)) == []


def test_a_free_dimension_takes_any_size_and_bytes_elements_are_counted() -> None:
    config = _config(
        max_batch_size=0, output=[{"name": "T", "data_type": "TYPE_STRING", "dims": [-1]}]
    )
    strings = b"".join(struct.pack("<I", len(s)) + s for s in (b"a", b"", b"ccc"))
    body, length = _binary([("T", "BYTES", [3], strings)])
    assert check_answer(config, parse_answer(body, length)) == []
    body, length = _binary([("T", "BYTES", [4], strings)])
    [problem] = check_answer(config, parse_answer(body, length))
    assert problem.message == "output 'T' came back as BYTES [4] with 3 strings of data, not 4"


def test_another_type_and_shape_are_said_with_the_configs_words() -> None:
    config = _config(output=[{"name": "scores", "data_type": "TYPE_FP32", "dims": [1000]}])
    body, length = _binary([("scores", "FP16", [1, 1001], bytes(2002))])
    [problem] = check_answer(config, parse_answer(body, length))
    assert problem.message == (
        "output 'scores' came back as FP16 [1, 1001]; the config says TYPE_FP32 [ 1000 ]"
    )
    assert not problem.missing


def test_data_of_another_size_than_the_shape_holds_is_a_problem() -> None:
    body, length = _binary([("Y", "FP32", [1, 3], b"")])
    [problem] = check_answer(_config(), parse_answer(body, length))
    assert problem.message == (
        "output 'Y' came back as FP32 [1, 3] with 0 bytes of data, not 3 elements of 4 bytes"
    )


def test_a_missing_output_names_those_that_came_back() -> None:
    body, length = _binary([("Z", "FP32", [1, 3], bytes(12))])
    [problem] = check_answer(_config(), parse_answer(body, length))
    assert problem.missing
    assert "output 'Y' did not come back (the outputs that did: 'Z')" in problem.message


def test_a_json_answer_is_judged_by_its_data() -> None:
    body = json.dumps(
        {"outputs": [{"name": "Y", "datatype": "FP32", "shape": [1, 3], "data": [1, 2]}]}
    ).encode()
    [problem] = check_answer(_config(), parse_answer(body, None))
    assert "with 2 elements of data, not 3" in problem.message


def test_an_answer_that_is_not_json_is_said_to_be_so() -> None:
    with pytest.raises(BadAnswer, match="not JSON"):
        parse_answer(b"\xff\x00", None)


def test_a_decoupled_request_is_json_where_each_input_is_one_value(tmp_path: Path) -> None:
    config = _unbatched(
        {"name": "PROMPT", "data_type": "TYPE_STRING", "dims": [1]},
        {"name": "N", "data_type": "TYPE_INT32", "dims": [1]},
    )
    request = _request(config, tmp_path)
    assert generate_payload(request) == {"PROMPT": "0", "N": 0}
    wide = _request(_config(), tmp_path)
    payload = generate_payload(wide)
    assert isinstance(payload, NotInferred)
    assert "input 'X' is FP32 [1, 3, 1]" in payload.reason
    events = stream_events(b'data: {"Y": [1]}\n\ndata: {"error": "boom"}\n\n')
    assert events == [{"Y": [1]}, {"error": "boom"}]


# -- with the fake server -----------------------------------------------------------------------

_MODEL = """name: "{name}"
backend: "python"
max_batch_size: 8
input [ {{ name: "X", data_type: TYPE_FP32, dims: [ 3 ] }} ]
output [ {{ name: "Y", data_type: TYPE_FP32, dims: [ 3 ] }} ]
"""


def _repository(tmp_path: Path, **extra: str) -> Path:
    files = {"good/config.pbtxt": _MODEL.format(name="good"), "good/1/model.py": "# a model\n"}
    for name, line in extra.items():
        files[f"{name}/config.pbtxt"] = _MODEL.format(name=name) + line
        files[f"{name}/1/model.py"] = "# a model\n"
    return make_tree(tmp_path / "models", files)


def test_each_loaded_model_answers_once_and_the_report_says_so(
    fake_server: FakeServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _repository(tmp_path, nodims="")
    (root / "nodims" / "config.pbtxt").write_text(
        (root / "nodims" / "config.pbtxt").read_text().replace("max_batch_size: 8", "")
        .replace("dims: [ 3 ] } ]\noutput", "dims: [ ] } ]\noutput")
    )  # fmt: skip
    status = main(["smoke", "--server", str(fake_server.path), "--format", "json", str(root)])
    report = json.loads(capsys.readouterr().out)
    inference = {m["name"]: m["inference"] for m in report["models"]}
    assert inference["good"]["state"] == "answered"
    assert inference["good"]["text"] == "answered: 1 output as configured"
    assert inference["nodims"]["state"] == "not-inferred"
    assert "input 'X' has no dims" in inference["nodims"]["text"]
    assert [e["model"] for e in fake_server.events("infer")] == ["good"]
    assert status == 0  # not inferred is no failure


def test_no_infer_sends_no_request(fake_server: FakeServer, tmp_path: Path) -> None:
    root = _repository(tmp_path, broken="# fake-infer-error: boom\n")
    result = run_smoke(root, SmokeOptions(server=fake_server.path, infer=False))
    assert fake_server.events("infer") == []
    assert all(m.inference is None for m in result.models)
    assert result.diagnostics == []


def test_the_summary_counts_answered_models(
    fake_server: FakeServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _repository(tmp_path, broken="# fake-infer-error: boom\n")
    status = main(["smoke", "--server", str(fake_server.path), str(root)])
    out = " ".join(capsys.readouterr().out.split())
    assert "Inference: 1 of 2 models answered as configured, 1 failed (one request each" in out
    assert status == 1
    result = run_smoke(root, SmokeOptions(server=fake_server.path))
    states = {m.name: m.inference.state for m in result.models if m.inference}
    assert states == {"broken": InferenceState.FAILED, "good": InferenceState.ANSWERED}


def test_infer_options_only_apply_with_smoke(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--no-infer", "--infer-timeout", "5", "."]) == 2
    assert "--no-infer, --infer-timeout only apply with --smoke" in capsys.readouterr().err


def test_a_model_that_does_not_answer_in_time_is_a_finding_and_the_server_is_restarted(
    fake_server: FakeServer, tmp_path: Path
) -> None:
    root = _repository(tmp_path, a_hangs="# fake-infer-hang: \n")
    result = run_smoke(root, SmokeOptions(server=fake_server.path, infer_timeout=0.5))
    [finding] = result.diagnostics
    assert finding.code == "TL035"
    assert finding.path == root / "a_hangs" / "config.pbtxt"
    assert "the model did not answer within --infer-timeout 0.5 s" in finding.message
    assert len(fake_server.pids()) == 2  # started afresh for the next model
    states = {m.name: m.inference.state for m in result.models if m.inference}
    assert states["good"] is InferenceState.ANSWERED


def test_a_config_without_inputs_and_outputs_is_not_inferred(tmp_path: Path) -> None:
    made = build_request({"name": "m", "max_batch_size": 0}, tmp_path)
    assert made == NotInferred("the config names no input and no output")


def test_a_prepared_stub_packages_folder_needs_numpy_1(tmp_path: Path) -> None:
    from tritonlint.tritonserver.stub_packages import StubPackagesError, stub_packages_dir

    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(StubPackagesError, match=r"holds no numpy<2 .*TRITONLINT_STUB_PACKAGES"):
        stub_packages_dir({"TRITONLINT_STUB_PACKAGES": str(empty)})
    (empty / "numpy").mkdir()
    (empty / "numpy-1.26.4.dist-info").mkdir()
    assert stub_packages_dir({"TRITONLINT_STUB_PACKAGES": str(empty)}) == empty


def test_the_stubs_environment_puts_numpy_1_before_this_environment(tmp_path: Path) -> None:
    import site
    import sys

    from tritonlint.tritonserver.stub_packages import stub_environment

    python = stub_environment(tmp_path / "env", tmp_path / "packages")
    assert python == tmp_path / "env" / "bin" / "python"
    assert python.resolve() == Path(sys._base_executable).resolve()
    cfg = (tmp_path / "env" / "pyvenv.cfg").read_text()
    assert "include-system-site-packages = false" in cfg
    minor = f"python{sys.version_info[0]}.{sys.version_info[1]}"
    pth = (tmp_path / "env" / "lib" / minor / "site-packages" / "tritonlint-stub.pth").read_text()
    lines = pth.splitlines()
    assert lines[0] == str(tmp_path / "packages")
    assert f"site.addsitedir({site.getsitepackages()[0]!r})" in lines[1]
