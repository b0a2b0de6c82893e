"""Helpers for the smoke stage's tests."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from helpers import port_in_use

from tritonlint.smoke import SmokeResult
from tritonlint.tritonserver.process import live_group_members


@dataclass
class FakeServer:
    """The fake server's executable and what it recorded (starts and loads)."""

    path: Path
    log: Path

    def events(self, kind: str | None = None) -> list[dict[str, Any]]:
        if not self.log.exists():
            return []
        found = [json.loads(line) for line in self.log.read_text().splitlines()]
        return [e for e in found if kind is None or e["event"] == kind]

    def pids(self) -> list[int]:
        return [e["pid"] for e in self.events("start")]


@dataclass
class FakeDocker:
    log: Path

    def calls(self) -> list[list[str]]:
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text().splitlines()]


def assert_released(result: SmokeResult | None = None, pids: list[int] | None = None) -> None:
    """No server process (nor any of its group) is left, and no port of it is held."""
    starts = list(result.starts) if result else []
    assert starts or pids, "no server was started"
    for start in starts:
        assert live_group_members(start.pid) == [], start
        assert not any(port_in_use(port) for port in start.ports), start
    for pid in pids or []:
        assert live_group_members(pid) == [], pid


def processes_naming(text: str) -> list[tuple[int, str]]:
    """Running processes (zombies excluded) with ``text`` in their command line: pid, line."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            line = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if stat[stat.rfind(")") + 2 :].split()[0] != "Z" and text in line:
            found.append((int(entry.name), line))
    return found


def seconds_until_gone(folder: Path, timeout: float = 5.0) -> float | None:
    """Seconds until no process names ``folder`` (a run's $TMPDIR) and the folder is empty;
    None if that is not so within ``timeout``."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if not processes_naming(str(folder)) and not any(folder.iterdir()):
            return time.monotonic() - started
        time.sleep(0.02)
    return None
