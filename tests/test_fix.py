"""`tritonlint check --fix`, `--unsafe-fixes`, `--diff` and `--show-fixes`: what is written, what
is printed, the exit status; fixes that would break a file are refused; files are written all
or none, keeping their bytes outside the edits, their line endings and their mode."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from helpers import forget_rule, make_tree, register_rule, run_cli

from tritonlint import rewrite
from tritonlint.diagnostics import Applicability, Fix, TextEdit
from tritonlint.rules import registry
from tritonlint.rules.context import Finding, ModelContext
from tritonlint.span import Span

GOOD_INPUT = 'input [ { name: "x" data_type: TYPE_FP32 dims: [ 3 ] } ]\n'
OUTPUT = 'output [ { name: "y" data_type: TYPE_FP32 dims: [ 3 ] } ]\n'
#: A name the folder does not have (a safe fix, TL201) and a misspelt field (unsafe, TL101).
CONFIG = (
    'name: "resnet50"\nplatform: "onnxruntime_onnx"\nmax_batch_size: 8\n'
    'input [ { name: "x" data_type: TYPE_FP32 dim: [ 3 ] } ]\n' + OUTPUT
)

#: The start of ``--diff``'s hunk that gives resnet's config the folder's name, up to its
#: input line.
RENAME_DIFF = (
    "--- a/repo/resnet/config.pbtxt\n"
    "+++ b/repo/resnet/config.pbtxt\n"
    "@@ -1,4 +1,4 @@\n"
    '-name: "resnet50"\n'
    '+name: "resnet"\n'
    ' platform: "onnxruntime_onnx"\n'
    " max_batch_size: 8\n"
)


def repository(tmp_path: Path, config: str | bytes = CONFIG, name: str = "resnet") -> Path:
    root = make_tree(tmp_path / "repo", {f"{name}/1/model.onnx": b""})
    (root / name / "config.pbtxt").write_bytes(
        config.encode("utf-8") if isinstance(config, str) else config
    )
    return root


@pytest.fixture(autouse=True)
def _wide(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.chdir(tmp_path)


def test_fix_applies_the_safe_fixes_and_reports_what_remains(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = repository(tmp_path)
    status, out, err = run_cli(["check", "repo", "--fix"], capsys)
    assert status == 1  # the misspelt field remains, an error
    assert (root / "resnet" / "config.pbtxt").read_text() == CONFIG.replace(
        '"resnet50"', '"resnet"'
    )
    lines = out.splitlines()
    assert lines[0].startswith("repo/resnet/config.pbtxt:4:42: TL101 [error]")
    assert lines[-2:] == [
        "Found 2 errors (1 fixed, 1 remaining; 1 model checked).",
        "No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option).",
    ]
    assert err == ""


def test_unsafe_fixes_apply_the_unsafe_ones_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = repository(tmp_path)
    status, out, _ = run_cli(["repo", "--fix", "--unsafe-fixes", "--show-fixes"], capsys)
    assert status == 0
    fixed = CONFIG.replace('"resnet50"', '"resnet"').replace(" dim:", " dims:")
    assert (root / "resnet" / "config.pbtxt").read_text() == fixed
    assert out == (
        "Found 2 errors (2 fixed, 0 remaining; 1 model checked).\n"
        "Fixed 2 findings:\n"
        "- repo/resnet/config.pbtxt:\n"
        "    1 \u00d7 TL101 (unknown-field)\n"
        "    1 \u00d7 TL201 (name-mismatch)\n"
    )


def test_without_fix_nothing_is_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = repository(tmp_path)
    status, out, _ = run_cli(["check", "repo"], capsys)
    assert status == 1
    assert out.splitlines()[-2:] == [
        "Found 2 errors (1 model checked).",
        "[*] 1 fixable with the `--fix` option (1 hidden fix can be enabled with the `--unsafe-fixes` option).",
    ]
    assert (root / "resnet" / "config.pbtxt").read_text() == CONFIG


def test_diff_prints_the_change_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = repository(tmp_path)
    status, out, err = run_cli(["check", "repo", "--diff", "--show-fixes"], capsys)
    assert status == 1
    assert out == RENAME_DIFF + ' input [ { name: "x" data_type: TYPE_FP32 dim: [ 3 ] } ]\n'
    assert err == (
        "Would fix 1 finding:\n"
        "- repo/resnet/config.pbtxt:\n"
        "    1 \u00d7 TL201 (name-mismatch)\n"
        "Would fix 1 finding in 1 file.\n"
    )
    assert (root / "resnet" / "config.pbtxt").read_text() == CONFIG


def test_diff_with_nothing_to_fix_exits_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repository(tmp_path, CONFIG.replace('"resnet50"', '"resnet"'))
    status, out, err = run_cli(["check", "repo", "--diff"], capsys)
    assert (status, out) == (0, "")
    assert err == (
        "No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option).\n"
    )


def test_fix_of_a_clean_repository_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clean = 'name: "resnet"\nplatform: "onnxruntime_onnx"\nmax_batch_size: 8\n' + GOOD_INPUT
    root = repository(tmp_path, clean + OUTPUT)
    mtime = (root / "resnet" / "config.pbtxt").stat().st_mtime_ns
    status, out, _ = run_cli(["check", "repo", "--fix", "--show-fixes"], capsys)
    assert status == 0
    assert out == (
        "All checks passed (1 model checked).\nFixed nothing: no finding has a fix to apply.\n"
    )
    assert (root / "resnet" / "config.pbtxt").stat().st_mtime_ns == mtime


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["repo", "--unsafe-fixes"], "--unsafe-fixes goes with --fix or --diff"),
        (["repo", "--show-fixes"], "--show-fixes goes with --fix or --diff"),
        (["-", "--fix"], "--fix and --diff change files; they cannot fix standard input"),
        (["repo", "--diff", "--smoke"], "--diff writes nothing"),
    ],
)
def test_fix_options_that_do_not_go_together(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repository(tmp_path)
    status, _, err = run_cli(argv, capsys)
    assert status == 2
    assert err.startswith(f"tritonlint: error: {message}")


def test_bytes_outside_the_edits_are_kept_crlf_and_no_final_newline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = CONFIG.replace("\n", "\r\n").rstrip("\r\n") + "  # last\t"
    root = repository(tmp_path, config)
    assert run_cli(["repo", "--fix", "--unsafe-fixes"], capsys)[0] == 0
    expected = config.replace('"resnet50"', '"resnet"').replace(" dim:", " dims:")
    assert (root / "resnet" / "config.pbtxt").read_bytes() == expected.encode("utf-8")


def test_a_file_with_a_byte_order_mark_is_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The parser (as the server's) takes a byte order mark for a stray character: a syntax
    error without a fix, so the file's other fixes wait until it is removed."""
    config = b"\xef\xbb\xbf" + CONFIG.encode("utf-8")
    root = repository(tmp_path, config)
    status, out, _ = run_cli(["repo", "--fix"], capsys)
    assert status == 1
    assert "repo/resnet/config.pbtxt:1:1: TL010 [error] unexpected character '\\ufeff'" in out
    assert (root / "resnet" / "config.pbtxt").read_bytes() == config


