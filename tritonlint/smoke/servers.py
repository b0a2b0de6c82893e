"""Which tritonserver the smoke stage runs, and how it is started.

In this order: ``--server PATH``, or ``--docker IMAGE`` (both explicit, so either wins), a
``tritonserver`` on ``PATH``, or the embedded Triton 2.51 of the ``nvidia-pytriton`` wheel
(fetched once into the per-user cache by :mod:`tritonlint.tritonserver.provision`).

Every server runs in explicit model-control mode with HTTP, GRPC and metrics on free loopback ports
(see :class:`~tritonlint.tritonserver.process.TritonServer`). A container publishes its ports on
127.0.0.1 only and sees the staged copy of the repository (and the user's repository, which the copy
links large files from) read-only, at the same paths as on the host, so that the paths in the
server's messages are the host's.
"""

from __future__ import annotations

import contextlib
import enum
import os
import subprocess
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tritonlint.programs import NEUTRAL_FOLDER, find_program
from tritonlint.smoke.options import SmokeUsageError
from tritonlint.tritonserver.ports import LOOPBACK
from tritonlint.tritonserver.process import ServerPorts, TritonServer
from tritonlint.tritonserver.provision import (
    PYTRITON_VERSION,
    TRITON_VERSION,
    TritonInstall,
    find_cached,
    provision,
    server_cache_dir,
)

#: Where NVIDIA's containers install the server.
CONTAINER_ROOT = Path("/opt/tritonserver")
#: /dev/shm size for a container: the python backend exchanges tensors through shared memory,
#: and Docker's default of 64 MB is too small for more than a few python models.
CONTAINER_SHM_SIZE = "1g"


class ServerKind(str, enum.Enum):
    OPTION = "server"  # --server PATH
    PATH = "path"  # tritonserver on PATH
    DOCKER = "docker"  # --docker IMAGE
    EMBEDDED = "embedded"  # the nvidia-pytriton wheel's server


@dataclass(frozen=True)
class ServerChoice:
    kind: ServerKind
    #: The server binary (on this machine; None for a container).
    binary: Path | None = None
    #: The container image and the docker command (``--docker``).
    image: str | None = None
    docker: str | None = None

    def describe(self) -> str:
        if self.kind is ServerKind.OPTION:
            return f"{self.binary} (--server)"
        if self.kind is ServerKind.PATH:
            return f"{self.binary} (tritonserver on PATH)"
        if self.kind is ServerKind.DOCKER:
            return f"{self.image} (--docker)"
        return (
            f"embedded Triton {TRITON_VERSION} (nvidia-pytriton {PYTRITON_VERSION} wheel, "
            f"in {server_cache_dir()})"
        )


def choose_server(
    server: Path | None,
    docker_image: str | None,
    *,
    which: Callable[[str], str | None] = find_program,
) -> ServerChoice:
    """The server to run, by the rules of this module's docstring."""
    if server is not None and docker_image is not None:
        raise SmokeUsageError("--server and --docker name two servers; give one of them")
    if server is not None:
        binary = Path(os.path.abspath(server.expanduser()))
        if not binary.is_file() or not os.access(binary, os.X_OK):
            raise SmokeUsageError(f"--server {server}: not an executable file")
        return ServerChoice(ServerKind.OPTION, binary=binary)
    if docker_image is not None:
        if not docker_image.strip():
            raise SmokeUsageError("--docker needs an image name")
        docker = which("docker")
        if docker is None:
            raise SmokeUsageError("--docker needs the docker command, and none is on PATH")
        return ServerChoice(ServerKind.DOCKER, image=docker_image, docker=docker)
    found = which("tritonserver")
    if found is not None:
        return ServerChoice(ServerKind.PATH, binary=Path(os.path.abspath(found)))
    return ServerChoice(ServerKind.EMBEDDED)


def external_install(binary: Path) -> TritonInstall:
    """A server installed like NVIDIA's containers: ``<root>/bin/tritonserver``,
    ``<root>/backends``, ``<root>/lib``; the version is asked from the running server."""
    root = binary.resolve().parent.parent
    return TritonInstall(
        root=root,
        binary=binary,
        lib_dir=root / "lib",
        backends_dir=root / "backends",
        version="",
    )


