"""One config file: bytes → text → syntax tree → bound ModelConfig, with every problem found.

Bad input never raises here: an unreadable, binary, non-UTF-8 or oversized file becomes a
problem of the file itself, and the later stages see a document without a config.
"""

from __future__ import annotations

import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from google.protobuf.message import Message

from tritonlint.diagnostics import Fix
from tritonlint.schema.binder import BoundConfig, bind
from tritonlint.schema.doubts import Doubts
from tritonlint.schema.releases import Schema, load_schema
from tritonlint.schema.source_map import Path as SourcePath
from tritonlint.span import Span
from tritonlint.stage_rules import StageRule
from tritonlint.syntax.parser import ParseResult, parse

if TYPE_CHECKING:
    from tritonlint.syntax.incremental import Level

#: Larger files are not parsed: no real config comes near this size.
MAX_CONFIG_BYTES = 8 * 1024 * 1024


class FileProblem(NamedTuple):
    """A problem with the file as a whole, or one found while parsing and binding it."""

    rule: StageRule
    message: str
    span: Span | None = None
    related: tuple[tuple[Span, str], ...] = ()
    #: Edits of the file that resolve it (the binder's suggestions).
    fixes: tuple[Fix, ...] = ()


@dataclass(slots=True)
class ConfigDocument:
    path: Path
    text: str | None
    syntax: ParseResult | None = None
    bound: BoundConfig | None = None
    problems: list[FileProblem] = field(default_factory=list)
    _newest: Message | None = None

    @property
    def has_syntax_errors(self) -> bool:
        """Whether the parser had to recover (the tree is a guess where it did)."""
        return self.syntax is None or bool(self.syntax.problems)

    @property
    def doubts(self) -> Doubts:
        """The fields the binder left a value out of."""
        return self.bound.doubts if self.bound is not None else Doubts()

    @property
    def config(self) -> Message | None:
        """The bound ModelConfig in the newest schema, or None when the file could not be read.

        The file is bound with the schema of the release it targets (so that fields that
        release lacks are reported); rules read it through the newest schema, whose fields
        are a superset, so that no rule has to know which release has which field. Field
        numbers never change between releases, so the wire format carries the values over.
        """
        if self.bound is None:
            return None
        if self._newest is None:
            message = self.bound.message
            newest = load_schema()
            if message.DESCRIPTOR.full_name == newest.model_config.full_name and (
                message.DESCRIPTOR.file.pool is newest.model_config.file.pool
            ):
                self._newest = message
            else:
                self._newest = newest.message_class.FromString(message.SerializeToString())
        return self._newest


def load_config(path: Path, schema: Schema) -> ConfigDocument:
    try:
        status = path.stat()
        if not stat.S_ISREG(status.st_mode):
            return _unreadable(
                path, StageRule.UNREADABLE_PATH, "not a regular file (a pipe, socket or device?)"
            )
        size = status.st_size
        if size > MAX_CONFIG_BYTES:
            return _unreadable(
                path,
                StageRule.FILE_TOO_LARGE,
                f"{size / (1024 * 1024):.1f} MiB is far larger than any model configuration; "
                f"not parsed (the limit is {MAX_CONFIG_BYTES // (1024 * 1024)} MiB)",
            )
        data = path.read_bytes()
    except OSError as error:
        return _unreadable(
            path, StageRule.UNREADABLE_PATH, f"cannot read this file: {error.strerror}"
        )
    return parse_config(path, data, schema)


def parse_config(path: Path, data: bytes | str, schema: Schema) -> ConfigDocument:
    """Parse and bind file contents (bytes from disk, or the text of an open editor buffer)."""
    if isinstance(data, bytes):
        text = decode_config(path, data)
        if isinstance(text, FileProblem):
            return ConfigDocument(path, None, problems=[text])
    else:
        text = data
    syntax = parse(text)
    return _document(path, text, syntax, bind(syntax.document, schema.new_config()))


def reparse_config(previous: ConfigDocument, text: str, schema: Schema) -> ConfigDocument:
    """:func:`parse_config` of ``text``, made from ``previous``, the same file's document
    for an earlier text (parsed and bound with ``schema``): where the edit between them
    is inside a message bound on its own, only what it touched is read again, and only that
    message bound again (see :mod:`tritonlint.syntax.incremental`)."""
    if text == previous.text:
        return previous
    from tritonlint.schema.rebind import bound_place, rebind  # only an editor's texts
    from tritonlint.syntax.incremental import reparse

    syntax, bound = previous.syntax, previous.bound
    if previous.text is None or syntax is None or bound is None:
        return parse_config(previous.path, text, schema)
    paths: list[SourcePath] = []

    def choose(levels: tuple[Level, ...]) -> int | None:
        """The deepest message holding the edit that was bound on its own."""
        found = bound_place(bound, syntax.document.fields, levels)
        if found is None:
            return None
        paths.append(found[1])
        return found[0]

    reparsed = reparse(syntax, previous.text, text, choose)
    if reparsed is None:
        return parse_config(previous.path, text, schema)
    focus = reparsed.focus
    if focus is None:
        again = bind(reparsed.result.document, schema.new_config())
    elif focus.kept:
        assert bound.focus is not None  # a focus is bound again with it
        again = rebind(*bound.focus, focus)
    else:
        again = rebind(bound.flat(), paths[-1], focus)
    return _document(previous.path, text, reparsed.result, again)


def _document(path: Path, text: str, syntax: ParseResult, bound: BoundConfig) -> ConfigDocument:
    problems = [
        FileProblem(problem.kind, problem.message, problem.span, fixes=problem.fixes)
        for problem in syntax.problems
    ]
    problems.extend(
        FileProblem(problem.rule, problem.message, problem.span, problem.related, problem.fixes)
        for problem in bound.problems
    )
    return ConfigDocument(path, text, syntax, bound, problems)


def decode_config(path: Path, data: bytes) -> str | FileProblem:
    """The text of a config file's bytes, or why they are not one (binary, not UTF-8)."""
    if b"\0" in data[:8192]:
        return FileProblem(
            StageRule.BINARY_FILE,
            "this is a binary file, not a text-format model configuration"
            + (" (a serialized protobuf?)" if path.suffix in (".pb", ".pbtxt") else ""),
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        before = data[: error.start]
        line = before.count(b"\n") + 1
        line_start = before.rfind(b"\n") + 1
        column = len(before[line_start:].decode("utf-8", errors="replace")) + 1
        offset = len(before.decode("utf-8", errors="replace"))
        span = Span(line, column, line, column + 1, offset, offset + 1)
        return FileProblem(
            StageRule.NOT_UTF8,
            f"byte 0x{data[error.start]:02x} is not valid UTF-8; save the file as UTF-8",
            span,
        )


def _unreadable(path: Path, rule: StageRule, message: str) -> ConfigDocument:
    return ConfigDocument(path, None, problems=[FileProblem(rule, message)])