def test_the_file_mode_is_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = repository(tmp_path)
    config = root / "resnet" / "config.pbtxt"
    config.chmod(0o640)
    run_cli(["repo", "--fix"], capsys)
    assert config.read_text().startswith('name: "resnet"\n')
    assert config.stat().st_mode & 0o777 == 0o640


def test_identical_edits_of_two_findings_are_applied_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """TL717 (version 0 is not served) and TL719 (model_version omitted) both insert
    `model_version: -1` after the step's model_name."""
    ensemble = (
        'name: "pipe"\nplatform: "ensemble"\nmax_batch_size: 8\n'
        'input [ { name: "x" data_type: TYPE_FP32 dims: [ 3 ] } ]\n'
        'output [ { name: "y" data_type: TYPE_FP32 dims: [ 3 ] } ]\n'
        "ensemble_scheduling {\n  step [\n    {\n"
        '      model_name: "resnet"\n'
        '      input_map { key: "x" value: "x" }\n'
        '      output_map { key: "y" value: "y" }\n'
        "    }\n  ]\n}\n"
    )
    root = repository(tmp_path, CONFIG.replace('"resnet50"', '"resnet"').replace(" dim:", " dims:"))
    make_tree(root, {"pipe/1/": None})
    (root / "pipe" / "config.pbtxt").write_text(ensemble)
    status, out, _ = run_cli(
        ["repo", "--fix", "--unsafe-fixes", "--show-fixes", "--select", "TL717,TL719"], capsys
    )
    assert status == 0
    assert (root / "pipe" / "config.pbtxt").read_text() == ensemble.replace(
        '"resnet"\n', '"resnet"\n      model_version: -1\n'
    )
    assert out == (
        "Found 1 error, 1 warning (2 fixed, 0 remaining; 2 models checked).\n"
        "Fixed 2 findings:\n"
        "- repo/pipe/config.pbtxt:\n"
        "    1 \u00d7 TL717 (ensemble-version-not-served)\n"
        "    1 \u00d7 TL719 (ensemble-model-version-omitted)\n"
    )


