"""Fixtures for the tests that start a real tritonserver (Triton 2.51 from nvidia-pytriton)."""

from __future__ import annotations

import pytest

from tritonlint.tritonserver import DownloadError, TritonInstall, provision


@pytest.fixture(scope="session")
def triton_install() -> TritonInstall:
    """The cached server, downloaded with pip on first use (about 55 MB).

    Skipped only when pip cannot fetch the wheel (no network, no index); any other problem fails.
    """
    try:
        return provision()
    except DownloadError as err:
        pytest.skip(f"the Triton server wheel cannot be fetched with pip: {err}")
