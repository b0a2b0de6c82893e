"""How the PyTorch backend pairs a config's tensor names with a TorchScript model's.

TorchScript outputs have no names, and inputs are ``forward``'s arguments: the backend takes a
config name as a position by the ``<name>__<index>`` convention (``INPUT__0``, ``OUTPUT__1``),
or, for inputs, by ``forward``'s argument names, or, when ``forward`` takes one
``Dict[str, Tensor]``, by the dictionary's keys. The rules, the editor and the smoke stage's
stand-in of the backend all pair names through these functions.
"""

from __future__ import annotations

from tritonlint.modelfiles.signature import TensorSpec

_DELIMITER = "__"


def convention_index(name: str) -> int | None:
    """The index a name gives by the ``<name>__<index>`` convention, as the backend reads it
    (after the first ``__``, digits only; none at all reads as 0); None where it gives none.

    This is ``GetNamingConvention`` of pytorch_backend's ``src/libtorch.cc``: the first
    ``__`` splits the name, and what follows must be digits (an empty rest counts as digits).
    """
    start = name.find(_DELIMITER)
    if start < 0:
        return None
    digits = name[start + len(_DELIMITER) :]
    if not all("0" <= char <= "9" for char in digits):
        return None
    return int(digits) if digits else 0


def is_dictionary(argument: TensorSpec) -> bool:
    """Whether a ``forward`` argument is annotated ``Dict[...]``."""
    return (argument.source_type or "").startswith("Dict[")


def takes_dictionary(arguments: tuple[TensorSpec, ...]) -> bool:
    """Whether ``forward`` takes one ``Dict[str, Tensor]``, whose keys are the config's input
    names (any names)."""
    return len(arguments) == 1 and is_dictionary(arguments[0])
