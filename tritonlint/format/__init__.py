"""The canonical formatter of text-format model configurations (``tritonlint format``).

:func:`format_text` and :func:`format_edits` are the functions to call from other code;
``docs/formatting.md`` describes the layout.
"""

from tritonlint.format.api import Formatted, Refusal, format_edits, format_text

__all__ = ["Formatted", "Refusal", "format_edits", "format_text"]
