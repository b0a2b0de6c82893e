"""The canonical formatter of text-format model configurations (``tritonlint format``).

* :mod:`~tritonlint.format.api`: :func:`format_text` and :func:`format_edits`, the functions
  to call from other code (an editor's document formatting): text in, text or edits out, or a
  :class:`Refusal` saying why not; nothing is read or printed
* :mod:`~tritonlint.format.layout` prints a syntax tree in the canonical layout,
  :mod:`~tritonlint.format.strings` spells string values, and
  :mod:`~tritonlint.format.equivalence` checks that the result reads as the original
* :mod:`~tritonlint.format.files`, :mod:`~tritonlint.format.options` and
  :mod:`~tritonlint.format.command`: the files to format and the ``format`` command

The names below are imported on first use, so that the command line's parser (which needs
only :mod:`~tritonlint.format.options`) does not load the parser. See docs/formatting.md.
"""

from __future__ import annotations

from typing import Any

from tritonlint.lazy_exports import lazy_export

_EXPORTS = {"Formatted": "api", "Refusal": "api", "format_edits": "api", "format_text": "api"}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    return lazy_export(__name__, _EXPORTS, name)
