"""Where tritonlint's documentation lives on the web, and the link to each rule's section.

Reports point at the published documentation, not at a path: a SARIF viewer, a JSON consumer
or a code-quality widget shows the report far from tritonlint's source tree. The rule pages
are the sections of docs/rules.md as GitHub renders them, so a rule's link is that file's URL
and the anchor GitHub gives the rule's heading.
"""

from __future__ import annotations

import re
import unicodedata

from tritonlint.rules.base import Rule

#: The project's home: its source, documentation and issue tracker (also in pyproject.toml's
#: ``[project.urls]``).
DOCUMENTATION_HOME = "https://github.com/tritonlint/tritonlint"
#: docs/rules.md as GitHub shows it, on the main branch.
RULES_DOC_URL = f"{DOCUMENTATION_HOME}/blob/main/docs/rules.md"

#: Unicode categories whose characters GitHub keeps in an anchor: letters, marks, digits,
#: connector punctuation (``_``); everything else but spaces and ``-`` is dropped.
_KEPT_CATEGORIES = ("L", "M", "N", "Pc")
_SPACE = re.compile(" ")


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a Markdown heading's text (the first heading with that text).

    GitHub lower-cases the text, removes every character that is not a letter, mark, digit,
    connector punctuation, space or hyphen, and turns each space into a hyphen.
    """
    kept = "".join(
        character
        for character in heading.strip().lower()
        if character in " -" or unicodedata.category(character).startswith(_KEPT_CATEGORIES)
    )
    return _SPACE.sub("-", kept)


def rule_heading(rule: Rule) -> str:
    """The text of the rule's heading in docs/rules.md."""
    return f"{rule.code} {rule.name}"


def rule_url(rule: Rule) -> str:
    """The rule's section of docs/rules.md on the web."""
    return f"{RULES_DOC_URL}#{github_anchor(rule_heading(rule))}"
