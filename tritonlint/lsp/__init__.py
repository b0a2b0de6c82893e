"""The language server, ``tritonlint lsp``: the engine's findings, fixes and formatter in an
editor, over the Language Server Protocol on standard input and output.

* :mod:`~tritonlint.lsp.positions`: engine places (code points) to LSP positions (UTF-16 by
  default);
* :mod:`~tritonlint.lsp.convert`: findings to LSP diagnostics;
* :mod:`~tritonlint.lsp.projects`: which engine workspace checks a file, with which options;
* :mod:`~tritonlint.lsp.actions`: code actions (fixes, suppressions, fix all);
* :mod:`~tritonlint.lsp.server`: the server and its handlers.

pygls is imported only here, when the server runs.
"""
