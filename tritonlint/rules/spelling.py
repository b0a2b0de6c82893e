"""Whether a backend name is a slip of a known one, rather than a custom backend's own name.

A custom backend may have any name, so "close to a known name" must be tight: ``kaldi`` (a
real custom backend) is two edits from ``dali`` and must not be taken for it. Ignoring case,
a name counts as a slip when it is one edit (an insertion, deletion, substitution or swap of
neighbours) from a known backend or platform of five to eight characters, two from one of
nine or more, the same as one of four or fewer (``fil``, ``dali``, ``vllm``: one edit from
them gives too many ordinary words), or one of the short names people write for Triton's
own backends (``onnx``, ``torch``, ``trt`` ...).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from tritonlint.repository.server_fill_in import KNOWN_BACKENDS, PLATFORMS

#: Names people write for Triton's own backends that are no backend's name.
_SHORT_NAMES: dict[str, str] = {
    "onnx": "onnxruntime",
    "ort": "onnxruntime",
    "torch": "pytorch",
    "libtorch": "pytorch",
    "torchscript": "pytorch",
    "trt": "tensorrt",
    "tf": "tensorflow",
    "trtllm": "tensorrtllm",
    "ov": "openvino",
}


class Slip(NamedTuple):
    """The backend a misspelt name most likely means, and the known name it is close to."""

    backend: str
    #: The backend or platform name the written name is close to (a platform's backend is
    #: the suggestion).
    near: str


def edit_distance(a: str, b: str) -> int:
    """Insertions, deletions, substitutions and swaps of neighbours that turn ``a`` into ``b``
    (the optimal string alignment distance)."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, char_b in enumerate(b, 1):
            cost = 0 if char_a == char_b else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and char_a == b[j - 2] and a[i - 2] == char_b:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[-1]


def _allowed_edits(known: str) -> int:
    return 0 if len(known) <= 4 else 1 if len(known) < 9 else 2


def _candidates() -> Iterable[tuple[str, str]]:
    """(known name, the backend it stands for): every backend and every platform."""
    for backend in KNOWN_BACKENDS:
        yield backend, backend
    for platform, (backend, _) in PLATFORMS.items():
        yield platform, backend


def misspelt_backend(name: str) -> Slip | None:
    """The known backend ``name`` is a slip of, or None for a name of its own."""
    if not name or name in KNOWN_BACKENDS or name in PLATFORMS:
        return None
    lowered = name.lower()
    short = _SHORT_NAMES.get(lowered.replace("-", "").replace("_", ""))
    if short is not None:
        return Slip(short, short)
    best: tuple[int, str, str] | None = None
    for known, backend in _candidates():
        distance = edit_distance(lowered, known)
        if distance <= _allowed_edits(known) and (best is None or distance < best[0]):
            best = (distance, known, backend)
    return Slip(best[2], best[1]) if best is not None else None
