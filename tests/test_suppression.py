"""Inline suppressions: ``# tritonlint: disable=...`` and ``disable-file=...`` comments."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import ONNX_MODEL, assert_fix_resolves, codes_at, lint, make_tree, model, only

from tritonlint.cli import main
from tritonlint.diagnostics import Applicability, Fix, TextEdit
from tritonlint.engine import LintResult
from tritonlint.span import Span

CONFIG = ONNX_MODEL["config.pbtxt"]
assert isinstance(CONFIG, str)
#: An input declared a second time (TL409 at column 17), after CONFIG (5 lines).
DUPLICATE = 'input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]'


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def lint_config(workdir: Path, text: str, after: str = "", **options: object) -> LintResult:
    """Lint ``models/m`` whose config.pbtxt is ``text``, a valid ONNX config, then ``after``."""
    config = text + CONFIG + after
    make_tree(workdir / "models", {**model("m", ONNX_MODEL), "m/config.pbtxt": config})
    return lint(workdir / "models" / "m", **options)


# --- What a suppression silences --------------------------------------------------------------


def test_a_trailing_comment_silences_its_own_line(workdir: Path) -> None:
    assert codes_at(lint_config(workdir, 'name: "other"\n')) == [("TL201", 1, 7)]
    result = lint_config(workdir, 'name: "other"  # tritonlint: disable=TL201\n')
    assert codes_at(result) == []


def test_a_comment_on_its_own_line_silences_the_next_line(workdir: Path) -> None:
    text = '# tritonlint: disable=TL201\nname: "other"\n'
    assert codes_at(lint_config(workdir, text)) == []


def test_blank_lines_and_comments_between_are_passed_over(workdir: Path) -> None:
    text = "# tritonlint: disable=TL201\n\n# the old name, kept for clients\n" + 'name: "other"\n'
    assert codes_at(lint_config(workdir, text)) == []


@pytest.mark.parametrize("code", ["TL201", "tl201", "TL2", "TL20", "name-mismatch"])
def test_codes_prefixes_and_names(workdir: Path, code: str) -> None:
    result = lint_config(workdir, f'name: "other"  # tritonlint: disable={code}\n')
    assert codes_at(result) == []


def test_only_the_named_codes_on_only_that_line(workdir: Path) -> None:
    text = 'name: "other"  # tritonlint: disable=TL409\n'  # line 1: TL201, not TL409
    after = f"{DUPLICATE}  # tritonlint: disable=TL409\n{DUPLICATE}\n"  # lines 7 and 8
    assert codes_at(lint_config(workdir, 'name: "other"\n', f"{DUPLICATE}\n{DUPLICATE}\n")) == [
        ("TL201", 1, 7),
        ("TL409", 7, 17),
        ("TL409", 8, 17),
    ]
    result = lint_config(workdir, text, after)
    assert codes_at(result) == [("TL201", 1, 7), ("TL020", 1, 16), ("TL409", 8, 17)]


def test_several_codes_in_one_comment(workdir: Path) -> None:
    after = f'name: "other" {DUPLICATE}  # tritonlint: disable=TL409, TL201\n'
    assert [c for c, *_ in codes_at(lint_config(workdir, "", 'name: "other" ' + DUPLICATE))] == [
        "TL201",
        "TL409",
    ]
    assert codes_at(lint_config(workdir, "", after)) == []


def test_disable_file_anywhere_silences_the_whole_file(workdir: Path) -> None:
    text, after = 'name: "other"\n', f"{DUPLICATE}\n{DUPLICATE}\n"
    assert [c for c, *_ in codes_at(lint_config(workdir, text, after))] == [
        "TL201",
        "TL409",
        "TL409",
    ]
    result = lint_config(workdir, text, after + "# tritonlint: disable-file=TL409\n")
    assert codes_at(result) == [("TL201", 1, 7)]
    text = "# tritonlint: disable-file=TL4,name-mismatch\n" + 'name: "other"\n'
    assert codes_at(lint_config(workdir, text, after)) == []


def test_folder_findings_only_by_disable_file_of_the_model(workdir: Path) -> None:
    def lint_unversioned(comment: str) -> LintResult:
        make_tree(workdir / "models", {"noversion/config.pbtxt": comment + CONFIG})
        return lint(workdir / "models" / "noversion")

    assert codes_at(lint_unversioned("")) == [("TL212", None, None)]
    assert codes_at(lint_unversioned("# tritonlint: disable-file=TL212\n")) == []
    # A line suppression does not reach a finding about the folder; it is reported unused.
    result = lint_unversioned("# tritonlint: disable=TL212\n")
    assert codes_at(result) == [("TL212", None, None), ("TL020", 1, 1)]


# --- Unused suppressions ----------------------------------------------------------------------


def test_an_unused_suppression_is_reported_at_the_comment(workdir: Path) -> None:
    result = lint_config(workdir, "max_batch_size: 8  # tritonlint: disable=TL101\n")
    unused = only(result, "TL020")
    assert unused.span is not None
    assert (unused.span.line, unused.span.column) == (1, 20)
    assert unused.severity.value == "warning"
    assert unused.message == (
        "'tritonlint: disable=TL101' suppresses nothing: there is no TL101 finding on line 1; "
        "remove it"
    )
    assert [c for c, *_ in codes_at(result)] == ["TL020", "TL107"]


def test_only_the_unused_code_of_a_comment_is_reported(workdir: Path) -> None:
    result = lint_config(workdir, 'name: "other"  # tritonlint: disable=TL201,TL301\n')
    assert codes_at(result) == [("TL020", 1, 16)]
    assert "no TL301 finding on line 1" in only(result, "TL020").message


@pytest.mark.parametrize(
    ("text", "fix", "fixed"),
    [
        (
            'name: "m"  # tritonlint: disable=TL201\n',
            Fix(
                "Remove the unused suppression",
                (TextEdit(Span(1, 10, 1, 39, 9, 38), ""),),
                Applicability.SAFE,
            ),
            'name: "m"\n',
        ),
        (
            "# tritonlint: disable-file=TL404\n",
            Fix(
                "Remove the unused suppression",
                (TextEdit(Span(1, 1, 2, 1, 0, 33), ""),),
                Applicability.SAFE,
            ),
            "",
        ),
        (
            'name: "other"  # tritonlint: disable=TL201,TL301\n',
            Fix(
                "Remove TL301 from the suppression",
                (TextEdit(Span(1, 38, 1, 49, 37, 48), "TL201"),),
                Applicability.SAFE,
            ),
            'name: "other"  # tritonlint: disable=TL201\n',
        ),
        (
            # What else the comment says stays.
            'name: "m"  # legacy, tritonlint: disable=TL201\n',
            Fix(
                "Remove the unused suppression",
                (TextEdit(Span(1, 22, 1, 47, 21, 46), ""),),
                Applicability.SAFE,
            ),
            'name: "m"  # legacy, \n',
        ),
        (
            # TL219 does not run when one model is linted: it is not taken for unused.
            'name: "m"  # tritonlint: disable=TL201,TL219\n',
            Fix(
                "Remove TL201 from the suppression",
                (TextEdit(Span(1, 34, 1, 45, 33, 44), "TL219"),),
                Applicability.SAFE,
            ),
            'name: "m"  # tritonlint: disable=TL219\n',
        ),
    ],
    ids=["trailing", "own-line", "one-code", "with-other-text", "code-of-a-rule-not-run"],
)
def test_fix_of_an_unused_suppression(workdir: Path, text: str, fix: Fix, fixed: str) -> None:
    found = only(lint_config(workdir, text), "TL020")
    assert found.fixes == (fix,)
    assert assert_fix_resolves(found, workdir / "models" / "m") == fixed + CONFIG


@pytest.mark.parametrize(
    ("text", "fixed"),
    [
        ('name: "m"  # tritonlint: disable=TL201\r\n', 'name: "m"\r\n'),
        ('# tritonlint: disable=TL201\r\nname: "m"\r\n', 'name: "m"\r\n'),
    ],
)
def test_fix_of_an_unused_suppression_keeps_windows_line_endings(
    workdir: Path, text: str, fixed: str
) -> None:
    found = only(lint_config(workdir, text), "TL020")
    assert assert_fix_resolves(found, workdir / "models" / "m") == fixed + CONFIG


def test_every_unused_code_of_a_comment_has_the_one_fix_that_removes_it(workdir: Path) -> None:
    result = lint_config(workdir, 'name: "m"  # tritonlint: disable=TL201,TL301\n')
    first, second = (d for d in result.diagnostics if d.code == "TL020")
    assert first.fixes == second.fixes
    assert [fix.title for fix in first.fixes] == ["Remove the unused suppression"]


def test_an_unused_disable_file(workdir: Path) -> None:
    result = lint_config(workdir, "# tritonlint: disable-file=TL404\n")
    assert codes_at(result) == [("TL020", 1, 1)]
    assert "no TL404 finding in this file or its model folder" in only(result, "TL020").message


def test_a_code_no_rule_has(workdir: Path) -> None:
    result = lint_config(workdir, 'name: "other"  # tritonlint: disable=TL999\n')
    assert codes_at(result) == [("TL201", 1, 7), ("TL020", 1, 16)]
    assert "no rule code, prefix or name matches 'TL999'" in only(result, "TL020").message


def test_a_suppression_at_the_end_of_the_file_has_no_line(workdir: Path) -> None:
    make_tree(workdir / "models", {**model("m", ONNX_MODEL)})
    path = workdir / "models" / "m" / "config.pbtxt"
    path.write_text(CONFIG + "# tritonlint: disable=TL201\n", encoding="utf-8")
    result = lint(workdir / "models" / "m")
    assert codes_at(result) == [("TL020", 6, 1)]
    assert "no line with content follows" in only(result, "TL020").message


@pytest.mark.parametrize(
    "comment",
    ["# tritonlint: disable TL201", "# tritonlint: disable-next=TL201", "# tritonlint: ignore"],
)
def test_a_comment_to_tritonlint_that_is_not_a_suppression(workdir: Path, comment: str) -> None:
    result = lint_config(workdir, f'name: "other"  {comment}\n')
    assert codes_at(result) == [("TL201", 1, 7), ("TL020", 1, 16)]
    assert "is not a suppression tritonlint understands" in only(result, "TL020").message


def test_other_comments_are_left_alone(workdir: Path) -> None:
    text = '# tritonlint checks this file in CI\nname: "other"  # see tritonlint docs\n'
    assert codes_at(lint_config(workdir, text)) == [("TL201", 2, 7)]


def test_naming_tl020_keeps_an_unused_suppression_quiet(workdir: Path) -> None:
    text = "max_batch_size: 8  # tritonlint: disable=TL201,TL020\n"
    assert [c for c, *_ in codes_at(lint_config(workdir, text))] == ["TL107"]
    text = "# tritonlint: disable-file=unused-suppression\n# tritonlint: disable=TL201\n"
    assert codes_at(lint_config(workdir, text)) == []


# --- Comments only ----------------------------------------------------------------------------


def test_a_suppression_inside_a_string_is_not_a_suppression(workdir: Path) -> None:
    make_tree(workdir / "models", {**model("m", ONNX_MODEL)})
    path = workdir / "models" / "m" / "config.pbtxt"
    path.write_text('name: "# tritonlint: disable=TL201"\n' + CONFIG, encoding="utf-8")
    result = lint(workdir / "models" / "m")
    assert codes_at(result) == [("TL201", 1, 7)]


def test_a_suppression_in_a_file_with_syntax_errors(workdir: Path) -> None:
    text = 'name: "other"  # tritonlint: disable=TL201\ninput [ { name: "X" \n'
    result = lint_config(workdir, text)
    assert "TL201" not in [c for c, *_ in codes_at(result)]
    assert "TL010" in [c for c, *_ in codes_at(result)]


# --- Together with selection and the command line ---------------------------------------------


def test_suppressions_apply_before_select_and_ignore(workdir: Path) -> None:
    text = 'name: "other"  # tritonlint: disable=TL201\n'
    # TL201 is not selected, yet its suppression is used: no unused-suppression finding.
    assert codes_at(lint_config(workdir, text, select=("TL0", "TL1"))) == []
    text = "max_batch_size: 8  # tritonlint: disable=TL101\n"
    assert codes_at(lint_config(workdir, text, select=("TL1",))) == [("TL107", 3, 1)]
    assert codes_at(lint_config(workdir, text, ignore=("TL020",))) == [("TL107", 3, 1)]
    assert [c for c, *_ in codes_at(lint_config(workdir, text))] == ["TL020", "TL107"]


def test_in_a_config_with_errors_suppressions_of_content_checks_are_not_unused(
    workdir: Path,
) -> None:
    # The duplicate max_batch_size (TL107) stops the checks of the content, TL201 among them:
    # whether the suppression is needed cannot be known, so it is not reported.
    text = 'name: "other"  # tritonlint: disable=TL201\nmax_batch_size: 8\n'
    assert codes_at(lint_config(workdir, text)) == [("TL107", 4, 1)]


def test_models_that_are_only_context_report_no_unused_suppression(workdir: Path) -> None:
    make_tree(
        workdir / "models",
        {
            **model("m", ONNX_MODEL),
            **model("other", ONNX_MODEL),
            "other/config.pbtxt": "# tritonlint: disable-file=TL101\n" + CONFIG,
        },
    )
    assert codes_at(lint(workdir / "models" / "m")) == []
    assert codes_at(lint(workdir / "models")) == [("TL020", 1, 1)]


def test_the_command_line_reports_suppressions(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_tree(
        workdir / "models",
        {
            **model("m", ONNX_MODEL),
            "m/config.pbtxt": 'name: "other"  # tritonlint: disable=TL201\n'
            + CONFIG
            + "# tritonlint: disable=TL202\n"
            + "parameters { key: 'a' value: { string_value: 'b' } }\n",
        },
    )
    status = main(["models", "--format", "json"])
    findings = json.loads(capsys.readouterr().out)
    assert status == 0  # warnings only
    assert [(f["code"], f["severity"], f["line"], f["column"]) for f in findings] == [
        ("TL020", "warning", 7, 1),
    ]
    assert main(["models", "--format", "json", "--fail-on", "warning"]) == 1
    capsys.readouterr()


# --- Suppressions written in a form tritonlint does not read -------------------------------


@pytest.mark.parametrize(
    ("comment", "meant"),
    [
        ("# tritonlint disable=TL201", "# tritonlint: disable=TL201"),
        ("# tritonlint:disable TL201", "# tritonlint: disable=TL201"),
        ("# tritonlint: disable TL201", "# tritonlint: disable=TL201"),
        ("# tritonlint: disabled=TL201", "# tritonlint: disable=TL201"),
        ("# triton-lint: disable=TL201", "# tritonlint: disable=TL201"),
        ("# TritonLint: disable=name-mismatch", "# tritonlint: disable=name-mismatch"),
        ("# tritonlint: ignore = TL2", "# tritonlint: disable=TL2"),
        ("# tritonlint: ignore-file=TL201", "# tritonlint: disable-file=TL201"),
        ("# noqa: TL201", "# tritonlint: disable=TL201"),
    ],
)
def test_a_suppression_written_wrong_is_reported_with_the_form_that_works(
    workdir: Path, comment: str, meant: str
) -> None:
    result = lint_config(workdir, f'name: "other"  {comment}\n')
    assert codes_at(result) == [("TL201", 1, 7), ("TL020", 1, 16)]
    found = only(result, "TL020")
    assert found.message == (
        f"{comment!r} is not a suppression tritonlint understands, so it silences nothing; "
        f"write {meant!r}"
    )
    end = 16 + len(comment)
    edit = TextEdit(Span(1, 16, 1, end, 15, 15 + len(comment)), meant)
    assert found.fixes == (Fix(f"Write {meant!r}", (edit,), Applicability.SAFE),)
    # The fix makes it a suppression that silences the finding.
    assert assert_fix_resolves(found, workdir / "models" / "m").startswith(
        f'name: "other"  {meant}\n'
    )
    assert codes_at(lint(workdir / "models" / "m")) == []


@pytest.mark.parametrize(
    "comment",
    [
        "# tritonlint ignores TL505 unless it is selected",
        "# run tritonlint: disable nothing here",
        "# noqa",
        "# noqa: E501",
    ],
)
def test_comments_that_mention_tritonlint_are_not_taken_for_suppressions(
    workdir: Path, comment: str
) -> None:
    result = lint_config(workdir, f'name: "other"  {comment}\n')
    assert codes_at(result) == [("TL201", 1, 7)]
