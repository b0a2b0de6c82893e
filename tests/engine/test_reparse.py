"""Re-parsing an edited text from its earlier document gives exactly what parsing it whole
gives: the same tree, comments, problems, bound message, source map and doubts, and so the
same findings and editor answers.

Seeded random edits, each made on the text the one before left (as a user types): lines
added, removed, duplicated or commented, values changed, fields inserted, characters typed
(braces, quotes, comment signs, placeholders), deleted or pasted (junk, pieces of other
configs). The edits run over the fixtures, the shared corpus (when it is there) and a config
of 1,000 inputs. Each comparison counts only where the edit was re-read in part; the test
also checks that this happened often, at every depth, so that it cannot pass by falling back
to a whole parse every time.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest
from helpers import make_tree

from tritonlint.document import ConfigDocument, parse_config, reparse_config
from tritonlint.editor.completion import completions
from tritonlint.editor.hover import hover
from tritonlint.engine import Workspace
from tritonlint.schema import rebind as rebind_module
from tritonlint.schema.releases import Schema, load_schema
from tritonlint.syntax import incremental

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus"
PATH = Path("model/config.pbtxt")

WORDS = [
    "name", ":", '"x"', "{", "}", "[", "]", "<", ">", ",", ";", "dims", "-1", "16", "1.5",
    "TYPE_FP32", "#", "# note\n", "\n", " ", '"', "'", "${NAME}", "a: 1", "b { c: 2 }",
    "模型", "😀", "[ext.x]",
]  # fmt: skip
FIELDS = [
    "max_batch_size: 4",
    "data_type: TYPE_FP16",
    'name: "renamed"',
    "dims: [ 1, 2 ]",
    'parameters { key: "k" value: { string_value: "v" } }',
    'input [ { name: "added" data_type: TYPE_INT8 dims: [ 3 ] } ]',
    "kind: KIND_GPU",
    "count: 2",
    "dynamic_batching { }",
    "",
    "}",
    "{",
]
#: Characters a pasted junk run is drawn from (no line breaks but "\n").
JUNK = [chr(c) for c in range(1, 256) if len(f"a{chr(c)}a".splitlines()) == 1 or chr(c) == "\n"]


def large_config(inputs: int) -> str:
    lines = ['name: "large"', 'platform: "onnxruntime_onnx"', "max_batch_size: 8", "input ["]
    for index in range(inputs):
        separator = "," if index < inputs - 1 else ""
        comment = f"  # input {index}" if index % 7 == 0 else ""
        lines += [
            "  {" + comment,
            f'    name: "INPUT{index}"',
            "    data_type: TYPE_FP32",
            "    dims: [ 16 ]",
            f"  }}{separator}",
        ]
    lines += ["]", 'output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]', "# end"]
    return "\n".join(lines) + "\n"


def edit(rng: random.Random, text: str, others: list[str]) -> str:
    """``text`` after one random edit."""
    kind = rng.random()
    if kind < 0.6:
        lines = text.split("\n")
        index = rng.randrange(len(lines))
        choice = rng.random()
        if choice < 0.15:
            lines.insert(index, "  # note")
        elif choice < 0.25:
            lines[index] += "  # trailing"
        elif choice < 0.4:
            del lines[index]
        elif choice < 0.5:
            lines.insert(index, lines[rng.randrange(len(lines))])
        elif choice < 0.7:
            suffix = rng.choice(["_x", "", "yy", " "])
            lines[index] = re.sub(r'"([^"]*)"', rf'"\g<1>{suffix}"', lines[index], count=1)
        elif choice < 0.85:
            lines[index] = re.sub(
                r"\b\d+\b",
                lambda m: str(int(m.group()) + rng.randint(-3, 30)),
                lines[index],
                count=1,
            )
        else:
            lines.insert(index, rng.choice(FIELDS))
        return "\n".join(lines)
    start = rng.randint(0, len(text))
    if kind < 0.72:
        return text[:start] + text[min(len(text), start + rng.randint(1, 30)) :]
    if kind < 0.9:
        typed = "".join(rng.choice(WORDS) for _ in range(rng.randint(1, 3)))
        return text[:start] + typed + text[start:]
    if kind < 0.95:
        junk = "".join(rng.choice(JUNK) for _ in range(rng.randint(1, 24)))
        return text[:start] + junk + text[start:]
    other = rng.choice(others)
    cut = rng.randint(0, len(other))
    return text[:start] + other[cut : cut + rng.randint(1, 300)] + text[start:]


def differences(got: ConfigDocument, whole: ConfigDocument) -> list[str]:
    """What differs between the re-parsed document and the whole parse."""
    assert got.syntax is not None and whole.syntax is not None
    assert got.bound is not None and whole.bound is not None
    checks = {
        "text": got.text == whole.text,
        "tree": got.syntax.document == whole.syntax.document,
        "syntax problems": got.syntax.problems == whole.syntax.problems,
        "recovered": got.syntax.recovered == whole.syntax.recovered,
        "message": got.bound.message == whole.bound.message,
        "source map": dict(got.bound.source_map.items()) == dict(whole.bound.source_map.items()),
        "binding problems": got.bound.problems == whole.bound.problems,
        "doubts": got.bound.doubts == whole.bound.doubts,
        "problems": got.problems == whole.problems,
    }
    return [name for name, same in checks.items() if not same]


class Taken:
    """Counts how the re-parses went: whole, or in part (with the tree built at once, or
    later around a focus, new or kept from the edit before), and the messages bound again."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.counts: Counter[str] = Counter()
        reparse, rebind = incremental.reparse, rebind_module.rebind

        def counted_reparse(*args):  # type: ignore[no-untyped-def]
            found = reparse(*args)
            if found is None:
                self.counts["whole"] += 1
            elif found.focus is None:
                self.counts["built"] += 1
            else:
                depth = len(found.focus.levels) - 1
                self.counts["kept" if found.focus.kept else f"focus at depth {depth}"] += 1
            return found

        def counted_rebind(*args):  # type: ignore[no-untyped-def]
            self.counts["bound in part"] += 1
            return rebind(*args)

        monkeypatch.setattr(incremental, "reparse", counted_reparse)
        monkeypatch.setattr(rebind_module, "rebind", counted_rebind)