def test_a_file_with_syntax_errors_gets_only_the_syntax_fixes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = CONFIG.replace("max_batch_size: 8\n", "max_batch_size: 8  <- the largest batch\n")
    broken += "instance_group [ { kind: KIND_CPU }\n"  # an unclosed list
    root = repository(tmp_path, broken)
    status, out, _ = run_cli(["repo", "--fix", "--show-fixes"], capsys)
    assert status == 1
    # The note became a comment; the name is left as it is while the file does not parse.
    assert (root / "resnet" / "config.pbtxt").read_text() == broken.replace("<-", "# <-")
    assert "- repo/resnet/config.pbtxt:\n    1 \u00d7 TL010 (syntax-error)\n" in out


# -- rules registered by the tests alone -------------------------------------------------------


@pytest.fixture
def rules_of_the_test() -> Iterator[None]:
    """Take the rules the tests register out of the registry again afterwards."""
    codes = set(registry._BY_CODE)
    yield
    for code in set(registry._BY_CODE) - codes:
        forget_rule(code)


def _register(code: str, edits: Callable[[ModelContext], list[TextEdit]]) -> None:
    def check(ctx: ModelContext) -> Iterator[Finding]:
        edit = edits(ctx)
        if edit:
            fix = Fix("Test fix", tuple(edit), Applicability.SAFE)
            yield ctx.at(("max_batch_size",), "a test finding", fixes=(fix,))

    register_rule(code, check)


