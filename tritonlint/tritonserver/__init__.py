"""Run the real Triton Inference Server: provision it, stub missing backends, load models.

The modules, one job each:

* :mod:`~tritonlint.tritonserver.provision` finds or fetches Triton 2.51 (the
  ``nvidia-pytriton`` wheel)
* :mod:`~tritonlint.tritonserver.stubs` builds stand-ins for the backends the wheel lacks
* :mod:`~tritonlint.tritonserver.process` runs one server and loads models into it, one at a time
* :mod:`~tritonlint.tritonserver.prepare` stages a copy of a repository adjusted to this machine
* :mod:`~tritonlint.tritonserver.verdict` judges whole repositories, model by model
"""

from tritonlint.tritonserver.prepare import ModelInfo, PythonPlaceholders, scan_model
from tritonlint.tritonserver.process import LoadStatus, TritonServer
from tritonlint.tritonserver.provision import (
    DownloadError,
    ProvisionError,
    TritonInstall,
    provision,
)
from tritonlint.tritonserver.stubs import PLATFORM_NAMES, StubKind
from tritonlint.tritonserver.verdict import Judge, Verdict, judge_repositories, judge_repository

__all__ = [
    "PLATFORM_NAMES",
    "DownloadError",
    "Judge",
    "LoadStatus",
    "ModelInfo",
    "ProvisionError",
    "PythonPlaceholders",
    "StubKind",
    "TritonInstall",
    "TritonServer",
    "Verdict",
    "judge_repositories",
    "judge_repository",
    "provision",
    "scan_model",
]
