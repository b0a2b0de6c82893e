"""Every rule's cases (tests/rules/cases/<CODE>.toml) and its documented examples, run.

The case file format is described in tests/case_files.py (and, for contributors, in
tests/rules/cases/README.md); the examples' format in tests/rule_examples.py.

* Each case is one test, ``TL404-fail-1-a zero dimension``: a failing case yields the rule's
  finding at its place with its message; a passing case yields none of the rule.
* Every rule has a case file with a failing and a passing case, and every case file names a
  rule.
* Every rule's bad example yields its finding and its good example is clean (a smoke rule's
  on the real server: tests/smoke/test_smoke_examples.py).
* No finding of a case or an example names the folder it was built in: a message says paths
  from the repository's root.
"""

from __future__ import annotations

import re
import stat
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest
from case_files import Case, CaseFileError, case_files, load
from helpers import Latin1, Link, assert_fix_resolves, lint, python_launcher
from rule_examples import ROOT, NotAnExample, parse_example, unreadable_yet_read, written

from tritonlint.diagnostics import Diagnostic, Severity
from tritonlint.fixing.moves import make_moves
from tritonlint.rules.registry import Rule, all_rules, by_code
from tritonlint.smoke import SmokeOptions, run_smoke
from tritonlint.tritonserver import devices

FAKE_SERVER = Path(__file__).resolve().parents[1] / "smoke" / "fake_triton_server.py"
FILES = case_files()
CASES = [case for file in FILES for case in file.cases]
RULES = all_rules()


# --- the cases ---------------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_case(case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = case.build(tmp_path.resolve() / "models")
    options = _options(case)
    target = root / case.lint if case.lint else root
    found = _smoke(case, root, tmp_path, monkeypatch) if case.smoke else _lint(target, options)
    assert _naming(found, tmp_path) == []
    if case.codes is not None:
        assert [d.code for d in found] == list(case.codes)
    of_rule = [d for d in found if d.code == case.code]
    if case.kind == "pass":
        assert of_rule == [], _summary(of_rule)
        return
    assert len(of_rule) == case.count, _summary(of_rule)
    place, position = root / case.file, case.position()
    at_place = [d for d in of_rule if d.path == place and _position(d) == position]
    assert at_place, f"no {case.code} at {case.file}:{position}; {_summary(of_rule)}"
    said = [d for d in at_place if _says(d, case)]
    assert said, f"no {case.code} at {case.file}:{position} says so; {_summary(at_place)}"
    finding = said[0]
    rule = by_code(case.code)
    assert rule is not None and finding.severity is rule.severity
    if case.fix is not None:
        assert [fix.title for fix in finding.fixes] == ([case.fix] if case.fix else [])
    if case.applicability is not None:
        applicabilities = [fix.applicability.value for fix in finding.fixes]
        assert applicabilities and set(applicabilities) == {case.applicability}, finding.fixes
    if case.fixed is not None:
        assert assert_fix_resolves(finding, target, **options) == case.fixed
    if case.moved is not None:
        _assert_moves_resolve(finding, root, target, case.moved, options)


def _assert_moves_resolve(
    finding: Diagnostic,
    root: Path,
    target: Path,
    moved: Mapping[str, str],
    options: dict[str, object],
) -> None:
    """The finding's only fix moves what ``moved`` says; made, it leaves the finding gone, no
    new error, and each file at its new place."""
    assert len(finding.fixes) == 1 and not finding.fixes[0].edits, finding.fixes
    moves = finding.fixes[0].moves
    assert {
        m.source.relative_to(root).as_posix(): m.target.relative_to(root).as_posix() for m in moves
    } == dict(moved)
    before = lint(target, **options).diagnostics
    assert make_moves(moves) is None
    after = lint(target, **options).diagnostics
    assert finding.message not in [d.message for d in after if d.code == finding.code]
    new_errors = {(d.code, d.message) for d in after if d.severity is Severity.ERROR} - {
        (d.code, d.message) for d in before
    }
    assert not new_errors, new_errors
    assert all(move.target.exists() and not move.source.exists() for move in moves)