def _refused(
    code: str,
    edits: Callable[[ModelContext], list[TextEdit]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    config: str = CONFIG,
) -> tuple[str, str]:
    """Check a repository of ``config`` with the fix of a rule of ``code`` making ``edits``:
    the fix is refused, the config left as it was; the output and the error output."""
    _register(code, edits)
    root = repository(tmp_path, config)
    status, out, err = run_cli(["repo", "--fix", "--select", code], capsys)
    assert status == 1
    assert (root / "resnet" / "config.pbtxt").read_text() == config
    return out, err


def _refusal(code: str, why: str) -> str:
    """The warning that refuses the fix of the rule of ``code`` at max_batch_size, for ``why``."""
    return (
        f"tritonlint: warning: refused the fix of {code} at repo/resnet/config.pbtxt:3:17 "
        f"('Test fix'): {why}; this is a bug in the rule's fix, please report it\n"
    )


def _value(ctx: ModelContext, path: tuple[str, ...]) -> TextEdit:
    span = ctx.span(path)
    assert span is not None
    return TextEdit(span, ctx.model.config.text[span.start : span.end])  # type: ignore[union-attr]


@pytest.mark.usefixtures("rules_of_the_test")
def test_a_fix_that_breaks_the_syntax_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, err = _refused(
        "TL990",
        lambda ctx: [_value(ctx, ("max_batch_size",))._replace(new_text="8 {")],
        tmp_path,
        capsys,
    )
    assert err == _refusal(
        "TL990",
        "the fixed text would not parse (3:19: expected one of ',', ';', '[', end of file, "
        "identifier; found '{')",
    )
    assert out.splitlines()[-1] == "Found 1 error (1 model checked)."


@pytest.mark.usefixtures("rules_of_the_test")
def test_a_fix_that_changes_another_field_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The edit is meant to change the value of max_batch_size, but it comments out the field
    before it (platform)."""

    def edits(ctx: ModelContext) -> list[TextEdit]:
        platform = ctx.span(("platform",), "field")
        assert platform is not None
        at = Span.point(platform.line, platform.column, platform.start)
        return [_value(ctx, ("max_batch_size",))._replace(new_text="4"), TextEdit(at, "# ")]

    _, err = _refused("TL991", edits, tmp_path, capsys)
    assert err == _refusal("TL991", "it would change platform, which the fix does not edit")


@pytest.mark.usefixtures("rules_of_the_test")
def test_fixes_that_do_not_settle_stop_after_ten_rounds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def edits(ctx: ModelContext) -> list[TextEdit]:
        edit = _value(ctx, ("max_batch_size",))
        return [edit._replace(new_text=str(int(edit.new_text) + 1))]

    _register("TL992", edits)
    root = repository(tmp_path)
    status, out, err = run_cli(["repo", "--fix", "--select", "TL992"], capsys)
    assert status == 1
    assert "max_batch_size: 18\n" in (root / "resnet" / "config.pbtxt").read_text()
    assert err == (
        "tritonlint: warning: the fixes of repo/resnet/config.pbtxt did not settle after 10 "
        "rounds; the fixes made so far are kept, and what remains is reported\n"
    )
    assert out.splitlines()[-1] == "Found 11 errors (10 fixed, 1 remaining; 1 model checked)."


def test_changed_files_are_written_all_or_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = repository(tmp_path)
    other = root / "other" / "config.pbtxt"
    make_tree(root, {"other/1/model.onnx": b""})
    other.write_text(CONFIG)
    stage = rewrite._stage

    def failing(path: Path, text: str) -> tuple[str, Path]:
        if path == other:
            raise PermissionError(13, "Permission denied", str(path))
        return stage(path, text)

    monkeypatch.setattr(rewrite, "_stage", failing)
    status, _, err = run_cli(["repo", "--fix"], capsys)
    assert status == 2
    assert err.startswith(f"tritonlint: error: cannot write the fixes {other}: Permission denied")
    assert "no file was changed" in err
    assert (root / "resnet" / "config.pbtxt").read_text() == CONFIG
    assert other.read_text() == CONFIG
    assert sorted(p.name for p in root.rglob("*.tmp")) == []


#: An ensemble that runs the model by the name its config gave it ("resnet50", folder "resnet").
PIPE = """\
name: "pipe"
platform: "ensemble"
max_batch_size: 8
input [ { name: "X" data_type: TYPE_FP32 dims: [ 3 ] } ]
output [ { name: "Y" data_type: TYPE_FP32 dims: [ 3 ] } ]
ensemble_scheduling {
  step [
    {
      model_name: "resnet50"
      model_version: -1
      input_map { key: "x" value: "X" }
      output_map { key: "y" value: "Y" }
    }
  ]
}
"""
NAMED = CONFIG.replace(" dim:", " dims:")


def ensemble_repository(tmp_path: Path) -> Path:
    root = repository(tmp_path, NAMED)
    make_tree(root, {"pipe/1/": None, "pipe/config.pbtxt": PIPE})
    return root


def test_a_fix_across_files_is_applied_only_with_unsafe_fixes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = ensemble_repository(tmp_path)
    # --fix alone takes the safe fix: the model's name only (the step still names resnet50).
    status, out, _ = run_cli(["repo", "--fix"], capsys)
    assert (root / "resnet" / "config.pbtxt").read_text() == NAMED.replace('"resnet50"', '"resnet"')
    assert (root / "pipe" / "config.pbtxt").read_text() == PIPE
    assert status == 1 and "TL708" in out


def test_unsafe_fixes_rename_the_model_and_the_steps_that_name_it_together(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = ensemble_repository(tmp_path)
    status, out, _ = run_cli(["repo", "--diff", "--unsafe-fixes"], capsys)
    assert status == 1
    assert out == (
        "--- a/repo/pipe/config.pbtxt\n"
        "+++ b/repo/pipe/config.pbtxt\n"
        "@@ -6,7 +6,7 @@\n"
        " ensemble_scheduling {\n"
        "   step [\n"
        "     {\n"
        '-      model_name: "resnet50"\n'
        '+      model_name: "resnet"\n'
        "       model_version: -1\n"
        '       input_map { key: "x" value: "X" }\n'
        '       output_map { key: "y" value: "Y" }\n'
        + RENAME_DIFF
        + ' input [ { name: "x" data_type: TYPE_FP32 dims: [ 3 ] } ]\n'
    )
    assert (root / "pipe" / "config.pbtxt").read_text() == PIPE  # --diff writes nothing
    status, out, _ = run_cli(["repo", "--fix", "--unsafe-fixes"], capsys)
    assert status == 0
    assert (root / "resnet" / "config.pbtxt").read_bytes() == NAMED.replace(
        '"resnet50"', '"resnet"'
    ).encode()
    assert (root / "pipe" / "config.pbtxt").read_bytes() == PIPE.replace(
        '"resnet50"', '"resnet"'
    ).encode()
    assert out.splitlines()[-1] == "Found 1 error (1 fixed, 0 remaining; 2 models checked)."


def test_a_fix_across_files_is_offered_first_and_names_the_other_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    ensemble_repository(tmp_path)
    status, out, _ = run_cli(["repo", "--format", "json"], capsys)
    assert status == 1
    (finding,) = [f for f in json.loads(out) if f["code"] == "TL201"]
    assert [(f["title"], f["applicability"]) for f in finding["fixes"]] == [
        ('Set name to "resnet" and rename it in the ensemble "pipe" that runs it', "unsafe"),
        ('Set name to "resnet" (this model only)', "safe"),
    ]  # fmt: skip
    edits = finding["fixes"][0]["edits"]
    assert [(e.get("path"), e["line"], e["new_text"]) for e in edits] == [
        (None, 1, '"resnet"'),
        ("repo/pipe/config.pbtxt", 9, '"resnet"'),
    ]


@pytest.mark.usefixtures("rules_of_the_test")
def test_a_fix_across_files_is_not_applied_to_a_file_changed_since_it_was_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A fix of the ensemble (a test rule's: max_batch_size 8 -> 16, touching the step's name
    too) is taken first; the model's fix across files overlaps it and waits. By the next
    round the ensemble has changed but the model was not checked again, so its fix still
    holds the old places in the ensemble: it is not applied there, and nothing is garbled."""

    def edits(ctx: ModelContext) -> list[TextEdit]:
        config = ctx.config
        if ctx.model.name != "pipe" or config is None or config.max_batch_size != 8:
            return []
        step = _value(ctx, ("ensemble_scheduling", "step", 0, "model_name"))  # type: ignore[arg-type]
        return [_value(ctx, ("max_batch_size",))._replace(new_text="16"), step]

    _register("TL993", edits)
    root = ensemble_repository(tmp_path)
    status, out, err = run_cli(["repo", "--fix", "--unsafe-fixes"], capsys)
    assert err == ""  # not refused either: never tried on the changed text
    assert status == 1
    assert (root / "pipe" / "config.pbtxt").read_text() == PIPE.replace(
        "max_batch_size: 8", "max_batch_size: 16"
    )
    assert (root / "resnet" / "config.pbtxt").read_text() == NAMED
    assert "TL201" in out


# -- what a fix may not add: a syntax error, a field given twice, a text protobuf refuses ------


@pytest.mark.usefixtures("rules_of_the_test")
def test_a_fix_that_gives_a_field_twice_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def edits(ctx: ModelContext) -> list[TextEdit]:
        platform = ctx.span(("platform",), "field")
        assert platform is not None
        at = Span.point(platform.end_line, platform.end_column, platform.end)
        return [TextEdit(at, ' platform: "tensorrt_plan"')]

    _, err = _refused("TL994", edits, tmp_path, capsys)
    assert err == _refusal(
        "TL994",
        "the fixed text would give a field twice (2:30: non-repeated field 'platform' is "
        "specified more than once)",
    )


@pytest.mark.usefixtures("rules_of_the_test")
def test_a_fix_that_drops_the_colon_of_a_scalar_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The parser reads ``dims [ 3 ]`` (a name and a list, of messages for all it knows); the
    binder, which knows the field is a scalar, finds the ':' missing: a syntax error."""

    def edits(ctx: ModelContext) -> list[TextEdit]:
        dims = ("input", 0, "dims")
        name, value = ctx.span(dims, "name"), ctx.span(dims)  # type: ignore[arg-type]
        assert name is not None and value is not None
        between = Span(
            name.end_line, name.end_column, value.line, value.column, name.end, value.start
        )
        return [TextEdit(between, " ")]

    _, err = _refused("TL995", edits, tmp_path, capsys, NAMED)
    assert err == _refusal(
        "TL995",
        "the fixed text would not parse (4:42: expected ':' between field 'dims' and its value)",
    )


@pytest.mark.usefixtures("rules_of_the_test")
def test_a_fix_whose_text_protobuf_would_not_read_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An integer out of range is a finding of the binder, not a syntax error; protobuf,
    which reads the original, refuses the fixed text, and has the last word."""

    def edits(ctx: ModelContext) -> list[TextEdit]:
        return [_value(ctx, ("max_batch_size",))._replace(new_text="4294967296")]

    _, err = _refused("TL996", edits, tmp_path, capsys, NAMED)  # protobuf reads NAMED
    assert err.startswith(
        "tritonlint: warning: refused the fix of TL996 at repo/resnet/config.pbtxt:3:17 "
        "('Test fix'): protobuf would not read the fixed text (3:17 : "
    )


# -- fixes that were refused although they were right ---------------------------------------


def _python_model(tmp_path: Path, config: str) -> Path:
    root = make_tree(tmp_path / "repo", {"m/1/model.py": b""})
    (root / "m" / "config.pbtxt").write_text(config)
    return root / "m" / "config.pbtxt"


#: The head of the configs below: a Python model's name and backend.
PYTHON_HEAD = 'name: "m"\nbackend: "python"\n'
#: Part of a config that holds a NaN.
NAN_REST = (
    'sequence_batching {\n  control_input [ { name: "START" control [ { kind: '
    "CONTROL_SEQUENCE_START fp32_false_true: [ nan, 1 ] } ] } ]\n}\n"
)


@pytest.mark.parametrize(
    ("argv", "config", "fixed"),
    [
        # A NaN is not equal to itself; the field that holds one has not changed for that.
        pytest.param(
            ["--select", "TL301"],
            'name: "m"\nplatform: "python"\n' + NAN_REST,
            PYTHON_HEAD + NAN_REST,
            id="a-nan-elsewhere-in-the-config-does-not-stop-a-fix",
        ),
        # The fields of a map's message value are recorded under ``value``, as the fix edits.
        pytest.param(
            ["--select", "TL103"],
            PYTHON_HEAD + 'parameters { key: "a" value: { string_value: 1 } }\n',
            PYTHON_HEAD + 'parameters { key: "a" value: { string_value: "1" } }\n',
            id="the-fix-of-a-string-value-inside-a-map-is-applied",
        ),
        # Renaming platform to backend would give backend twice: the empty one gets the name.
        pytest.param(
            ["--select", "TL301"],
            'name: "m"\nplatform: "python"\nbackend: ""  # set me\n',
            'name: "m"\nbackend: "python"  # set me\n',
            id="an-empty-backend-takes-the-name-that-was-written-as-platform",
        ),
        # ``dimz [ 1 ]`` parses (an unknown field may hold messages); ``dims [ 1 ]`` does not.
        pytest.param(
            ["--unsafe-fixes", "--select", "TL101"],
            PYTHON_HEAD + 'input [ { name: "x" data_type: TYPE_FP32 dimz [ 1 ] } ]\n',
            PYTHON_HEAD + 'input [ { name: "x" data_type: TYPE_FP32 dims: [ 1 ] } ]\n',
            id="a-misspelt-scalar-list-gets-its-colon-with-its-name",
        ),
        # ``max_batch_size: "4"`` then ``4``: the field is given twice before the fix (the
        # first value, not read, leaves the default) and after it; the fix adds no field given
        # twice, and TL107's fix then removes the second, equal value.
        pytest.param(
            [],
            PYTHON_HEAD + 'max_batch_size: "4"\nmax_batch_size: 4\n',
            PYTHON_HEAD + "max_batch_size: 4\n",
            id="a-fix-of-a-first-value-given-twice-is-applied-and-the-same-second-removed",
        ),
    ],
)
def test_a_fix_once_refused_although_right_is_applied(
    argv: list[str], config: str, fixed: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _python_model(tmp_path, config)
    status, _, err = run_cli(["repo", "--fix", *argv], capsys)
    assert (err, status) == ("", 0)
    assert path.read_text() == fixed


def test_a_misspelt_field_is_not_renamed_to_a_singular_field_already_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = 'name: "m"\nbackend: "python"\nmax_batch_size: 4\nmax_batchsize: 8\n'
    config = _python_model(tmp_path, text)
    status, out, err = run_cli(["repo", "--fix", "--unsafe-fixes", "--select", "TL101"], capsys)
    assert (err, status) == ("", 1)
    assert "did you mean 'max_batch_size'?" in out
    assert config.read_text() == text


def test_an_ensemble_s_warmup_with_a_comment_in_its_list_is_removed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The comment inside the list is not one above the field: the removal starts before the
    field, not after that comment in the middle of it."""
    root = ensemble_repository(tmp_path)
    pipe = root / "pipe" / "config.pbtxt"
    warmup = 'model_warmup [\n  # warm up resnet instead\n  { name: "w" batch_size: 1 }\n]\n'
    pipe.write_text(PIPE.replace("max_batch_size: 8\n", "max_batch_size: 8\n" + warmup))
    status, _, err = run_cli(["repo", "--fix", "--select", "TL706"], capsys)
    assert (err, status) == ("", 0)
    assert pipe.read_text() == PIPE


def test_a_bad_value_given_after_a_good_one_gets_no_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Made good, the second ``max_batch_size`` would give the field twice: TL103 offers no
    fix there (not one the verifier would have to refuse)."""
    text = 'name: "m"\nbackend: "python"\nmax_batch_size: 4\nmax_batch_size: "8"\n'
    config = _python_model(tmp_path, text)
    status, out, err = run_cli(["repo", "--fix", "--unsafe-fixes"], capsys)
    assert (err, status) == ("", 1)
    assert config.read_text() == text
    assert (
        "repo/m/config.pbtxt:4:17: TL103 [error] field 'max_batch_size' takes an integer (int32), found \"8\"\n"
        in out
    )
    assert "= help:" not in out


def test_a_misspelt_message_is_not_renamed_where_its_contents_give_a_field_twice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Read for the first time as ``instance_group``, the block would give ``kind`` twice: the
    rename is not offered (not one the verifier would have to refuse)."""
    text = 'name: "m"\nbackend: "python"\ninstance_groups [ { kind: KIND_CPU kind: KIND_GPU } ]\n'
    config = _python_model(tmp_path, text)
    status, out, err = run_cli(["repo", "--fix", "--unsafe-fixes"], capsys)
    assert (err, status) == ("", 1)
    assert config.read_text() == text
    assert "did you mean 'instance_group'?" in out and "= help:" not in out


@pytest.mark.parametrize(
    ("ensembles", "title"),
    [
        (2, 'Set name to "resnet" and rename it in the 2 ensembles that run it ("pipe0", "pipe1")'),
        (4, 'Set name to "resnet" and rename it in the 4 ensembles that run it'),
    ],
)
def test_the_title_of_a_fix_across_files_counts_the_ensembles_and_names_a_few(
    ensembles: int, title: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    root = repository(tmp_path, NAMED)
    for number in range(ensembles):
        name = f"pipe{number}"
        text = PIPE.replace('name: "pipe"', f'name: "{name}"')
        make_tree(root, {f"{name}/1/": None, f"{name}/config.pbtxt": text})
    _, out, _ = run_cli(["repo", "--format", "json"], capsys)
    (finding,) = [f for f in json.loads(out) if f["code"] == "TL201"]
    assert [(f["title"], len(f["edits"])) for f in finding["fixes"]] == [
        (title, 1 + ensembles),
        ('Set name to "resnet" (this model only)', 1),
    ]
