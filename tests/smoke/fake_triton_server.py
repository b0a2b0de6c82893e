"""A stand-in for tritonserver that speaks the few HTTP calls the smoke stage makes.

It listens on the ports it is given (HTTP answers; GRPC and metrics are only held open) and
judges a load by a few rules of its own, read from the model's config.pbtxt:

* a line ``# fake-refuse: MESSAGE`` refuses the model with MESSAGE;
* ``backend: "NAME"`` needs NAME in $FAKE_TRITON_BACKENDS (default: python) or a
  ``libtriton_NAME.so`` in the model folder, else the server's missing-backend message;
* ``KIND_GPU`` needs $FAKE_TRITON_GPUS=1, else the server's no-GPU message.

A loaded model gives its config (``GET /v2/models/<m>/config``, read by tritonlint's own parser)
and answers an inference request with zeros for every configured output, in the binary tensor
extension, unless its config has a line ``# fake-infer-error: MESSAGE`` (an error, HTTP 400) or
``# fake-infer-hang: `` (no answer ever), ``# fake-answer: JSON`` (that JSON object as the whole answer: outputs with ``data``); ``\n``
in MESSAGE is a new line.

Environment: $FAKE_TRITON_LOG (a JSON-lines file: each start, each load with the config seen),
$FAKE_TRITON_HANG and $FAKE_TRITON_CRASH (comma-separated models whose load never answers, or
makes the process exit), $FAKE_TRITON_EXIT (exit at once, as a server that cannot start).
"""

from __future__ import annotations

import json
import os
import re
import socket
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

VERSION = "0.0.0-fake"


def option(name: str, default: str = "") -> str:
    for arg in sys.argv[1:]:
        if arg.startswith(f"--{name}="):
            return arg.split("=", 1)[1]
    return default


def record(event: dict[str, object]) -> None:
    log = os.environ.get("FAKE_TRITON_LOG")
    if log:
        with open(log, "a") as handle:
            handle.write(json.dumps(event) + "\n")


def listed(name: str) -> set[str]:
    return {item for item in os.environ.get(name, "").split(",") if item}


REPOSITORY = Path(option("model-repository", "."))
PORTS = [int(option(f"{kind}-port", "0")) for kind in ("http", "grpc", "metrics")]


def judge(model: str) -> tuple[int, str]:
    config_path = REPOSITORY / model / "config.pbtxt"
    try:
        config = config_path.read_text()
    except OSError:
        return 400, f"failed to poll from model repository (no {config_path})"
    record({"event": "load", "pid": os.getpid(), "model": model, "config": config})
    if model in listed("FAKE_TRITON_CRASH"):
        print(f"E0000 00:00:00.000000 1 fake.cc:1] crashing while loading {model}", flush=True)
        os._exit(139)
    if model in listed("FAKE_TRITON_HANG"):
        time.sleep(3600)
    refuse = re.search(r"^# fake-refuse: (.*)$", config, re.MULTILINE)
    if refuse:
        # ({repository} in the refusal: the folder the server was given, as it names it.)
        reason = refuse.group(1).replace("{repository}", str(REPOSITORY))
        return 400, f"load failed for model '{model}': {reason}"
    backend = re.search(r'^backend:\s*"([^"]*)"', config, re.MULTILINE)
    available = listed("FAKE_TRITON_BACKENDS") or {"python"}
    if backend and backend.group(1) not in available:
        name = backend.group(1)
        if not (REPOSITORY / model / f"libtriton_{name}.so").exists():
            return 400, (
                f"load failed for model '{model}': version 1 is at UNAVAILABLE state: Invalid "
                f"argument: unable to find backend library for backend '{name}', try specifying "
                "runtime on the model configuration.;"
            )
    if "KIND_GPU" in config and os.environ.get("FAKE_TRITON_GPUS") != "1":
        return 400, (
            f"load failed for model '{model}': instance group {model}_0 of model {model} has "
            "kind KIND_GPU but no GPUs are available"
        )
    return 200, ""


def model_config(model: str) -> dict[str, object] | None:
    """The config as the server's JSON gives it (enum names, 64-bit integers as strings)."""
    from google.protobuf.json_format import MessageToDict

    from tritonlint.document import load_config
    from tritonlint.schema.releases import load_schema

    document = load_config(REPOSITORY / model / "config.pbtxt", load_schema())
    message = document.config
    if message is None:
        return None
    config = MessageToDict(message, preserving_proto_field_name=True)
    config.setdefault("name", model)
    return config