def _naming(found: Sequence[Diagnostic], folder: Path) -> list[str]:
    """The texts of ``found`` that name ``folder``: messages, related places' messages and fix
    titles say paths from the repository's root, so that they read the same on every
    machine."""
    texts = [
        text
        for d in found
        for text in (d.message, *(r.message for r in d.related), *(f.title for f in d.fixes))
    ]
    return [text for text in texts if str(folder) in text or str(folder.resolve()) in text]


def _says(finding: Diagnostic, case: Case) -> bool:
    """Whether the finding's message is the case's (``message_is``) or holds its fragment."""
    if case.message is not None:
        return case.message in finding.message
    return finding.message == case.message_is


def _options(case: Case) -> dict[str, object]:
    """The case's lint options, its own rule added to extend_select."""
    options = dict(case.options)
    options["extend_select"] = (*case.options["extend_select"], case.code)
    return options


def _lint(target: Path, options: dict[str, object]) -> list[Diagnostic]:
    return list(lint(target, **options).diagnostics)


def _smoke(
    case: Case, root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> list[Diagnostic]:
    """The smoke stage's findings, loading ``root`` into tests/smoke's fake tritonserver."""
    smoke = case.smoke
    assert smoke is not None
    server = python_launcher(tmp_path / "fake-triton-server", FAKE_SERVER)
    monkeypatch.setenv("FAKE_TRITON_BACKENDS", ",".join(smoke.backends))
    for name, on in (("FAKE_TRITON_HANG", smoke.hang), ("FAKE_TRITON_CRASH", smoke.crash)):
        monkeypatch.setenv(name, case.model if on else "")
    for name in ("FAKE_TRITON_LOG", "FAKE_TRITON_EXIT", "FAKE_TRITON_GPUS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(devices, "has_gpu", lambda: False)
    options = SmokeOptions(server=server, gpus=smoke.gpus, timeout=smoke.timeout)
    return run_smoke(root, options).diagnostics


def _position(diagnostic: Diagnostic) -> tuple[int, int] | None:
    span = diagnostic.span
    return (span.line, span.column) if span else None


def _summary(found: Sequence[Diagnostic]) -> list[tuple[str, str, tuple[int, int] | None, str]]:
    return [(d.code, d.path.name, _position(d), d.message) for d in found]


# --- every rule has cases ----------------------------------------------------------------------


def test_every_case_file_names_a_rule() -> None:
    assert [file.path.name for file in FILES if by_code(file.code) is None] == []


@pytest.mark.parametrize("rule", RULES, ids=[rule.code for rule in RULES])
def test_every_rule_has_a_failing_and_a_passing_case(rule: Rule) -> None:
    file = next((file for file in FILES if file.code == rule.code), None)
    assert file is not None, f"no tests/rules/cases/{rule.code}.toml"
    assert file.fail and file.passing, f"{file.path.name} needs a [[fail]] and a [[pass]]"


def test_smoke_rules_are_run_by_the_smoke_stage() -> None:
    smoke = {file.code for file in FILES if file.stage == "smoke"}
    assert smoke == {rule.code for rule in RULES if rule.pack == "smoke"}


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ('[[fail]]\nconfig = ""\nmessage = "x"\ncolour = "red"\n', "unknown key(s) colour"),
        ('[[pass]]\nconfig = ""\n[pass.files]\n"m/1/" = "x"\n', "a folder's value is"),
        ('[[fail]]\nconfig = "a"\n', "needs one of message and message_is"),
        ('[[fail]]\nconfig = "a"\nmessage = "x"\nat = "b"\n', "'b' not found"),
        ('stage = "smoke"\n[[pass]]\nconfig = ""\n', "needs a reason"),
        ("examples = 1\n", "unknown key(s) examples"),
        (
            '[[fail]]\nconfig = "a"\nmessage = "x"\nat = "a"\nfixed = "b"\napplicability = "maybe"\n',
            "applicability 'maybe' is none of",
        ),
        (
            '[[fail]]\nconfig = "a"\nmessage = "x"\napplicability = "safe"\n',
            "applicability needs fixed, fixed_all or moved",
        ),
        (
            '[[fail]]\nconfig = "a"\nmessage = "x"\nfixed_all = "b"\n',
            "fixed_all needs applicability",
        ),
    ],
    ids=[
        "unknown-key",
        "folder",
        "no-message",
        "marker",
        "reason",
        "top-level",
        "applicability",
        "applicability-without-fix",
        "fixed-all-alone",
    ],
)
def test_a_case_file_with_a_mistake_is_an_error_naming_it(
    tmp_path: Path, text: str, error: str
) -> None:
    path = tmp_path / "TL404.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CaseFileError, match=r"^TL404\.toml: .*") as raised:
        load(path)
    assert error in str(raised.value)


