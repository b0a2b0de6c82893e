"""Every rule's cases (tests/rules/cases/<CODE>.toml) and its documented examples, run.

The case file format is described in tests/case_files.py (and, for contributors, in
tests/rules/cases/README.md); the examples' format in tests/rule_examples.py.

* Each case is one test, ``TL404-fail-1-a zero dimension``: a failing case yields the rule's
  finding at its place with its message; a passing case yields none of the rule.
* Every rule has a case file with a failing and a passing case, and every case file names a
  rule.
* Every rule's bad example yields its finding and its good example is clean.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from case_files import Case, CaseFileError, build_tree, case_files, load
from helpers import assert_fix_resolves, lint, python_launcher
from rule_examples import ROOT, NotAnExample, example_files

from tritonlint.diagnostics import Diagnostic
from tritonlint.rules.registry import Rule, all_rules, by_code
from tritonlint.server import devices
from tritonlint.smoke import SmokeOptions, run_smoke

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
        assert [fix.title for fix in finding.fixes] == [case.fix]
    if case.fixed is not None:
        assert assert_fix_resolves(finding, target, **options) == case.fixed


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
    ],
    ids=["unknown-key", "folder", "no-message", "marker", "reason", "top-level"],
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
    assert _example_problem(rule, tmp_path) is None


def _example_problem(rule: Rule, tmp_path: Path) -> str | None:
    """What is wrong with the rule's examples, or None: the bad one yields the rule's finding,
    and the good one yields no finding at all (the rule selected besides the defaults)."""
    found = {}
    for kind, text in (("bad", rule.bad), ("good", rule.good)):
        try:
            files = example_files(text)
        except NotAnExample as error:
            return f"the {kind} example is no repository: {error}"
        root = build_tree(tmp_path / kind, files) / ROOT
        found[kind] = [d.code for d in lint(root, extend_select=(rule.code,)).diagnostics]
    if rule.code not in found["bad"]:
        return f"the bad example yields {found['bad']}, not {rule.code}"
    if found["good"]:
        return f"the good example yields {found['good']}"
    return None


def test_an_example_tree_lists_files_folders_and_contents() -> None:
    text = (
        "model_repository/pipe/config.pbtxt:\n"
        '  platform: "ensemble"\n'
        "\n"
        "  max_batch_size: 8\n"
        "model_repository/pipe/1/      # empty\n"
        "model_repository/clf/1/model.onnx  # the model\n"
    )
    assert example_files(text) == {
        "model_repository/pipe/config.pbtxt": 'platform: "ensemble"\n\nmax_batch_size: 8\n',
        "model_repository/pipe/1": None,
        "model_repository/clf/1/model.onnx": "",
    }
    with pytest.raises(NotAnExample, match="neither a path nor a file's content"):
        example_files('model_repository/m/config.pbtxt\nname: "m"')


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
    files = example_files(config)
    (config_path,) = [path for path in files if path.endswith("config.pbtxt")]
    assert files[config_path] == config + "\n"
    assert {path: content for path, content in files.items() if path != config_path} == (
        version_folder
    )