def container_install() -> TritonInstall:
    return TritonInstall(
        root=CONTAINER_ROOT,
        binary=Path("tritonserver"),
        lib_dir=CONTAINER_ROOT / "lib",
        backends_dir=CONTAINER_ROOT / "backends",
        version="",
    )


def embedded_install(
    busy: Callable[[str], contextlib.AbstractContextManager[object]],
) -> TritonInstall:
    """The cached embedded server; fetched first (with a message while it is) when needed."""
    if find_cached() is not None:
        return provision()
    message = (
        f"Fetching Triton {TRITON_VERSION} (the nvidia-pytriton {PYTRITON_VERSION} wheel, about "
        f"55 MB) into {server_cache_dir()}; this happens once"
    )
    with busy(message):
        return provision()


class ExternalTritonServer(TritonServer):
    """A tritonserver installed on this machine: run with its own environment and backends."""

    def command(self, ports: ServerPorts) -> list[str]:
        command = super().command(ports)
        if not self.backend_dir.is_dir():  # let the server use its built-in default
            command = [arg for arg in command if not arg.startswith("--backend-directory=")]
        return command

    def environment(self) -> dict[str, str]:
        return dict(os.environ)


@dataclass
class DockerSettings:
    docker: str
    image: str
    gpus: bool
    #: Host paths the container must see, read-only, at the same place.
    mounts: Sequence[Path] = ()
    extra_args: Sequence[str] = field(default_factory=tuple)


def docker_command(
    settings: DockerSettings,
    name: str,
    model_repository: Path,
    ports: ServerPorts,
    shm_prefix: str,
) -> list[str]:
    """``docker run`` for one server in ``settings.image`` (see the module docstring)."""
    command = [
        settings.docker,
        "run",
        "--rm",
        "--name",
        name,
        "--label",
        "tritonlint.smoke=1",
        f"--shm-size={CONTAINER_SHM_SIZE}",
    ]
    for port in (ports.http, ports.grpc, ports.metrics):
        command += ["-p", f"{LOOPBACK}:{port}:{port}"]
    mounted: list[Path] = []
    for path in (model_repository, *settings.mounts):
        if path not in mounted:
            mounted.append(path)
            command += ["-v", f"{path}:{path}:ro"]
    if settings.gpus:
        command += ["--gpus", "all"]
    command += [
        settings.image,
        "tritonserver",
        f"--model-repository={model_repository}",
        "--model-control-mode=explicit",
        # Inside the container the server listens on every interface of the container; the
        # ports are published on the host's loopback interface only.
        "--http-address=0.0.0.0",
        f"--http-port={ports.http}",
        "--grpc-address=0.0.0.0",
        f"--grpc-port={ports.grpc}",
        "--metrics-address=0.0.0.0",
        f"--metrics-port={ports.metrics}",
        "--exit-timeout-secs=5",
        "--exit-on-error=false",
        f"--backend-config=python,shm-region-prefix-name={shm_prefix}",
        *settings.extra_args,
    ]
    return command


class DockerTritonServer(TritonServer):
    """tritonserver in a container; each start is a fresh container, removed when stopped."""

    def __init__(self, settings: DockerSettings, model_repository: Path, **kwargs: object) -> None:
        super().__init__(container_install(), model_repository, **kwargs)  # type: ignore[arg-type]
        self.settings = settings
        self.containers: list[str] = []
        self._running: list[str] = []

    def command(self, ports: ServerPorts) -> list[str]:
        name = f"tritonlint-smoke-{uuid.uuid4().hex[:12]}"
        self.containers.append(name)
        self._running.append(name)
        return docker_command(self.settings, name, self.model_repository, ports, self.shm_prefix)

    def environment(self) -> dict[str, str]:
        return dict(os.environ)

    def orphan_command(self) -> list[str] | None:
        # Killing the docker client leaves its container running.
        return [self.settings.docker, "rm", "--force", self._running[-1]] if self._running else None

    def stop(self, timeout: float = 10.0, *, graceful: bool = True) -> None:
        # Killing the docker client does not stop its container: remove the container first
        # (the client then exits on its own), then stop what is left of the client.
        running, self._running = self._running, []
        for name in running:
            with contextlib.suppress(OSError, subprocess.TimeoutExpired):
                subprocess.run(
                    [self.settings.docker, "rm", "--force", name],
                    cwd=NEUTRAL_FOLDER,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    timeout=60,
                    check=False,
                )
        super().stop(timeout, graceful=graceful)
