"""Map a server's message back to tritonlint: the rule it is about, and the place in
config.pbtxt it points to.

A rule's ``server_message`` holds templates, one per line: each ``{placeholder}`` (and each
``...``) stands for any text. A rule *predicts* a message when one of its templates, so read,
is found in it; of the rules that do, the one static lint reported for the same model comes
first, then the one with the most fixed text (``Message type "inference.{message}" has no
field named "{field}".`` says more than ``failed to read text proto from {path}``, which the
same message also holds).

The rule a refusal is reported with (:func:`attribute`) is the one static lint reported for the
model whenever it did: a rule of its that predicts the message, else an error it reported (a
``-1`` version folder is TL214 malformed-version-folder, even though the server's words are
those of TL217 missing-model-file); only then a rule static lint did not report.

The place: the parser's line and column for a parse error; else the finding of that rule in
that model; else the first line of config.pbtxt that holds a name the message quotes.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from tritonlint.diagnostics import Diagnostic, Severity
from tritonlint.rules.base import Rule
from tritonlint.rules.messages import template_parts, template_pattern
from tritonlint.rules.registry import all_rules, by_code
from tritonlint.span import Span

#: Templates with less fixed text than this match too much to name a rule.
MIN_FIXED_TEXT = 12

_PARSE_POSITION = re.compile(r"Error parsing text-format [\w.]+: (\d+):(\d+): ")
_QUOTED = re.compile(r"'([^'\s/]{2,})'|\"([^\"\s/]{2,})\"")


@dataclass(frozen=True)
class Template:
    rule: Rule
    pattern: re.Pattern[str]
    fixed: int  # characters of fixed text


@cache
def templates() -> tuple[Template, ...]:
    """Every rule's server message templates (a rule that mirrors several server checks has
    one per line)."""
    found = []
    for rule in all_rules():
        for line in (rule.server_message or "").splitlines():
            fixed = sum(len(part.strip()) for part in template_parts(line))
            if fixed < MIN_FIXED_TEXT:
                continue
            found.append(Template(rule, template_pattern(line), fixed))
    return tuple(found)


def predicting_rules(message: str, reported: Iterable[str] = ()) -> list[Rule]:
    """The rules whose server message template is found in ``message``, best first.

    ``reported``: codes static lint reported for the model; those rules come first.
    """
    codes = set(reported)
    matching = [t for t in templates() if t.pattern.search(message)]
    matching.sort(key=lambda t: (t.rule.code not in codes, -t.fixed, t.rule.code))
    best: dict[str, Rule] = {}
    for template in matching:  # a rule once, at its best template's place
        best.setdefault(template.rule.code, template.rule)
    return list(best.values())


class Attribution(enum.Enum):
    """How the rule of a refusal was chosen (what the finding says about it)."""

    #: Static lint reported the rule for the model, and the rule predicts the message.
    PREDICTED = "predicted"
    #: Static lint reported an error of the rule for the model; the message is not the rule's.
    REPORTED = "reported"
    #: The rule predicts the message, but static lint did not report it for the model.
    UNREPORTED = "unreported"
    #: No rule predicts the message, and static lint reported nothing that could explain it.
    NONE = "none"


@dataclass(frozen=True)
class Attributed:
    rule: Rule | None
    how: Attribution
    #: The best rule that predicts the message, when it is not ``rule``.
    predicted: Rule | None = None


def attribute(message: str, static: Sequence[Diagnostic]) -> Attributed:
    """The rule a refusal with ``message`` is reported with; ``static``: what static lint
    reported for the model.

    In order: a reported rule that predicts the message; a reported error (the server refuses
    the model for it, whatever words it uses); a rule that predicts the message; none. A
    reported warning that does not predict the message is no explanation: warnings are
    about configs the server loads.
    """
    found = [d for d in static if d.severity is not Severity.INFO]
    predicted = predicting_rules(message, [d.code for d in found])
    best = predicted[0] if predicted else None
    if best is not None and best.code in {d.code for d in found}:
        return Attributed(best, Attribution.PREDICTED)
    error = _closest([d for d in found if d.severity is Severity.ERROR], message)
    if error is not None:
        return Attributed(error, Attribution.REPORTED, best)
    if best is not None:
        return Attributed(best, Attribution.UNREPORTED)
    return Attributed(None, Attribution.NONE)


def _closest(findings: Sequence[Diagnostic], message: str) -> Rule | None:
    """The rule of the finding that ``message`` seems to be about: one about a file or folder
    the message names (a version folder), else the first."""
    if not findings:
        return None
    chosen = min(findings, key=lambda d: (not _names(message, d.path.name), d.sort_key))
    return by_code(chosen.code)


def _names(message: str, name: str) -> bool:
    return bool(re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w.-])", message))


def parse_position(message: str) -> tuple[int, int] | None:
    """Line and column (1-based) of a libprotobuf parse error quoted in ``message``."""
    match = _PARSE_POSITION.search(message)
    return (int(match.group(1)), int(match.group(2))) if match else None


def in_folder(diagnostic: Diagnostic, folder: Path) -> bool:
    return diagnostic.path == folder or folder in diagnostic.path.parents


def span_of_line(text: str, line: int, column: int = 1, length: int | None = None) -> Span | None:
    """A span on ``line`` from ``column`` (``length`` characters, default: to the line's end)."""
    lines = text.split("\n")
    if not 1 <= line <= len(lines):
        return None
    content = lines[line - 1].rstrip("\r")
    column = max(1, min(column, len(content) + 1))
    start = sum(len(previous) + 1 for previous in lines[: line - 1]) + column - 1
    if length is None:
        length = len(content) - (column - 1)
    length = max(0, min(length, len(content) - (column - 1)))
    return Span(line, column, line, column + length, start, start + length)


def find_token(text: str, tokens: Sequence[str]) -> Span | None:
    """The first place ``text`` holds one of ``tokens`` (in order of preference): as a quoted
    string value, else as a whole word (a field name or an enum value)."""
    for token in tokens:
        for pattern in (f"[\"']{re.escape(token)}[\"']", rf"(?<![\w.]){re.escape(token)}(?![\w.])"):
            for match in re.finditer(pattern, text):
                before = text[: match.start()]
                if _in_comment(before):
                    continue
                line = before.count("\n") + 1
                column = match.start() - (before.rfind("\n") + 1) + 1
                return span_of_line(text, line, column, match.end() - match.start())
    return None


def _in_comment(before: str) -> bool:
    current = before[before.rfind("\n") + 1 :]
    return "#" in current


def quoted_names(message: str) -> list[str]:
    """Names the message quotes, in order (paths left out)."""
    return [single or double for single, double in _QUOTED.findall(message)]


def locate(
    config_text: str | None,
    message: str,
    static: Sequence[Diagnostic],
    rule: Rule | None,
    hints: Sequence[str] = (),
    skip: Sequence[str] = (),
) -> Span | None:
    """Where in config.pbtxt (``config_text``) the server's ``message`` points.

    ``static``: static lint's findings in that config; ``hints``: tokens to look for first;
    ``skip``: tokens never to look for (the model's own name).
    """
    if config_text is None:
        return None
    position = parse_position(message)
    same_rule = [d for d in static if rule is not None and d.code == rule.code and d.span]
    if position is not None:
        line, column = position
        on_line = [d for d in same_rule if d.span is not None and d.span.line == line]
        if on_line and on_line[0].span is not None:
            return on_line[0].span
        return span_of_line(config_text, line, column, 1) or span_of_line(config_text, 1)
    if same_rule:
        return same_rule[0].span
    tokens = [t for t in (*hints, *quoted_names(message)) if t and t not in skip]
    return find_token(config_text, tokens)
