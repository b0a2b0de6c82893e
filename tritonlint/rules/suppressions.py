"""Suppressions pack: `# tritonlint: disable=...` comments, read by tritonlint/suppression.py."""

from tritonlint.diagnostics import Applicability, Severity
from tritonlint.rules.base import FixAvailability, declare, fixable
from tritonlint.stage_rules import StageRule

UNUSED_SUPPRESSION = declare(
    "TL020",
    StageRule.UNUSED_SUPPRESSION,
    Severity.WARNING,
    fix=fixable(FixAvailability.SOMETIMES, Applicability.SAFE),
    summary="a suppression comment that suppresses nothing, or one written in a form not read",
    explanation="""
    `# tritonlint: disable=CODE` silences findings of CODE on its own line (a comment after
    a field) or on the next line with content (a comment on a line of its own);
    `# tritonlint: disable-file=CODE` silences them in the whole file and, for findings
    about folders, in the model's folder. A code may be a rule code (`TL201`), a code prefix
    (`TL2`) or a rule name (`name-mismatch`). A suppression that matches no finding is stale:
    the problem was fixed, or the comment is on the wrong line, or the code is mistyped. It
    would silently hide the next, unrelated finding of that code, so remove it. A comment
    that starts with `tritonlint:` but is not a suppression tritonlint understands is
    reported too, and so is a suppression of a rule written in a form tritonlint does not
    read: `# tritonlint disable=TL101` (no colon), `# tritonlint:disable TL101` (no `=`),
    `# tritonlint: disabled=...`, `# triton-lint: disable=...`, `# tritonlint: ignore=...`,
    `# noqa: TL101`; a safe fix writes it as `# tritonlint: disable=TL101`. (Other comments
    that mention tritonlint are left alone.) To keep a suppression that is unused on
    purpose, add `TL020` to it. A safe fix removes the unused codes, or the whole comment
    when none is used.
    """,
    bad="""
    name: "resnet50"   # tritonlint: disable=TL201   (the name matches the folder now)
    platform: "onnxruntime_onnx"
    """,
    good="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    """,
)
