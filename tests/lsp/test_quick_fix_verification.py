"""A quick fix is offered only where the fixer would take it: its edits go through the same
verifier as ``tritonlint --fix`` (``tritonlint.fixing.verify``), so a fix that would break the
file is never one click away."""

from __future__ import annotations

from pathlib import Path

from helpers import make_tree
from lsprotocol import types

from tritonlint.diagnostics import Applicability, Fix, TextEdit
from tritonlint.engine import Workspace
from tritonlint.fixing.verify import fix_refusal
from tritonlint.lsp import actions
from tritonlint.lsp.convert import to_lsp
from tritonlint.lsp.positions import Positions
from tritonlint.schema.releases import load_schema

CONFIG = 'name: "m"\nbackend: "python"\nmax_batch_size: -1\n'


def test_a_fix_that_would_break_the_file_is_not_offered(tmp_path: Path) -> None:
    repo = make_tree(
        tmp_path / "repo", {"m/1/model.py": "", "m/config.pbtxt": CONFIG}, verbatim=True
    )
    workspace = Workspace(repo)
    (finding,) = (d for d in workspace.check().diagnostics if d.code == "TL501")
    assert finding.span is not None
    value = finding.span
    keeps = Fix("Write 0", (TextEdit(value, "0"),), Applicability.SAFE)
    breaks = Fix("Write { 0", (TextEdit(value, "{ 0"),), Applicability.SAFE)
    duplicates = Fix(
        "Write 0 and a name",
        (TextEdit(value, '0\nname: "n"'),),
        Applicability.SAFE,
    )
    finding = finding._replace(fixes=(keeps, breaks, duplicates))
    schema = load_schema(workspace.options.triton_version)

    def positions(path: Path) -> Positions | None:
        text = workspace.text(path)
        return None if text is None else Positions(text, types.PositionEncodingKind.Utf16)

    offered = actions.quick_fixes(
        (finding, to_lsp(finding, finding.path, positions)),
        positions,
        lambda path: path.as_uri(),
        lambda by_file: fix_refusal(by_file, workspace.document, schema),
    )
    assert [action.title for action in offered] == ["Write 0"]
    assert fix_refusal(breaks.by_file(finding.path), workspace.document, schema) == (
        "the fixed text would not parse (3:19: expected one of '[', '}', identifier; found '0'"
        " (the '{' at line 3, column 17 is not closed))"
    )
    assert fix_refusal(duplicates.by_file(finding.path), workspace.document, schema) == (
        "the fixed text would give a field twice (4:1: non-repeated field 'name' is specified"
        " more than once)"
    )
