"""Reading the server log, and finding in it why a model failed to load.

Errors found while the repository is *polled* (syntax errors, name mismatch, ensemble structure,
negative max_batch_size ...) never reach the load response, which only says ``failed to poll
from model repository``. They are in the log::

    [libprotobuf ERROR ...] Error parsing text-format inference.ModelConfig: 5:1: Expected ...
    E1122 ... model_repository_manager.cc:1460] Poll failed for model directory 'm': ...
"""

from __future__ import annotations

import json
import re
from pathlib import Path

#: The python backend logs this and then waits forever for the stub to come up.
PYTHON_MODEL_FILE_MISSING = "Failed to preinitialize Python stub: Python model file not found"

_GLOG_PREFIX = re.compile(r"^[IWEF]\d{4} \S+ +\d+ [^\]]*\] ")
_PROTOBUF_PREFIX = re.compile(r"^\[libprotobuf \w+ [^\]]*\] ")


class LogFile:
    """A log file that keeps growing; lines are read from a byte offset onward."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def size(self) -> int:
        try:
            return self.path.stat().st_size
        except FileNotFoundError:
            return 0

    def read_from(self, offset: int) -> list[str]:
        """Complete lines written since ``offset`` (a trailing partial line is left out)."""
        try:
            with open(self.path, "rb") as handle:
                handle.seek(offset)
                data = handle.read()
        except FileNotFoundError:
            return []
        text = data.decode(errors="replace")
        if not text.endswith("\n"):
            text = text[: text.rfind("\n") + 1]
        return text.splitlines()

    def tail(self, count: int = 30) -> list[str]:
        try:
            lines = self.path.read_text(errors="replace").splitlines()
        except FileNotFoundError:
            return []
        return lines[-count:]


def strip_prefix(line: str) -> str:
    """The message of a log line, without its glog (``E1122 12:00:00.1 123 file.cc:10] ``) or
    libprotobuf prefix, and unquoted (Triton 2.51 writes messages as quoted strings)."""
    line = _PROTOBUF_PREFIX.sub("", _GLOG_PREFIX.sub("", line, count=1), count=1).strip()
    if len(line) >= 2 and line.startswith('"') and line.endswith('"'):
        try:
            unquoted = json.loads(line)
        except ValueError:
            unquoted = line[1:-1]
        if isinstance(unquoted, str):
            return unquoted
    return line


def is_error_line(line: str) -> bool:
    if line.startswith("[libprotobuf ERROR"):
        return True
    return line.startswith(("E", "F")) and bool(_GLOG_PREFIX.match(line))


def poll_failure(model: str, lines: list[str]) -> str | None:
    """The ``Poll failed for model directory`` reason for ``model``, with the parser detail.

    The libprotobuf line (which carries line:column of a syntax error) comes right before the
    ``Poll failed`` line; it is appended as ``(Error parsing text-format ...)``.
    """
    marker = f"Poll failed for model directory '{model}': "
    for index, line in enumerate(lines):
        if marker not in line:
            continue
        message = strip_prefix(line)
        parse_errors = [
            strip_prefix(previous)
            for previous in lines[max(0, index - 5) : index]
            if "Error parsing text-format" in previous
        ]
        if parse_errors:
            message += " (" + parse_errors[-1] + ")"
        return message
    return None


def hang_reason(lines: list[str]) -> str | None:
    """The log line saying that a python model will never come up, if any."""
    for line in lines:
        if PYTHON_MODEL_FILE_MISSING in line:
            return strip_prefix(line)
    return None


def error_lines(lines: list[str]) -> list[str]:
    """Only the error lines, prefixes removed."""
    return [strip_prefix(line) for line in lines if is_error_line(line)]


#: A backend's line for each instance it creates (python, onnxruntime, pytorch, tensorrt ...):
#: ``TRITONBACKEND_ModelInstanceInitialize: m_0_0 (GPU device 0)``; ``MODEL`` has no device.
_INSTANCE = re.compile(
    r"TRITONBACKEND_ModelInstanceInitialize: (\S+) \((CPU|GPU|MODEL)(?: device (\d+))?\)"
)


def instance_devices(lines: list[str]) -> list[tuple[str, str]]:
    """The instances a load created, each with where it runs (``GPU 0``, ``CPU``, ``MODEL``),
    as the backend logged them."""
    found: dict[str, str] = {}
    for line in lines:
        match = _INSTANCE.search(line)
        if match:
            name, kind, device = match.groups()
            found[name] = f"GPU {device}" if kind == "GPU" and device is not None else kind
    return list(found.items())
