"""Bind a CST to the ModelConfig descriptor: a real protobuf message plus a source map.

Acceptance follows protobuf's reference text-format parser (``text_format.Parse``): every
input it refuses produces at least one error-severity problem here, and nothing it accepts
does. Unlike it, binding goes on after a problem, so that one run reports them all.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import NamedTuple

from google.protobuf.descriptor import Descriptor, EnumDescriptor, FieldDescriptor
from google.protobuf.message import Message as ProtoMessage

from tritonlint.diagnostics import Applicability, Fix, TextEdit
from tritonlint.edits import quote, remove_fields
from tritonlint.schema.doubts import Doubts
from tritonlint.schema.history import unknown_enum_value_note, unknown_field_note
from tritonlint.schema.scalars import Converted, ScalarValue, convert
from tritonlint.schema.source_map import Location, Path, SourceMap
from tritonlint.span import Span
from tritonlint.stage_rules import StageRule
from tritonlint.syntax.cst import Field, ListValue, Message, Scalar, ScalarKind, SyntaxTree


class SchemaProblem(NamedTuple):
    """A finding of the schema stage, reported under ``rule``."""

    rule: StageRule
    message: str
    span: Span
    related: tuple[tuple[Span, str], ...] = ()
    #: Edits of the file that resolve it: a suggested name, a duplicate removed.
    fixes: tuple[Fix, ...] = ()


@dataclass(slots=True)
class BoundConfig:
    message: ProtoMessage
    source_map: SourceMap
    problems: list[SchemaProblem] = field(default_factory=list)
    #: The fields the binder left out a value of, for the rules to doubt.
    doubts: Doubts = field(default_factory=Doubts)
    #: For a binding made from another by binding one message again: that binding, and the
    #: path of the message (see ``tritonlint.schema.rebind``).
    focus: tuple[BoundConfig, Path] | None = None

    def flat(self) -> BoundConfig:
        """The same binding, made from no other (its source map's entries all recorded)."""
        if self.focus is None:
            return self
        return BoundConfig(self.message, self.source_map.flat(), self.problems, self.doubts)


def bind(document: SyntaxTree, config: ProtoMessage) -> BoundConfig:
    """Fill ``config`` (an empty ModelConfig) from ``document``."""
    return bind_message(config, document.fields, ())


def bind_message(target: ProtoMessage, fields: list[Field], path: Path) -> BoundConfig:
    """Fill ``target``, the (empty) message at ``path`` of a config, from ``fields``.

    What binding a message finds (its problems, its doubts, its source map entries) depends
    on its fields alone, so a message may be bound again on its own.
    """
    binder = _Binder()
    binder.message(target, fields, path)
    return BoundConfig(target, binder.source_map, binder.problems, Doubts(frozenset(binder.doubts)))


def suggestion(name: str, candidates: list[str]) -> str | None:
    """The closest candidate to a misspelt ``name``, if one is close enough."""
    import difflib  # only a misspelt name needs it

    lowered = name.lower()
    by_lower = {candidate.lower(): candidate for candidate in candidates}
    for low, candidate in by_lower.items():
        if low == lowered or low.endswith("_" + lowered):
            return candidate
    close = difflib.get_close_matches(lowered, list(by_lower), n=1, cutoff=0.6)
    return by_lower[close[0]] if close else None


def message_type(descriptor: FieldDescriptor) -> Descriptor:
    """The message type of a message field."""
    found = descriptor.message_type
    assert found is not None, f"{descriptor.full_name} is not a message field"
    return found


def enum_type(descriptor: FieldDescriptor) -> EnumDescriptor:
    """The enum type of an enum field."""
    found = descriptor.enum_type
    assert found is not None, f"{descriptor.full_name} is not an enum field"
    return found


def _is_message(descriptor: FieldDescriptor) -> bool:
    return descriptor.type == FieldDescriptor.TYPE_MESSAGE


@cache
def is_map(descriptor: FieldDescriptor) -> bool:
    """Whether a field is a map field.

    Asked of the field's container rather than of the entry type's options: reading
    descriptor options imports ``descriptor_pb2``, a tenth of a one-file run's start-up.
    """
    if not (_is_message(descriptor) and descriptor.is_repeated):
        return False
    from google.protobuf import message_factory

    container = descriptor.containing_type
    assert container is not None, f"{descriptor.full_name} is not a field of a message"
    holder = message_factory.GetMessageClass(container)()
    return isinstance(getattr(holder, descriptor.name), Mapping)


def type_label(descriptor: FieldDescriptor) -> str:
    """A field's type in words: ``string``, ``inference.DataType``, ``map<string, string>``."""
    if is_map(descriptor):
        key, value = message_type(descriptor).fields
        return f"map<{type_label(key)}, {type_label(value)}>"
    if _is_message(descriptor):
        return message_type(descriptor).full_name
    if descriptor.type == FieldDescriptor.TYPE_ENUM:
        return enum_type(descriptor).full_name
    names = {
        FieldDescriptor.TYPE_STRING: "string",
        FieldDescriptor.TYPE_BOOL: "bool",
        FieldDescriptor.TYPE_INT32: "int32",
        FieldDescriptor.TYPE_UINT32: "uint32",
        FieldDescriptor.TYPE_INT64: "int64",
        FieldDescriptor.TYPE_UINT64: "uint64",
        FieldDescriptor.TYPE_FLOAT: "float",
        FieldDescriptor.TYPE_DOUBLE: "double",
        FieldDescriptor.TYPE_BYTES: "bytes",
    }
    return names.get(descriptor.type, "value")


@dataclass(slots=True)
class _Place:
    """A field among the fields of its message, and the first one of the same name there.

    (Not frozen: one is made for every field bound, and a frozen one is slower to make.)
    """

    item: Field
    fields: list[Field]
    index: int
    #: Where the first field of this name is, when this is a later one.
    earlier: int | None

    def value_fixes(self, descriptor: FieldDescriptor, fixes: tuple[Fix, ...]) -> tuple[Fix, ...]:
        """``fixes``, which make this field's value one it takes, unless the field is not
        repeated and given earlier in its message: made good, it would be given twice where
        it was not (a later field of the same name, which overrides this bad value's default,
        is given twice already)."""
        if descriptor.is_repeated or not fixes:
            return fixes
        name = self.item.name.text
        earlier = any(other.name.text == name for other in self.fields[: self.index])
        return () if earlier else fixes

    def removal(self, index: int, title: str) -> tuple[Fix, ...]:
        """A fix that removes ``fields[index]``, which the server would not miss."""
        return (Fix(title, remove_fields(self.fields, {index}), Applicability.SAFE),)


class _Binder:
    def __init__(self) -> None:
        self.source_map = SourceMap()
        self.problems: list[SchemaProblem] = []
        self.doubts: set[tuple[Path, str | None]] = set()

    def report(
        self,
        rule: StageRule,
        message: str,
        span: Span,
        related: tuple[tuple[Span, str], ...] = (),
        fixes: tuple[Fix, ...] = (),
    ) -> None:
        self.problems.append(SchemaProblem(rule, message, span, related, fixes))

    def doubt(self, path: Path, name: str | None) -> None:
        """Record that a value meant for field ``name`` of the message at ``path`` was left out."""
        self.doubts.add((path, name))

    def message(self, target: ProtoMessage, fields: list[Field], path: Path) -> None:
        descriptor: Descriptor = target.DESCRIPTOR  # type: ignore[assignment]
        given: dict[str, int] = {}
        for index, item in enumerate(fields):
            field_descriptor = self._field_descriptor(descriptor, item, path, fields)
            if field_descriptor is None:
                continue
            if not self._oneof_allows(target, field_descriptor, item, path):
                continue
            if not _is_message(field_descriptor) and item.colon is None:
                self.report(
                    StageRule.SYNTAX_ERROR,
                    f"expected ':' between field '{item.name.text}' and its value",
                    item.name.span,
                )
            place = _Place(item, fields, index, given.get(field_descriptor.name))
            self._value(target, field_descriptor, place, path)
            given.setdefault(field_descriptor.name, index)

    def _field_descriptor(
        self, descriptor: Descriptor, item: Field, path: Path, fields: Sequence[Field]
    ) -> FieldDescriptor | None:
        name = item.name
        if name.missing:
            return None  # reported by the syntax stage
        if name.is_extension:
            self.doubt(path, None)
            self.report(
                StageRule.UNKNOWN_FIELD,
                f'message type "{descriptor.full_name}" has no extensions; '
                f"[{name.text}] is not a field of it",
                name.span,
            )
            return None
        found = descriptor.fields_by_name.get(name.text)
        if found is not None:
            return found
        note = unknown_field_note(descriptor, name.text)
        if note is not None:
            self.doubt(path, name.text)  # a field of another release
            self.report(StageRule.UNKNOWN_FIELD, note, name.span)
            return None
        valid = [f.name for f in descriptor.fields]
        guess = suggestion(name.text, valid)
        self.doubt(path, guess)
        hint = f"; did you mean '{guess}'?" if guess else ""
        self.report(
            StageRule.UNKNOWN_FIELD,
            f'message type "{descriptor.full_name}" has no field named "{name.text}"{hint} '
            f"(valid fields: {', '.join(valid)})",
            name.span,
            fixes=_renamed(descriptor, item, fields, guess),
        )
        return None

    def _oneof_allows(
        self, target: ProtoMessage, descriptor: FieldDescriptor, item: Field, path: Path
    ) -> bool:
        oneof = descriptor.containing_oneof
        if oneof is None:
            return True
        chosen = target.WhichOneof(oneof.name)
        if chosen is None or chosen == descriptor.name:
            return True
        earlier = self.source_map.get((*path, chosen))
        self.doubt(path, descriptor.name)
        self.doubt(path, chosen)
        related = ((earlier.name, f"'{chosen}' is set here"),) if earlier else ()
        self.report(
            StageRule.ONEOF_CONFLICT,
            f"field '{descriptor.name}' is specified along with field '{chosen}', another member "
            f"of oneof '{oneof.name}'; only one of them may be set",
            item.name.span,
            related,
        )
        return False

    def _value(
        self, target: ProtoMessage, descriptor: FieldDescriptor, place: _Place, path: Path
    ) -> None:
        item = place.item
        value = item.value
        if isinstance(value, ListValue):
            if not descriptor.is_repeated:
                self.doubt(path, descriptor.name)
                self.report(
                    StageRule.WRONG_VALUE_TYPE,
                    f"field '{descriptor.name}' is not repeated and takes one "
                    f"{type_label(descriptor)}, not a list",
                    value.span,
                    fixes=place.value_fixes(descriptor, _unlisted(descriptor, value)),
                )
                return
            # The field as a whole is the list, not its first element.
            self.source_map.add_once(
                (*path, descriptor.name), Location(item.span, item.name.span, value.span)
            )
            for element in value.items:
                self._single(target, descriptor, place, element, path)
            return
        self._single(target, descriptor, place, value, path)

    def _single(
        self,
        target: ProtoMessage,
        descriptor: FieldDescriptor,
        place: _Place,
        value: Scalar | Message,
        path: Path,
    ) -> None:
        if _is_message(descriptor):
            if not isinstance(value, Message):
                if not value.missing:
                    self.doubt(path, descriptor.name)
                    self.report(
                        StageRule.WRONG_VALUE_TYPE,
                        f"field '{descriptor.name}' takes a message "
                        f"({type_label(descriptor)}) written {{ ... }}, found {value.text}",
                        value.span,
                        fixes=place.value_fixes(descriptor, _wrapped(descriptor, value)),
                    )
                return
            self._message_value(target, descriptor, place, value, path)
            return
        if isinstance(value, Message):
            self.doubt(path, descriptor.name)
            self.report(
                StageRule.WRONG_VALUE_TYPE,
                f"field '{descriptor.name}' takes a {type_label(descriptor)} value, not a message",
                value.span,
            )
            return
        self._scalar_value(target, descriptor, place, value, path)

    def _message_value(
        self,
        target: ProtoMessage,
        descriptor: FieldDescriptor,
        place: _Place,
        value: Message,
        path: Path,
    ) -> None:
        item = place.item
        name = descriptor.name
        if is_map(descriptor):
            self._map_entry(target, descriptor, item, value, path)
            return
        if descriptor.is_repeated:
            container = getattr(target, name)
            child = container.add()
            child_path = (*path, name, len(container) - 1)
            self.source_map.add(child_path, Location(item.span, item.name.span, value.span))
            self.source_map.add_once((*path, name), Location(item.span, item.name.span, value.span))
            self.message(child, value.fields, child_path)
            return
        if target.HasField(name):
            self._duplicate(descriptor, place, path)
            return
        child = getattr(target, name)
        child.SetInParent()
        child_path = (*path, name)
        self.source_map.add(child_path, Location(item.span, item.name.span, value.span))
        self.message(child, value.fields, child_path)

    def _map_entry(
        self,
        target: ProtoMessage,
        descriptor: FieldDescriptor,
        item: Field,
        value: Message,
        path: Path,
    ) -> None:
        mapping = getattr(target, descriptor.name)
        entry = mapping.GetEntryClass()()
        key_path = (*path, descriptor.name, _map_key(descriptor, value))
        previous = self.source_map.get(key_path)
        if previous is not None:
            self.report(
                StageRule.DUPLICATE_MAP_KEY,
                f"key {key_path[-1]!r} appears more than once in '{descriptor.name}'; only the "
                "last entry is kept and the earlier ones are silently dropped",
                value.span,
                ((previous.value, "first entry with this key"),),
            )
        location = Location(item.span, item.name.span, value.span)
        self.source_map.add(key_path, location)
        self.source_map.add_once((*path, descriptor.name), location)
        self.message(entry, value.fields, key_path)
        if _is_message(message_type(descriptor).fields_by_name["value"]):
            mapping[entry.key].CopyFrom(entry.value)
        else:
            mapping[entry.key] = entry.value

    def _scalar_value(
        self,
        target: ProtoMessage,
        descriptor: FieldDescriptor,
        place: _Place,
        value: Scalar,
        path: Path,
    ) -> None:
        if value.missing or value.kind in (
            ScalarKind.UNTERMINATED_STRING,
            ScalarKind.TEMPLATE_PLACEHOLDER,
        ):
            return  # already reported by the syntax stage
        texts = [token.text for token in value.tokens]
        result = convert(descriptor, texts, value.kind is ScalarKind.STRING)
        if not isinstance(result, Converted):
            self.doubt(path, descriptor.name)
            if result.kind == "enum":
                self._unknown_enum(descriptor, result.message, value.span, place)
            else:
                rule = (
                    StageRule.INTEGER_OUT_OF_RANGE
                    if result.kind == "range"
                    else StageRule.INVALID_VALUE
                )
                fixes = _respelled(descriptor, value) if result.kind == "literal" else ()
                fixes = place.value_fixes(descriptor, fixes)
                self.report(rule, result.message, value.span, fixes=fixes)
            return
        self._warn_unknown_enum_number(descriptor, result.value, value.span)
        name = descriptor.name
        item = place.item
        location = Location(item.span, item.name.span, value.span)
        if descriptor.is_repeated:
            container = getattr(target, name)
            container.append(result.value)
            self.source_map.add((*path, name, len(container) - 1), location)
            self.source_map.add_once((*path, name), location)
            return
        if place.earlier is not None:
            earlier = place.fields[place.earlier]
            first = _converted(descriptor, earlier)
            if _has_value(target, descriptor):
                same = first is not None and repr(first.value) == repr(result.value)
                fixes = place.removal(place.index, f"Remove the repeated '{name}'") if same else ()
                self._duplicate(descriptor, place, path, fixes)
                return
            self.report(
                StageRule.OVERRIDDEN_FIELD,
                f"field '{name}' is given again; the earlier default value is overridden",
                item.name.span,
                ((earlier.name.span, "first given here"),),
                place.removal(place.earlier, f"Remove the earlier '{name}'")
                if first is not None
                else (),
            )
        try:
            setattr(target, name, result.value)
        except (TypeError, ValueError) as error:
            self.doubt(path, name)
            self.report(
                StageRule.INVALID_VALUE,
                f"cannot store {value.text} in '{name}': {error}",
                value.span,
            )
            return
        self.source_map.add((*path, name), location)

    def _duplicate(
        self,
        descriptor: FieldDescriptor,
        place: _Place,
        path: Path,
        fixes: tuple[Fix, ...] = (),
    ) -> None:
        self.doubt(path, descriptor.name)
        earlier = place.fields[place.earlier] if place.earlier is not None else None
        related = ((earlier.name.span, "first given here"),) if earlier else ()
        self.report(
            StageRule.DUPLICATE_FIELD,
            f"non-repeated field '{descriptor.name}' is specified more than once",
            place.item.name.span,
            related,
            fixes,
        )

    def _unknown_enum(
        self, descriptor: FieldDescriptor, text: str, span: Span, place: _Place
    ) -> None:
        enum = enum_type(descriptor)
        note = unknown_enum_value_note(enum, text, descriptor.name)
        if note is not None:
            self.report(StageRule.UNKNOWN_ENUM_VALUE, note, span)
            return
        names = [value.name for value in enum.values]
        guess = suggestion(text, names)
        if guess is None:
            prefix = names[1].split("_", 1)[0] + "_" if len(names) > 1 and "_" in names[1] else ""
            guess = suggestion(prefix + text, names) if prefix else None
        hint = f"; did you mean {guess}?" if guess else ""
        self.report(
            StageRule.UNKNOWN_ENUM_VALUE,
            f"{text} is not a value of {enum.full_name} (field '{descriptor.name}'){hint} "
            f"(valid values: {', '.join(names)})",
            span,
            # A value name in quotes is that value, and nothing else.
            fixes=place.value_fixes(
                descriptor,
                _suggested(
                    f"Replace {text} with {guess}",
                    span,
                    guess,
                    certain=text in (f'"{guess}"', f"'{guess}'"),
                ),
            ),
        )

    def _warn_unknown_enum_number(
        self, descriptor: FieldDescriptor, value: ScalarValue, span: Span
    ) -> None:
        if descriptor.type != FieldDescriptor.TYPE_ENUM:
            return
        assert isinstance(value, int)
        if value not in enum_type(descriptor).values_by_number:
            names = ", ".join(v.name for v in enum_type(descriptor).values)
            self.report(
                StageRule.UNKNOWN_ENUM_NUMBER,
                f"{value} is not a value of {enum_type(descriptor).full_name} (field "
                f"'{descriptor.name}'); the parser keeps it but Triton will not understand it. "
                f"Valid values: {names}",
                span,
            )


def _value_fix(descriptor: FieldDescriptor, span: Span, literal: str | None) -> tuple[Fix, ...]:
    """Write ``literal`` at ``span``, where it is a value the field takes."""
    if literal is None:
        return ()
    result = convert(descriptor, [literal], literal[:1] in ('"', "'"))
    if not isinstance(result, Converted):
        return ()
    return (Fix(f"Write {literal}", (TextEdit(span, literal),), Applicability.SAFE),)


def _respelled(descriptor: FieldDescriptor, value: Scalar) -> tuple[Fix, ...]:
    """The same value spelled as the field takes it: quoted for a string, unquoted for any
    other type, and a whole number written as an integer for an integer field."""
    text = value.text
    if descriptor.type in (FieldDescriptor.TYPE_STRING, FieldDescriptor.TYPE_BYTES):
        quoted = value.kind is ScalarKind.STRING
        return () if quoted else _value_fix(descriptor, value.span, quote(text))
    if value.kind is ScalarKind.STRING:
        plain = len(value.tokens) == 1 and "\\" not in text
        return _value_fix(descriptor, value.span, text[1:-1] if plain else None)
    if descriptor.cpp_type in _INTEGER_TYPES:
        return _value_fix(descriptor, value.span, _whole_number(text))
    return ()


_INTEGER_TYPES = frozenset(
    {
        FieldDescriptor.CPPTYPE_INT32,
        FieldDescriptor.CPPTYPE_INT64,
        FieldDescriptor.CPPTYPE_UINT32,
        FieldDescriptor.CPPTYPE_UINT64,
    }
)


def _whole_number(text: str) -> str | None:
    """``8`` for ``8.0`` or ``8e0``: a float literal that is a whole number, as an integer."""
    try:
        number = float(text)
    except ValueError:
        return None
    return str(int(number)) if math.isfinite(number) and number.is_integer() else None


def _wrapped(descriptor: FieldDescriptor, value: Scalar) -> tuple[Fix, ...]:
    """A string given for a message whose one field is a string (a parameter's `value`)."""
    fields = message_type(descriptor).fields
    if value.kind is not ScalarKind.STRING or len(fields) != 1:
        return ()
    if fields[0].type != FieldDescriptor.TYPE_STRING:
        return ()
    literal = f"{{ {fields[0].name}: {value.text} }}"
    return (Fix(f"Write {literal}", (TextEdit(value.span, literal),), Applicability.SAFE),)


def _unlisted(descriptor: FieldDescriptor, value: ListValue) -> tuple[Fix, ...]:
    """A list of one value given for a field that takes one: the value alone."""
    if len(value.items) != 1 or _is_message(descriptor):
        return ()
    item = value.items[0]
    if not isinstance(item, Scalar) or len(item.tokens) != 1:
        return ()
    return _value_fix(descriptor, value.span, item.text)


def _converted(descriptor: FieldDescriptor, item: Field) -> Converted | None:
    """The value a scalar field converts to (None for a message, list or rejected value)."""
    value = item.value
    if not isinstance(value, Scalar):
        return None
    result = convert(descriptor, [t.text for t in value.tokens], value.kind is ScalarKind.STRING)
    return result if isinstance(result, Converted) else None


def _map_key(descriptor: FieldDescriptor, entry: Message) -> str | int | bool:
    """The key an entry will have once bound (the type's default when it has none)."""
    key_descriptor = message_type(descriptor).fields_by_name["key"]
    key: str | int | bool = key_descriptor.default_value
    for item in entry.fields:
        if item.name.text == "key" and isinstance(item.value, Scalar):
            texts = [token.text for token in item.value.tokens]
            result = convert(key_descriptor, texts, item.value.kind is ScalarKind.STRING)
            if isinstance(result, Converted) and isinstance(result.value, str | int):
                key = result.value
    return key


def _has_value(target: ProtoMessage, descriptor: FieldDescriptor) -> bool:
    """Whether a singular scalar counts as already set, as the reference parser decides it."""
    if descriptor.has_presence:
        return target.HasField(descriptor.name)
    current = getattr(target, descriptor.name)
    if isinstance(current, int | float) and math.copysign(1.0, current) < 0:
        return True  # -0.0 is not the default either
    return bool(current)


def _renamed(
    descriptor: Descriptor, item: Field, fields: Sequence[Field], guess: str | None
) -> tuple[Fix, ...]:
    """The unsafe fix that writes the unknown field ``item`` as the field ``guess``: with the
    ``:`` a scalar field needs before its value where it has none, and none at all where
    ``guess`` is not repeated and already given, or where the value, read for the first time
    as ``guess``, would give a field twice or miss a ':' inside (the fixed text would have a
    problem the file had not)."""
    if guess is None:
        return ()
    guessed = descriptor.fields_by_name[guess]
    if not guessed.is_repeated and any(other.name.text == guess for other in fields):
        return ()
    if _breaks_when_read(guessed, item):
        return ()
    title = f"Replace '{item.name.text}' with '{guess}'"
    colon = ":" if item.colon is None and not _is_message(guessed) else ""
    return _suggested(title, item.name.span, guess + colon)


#: What a value must not have to be read as another field: problems protobuf refuses a text
#: for (a ':' missing before a scalar, a field or a oneof given twice).
_BREAKING = frozenset(
    {
        StageRule.SYNTAX_ERROR,
        StageRule.DUPLICATE_FIELD,
        StageRule.OVERRIDDEN_FIELD,
        StageRule.ONEOF_CONFLICT,
    }
)


def _breaks_when_read(guessed: FieldDescriptor, item: Field) -> bool:
    """Whether the value of the unknown field ``item``, bound as the message field
    ``guessed``, has a problem of :data:`_BREAKING` (it was never bound so far)."""
    if not _is_message(guessed) or is_map(guessed):
        return False
    from google.protobuf import message_factory

    new_message = message_factory.GetMessageClass(message_type(guessed))
    values = item.value.items if isinstance(item.value, ListValue) else [item.value]
    scratch = _Binder()
    for value in values:
        if isinstance(value, Message):
            scratch.message(new_message(), value.fields, ())
    return any(problem.rule in _BREAKING for problem in scratch.problems)


def _suggested(
    title: str, span: Span, guess: str | None, *, certain: bool = False
) -> tuple[Fix, ...]:
    """The "did you mean" as a fix: a guess for a person to confirm, unless it is ``certain``."""
    if guess is None:
        return ()
    applicability = Applicability.SAFE if certain else Applicability.UNSAFE
    return (Fix(title, (TextEdit(span, guess),), applicability),)
