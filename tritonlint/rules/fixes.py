"""Fixes the rules offer: edits of a model's config.pbtxt at the places its source map knows."""

from __future__ import annotations

from tritonlint.diagnostics import Applicability, Fix, TextEdit
from tritonlint.edits import insert_field_after, remove_fields
from tritonlint.rules.context import ModelContext
from tritonlint.schema.source_map import Path as FieldPath


def fix(title: str, applicability: Applicability, *edits: TextEdit | None) -> tuple[Fix, ...]:
    """A fix of ``edits``, or none when one of them has no place to go (None)."""
    found = tuple(edit for edit in edits if edit is not None)
    if not found or len(found) != len(edits):
        return ()
    return (Fix(title, found, applicability),)


def rename(ctx: ModelContext, path: FieldPath, name: str) -> TextEdit | None:
    """Write field ``path`` under another name (its value stays)."""
    span = ctx.span(path, "name") if ctx.located(path) else None
    return TextEdit(span, name) if span is not None else None


def set_value(ctx: ModelContext, path: FieldPath, literal: str) -> TextEdit | None:
    """Replace the value of field ``path`` with ``literal`` (written as the config writes it)."""
    span = ctx.span(path) if ctx.located(path) else None
    return TextEdit(span, literal) if span is not None else None


def insert_after(ctx: ModelContext, path: FieldPath, field_text: str) -> TextEdit | None:
    """Insert ``field_text`` after field ``path`` (see :func:`insert_field_after`)."""
    document = ctx.model.config
    span = ctx.span(path, "field") if ctx.located(path) else None
    if document is None or document.text is None or span is None:
        return None
    return insert_field_after(document.text, span, field_text)


def remove_top_level(ctx: ModelContext, name: str) -> tuple[TextEdit, ...]:
    """Edits that remove every top-level field called ``name`` from the config."""
    document = ctx.model.config
    if document is None or document.syntax is None:
        return ()
    fields = document.syntax.document.fields
    return remove_fields(fields, {i for i, item in enumerate(fields) if item.name.text == name})
