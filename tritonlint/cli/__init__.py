"""The ``tritonlint`` command.

``tritonlint PATH...`` (or ``tritonlint check PATH...``) lints (no path: the settings'
repositories, else the current folder; ``-``: standard input); ``tritonlint rules`` lists the
rules; ``tritonlint explain CODE`` documents one. Exit status of ``check``: 0 when nothing at
or above the ``--fail-on`` severity (default: error) was found, 1 when something was (0
always with ``--exit-zero``), 2 for a usage error, a bad settings file or an internal failure.

Each command imports what it uses when it runs: ``--version``, ``--help`` and argument errors
load no rule, and a lint whose report goes to a pipe or a file loads neither rich nor the
other report formats.

The modules, by job: :mod:`~tritonlint.cli.dispatch` (the parser, and :func:`main`, which
runs a command and turns a :class:`~tritonlint.usage.UsageError` into exit status 2);
:mod:`~tritonlint.cli.check_options`, :mod:`~tritonlint.cli.check`,
:mod:`~tritonlint.cli.fix_output` and :mod:`~tritonlint.cli.check_report` (``check``: its
options, its run, what ``--fix`` and ``--diff`` print, its report);
:mod:`~tritonlint.cli.report_merge` (``report merge``); :mod:`~tritonlint.cli.rules_explain`
(``rules`` and ``explain``); :mod:`~tritonlint.cli.shell_completion` (``completion``'s
scripts). ``format`` and ``smoke`` are defined and run by their own packages.
"""

from tritonlint.cli.dispatch import main

__all__ = ["main"]
