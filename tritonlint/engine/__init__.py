"""The checking engine: the one way every front end checks anything.

* :class:`Workspace` holds a repository (or a loose config file) and an overlay of texts open
  in an editor; :meth:`Workspace.check` re-checks what changed since the last check.
* :func:`lint_paths` checks the paths a user names (the command line's whole job);
  :func:`lint_text` checks a config's text as if it were a file (standard input).
* :class:`LintOptions` says what to report (:func:`options_from_settings`: a settings file's
  with a front end's over them); the engine never reads settings files, prints or touches the
  terminal.
"""

from tritonlint.engine.lint_paths import LintResult, lint_paths, lint_text, workspace_for
from tritonlint.engine.options import LintOptions, options_from_settings
from tritonlint.engine.workspace import CheckResult, Workspace

__all__ = [
    "CheckResult",
    "LintOptions",
    "LintResult",
    "Workspace",
    "lint_paths",
    "lint_text",
    "options_from_settings",
    "workspace_for",
]
