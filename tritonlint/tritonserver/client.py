"""The few calls of Triton's HTTP/REST API the harness needs, over urllib."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any


class ServerUnreachable(ConnectionError):
    """The server did not answer (not started yet, crashed, or timed out)."""


class NoAnswerInTime(ServerUnreachable):
    """The server took the request and did not answer within the timeout."""


@dataclass(frozen=True)
class RawAnswer:
    """An answer whose body is bytes (an inference response in the binary tensor extension)."""

    status: int
    body: bytes
    #: ``Inference-Header-Content-Length``: where the JSON header ends (None: all JSON).
    header_length: int | None

    @property
    def error(self) -> str:
        return Answer(self.status, self.body.decode(errors="replace")).error


@dataclass(frozen=True)
class Answer:
    status: int
    body: str

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None

    @property
    def error(self) -> str:
        """The ``error`` text of a failed call (Triton's exact message), else the raw body."""
        try:
            payload = self.json()
        except ValueError:
            return self.body
        if isinstance(payload, dict) and isinstance(payload.get("error"), str):
            return str(payload["error"])
        return self.body


class TritonClient:
    def __init__(self, host: str, port: int) -> None:
        self.base = f"http://{host}:{port}"

    def call(
        self, method: str, path: str, payload: object | None = None, *, timeout: float = 10.0
    ) -> Answer:
        data = None if payload is None else json.dumps(payload).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return Answer(response.status, response.read().decode(errors="replace"))
        except urllib.error.HTTPError as err:
            return Answer(err.code, err.read().decode(errors="replace"))
        except (urllib.error.URLError, OSError) as err:  # refused, reset, timed out
            raise ServerUnreachable(f"{method} {path}: {err}") from err

    def model_config(self, model: str, *, timeout: float = 10.0) -> dict[str, Any] | None:
        """The config the server loaded for ``model`` (auto-completed), or None."""
        answer = self.call("GET", f"/v2/models/{_quote(model)}/config", timeout=timeout)
        payload = answer.json() if answer.status == 200 else None
        return payload if isinstance(payload, dict) else None

    def infer(self, model: str, body: bytes, header_length: int, *, timeout: float) -> RawAnswer:
        """``POST /v2/models/<m>/infer`` in the binary tensor extension."""
        request = urllib.request.Request(
            f"{self.base}/v2/models/{_quote(model)}/infer", data=body, method="POST"
        )
        request.add_header("Content-Type", "application/octet-stream")
        request.add_header(_HEADER_LENGTH, str(header_length))
        return self._raw(request, timeout)

    def generate_stream(self, model: str, payload: object, *, timeout: float) -> RawAnswer:
        """``POST /v2/models/<m>/generate_stream``: the server-sent events, read to the end."""
        request = urllib.request.Request(
            f"{self.base}/v2/models/{_quote(model)}/generate_stream",
            data=json.dumps(payload).encode(),
            method="POST",
        )
        request.add_header("Content-Type", "application/json")
        return self._raw(request, timeout)

    def _raw(self, request: urllib.request.Request, timeout: float) -> RawAnswer:
        what = f"{request.get_method()} {request.selector}"
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return RawAnswer(response.status, response.read(), _header_length(response))
        except urllib.error.HTTPError as err:
            return RawAnswer(err.code, err.read(), None)
        except TimeoutError as err:
            raise NoAnswerInTime(f"{what}: {err}") from err
        except urllib.error.URLError as err:
            if isinstance(err.reason, TimeoutError):
                raise NoAnswerInTime(f"{what}: {err.reason}") from err
            raise ServerUnreachable(f"{what}: {err}") from err
        except OSError as err:  # refused, reset
            raise ServerUnreachable(f"{what}: {err}") from err

    def is_live(self, timeout: float = 1.0) -> bool:
        try:
            return self.call("GET", "/v2/health/live", timeout=timeout).status == 200
        except ServerUnreachable:
            return False

    def metadata(self) -> dict[str, Any]:
        answer = self.call("GET", "/v2")
        payload = answer.json()
        return payload if isinstance(payload, dict) else {}

    def load(self, model: str, *, timeout: float) -> Answer:
        return self.call("POST", f"/v2/repository/models/{_quote(model)}/load", timeout=timeout)

    def unload(self, model: str, *, timeout: float = 60.0) -> Answer:
        return self.call("POST", f"/v2/repository/models/{_quote(model)}/unload", timeout=timeout)

    def index(self, *, timeout: float = 10.0) -> list[dict[str, Any]]:
        """Every model the server knows, with ``state`` and ``reason``."""
        payload = self.call("POST", "/v2/repository/index", {}, timeout=timeout).json()
        return [entry for entry in payload or [] if isinstance(entry, dict)]


_HEADER_LENGTH = "Inference-Header-Content-Length"


def _header_length(response: Any) -> int | None:
    value = response.headers.get(_HEADER_LENGTH)
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _quote(model: str) -> str:
    return urllib.parse.quote(model, safe="")