# --- the documented examples -------------------------------------------------------------------


@pytest.mark.parametrize("rule", RULES, ids=[rule.code for rule in RULES])
def test_documented_examples_are_real(rule: Rule, tmp_path: Path) -> None:
    """The bad example yields the rule's finding, and the good one yields no finding at all
    (the rule selected besides the defaults).

    A smoke rule's examples name the options of ``tritonlint smoke`` they are shown with, and
    the good one lints clean here; tests/smoke/test_smoke_examples.py loads both into the
    real server. A bad example that takes a permission away cannot be shown by a user the
    permissions do not hold back (root): its test is skipped there, once the good one passed.
    """
    found: dict[str, list[str]] = {}
    unshowable: list[str] = []
    for kind, text in (("good", rule.good), ("bad", rule.bad)):
        try:
            example = parse_example(text)
        except NotAnExample as error:
            pytest.fail(f"the {kind} example is no repository: {error}")
        smoke = rule.pack == "smoke"
        assert (example.smoke is not None) == smoke, (
            f"the {kind} example of a {'smoke' if smoke else 'lint'} rule "
            f"{'lacks' if smoke else 'has'} a first line `$ tritonlint smoke ... {ROOT}`"
        )
        with written(example, tmp_path / kind) as root:
            if kind == "bad":
                unshowable = unreadable_yet_read(example, root)
            release = {"triton_version": example.triton_version} if example.triton_version else {}
            diagnostics = lint(root, extend_select=(rule.code,), **release).diagnostics
            assert _naming(diagnostics, tmp_path) == []
            found[kind] = [d.code for d in diagnostics]
    assert found["good"] == [], f"the good example yields {found['good']}"
    if rule.pack == "smoke":
        return
    if unshowable and rule.code not in found["bad"]:
        pytest.skip(f"running with privileges that read {', '.join(unshowable)} all the same")
    assert rule.code in found["bad"], f"the bad example yields {found['bad']}, not {rule.code}"


