"""The TensorRT in each Triton release's container (``nvcr.io/nvidia/tritonserver:<YY.MM>-py3``).

A row is here only where a source states the version for that container; each row names its
source. NVIDIA's Frameworks Support Matrix
(https://docs.nvidia.com/deeplearning/frameworks/support-matrix/index.html) is the reference
for every container; the rows below were taken from statements that quote it or that show the
container's own TensorRT (its error message, its packages). Releases without a row have no
known TensorRT here, and nothing is judged against them.

The ``trtllm-python-py3`` containers (docs/introduction/compatibility.md of the server
repository) carry another TensorRT than the ``py3`` one of the same month (24.04: TensorRT
9.3 there, 8.6.3 here), so they are no source for this table.
"""

from __future__ import annotations

from typing import NamedTuple

from tritonlint.modelfiles.tensorrt import PlanVersion


class ReleaseTensorRT(NamedTuple):
    release: str
    container: str
    #: The version as the source gives it (a build number where it names one).
    tensorrt: str
    source: str

    @property
    def version(self) -> PlanVersion:
        """Major, minor and patch: what a plan's header holds (the build number is not)."""
        major, minor, patch = (int(part) for part in self.tensorrt.split(".")[:3])
        return major, minor, patch


_TWCC = "https://docs.twcloud.ai/en/docs/concepts-tutorials/twcc/ccs/concepts/images/triton-inference-server/"

_RELEASE_NOTES = (
    "https://github.com/triton-inference-server/server/blob/{commit}/"
    "docs/introduction/release_notes.md"
)

ROWS: tuple[ReleaseTensorRT, ...] = (
    # A table of tritonserver-YY.MM-py3 images with their TensorRT (TWCC's image list).
    ReleaseTensorRT("2.19.0", "22.02", "8.2.3", _TWCC),
    # "the older tritonserver:22.03 image that uses TensorRT 8.2.3", "tritonserver:22.04
    # (that has TensorRT 8.2.4.2)"; the 22.04 server's message "expecting library version
    # 8.2.4 got 8.2.3".
    ReleaseTensorRT("2.20.0", "22.03", "8.2.3", "https://github.com/pytorch/TensorRT/issues/1059"),
    ReleaseTensorRT(
        "2.21.0", "22.04", "8.2.4.2", "https://github.com/pytorch/TensorRT/issues/1059"
    ),
    ReleaseTensorRT("2.22.0", "22.05", "8.2.5.1", _TWCC),
    ReleaseTensorRT("2.25.0", "22.08", "8.4.2.4", _TWCC),
    ReleaseTensorRT("2.28.0", "22.11", "8.5.1", _TWCC),
    # The 23.04 server: "expecting library version 8.6.1.2 got 8.6.0.12".
    ReleaseTensorRT(
        "2.33.0",
        "23.04",
        "8.6.1.2",
        "https://github.com/triton-inference-server/server/issues/5812",
    ),
    # "the Frameworks Support Matrix indicates that the version of TensorRT for Triton
    # container v23.05 is 8.6.1.2", and the server's "expecting library version 8.6.1.2".
    ReleaseTensorRT(
        "2.34.0",
        "23.05",
        "8.6.1.2",
        "https://github.com/triton-inference-server/server/issues/5975",
    ),
    # A maintainer: "Triton base image includes installation of the TensorRT version 8.6.3".
    ReleaseTensorRT(
        "2.43.0", "24.02", "8.6.3", "https://github.com/triton-inference-server/server/issues/6959"
    ),
    # The release notes kept in the server repository (docs/introduction/release_notes.md,
    # "Contents of the Triton Inference Server container": "NVIDIA TensorRT 10.x.y.z"), as
    # committed for each of these releases; later notes no longer list TensorRT.
    ReleaseTensorRT(
        "2.49.0",
        "24.08",
        "10.3.0.26",
        _RELEASE_NOTES.format(commit="7669321582e8bd5dcaf68b76e65389615e0a662f"),
    ),
    ReleaseTensorRT(
        "2.51.0",
        "24.10",
        "10.5.0.18",
        _RELEASE_NOTES.format(commit="9fac69d6b7be565411a280ed3dff96335765d96e"),
    ),
    ReleaseTensorRT(
        "2.53.0",
        "24.12",
        "10.7.0.23",
        _RELEASE_NOTES.format(commit="ff695aeb49819e223c88272da45f251b60f38442"),
    ),
    ReleaseTensorRT(
        "2.54.0",
        "25.01",
        "10.8.0.43",
        _RELEASE_NOTES.format(commit="d3ee577e403a445fb69db3e8e5a641f9a6765650"),
    ),
)

_BY_RELEASE = {row.release: row for row in ROWS}


def release_tensorrt(release: str) -> ReleaseTensorRT | None:
    """The TensorRT of Triton ``release`` (``2.51.0``), where a source states it."""
    return _BY_RELEASE.get(release)