def directive(model: str, name: str) -> str | None:
    try:
        config = (REPOSITORY / model / "config.pbtxt").read_text()
    except OSError:
        return None
    found = re.search(rf"^# fake-{name}: (.*)$", config, re.MULTILINE)
    if found is None:
        return None
    # (``\n`` in the line: a new line, as in a traceback.)
    return found.group(1).replace("{repository}", str(REPOSITORY)).replace("\\n", "\n")


_SIZES = {"BOOL": 1, "UINT8": 1, "INT8": 1, "UINT16": 2, "INT16": 2, "FP16": 2, "BF16": 2,
          "UINT32": 4, "INT32": 4, "FP32": 4, "UINT64": 8, "INT64": 8, "FP64": 8}  # fmt: skip


def answer_infer(model: str) -> tuple[int, bytes, int | None]:
    """Status, body and JSON header length of the model's answer."""
    if directive(model, "infer-hang") is not None:
        time.sleep(3600)
    error = directive(model, "infer-error")
    if error is not None:
        return 400, json.dumps({"error": error}).encode(), None
    answer = directive(model, "answer")
    if answer is not None:
        return 200, answer.encode(), None
    config = model_config(model) or {}
    batching = int(config.get("max_batch_size") or 0) > 0
    outputs, data = [], b""
    for output in config.get("output") or []:  # type: ignore[attr-defined]
        dims = [max(int(d), 1) for d in output.get("dims", [])]
        shape = [1, *dims] if batching else dims
        datatype = output.get("data_type", "TYPE_FP32").removeprefix("TYPE_")
        count = 1
        for d in shape:
            count *= d
        if datatype == "STRING":
            datatype, blob = "BYTES", b"\0\0\0\0" * count
        else:
            blob = bytes(_SIZES[datatype] * count)
        outputs.append({"name": output["name"], "datatype": datatype, "shape": shape,
                        "parameters": {"binary_data_size": len(blob)}})  # fmt: skip
        data += blob
    header = json.dumps({"model_name": model, "outputs": outputs}).encode()
    return 200, header + data, len(header)


class Handler(BaseHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass

    def answer(self, status: int, payload: object) -> None:
        body = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def send(self, status: int, body: bytes, header_length: int | None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/octet-stream")
        if header_length is not None:
            self.send_header("Inference-Header-Content-Length", str(header_length))
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        config = re.fullmatch(r"/v2/models/([^/]+)/config", self.path)
        if config:
            found = model_config(config.group(1))
            self.answer(200 if found else 404, found or {"error": "no such model"})
        elif self.path == "/v2/health/live":
            self.answer(200, {})
        elif self.path == "/v2":
            self.answer(200, {"name": "triton", "version": VERSION, "extensions": []})
        else:
            self.answer(404, {"error": "not found"})

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        match = re.fullmatch(r"/v2/repository/models/([^/]+)/load", self.path)
        infer = re.fullmatch(r"/v2/models/([^/]+)/infer", self.path)
        if match:
            status, error = judge(match.group(1))
            self.answer(status, {"error": error} if error else {})
        elif infer:
            record({"event": "infer", "pid": os.getpid(), "model": infer.group(1)})
            self.send(*answer_infer(infer.group(1)))
        elif self.path == "/v2/repository/index":
            self.answer(200, [])
        else:
            self.answer(404, {"error": "not found"})


def main() -> None:
    record({"event": "start", "pid": os.getpid(), "argv": sys.argv[1:], "ports": PORTS})
    if os.environ.get("FAKE_TRITON_EXIT"):
        print("error: creating server: Internal - fake server told to fail", flush=True)
        sys.exit(1)
    held = []
    for port in PORTS[1:]:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port))
        sock.listen()
        held.append(sock)
    ThreadingHTTPServer.allow_reuse_address = True
    server = ThreadingHTTPServer(("127.0.0.1", PORTS[0]), Handler)
    server.daemon_threads = True
    print(f"I0000 00:00:00.000000 1 fake.cc:1] Started HTTPService at 127.0.0.1:{PORTS[0]}")
    sys.stdout.flush()
    server.serve_forever()


if __name__ == "__main__":
    main()
