"""A stand-in for the docker command: records its arguments, and runs a container by running
the fake tritonserver with the container's command line.

$FAKE_DOCKER_LOG: a JSON-lines file, one line of arguments per call. ``docker run ... IMAGE
tritonserver ARGS`` becomes the fake tritonserver with ARGS ($FAKE_TRITON_GPUS=1 when
``--gpus`` was given), its pid kept under $FAKE_DOCKER_DIR by container name;
``docker rm --force NAME`` kills that process.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> None:
    args = sys.argv[1:]
    with open(os.environ["FAKE_DOCKER_LOG"], "a") as handle:
        handle.write(json.dumps(args) + "\n")
    state = Path(os.environ["FAKE_DOCKER_DIR"])
    if args[:1] == ["run"]:
        name = args[args.index("--name") + 1]
        (state / f"{name}.pid").write_text(str(os.getpid()))
        command = args[args.index("tritonserver") :]
        env = dict(os.environ)
        if "--gpus" in args:
            env["FAKE_TRITON_GPUS"] = "1"
        server = str(HERE / "fake_triton_server.py")
        os.execve(sys.executable, [sys.executable, server, *command[1:]], env)
    if args[:1] == ["rm"]:
        name = args[-1]
        pid_file = state / f"{name}.pid"
        if pid_file.exists():
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(pid_file.read_text()), signal.SIGKILL)
            pid_file.unlink()
            print(name)
            return
        print(f"Error response from daemon: No such container: {name}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
