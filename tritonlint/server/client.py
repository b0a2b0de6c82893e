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


def _quote(model: str) -> str:
    return urllib.parse.quote(model, safe="")
