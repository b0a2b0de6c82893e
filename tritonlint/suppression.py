"""Inline suppressions: ``# tritonlint: disable=CODE[,CODE]`` comments in config.pbtxt.

* ``# tritonlint: disable=TL201`` after a field (a trailing comment) silences TL201 findings
  that start on that line; on a line of its own, on the next line that has more than a
  comment (blank lines and other comments in between are passed over).
* ``# tritonlint: disable-file=TL201`` anywhere silences TL201 in the whole file and, for
  findings about folders and files without a place in the config (a missing version
  folder, say), in the model's folder.

A code may be a rule code or a code prefix (any case) or a rule name. Only comments are read:
the text of a string that looks like a suppression is not one, because the comments are the
lexer's comment tokens. A suppression (or a code in one) that silences nothing is reported as
``unused-suppression`` (TL020) at the comment, and so is a comment that starts with
``tritonlint:`` but is not a suppression this module understands, and one that names a rule
in a suppression written wrong (``# tritonlint disable=TL201``, ``# noqa: TL201``), with a
fix that writes it as this module reads it.

Suppressions apply after the rules run and before ``--select``/``--ignore`` and the settings
file's filters, so a suppression of a rule that is not selected is not taken for unused.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from tritonlint.diagnostics import Applicability, Diagnostic, Fix, TextEdit
from tritonlint.document import ConfigDocument
from tritonlint.edits import comment_span
from tritonlint.rules.base import Rule
from tritonlint.rules.registry import all_rules, by_stage
from tritonlint.selection import rule_matches
from tritonlint.span import Span
from tritonlint.stage_rules import StageRule
from tritonlint.syntax.cst import Comment

#: ``tritonlint: disable=...`` or ``disable-file=...`` anywhere in a comment.
_DIRECTIVE = re.compile(
    r"tritonlint\s*:\s*(?P<kind>disable-file|disable)\s*=\s*"
    r"(?P<codes>[A-Za-z0-9_-]+(?:\s*,\s*[A-Za-z0-9_-]+)*)"
)
#: A comment that means to talk to tritonlint (``# tritonlint: ...``), understood or not.
_ADDRESSED = re.compile(r"#+\s*tritonlint\s*:", re.IGNORECASE)
_CODES = r"(?P<codes>[A-Za-z0-9_-]+(?:\s*,\s*[A-Za-z0-9_-]+)*)"
#: A comment that starts like a suppression written the way another tool, or a slip, has it:
#: ``# tritonlint disable=TL101``, ``# triton-lint: disable=...``, ``# tritonlint: ignore=...``,
#: ``# tritonlint:disabled TL101``. Only the listed verbs count, so prose that mentions
#: tritonlint ("# tritonlint checks this in CI") is no suppression.
_NEAR_MISS = re.compile(
    r"#+\s*(?:triton[-_ ]?lint(?:er)?)\s*:?\s*"
    r"(?P<verb>disable[-_]?file|disabled?|ignore[-_]?file|ignored?|noqa|suppress|skip)"
    r"\s*[=:]?\s*" + _CODES,
    re.IGNORECASE,
)
#: A ``noqa`` comment that names rules, the form ruff and flake8 read.
_NOQA = re.compile(r"#+\s*noqa\s*:?\s*" + _CODES, re.IGNORECASE)


@dataclass
class Directive:
    """One suppression comment."""

    #: ``disable`` (a line) or ``disable-file``.
    kind: str
    #: The codes, prefixes and names as written.
    codes: tuple[str, ...]
    #: The comment's place, where an unused suppression is reported.
    span: Span
    #: The line a ``disable`` applies to (None: none follows, or a ``disable-file``).
    line: int | None
    #: Where the codes are written, to take the unused ones out.
    codes_span: Span
    #: The edit that removes the whole suppression.
    removal: TextEdit
    #: The codes that suppressed something.
    used: set[str] = field(default_factory=set)

    @property
    def text(self) -> str:
        return f"{self.kind}={','.join(self.codes)}"

    def removal_of(self, unused: list[str]) -> Fix:
        """Take the ``unused`` codes out (all of them: the whole suppression).

        Every unused code's finding carries this same fix, which resolves them all.
        """
        kept = [code for code in self.codes if code not in unused]
        if not kept:
            return Fix("Remove the unused suppression", (self.removal,), Applicability.SAFE)
        edit = TextEdit(self.codes_span, ",".join(kept))
        title = f"Remove {', '.join(unused)} from the suppression"
        return Fix(title, (edit,), Applicability.SAFE)

    def covers(self, diagnostic: Diagnostic) -> str | None:
        """The first code of this directive that matches ``diagnostic``, or None."""
        return next(
            (c for c in self.codes if rule_matches(c, diagnostic.code, diagnostic.name)), None
        )


class NearMiss(NamedTuple):
    """A comment that means to be a suppression but is not written as one."""

    #: The comment's place.
    span: Span
    #: The comment as written.
    text: str
    #: The suppression it means, as tritonlint reads it (``# tritonlint: disable=TL101``).
    meant: str
    #: The edit that writes ``meant`` in place of what was written.
    rewrite: TextEdit


def near_miss(comment: Comment) -> NearMiss | None:
    """The suppression a comment means to be, where it names a rule but is written wrong."""
    text = comment.text
    match = _NEAR_MISS.match(text) or _NOQA.match(text)
    if match is None:
        return None
    codes = [code.strip() for code in match.group("codes").split(",")]
    rules = all_rules()
    if not any(rule_matches(code, r.code, r.name) for code in codes for r in rules):
        return None
    verb = match.groupdict().get("verb") or ""
    kind = "disable-file" if "file" in verb.lower() else "disable"
    meant = f"# tritonlint: {kind}={','.join(codes)}"
    rewrite = TextEdit(_within(comment.span, match.start(), match.end()), meant)
    return NearMiss(comment.span, text.strip(), meant, rewrite)


@dataclass
class FileSuppressions:
    """The suppression comments of one config file."""

    #: The config file.
    path: Path
    #: The model folder whose folder findings ``disable-file`` covers (None: a loose file).
    model_folder: Path | None
    directives: list[Directive] = field(default_factory=list)
    #: Comments addressed to tritonlint that are not suppressions: (comment span, text).
    malformed: list[tuple[Span, str]] = field(default_factory=list)
    #: Suppressions written in a form tritonlint does not read, with the form it reads.
    near_misses: list[NearMiss] = field(default_factory=list)
    #: Codes of rules that did not run for this file: their suppressions are never "unused".
    not_run: frozenset[str] = frozenset()


def read_suppressions(
    document: ConfigDocument, model_folder: Path | None = None, not_run: Iterable[str] = ()
) -> FileSuppressions:
    """The suppression comments of a parsed config file."""
    found = FileSuppressions(document.path, model_folder, not_run=frozenset(not_run))
    syntax = document.syntax
    if syntax is None or document.text is None:
        return found
    text = document.text
    following: list[int | None] | None = None
    for comment in syntax.comments:
        match = _DIRECTIVE.search(comment.text)
        if match is None:
            meant = near_miss(comment)
            if meant is not None:
                found.near_misses.append(meant)
            elif _ADDRESSED.match(comment.text):
                found.malformed.append((comment.span, comment.text.strip()))
            continue
        codes = tuple(c.strip() for c in match.group("codes").split(","))
        kind = match.group("kind")
        line_start = text.rfind("\n", 0, comment.span.start) + 1
        trailing = text[line_start : comment.span.start].strip() != ""
        line = None
        if kind == "disable":
            if trailing:
                line = comment.span.line
            else:
                following = following or _next_content_lines(text.split("\n"))
                line = following[comment.span.line]
        codes_span = _within(comment.span, match.start("codes"), match.end("codes"))
        # The whole comment goes when the suppression is all it says; otherwise only that.
        if comment.text[: match.start()].strip("# \t"):
            removal = TextEdit(_within(comment.span, match.start(), match.end()), "")
        else:
            removal = _comment_removal(text, comment, trailing)
        found.directives.append(Directive(kind, codes, comment.span, line, codes_span, removal))
    return found


def _within(comment: Span, start: int, end: int) -> Span:
    """The span of ``comment``'s text from ``start`` to ``end`` (a comment is one line)."""
    return Span(
        comment.line,
        comment.column + start,
        comment.line,
        comment.column + end,
        comment.start + start,
        comment.start + end,
    )


