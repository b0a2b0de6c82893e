"""Whether this machine has a GPU the server can use."""

from __future__ import annotations

import subprocess
from functools import lru_cache
from pathlib import Path

from tritonlint.programs import NEUTRAL_FOLDER, find_program


@lru_cache(maxsize=1)
def has_gpu() -> bool:
    """True when ``nvidia-smi -L`` lists a GPU (or the NVIDIA driver exposes one in /proc)."""
    smi = find_program("nvidia-smi")
    if smi:
        try:
            result = subprocess.run(
                [smi, "-L"],
                cwd=NEUTRAL_FOLDER,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=20,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired):
            result = None
        if result is not None and result.returncode == 0:
            return any(line.startswith("GPU ") for line in result.stdout.splitlines())
    gpus = Path("/proc/driver/nvidia/gpus")
    return gpus.is_dir() and any(gpus.iterdir())
