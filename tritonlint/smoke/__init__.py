"""The smoke stage: load a repository's models into one real tritonserver.

* :mod:`~tritonlint.smoke.servers` picks the server (``--server``, ``--docker``, PATH, or the
  embedded Triton 2.51) and runs it
* :mod:`~tritonlint.smoke.runner` loads the models and judges each (:func:`run_smoke`)
* :mod:`~tritonlint.smoke.shard` deals the models out in shares (``--shard I/N``)
* :mod:`~tritonlint.smoke.mapping` maps the server's messages to rules and config lines
* :mod:`~tritonlint.smoke.report`, :mod:`~tritonlint.smoke.options` and
  :mod:`~tritonlint.smoke.command`: the table, the reports, the ``smoke`` command and
  ``check --smoke``

The names below are imported on first use, so that the command line's parser (which needs
only :mod:`~tritonlint.smoke.options`) does not load the server harness. See docs/smoke.md.
"""

from __future__ import annotations

from typing import Any

from tritonlint.lazy_exports import lazy_export

_EXPORTS = {
    "ModelResult": "runner",
    "ModelStatus": "runner",
    "Reporter": "runner",
    "ServerInfo": "runner",
    "SmokeError": "runner",
    "SmokeOptions": "runner",
    "SmokeResult": "runner",
    "run_smoke": "runner",
    "ServerChoice": "servers",
    "ServerKind": "servers",
    "choose_server": "servers",
    "SmokeUsageError": "options",
    "Shard": "shard",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    return lazy_export(__name__, _EXPORTS, name)
