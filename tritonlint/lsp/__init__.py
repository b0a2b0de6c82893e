"""The language server, ``tritonlint lsp``: the engine's findings, fixes and formatter in an
editor, over the Language Server Protocol on standard input and output.

* :mod:`~tritonlint.lsp.positions`: engine places (code points) to LSP positions (UTF-16 by
  default);
* :mod:`~tritonlint.lsp.convert`: findings to LSP diagnostics;
* :mod:`~tritonlint.lsp.projects`: which engine workspace checks a file, with which options;
* :mod:`~tritonlint.lsp.state`: the server's state: its engine workspaces, checks, and
  diagnostics published or pulled;
* :mod:`~tritonlint.lsp.handlers`: the life cycle, documents and pulled diagnostics;
* :mod:`~tritonlint.lsp.code_actions` (the request) and :mod:`~tritonlint.lsp.actions` (the
  actions: fixes, suppressions, fix all);
* :mod:`~tritonlint.lsp.features` (completion, hover, navigation, ...),
  :mod:`~tritonlint.lsp.formatting` and :mod:`~tritonlint.lsp.custom_requests`: the editor
  features;
* :mod:`~tritonlint.lsp.code_lens` (which ensembles run a model, and what an ensemble runs,
  from :mod:`~tritonlint.lsp.ensemble_uses`) and :mod:`~tritonlint.lsp.graph_request` (the
  ensemble graph as data, ``tritonlint/graph``);
* :mod:`~tritonlint.lsp.server`: the server assembled, every handler registered on it;
* :mod:`~tritonlint.lsp.pygls_adapter`: every use of pygls' private members
  (docs/pygls-notes.md).

pygls is imported only here, when the server runs.
"""