def _comment_removal(text: str, whole: Comment, trailing: bool) -> TextEdit:
    """Remove a comment with the blanks before it, or its whole line when it has one."""
    comment = comment_span(whole)
    if trailing:
        start = len(text[: comment.start].rstrip(" \t"))
        column = comment.column - (comment.start - start)
        return TextEdit(
            Span(comment.line, column, comment.line, comment.end_column, start, comment.end), ""
        )
    start = comment.start - (comment.column - 1)
    newline = text.find("\n", comment.end)
    if newline == -1:
        return TextEdit(
            Span(comment.line, 1, comment.line, comment.end_column, start, comment.end), ""
        )
    return TextEdit(Span(comment.line, 1, comment.line + 1, 1, start, newline + 1), "")


def _next_content_lines(lines: Sequence[str]) -> list[int | None]:
    """For each line number n (1-based), the first line after n with more than blanks and a
    comment (None: there is none)."""
    following: list[int | None] = [None] * (len(lines) + 1)
    after: int | None = None
    for number in range(len(lines), 0, -1):
        following[number] = after
        stripped = lines[number - 1].strip()
        if stripped and not stripped.startswith("#"):
            after = number
    return following


def apply_suppressions(
    diagnostics: Iterable[Diagnostic], files: Sequence[FileSuppressions]
) -> list[Diagnostic]:
    """The diagnostics no suppression covers, plus an unused-suppression finding for each
    suppression (or code of one) that covered nothing."""
    # Only files with directives can suppress anything: most have none.
    active = [f for f in files if f.directives]
    for file in active:
        for directive in file.directives:
            directive.used.clear()
    by_path = {f.path: f for f in active}
    by_folder = {f.model_folder: f for f in active if f.model_folder is not None}
    kept: list[Diagnostic] = []
    for diagnostic in diagnostics:
        own = by_path.get(diagnostic.path)
        if own is None and diagnostic.span is None and by_folder:
            # The innermost model folder holding the finding's file or folder.
            own = next(
                (
                    by_folder[f]
                    for f in (diagnostic.path, *diagnostic.path.parents)
                    if f in by_folder
                ),
                None,
            )
        if own is None or not _suppress(diagnostic, own):
            kept.append(diagnostic)
    for file in files:
        kept.extend(_unused(file))
    return kept


