"""The ``textDocument/codeAction`` request: the actions of the findings on a range (their
fixes and suppressions), and fixing the whole file, from a check of the current texts. The
actions themselves are made by :mod:`tritonlint.lsp.actions`.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types

from tritonlint.diagnostics import TextEdit
from tritonlint.engine import CheckResult, LintOptions
from tritonlint.fixing import fix_paths
from tritonlint.fixing.verify import fix_refusal
from tritonlint.lsp import actions
from tritonlint.lsp.convert import to_lsp
from tritonlint.lsp.positions import Positions, overlaps
from tritonlint.lsp.projects import Project
from tritonlint.lsp.uris import path_of
from tritonlint.schema.releases import load_schema

if TYPE_CHECKING:
    from tritonlint.lsp.state import TritonLintServer

OPTIONS = types.CodeActionOptions(
    code_action_kinds=[types.CodeActionKind.QuickFix, actions.FIX_ALL]
)


async def code_actions(
    ls: TritonLintServer, params: types.CodeActionParams
) -> list[types.CodeAction]:
    """The code actions on ``params.range``, from a check of the current texts (one made
    for the request: what was last published may be older than an edit of another file
    that a fix also edits)."""
    path = path_of(params.text_document.uri)
    if path is None:
        return []
    project = ls.projects.for_file(path)
    result = await ls.check_now(project)
    if result is None:
        return []  # edited all along: the next request gets actions for the newest text
    ls.publish_later(project, result)
    found = _finding_actions(ls, params, project, result, path)
    if _wants_fix_all(params.context) and _fixable(ls, project, result, path):
        texts = ls.open_texts
        options = project.workspace.options
        changed = await ls.run_current(
            project, lambda: partial(_fixed_files, path, options, texts())
        )
        fix_all = actions.fix_all(changed or {}, ls.encoding, ls.uri_of)
        if fix_all is not None:
            found.append(fix_all)
    unique: dict[str, types.CodeAction] = {}
    for action in found:  # one "Disable TL201 ..." for two TL201 findings on a line
        unique.setdefault(action.title, action)
    return list(unique.values())


def _finding_actions(
    ls: TritonLintServer,
    params: types.CodeActionParams,
    project: Project,
    result: CheckResult,
    path: Path,
) -> list[types.CodeAction]:
    """The quick fixes and suppressions of the findings on ``params.range``."""
    only = params.context.only
    if only is not None and not any(
        types.CodeActionKind.QuickFix.value.startswith(k) for k in only
    ):
        return []
    uri = params.text_document.uri
    text = project.workspace.text(path) or ""
    positions = ls.positions(project)
    own = positions(path) or Positions(text, ls.encoding)
    found: list[types.CodeAction] = []
    schema = load_schema(project.workspace.options.triton_version)

    def refusal(by_file: dict[Path, list[TextEdit]]) -> str | None:
        return fix_refusal(by_file, project.workspace.document, schema)

    renames = actions.can_rename_files(ls.client_capabilities)

    for diagnostic in ls.findings_on(project, result, path):
        shown = (diagnostic, to_lsp(diagnostic, path, positions, ls.related_file(project)))
        if not overlaps(shown[1].range, params.range):
            continue
        found.extend(actions.quick_fixes(shown, positions, ls.uri_of, refusal, renames))
        if diagnostic.span is not None:
            found.append(actions.disable_line(shown, text, own, uri))
        found.append(actions.disable_file(shown, text, uri))
    return found


def _wants_fix_all(context: types.CodeActionContext) -> bool:
    """Whether to work out "fix all": asked for by its kind, or all actions asked for by
    the user (not the editor's own automatic asking, as the cursor moves)."""
    if context.only is not None:
        return any(actions.FIX_ALL.startswith(kind) for kind in context.only)
    return context.trigger_kind != types.CodeActionTriggerKind.Automatic


def _fixable(ls: TritonLintServer, project: Project, result: CheckResult, path: Path) -> bool:
    """Whether a finding of the models shown on ``path`` has a safe fix (else the fixer
    would change nothing)."""
    repository = project.workspace.repository
    models = [repository.by_name[name] for name in ls.models_showing(project, path)]
    return any(
        diagnostic.fix_to_apply(unsafe=False) is not None
        for model in models
        for diagnostic in result.by_model.get(model.path, [])
    )


def _fixed_files(
    path: Path, options: LintOptions, texts: dict[Path, str]
) -> dict[Path, tuple[str, str]]:
    """What ``tritonlint --fix path`` changes, with ``texts`` in place of those files."""
    return fix_paths([path], options, texts=texts).changed


def register(server: TritonLintServer) -> None:
    """Serve code actions on ``server``."""
    server.feature(types.TEXT_DOCUMENT_CODE_ACTION, OPTIONS)(code_actions)