def test_an_example_tree_lists_files_folders_and_contents() -> None:
    text = (
        "model_repository/pipe/config.pbtxt:\n"
        '  platform: "ensemble"\n'
        "\n"
        "  max_batch_size: 8\n"
        "model_repository/pipe/1/      # empty\n"
        "model_repository/clf/1/model.onnx  # the model\n"
        "model_repository/clf/2/model.onnx -> ../1/model.onnx   # as ls -l shows it\n"
        "model_repository/clf/labels.txt: <Latin-1>\n"
        "  café\n"
        "model_repository/clf/config.pbtxt: <hex>   # serialized\n"
        "  0a 03 63\n"
        "  6c 66\n"
        "model_repository/big/config.pbtxt: <2 KiB of zeros>\n"
        "model_repository/big/1/model.py: <mode 000>\n"
        "  import os\n"
    )
    example = parse_example(text)
    assert example.files == {
        "model_repository/pipe/config.pbtxt": 'platform: "ensemble"\n\nmax_batch_size: 8\n',
        "model_repository/pipe/1": None,
        "model_repository/clf/1/model.onnx": "",
        "model_repository/clf/2/model.onnx": Link("../1/model.onnx"),
        "model_repository/clf/labels.txt": Latin1("café\n"),
        "model_repository/clf/config.pbtxt": b"\n\x03clf",
        "model_repository/big/config.pbtxt": bytes(2048),
        "model_repository/big/1/model.py": "import os\n",
    }
    assert example.modes == {"model_repository/big/1/model.py": 0o000}
    assert example.smoke is None


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ('model_repository/m/config.pbtxt\nname: "m"', "neither a path nor a file's content"),
        ("model_repository/m/config.pbtxt: <UTF-16>\n  x", "<UTF-16> is none of"),
        ("model_repository/m/config.pbtxt: <hex>\n  0a 0", "not bytes in hex"),
        ("model_repository/m/labels.txt: <Latin-1>\n  €", "'€' is not in Latin-1"),
        ("model_repository/m/config.pbtxt: <8 MiB of zeros>\n  x", "neither a path nor"),
        ("model_repository/m/1/model.py <mode 000>", "not a path"),
        ("model_repository/m/config.pbtxt: <mode 999>\n  x", "<mode 999> is none of"),
        ("model_repository/m//config.pbtxt", "not a path"),
        ("model_repository/m/a\nmodel_repository/m/a", "model_repository/m/a is given twice"),
        ("$ tritonlint check model_repository\nmax_batch_size: 8", "not `$ tritonlint smoke"),
        ("$ tritonlint smoke --gpus models\nmax_batch_size: 8", "not `$ tritonlint smoke"),
    ],
    ids=[
        "content-unindented",
        "unknown-content",
        "odd-hex",
        "not-latin-1",
        "zeros-with-text",
        "mode-of-empty-file",
        "mode-not-octal",
        "empty-path-part",
        "twice",
        "not-smoke",
        "other-folder",
    ],
)
def test_an_example_that_follows_no_form_is_refused(text: str, error: str) -> None:
    with pytest.raises(NotAnExample, match=re.escape(error)):
        parse_example(text)


def test_a_smoke_example_names_the_options_it_is_shown_with() -> None:
    example = parse_example(
        "$ tritonlint smoke --timeout 10 model_repository   # a comment\n"
        'name: "m"\n'
        'backend: "python"'
    )
    assert example.smoke == ("--timeout", "10")
    assert example.files == {
        "model_repository/m/config.pbtxt": 'name: "m"\nbackend: "python"\n',
        "model_repository/m/1/model.py": "",
    }


def test_an_example_file_gets_its_mode_until_the_example_is_done(tmp_path: Path) -> None:
    example = parse_example("model_repository/m/config.pbtxt: <mode 000>\n  max_batch_size: 8")
    with written(example, tmp_path) as root:
        config = root / "m" / "config.pbtxt"
        assert stat.S_IMODE(config.stat().st_mode) == 0o000
    assert stat.S_IMODE(config.stat().st_mode) == 0o644
    assert config.read_text() == "max_batch_size: 8\n"


@pytest.mark.parametrize(
    ("config", "version_folder"),
    [
        ('name: "clf"\nplatform: "onnxruntime_onnx"', {"model_repository/clf/1/model.onnx": ""}),
        ('backend: "python"', {"model_repository/model/1/model.py": ""}),
        ('platform: "tensorflow_savedmodel"', {"model_repository/model/1/model.savedmodel": None}),
        (
            'backend: "onnxruntime"\ndefault_model_filename: "yolox.onnx"',
            {"model_repository/model/1/yolox.onnx": ""},
        ),
        ('name: "pipe"\nplatform: "ensemble"', {"model_repository/pipe/1": None}),
        ("max_batch_size: 8", {"model_repository/model/1": None}),
    ],
    ids=["named", "backend", "folder", "default-model-filename", "ensemble", "neither"],
)
def test_a_config_example_gets_the_version_folder_that_loads_it(
    config: str, version_folder: dict[str, str | None]
) -> None:
    files = parse_example(config).files
    (config_path,) = [path for path in files if path.endswith("config.pbtxt")]
    assert files[config_path] == config + "\n"
    assert {path: content for path, content in files.items() if path != config_path} == (
        version_folder
    )
