"""Server message templates: how a rule's predicted message is matched against a real one.

A rule's ``server_message`` holds one template per line; ``{name}`` (without spaces) and
``...`` stand for any text.
"""

from __future__ import annotations

import re
from functools import cache

_PLACEHOLDER = re.compile(r"\{[^{}\s]*\}|\.\.\.")


def template_parts(template: str) -> list[str]:
    """The fixed text between the placeholders of one template line."""
    return _PLACEHOLDER.split(template)


@cache
def template_pattern(template: str) -> re.Pattern[str]:
    """A pattern that finds one template line in a server message."""
    return re.compile(".*?".join(re.escape(part) for part in template_parts(template)), re.DOTALL)