def _suppress(diagnostic: Diagnostic, file: FileSuppressions) -> bool:
    """Whether a directive of ``file`` covers ``diagnostic``; marks the codes that do."""
    on_line = diagnostic.span.line if diagnostic.path == file.path and diagnostic.span else None
    suppressed = False
    for directive in file.directives:
        if directive.kind == "disable" and (on_line is None or directive.line != on_line):
            continue
        code = directive.covers(diagnostic)
        if code is not None:
            directive.used.add(code)
            suppressed = True
    return suppressed


def _unused(file: FileSuppressions) -> Iterable[Diagnostic]:
    rule = by_stage(StageRule.UNUSED_SUPPRESSION)
    rules = all_rules()
    path = file.path
    # A suppression of TL020 itself in the file keeps every unused one quiet.
    file_wide = [d for d in file.directives if d.kind == "disable-file"]
    for miss in file.near_misses:
        if _quiet(rule, file_wide):
            continue
        yield rule.diagnostic(
            f"{miss.text!r} is not a suppression tritonlint understands, so it silences "
            f"nothing; write {miss.meant!r}",
            path,
            miss.span,
            fixes=(Fix(f"Write {miss.meant!r}", (miss.rewrite,), Applicability.SAFE),),
        )
    for span, text in file.malformed:
        if _quiet(rule, file_wide):
            continue
        yield rule.diagnostic(
            f"{text!r} is not a suppression tritonlint understands; write "
            "'# tritonlint: disable=CODE[,CODE]' or '# tritonlint: disable-file=CODE[,CODE]'",
            path,
            span,
        )
    for directive in file.directives:
        if _quiet(rule, [directive, *file_wide]):
            continue
        unused: dict[str, list[Rule]] = {}
        for code in directive.codes:
            if code in directive.used:
                continue
            if code.upper() == rule.code or code == rule.name:
                continue
            matching = [r for r in rules if rule_matches(code, r.code, r.name)]
            if any(r.code in file.not_run for r in matching):
                continue
            unused[code] = matching
        fixes = (directive.removal_of(list(unused)),) if unused else ()
        for code, matching in unused.items():
            message = _unused_message(directive, code, matching)
            yield rule.diagnostic(message, path, directive.span, fixes=fixes)


def _quiet(rule: Rule, directives: Iterable[Directive]) -> bool:
    """Whether one of ``directives`` names the unused-suppression rule by its code or name."""
    return any(c.upper() == rule.code or c == rule.name for d in directives for c in d.codes)


def _unused_message(directive: Directive, code: str, matching: list[Rule]) -> str:
    said = f"'tritonlint: {directive.text}'"
    if not matching:
        return f"{said}: no rule code, prefix or name matches {code!r}; it suppresses nothing"
    if directive.kind == "disable-file":
        where = "in this file or its model folder"
    elif directive.line is None:
        where = "after it: no line with content follows the comment"
    else:
        where = f"on line {directive.line}"
    return f"{said} suppresses nothing: there is no {code} finding {where}; remove it"