def replay(rng: random.Random, texts: list[str], rounds: int, edits: int, schema: Schema) -> None:
    """Edit texts of ``texts`` ``edits`` times each, in ``rounds``, comparing each time.

    After an edit that leaves a syntax error, the text mostly goes back to the last one
    without (as a user undoes), so that the edits go on over texts that parse without one,
    where most can be re-read in part.
    """
    for _ in range(rounds):
        text = rng.choice(texts)
        document = parse_config(PATH, text, schema)
        good = text
        for _ in range(edits):
            text = edit(rng, text, texts)
            document = reparse_config(document, text, schema)
            whole = parse_config(PATH, text, schema)
            assert differences(document, whole) == [], repr(text)
            if not whole.has_syntax_errors:
                good = text
            elif rng.random() < 0.75:
                text = good
                document = reparse_config(document, text, schema)


def corpus_texts() -> list[str]:
    paths = sorted((ROOT / "fixtures").rglob("*.pbtxt"))
    if CORPUS.is_dir():
        paths += sorted(CORPUS.rglob("config.pbtxt"))[::4]
    return [path.read_text(encoding="utf-8", errors="replace") for path in paths]


@pytest.mark.parametrize("seed", range(4))
def test_edited_configs_reparse_as_they_parse_whole(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    taken = Taken(monkeypatch)
    replay(random.Random(seed), corpus_texts(), rounds=60, edits=8, schema=load_schema())
    counts = taken.counts
    assert counts["built"] >= 50 and counts["focus at depth 0"] >= 30, counts
    assert counts["focus at depth 1"] + counts["focus at depth 2"] >= 3, counts
    assert counts["kept"] >= 5 and counts["bound in part"] >= 40, counts


#: What typing inserts: mostly characters of names and values, sometimes a delimiter, a
#: quote, a comment sign or a line break.
KEYS = [*"TYPE_INT8x1 " * 4, '"', "{", "}", "[", "]", ",", ":", "#", "\n", "\n    "]


@pytest.mark.parametrize("seed", range(3))
def test_typing_in_one_message_reparses_as_it_parses_whole(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Keys typed and deleted at a cursor inside one input of a large config (after a key
    that leaves a syntax error, mostly back to the last text without), the tree read (and
    so built) now and then, as the editor features read it."""
    taken = Taken(monkeypatch)
    rng = random.Random(seed)
    schema = load_schema()
    text = large_config(200)
    document = parse_config(PATH, text, schema)
    good = text, 0
    for _ in range(6):
        text = good[0]  # each round starts without a syntax error
        places = [m.end() for m in re.finditer(r"data_type: |dims: \[ |name: \"", text)]
        cursor = rng.choice(places)
        for _ in range(15):
            if rng.random() < 0.2:
                text, cursor = text[: cursor - 1] + text[cursor:], cursor - 1
            else:
                key = rng.choice(KEYS)
                text, cursor = text[:cursor] + key + text[cursor:], cursor + len(key)
            document = reparse_config(document, text, schema)
            whole = parse_config(PATH, text, schema)
            assert differences(document, whole) == [], repr(text)
            if rng.random() < 0.2:
                assert document.syntax is not None and document.syntax.document.fields
            if not whole.has_syntax_errors:
                good = text, cursor
            elif rng.random() < 0.7:
                text, cursor = good
                document = reparse_config(document, text, schema)
    assert taken.counts["kept"] >= 30, taken.counts


def test_the_editor_features_answer_from_the_edited_message() -> None:
    """Completion and hover at the cursor while typing in one input answer as they do for the
    text parsed whole, without the rest of the tree being built."""
    rng = random.Random(4)
    schema = load_schema()
    text = large_config(200)
    document = parse_config(PATH, text, schema)
    unbuilt = 0
    for _ in range(40):
        cursor = text.index("data_type: TYPE_", rng.randrange(len(text) - 5000)) + 11
        for word in ("TYPE_", "", "x", "_"):
            text = text[:cursor] + word + text[cursor:]
            cursor += len(word)
            document = reparse_config(document, text, schema)
            assert document.syntax is not None
            before = document.syntax.built
            line = text.count("\n", 0, cursor) + 1
            column = cursor - text.rfind("\n", 0, cursor)
            for answer in (completions, hover):
                assert answer(document, line, column, schema) == answer(text, line, column, schema)
            unbuilt += not before and not document.syntax.built
    assert unbuilt >= 100


def test_a_large_config_reparses_as_it_parses_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    taken = Taken(monkeypatch)
    replay(random.Random(7), [large_config(300)], rounds=3, edits=12, schema=load_schema())
    assert taken.counts["bound in part"] >= 8, taken.counts


def test_an_older_release_binds_in_part_as_it_binds_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    taken = Taken(monkeypatch)
    schema = load_schema("2.40.0")
    replay(random.Random(11), corpus_texts(), rounds=20, edits=6, schema=schema)
    assert taken.counts["bound in part"] >= 5, taken.counts


def test_the_editor_features_answer_the_same_from_a_reparsed_document() -> None:
    schema = load_schema()
    text = large_config(50)
    document = parse_config(PATH, text, schema)
    for round_ in range(6):
        text = text.replace(f'"INPUT{round_}"', f'"INPUT{round_}_x"').replace(
            f'name: "INPUT{40 + round_}"',
            f'name: "INPUT{40 + round_}"\n    reshape: {{ shape: [ 4 ] }}',
        )
        document = reparse_config(document, text, schema)
        lines = text.split("\n")
        for number, line in enumerate(lines, start=1):
            if ("data_type" in line and number % 9 == 0) or "reshape" in line:
                column = line.index(":") + 3
                assert completions(document, number, column, schema) == completions(
                    text, number, column, schema
                )
                assert hover(document, number, column, schema) == hover(
                    text, number, column, schema
                )


def test_a_workspace_checks_an_edited_text_as_a_fresh_workspace_does(tmp_path: Path) -> None:
    text = large_config(200)
    files = {"large/1/model.onnx": b"", "large/config.pbtxt": text}
    root = make_tree(tmp_path / "models", files, verbatim=True)
    path = root / "large" / "config.pbtxt"
    workspace = Workspace(root)
    workspace.check()
    rng = random.Random(3)
    for _ in range(25):
        text = edit(rng, text, [text])
        workspace.change(path, text)
        fresh = Workspace(root)
        fresh.open(path, text)
        assert workspace.check().diagnostics == fresh.check().diagnostics
        assert workspace.document(path).text == text


def test_an_edit_that_nests_too_deep_reparses_as_it_parses_whole() -> None:
    """Messages opened inside a message 99 deep pass the parser's limit of 100: the edit is
    read as a whole parse reads it, the message past the limit empty."""
    schema = load_schema()
    text = "a { " * 99 + "b: 1 " + "} " * 99 + '\nname: "m"\n'
    document = parse_config(PATH, text, schema)
    assert document.syntax is not None and not document.syntax.problems
    edited = text.replace("b: 1", "b { c { d: 1 } }")
    document = reparse_config(document, edited, schema)
    whole = parse_config(PATH, edited, schema)
    assert differences(document, whole) == []
    assert document.syntax is not None
    assert [(p.span.column, p.message) for p in document.syntax.problems] == [
        (403, "message nested more than 100 levels deep; what this '{' opens is not read")
    ]


def test_an_edit_past_the_limit_of_adjacent_strings_reparses_as_it_parses_whole() -> None:
    schema = load_schema()
    text = 'name: "m"\nparameters { key: "k" value { string_value: ' + '"x" ' * 9_999 + "} }\n"
    document = parse_config(PATH, text, schema)
    assert document.syntax is not None and not document.syntax.problems
    edited = text.replace('"x" } }', '"x" "y" "z" } }')
    document = reparse_config(document, edited, schema)
    assert differences(document, parse_config(PATH, edited, schema)) == []
    assert document.syntax is not None
    assert [p.message for p in document.syntax.problems] == [
        "more than 10,000 adjacent string literals make one value; the one after them is not read"
    ]
