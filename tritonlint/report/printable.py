"""Text from configs and file names made safe to print: valid UTF-8, no terminal controls.

A report quotes what it was given: values of a config, lines of it, names of folders. A
config can hold any character (``"\\033]0;title\\007"`` is a valid string literal with an
escape sequence that retitles the terminal) and a folder's name any byte but ``/`` (Python
reads a name that is not UTF-8 with each such byte as a lone surrogate, which no UTF-8
writer accepts). What a report shows of them goes through here:

* a byte of a name that is not UTF-8 is shown as ``\\xff``, in every format;
* control characters (C0 but tab and line feed, DEL, C1) and the invisible characters that
  reorder the text around them (bidirectional overrides, isolates and marks) are shown as
  ``\\x1b`` or ``\\u202e`` in the formats a terminal or a log shows (text, concise, GitHub).
  JSON formats escape control characters themselves, and XML cannot hold most of them.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

from tritonlint.paths import display_path

#: Lone surrogates: the bytes of a name that is not UTF-8 (U+DC80-U+DCFF), or any other.
_SURROGATE = "\ud800-\udfff"
#: What a terminal or a log must not get raw: C0 controls but tab and line feed, DEL, C1
#: controls, the bidirectional marks, embeddings, overrides and isolates, and lone surrogates.
_UNPRINTABLE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069" + _SURROGATE + "]"
)
#: The same, with line feed too: for what must stay on one line.
_UNPRINTABLE_IN_A_LINE = re.compile(
    "[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069" + _SURROGATE + "]"
)
_LONE_SURROGATE = re.compile(f"[{_SURROGATE}]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8, as os.fsdecode keeps it
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` with every character a terminal must not get raw escaped (``\\x1b``);
    tabs and line breaks are kept."""
    return _UNPRINTABLE.sub(_escape, text)


def printable_line(text: str) -> str:
    """``text`` escaped as :func:`printable`, line breaks too: it stays one line."""
    return _UNPRINTABLE_IN_A_LINE.sub(_escape, text)


def shown_path(path: Path) -> str:
    """``path`` as reports show it (see :func:`~tritonlint.paths.display_path`), on one line,
    with escapes for what is not printable."""
    return printable_line(display_path(path))


def valid_unicode(text: str) -> str:
    """``text`` with its lone surrogates (bytes of a name that are not UTF-8) escaped
    (``\\xff``): text that any UTF-8 writer takes."""
    return _LONE_SURROGATE.sub(_escape, text)


def json_text(data: Any) -> str:
    """``data`` as indented JSON, non-ASCII characters kept, each lone surrogate in its
    strings escaped as :func:`valid_unicode` escapes it (the JSON string holds ``\\xff``)."""
    text = json.dumps(data, indent=2, ensure_ascii=False)
    return _LONE_SURROGATE.sub(lambda match: "\\" + _escape(match), text)


#: Characters XML 1.0 cannot hold, even escaped (lone surrogates among them): all but tab,
#: line feed, carriage return, U+0020-U+D7FF, U+E000-U+FFFD and U+10000-U+10FFFF. (Written as
#: the class of what is left out: the negated class takes 10 times as long to compile.)
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f" + _SURROGATE + "\ufffe\uffff]")


def xml_text(text: str) -> str:
    """``text`` with each character XML cannot hold escaped (``\\x1b``, ``\\xff``)."""
    return _NOT_XML.sub(_escape, text)


def uri_path(path: str) -> str:
    """A relative path (forward slashes) as the path of a URI: each byte percent-encoded
    as RFC 3986 says, those of a name that is not UTF-8 too (``m%FF``)."""
    return quote(os.fsencode(path), safe="/")
