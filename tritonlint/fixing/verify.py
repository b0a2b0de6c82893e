"""Whether a fix does only what it claims: the text still parses, and only the fields it edits
change.

A fix is refused when the fixed text has a syntax error or a non-repeated field given twice
that the original had not (by the project's parser and binder), when protobuf's own parser
reads the original but not the fixed text (see :mod:`tritonlint.integrity`), or when its
parsed configuration differs from the original's outside the fields the edits touch. The
fields an edit touches are the narrowest fields of the source map whose text it overlaps (or,
for an insertion, lies inside), in the original and in the fixed text: renaming
``dim`` inside ``input[0]`` may change ``input[0]``, writing a value of ``max_batch_size`` may
change ``max_batch_size`` only, inserting ``platform: "ensemble"`` may add ``platform``. What
is refused is an edit whose effect reaches past its own text: a ``#`` that comments out the
field after it, a brace that takes the next fields into a message. (Which fields a finding is
about is not recorded with it: a fix may rightly edit a field next to the one it reports, as
inserting ``model_version`` after a step's ``model_name`` does.) A refusal is a bug in the
rule that offered the fix.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from tritonlint.diagnostics import TextEdit
from tritonlint.document import ConfigDocument, parse_config
from tritonlint.integrity import new_breakage, protobuf_refusal
from tritonlint.report.printable import shown_path
from tritonlint.rewrite import apply_edits
from tritonlint.schema.releases import Schema
from tritonlint.schema.source_map import Path as FieldPath
from tritonlint.schema.source_map import SourceMap

#: A part of a text, by offsets: start and end.
Region = tuple[int, int]


def fix_refusal(
    by_file: Mapping[Path, Sequence[TextEdit]],
    document_of: Callable[[Path], ConfigDocument],
    schema: Schema,
) -> str | None:
    """Why a fix's edits (by file) must not be taken in the files as ``document_of`` gives
    them, or None: the fix is all or nothing, so one file's refusal refuses it."""
    for path, edits in by_file.items():
        document = document_of(path)
        if document.text is None:
            return f"{shown_path(path)} cannot be read"
        try:
            reason = refusal(path, document, edits, apply_edits(document.text, edits), schema)
        except ValueError as error:
            reason = f"its edits cannot be applied ({error})"
        if reason is not None:
            return reason if len(by_file) == 1 else f"in {shown_path(path)}: {reason}"
    return None


def refusal(
    path: Path, before: ConfigDocument, edits: Sequence[TextEdit], after: str, schema: Schema
) -> str | None:
    """Why the text ``after`` (``before``'s text with ``edits``) must not be written, or None."""
    fixed = parse_config(path, after, schema)
    broken = new_breakage(before, fixed, "the fixed text")
    if broken is None and before.text is not None:
        broken = protobuf_refusal(before.text, after, schema, "the fixed text")
    if broken is not None:
        return broken
    if before.has_syntax_errors or before.bound is None or fixed.bound is None:
        return None  # a syntax fix of a file whose fields are guesses: fewer errors is all
    allowed = _touched(before.bound.source_map, _regions_before(edits)) | _touched(
        fixed.bound.source_map, _regions_after(edits)
    )
    for changed in changed_fields(before.bound.message, fixed.bound.message):
        if not any(_related(changed, field) for field in allowed):
            return f"it would change {field_name(changed)}, which the fix does not edit"
    return None


def field_name(path: FieldPath) -> str:
    """A field path as a config names it: ``input[0].dims`` (a map key as a field name)."""
    text = ""
    for part in path:
        if isinstance(part, int) and not isinstance(part, bool):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text


def changed_fields(before: Message, after: Message, prefix: FieldPath = ()) -> Iterator[FieldPath]:
    """The paths of the fields whose values differ (a repeated field whose length differs, as
    a whole; a map entry by its key, and the fields of a message value under ``value``, as
    the source map records them). A NaN is the same as a NaN."""
    fields = {f.name: f for f, _ in [*before.ListFields(), *after.ListFields()]}
    for name, descriptor in sorted(fields.items()):
        path = (*prefix, name)
        old, new = getattr(before, name), getattr(after, name)
        if _is_map(descriptor):
            for key in sorted(set(old) | set(new), key=repr):
                if key not in old or key not in new:
                    yield (*path, key)
                elif isinstance(old[key], Message):
                    yield from changed_fields(old[key], new[key], (*path, key, "value"))
                elif not _same(old[key], new[key]):
                    yield (*path, key)
        elif descriptor.is_repeated:
            if len(old) != len(new):
                yield path
                continue
            for index, (a, b) in enumerate(zip(old, new, strict=True)):
                if isinstance(a, Message):
                    yield from changed_fields(a, b, (*path, index))
                elif not _same(a, b):
                    yield (*path, index)
        elif isinstance(old, Message):
            if before.HasField(name) != after.HasField(name):
                yield path
            else:
                yield from changed_fields(old, new, path)
        elif not _same(old, new) or _present(before, descriptor) != _present(after, descriptor):
            yield path


def _same(old: object, new: object) -> bool:
    """Whether two scalar values are equal, a NaN equal to a NaN."""
    if isinstance(old, float) and isinstance(new, float) and math.isnan(old):
        return math.isnan(new)
    return old == new


def _present(message: Message, descriptor: FieldDescriptor) -> bool:
    return descriptor.has_presence and message.HasField(descriptor.name)


def _is_map(descriptor: FieldDescriptor) -> bool:
    entry = descriptor.message_type
    return entry is not None and entry.GetOptions().map_entry


def _related(changed: FieldPath, field: FieldPath) -> bool:
    """Whether a change at ``changed`` falls to the touched ``field``: it is inside it, or it
    is the repeated field (or message) that holds it, changed as a whole."""
    shorter = min(len(changed), len(field))
    return changed[:shorter] == field[:shorter]


def _regions_before(edits: Iterable[TextEdit]) -> list[Region]:
    return [(edit.span.start, edit.span.end) for edit in edits]


def _regions_after(edits: Iterable[TextEdit]) -> list[Region]:
    """Where the new texts of ``edits`` lie in the fixed text."""
    regions = []
    shift = 0
    for edit in sorted(edits, key=lambda e: e.span.start):
        start = edit.span.start + shift
        regions.append((start, start + len(edit.new_text)))
        shift += len(edit.new_text) - (edit.span.end - edit.span.start)
    return regions


def _touched(source_map: SourceMap, regions: list[Region]) -> set[FieldPath]:
    """The narrowest recorded fields whose text one of ``regions`` overlaps."""
    hits = {
        path
        for path, location in source_map.items()
        if any(_overlaps(location.field.start, location.field.end, r) for r in regions)
    }
    return {p for p in hits if not any(len(q) > len(p) and q[: len(p)] == p for q in hits)}


def _overlaps(start: int, end: int, region: Region) -> bool:
    first, last = region
    if first == last:  # an insertion (or the place of a deletion): inside the field
        return start < first < end
    return start < last and first < end
